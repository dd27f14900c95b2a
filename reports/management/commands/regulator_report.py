"""`manage.py regulator_report --kind master|exceptions --day YYYY-MM-DD [--json]`: the figures
the regulator's forms print (docs/regulator.md): the day's Master Game Report per table and
shift (its state, who signed it, each figure as computed or as signed final, the adjusted
figures beside them) or the day's exceptions. A day with no data prints an empty form."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.money import dollars
from reports import mgr


class Command(BaseCommand):
    help = "Print a gaming day's Master Game Report or its exceptions report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", required=True, choices=["master", "exceptions"])
        parser.add_argument("--day", required=True, help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="print JSON (default: text)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = date.fromisoformat(options["day"])
        except ValueError:
            raise CommandError(
                f"--day must be a date like 2026-11-21, not {options['day']!r}"
            ) from None
        if options["kind"] == "master":
            report = mgr.master_report(day)
        else:
            report = mgr.exceptions_report(day)
        if options.get("json"):
            self.stdout.write(json.dumps(mgr.plain(report), indent=2))
            return
        if options["kind"] == "exceptions":
            for section, items in report.items():
                if isinstance(items, list):
                    self.stdout.write(f"{section.replace('_', ' ')}: {len(items)}")
            return
        self.stdout.write(f"Master Game Report, gaming day {day:%Y-%m-%d}: {report['state']}")
        for row in report["rows"]:
            f = row["adjusted"]
            self.stdout.write(
                f"{row['table']:<10} {row['shift']}  drop {dollars(f['drop_cents'])}  "
                f"win {dollars(f['win_cents'])}  hold {f['hold_percent'] or '—'}%  "
                f"hands {dollars(f['hands_win_cents'])}  variance {dollars(f['variance_cents'])}"
            )
