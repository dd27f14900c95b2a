"""`manage.py hold_report --day YYYY-MM-DD [--table NAME] --json`: a gaming day's hold per table
(rounds, handle and win in cents, hold %), from the summaries the dashboard shows. Stale
summaries of that day are rebuilt first, so the figures agree with the day's settlements.
Each table (and the total) also carries the count (docs/accounting.md): drop, fills, credits,
the count's win, hold % of the drop, the variance against the hands' win (`null` until the
day's counts are complete) and the drop expected from the buy-ins."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from reports import reporting
from reports.models import StaleReport
from reports.selectors import hold_rows, totals
from tables.engine.money import format_cents


class Command(BaseCommand):
    help = "Print a gaming day's hold report per table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", required=True, help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--table", help="one table's name")
        parser.add_argument(
            "--json", action="store_true", help="print JSON (the default is a text table)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            day = date.fromisoformat(options["day"])
        except ValueError:
            raise CommandError(
                f"--day must be a date like 2026-11-21, not {options['day']!r}"
            ) from None
        for table_id in StaleReport.objects.filter(gaming_day=day).values_list(
            "table_id", flat=True
        ):
            reporting.rebuild(day, table_id)
        rows = hold_rows(start=day, end=day, by="table", table=options.get("table"))
        if options.get("table") and not rows:
            from tables.models import Table

            if not Table.objects.filter(name=options["table"]).exists():
                raise CommandError(f"no table named {options['table']!r}")
        tables = [
            {
                "table": r["table__name"],
                "game": r["game"],
                "rounds": r["rounds"],
                "hands": r["hands"],
                "handle_cents": r["handle_cents"],
                "win_cents": r["win_cents"],
                "hold_percent": None if r["hold_percent"] is None else str(r["hold_percent"]),
                "handle_by_wager_cents": r["handle_by_wager"],
                "voids": r["voids"],
                "progressive_contributions_cents": r["progressive_contributions_cents"],
                "jackpots_paid_cents": r["jackpots_paid_cents"],
                **_accounting(r),
            }
            for r in rows
        ]
        total = totals(rows)
        report = {
            "gaming_day": day.isoformat(),
            "tables": tables,
            "total": {
                "rounds": total["rounds"],
                "handle_cents": total["handle_cents"],
                "win_cents": total["win_cents"],
                "hold_percent": None
                if total["hold_percent"] is None
                else str(total["hold_percent"]),
                **(_accounting(total) if rows else {}),
            },
        }
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(f"Gaming day {day}")
        self.stdout.write(f"{'table':<12}{'rounds':>8}{'handle':>14}{'win':>14}{'hold %':>9}")
        for t in tables + [{"table": "TOTAL", **report["total"]}]:
            self.stdout.write(
                f"{t['table']:<12}{t['rounds']:>8}{format_cents(t['handle_cents']):>14}"
                f"{format_cents(t['win_cents']):>14}{t['hold_percent'] or '-':>9}"
            )


def _accounting(row: dict[str, Any]) -> dict[str, Any]:
    """The count's columns of a row, as JSON (hold % of the drop as a decimal string)."""
    hold = row["hold_percent_drop"]
    return {
        "drop_cents": row["drop_cents"],
        "fills_cents": row["fills_cents"],
        "credits_cents": row["credits_cents"],
        "count_win_cents": row["count_win_cents"],
        "hold_percent_drop": None if hold is None else str(hold),
        "variance_cents": row["variance_cents"],
        "expected_drop_cents": row["expected_drop_cents"],
    }
