"""`manage.py hold_report --day YYYY-MM-DD [--table NAME] --json`: a gaming day's hold per table
(rounds, handle and win in cents, hold %), from the summaries the dashboard shows. Stale
summaries of that day are rebuilt first, so the figures agree with the day's settlements.
Beside the actual win: the theoretical win and its 95% band (`theoretical_win_cents`,
`band_cents` [low, high], from the paytable versions' figures under `band_strategy`, a poker
table's from its expected rake per hand, and
`outside_band` "low"/"high" when the actual left it; see reports.theory).
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
from reports.theory import Theory, rake_theory_by_table, theory_by_table
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
        theory = theory_by_table(day=day, table=options.get("table"))
        for key, part in rake_theory_by_table(day=day, table=options.get("table")).items():
            theory.setdefault(key, Theory(strategy=part.strategy)).add(part)
        tables = []
        total_theory = Theory()
        for r in rows:
            t = theory.get((r["table__name"], r["game"]), Theory())
            total_theory.add(t)
            tables.append(self.row(r, t))
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
                **total_theory.as_data(),
                "outside_band": total_theory.outside(total["win_cents"]),
                **(_accounting(total) if rows else {}),
            },
        }
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(f"Gaming day {day}")
        self.stdout.write(
            f"{'table':<12}{'rounds':>8}{'handle':>14}{'win':>14}{'hold %':>9}"
            f"{'theoretical':>14}  95% band ({total_theory.strategy} strategy)"
        )
        for t in tables + [{"table": "TOTAL", **report["total"]}]:
            band = t["band_cents"]
            theo = t["theoretical_win_cents"]
            self.stdout.write(
                f"{t['table']:<12}{t['rounds']:>8}{format_cents(t['handle_cents']):>14}"
                f"{format_cents(t['win_cents']):>14}{t['hold_percent'] or '-':>9}"
                f"{'-' if theo is None else format_cents(theo):>14}  "
                + (
                    "-"
                    if band is None
                    else f"{format_cents(band[0])} to {format_cents(band[1])}"
                    + (f" OUTSIDE ({t['outside_band']})" if t["outside_band"] else "")
                )
            )

    @staticmethod
    def row(r: dict[str, Any], theory: Theory) -> dict[str, Any]:
        return {
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
            **theory.as_data(),
            "outside_band": theory.outside(r["win_cents"]),
            **_accounting(r),
        }


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
