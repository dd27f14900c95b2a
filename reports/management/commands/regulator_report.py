"""`manage.py regulator_report --kind KIND (--day YYYY-MM-DD | --month YYYY-MM) [--table NAME]
[--json]`: the figures a regulator's form prints (docs/regulator.md).

Each kind is one entry of KINDS: a function (day, month, table) -> the form's data as plain
JSON, and one that writes it as text. `statistical`: the statistical report by table and type
of game (reports.statistical); `--month` gives the report ending on the month's last day (or
today's gaming day in the current month). A refused input (a day or month in the future, a
table that did not play) ends with exit status 2 and a message naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ServiceError
from core.money import dollars
from reports import statistical


def _statistical(day: date | None, month: str | None, table: str | None) -> dict[str, Any]:
    if month is not None:
        day = statistical.month_day(month)
    assert day is not None
    data = statistical.as_json(statistical.statistical_report(day=day, table=table))
    if month is not None:
        data["month"] = month
    return data


def _pct(value: str | None) -> str:
    return "n/a" if value is None else f"{value}%"


def _statistical_text(data: dict[str, Any], write: Callable[[str], None]) -> None:
    write(f"Statistical report, gaming day {data['gaming_day']}")
    write(f"Threshold: {data['threshold_points']} points; band: 95%")
    if not data["tables"]:
        write("No play.")
        return
    for heading, rows, name in (
        ("By table", data["tables"], "table"),
        ("By type of game", data["games"], "game_label"),
    ):
        write("")
        write(heading)
        for row in rows:
            write(f"  {row[name]}")
            for period in statistical.PERIODS:
                f = row[period]
                band = f["band_percent"]
                last = f["last_year"]
                write(
                    f"    {statistical.PERIOD_WORDS[period]:<14} drop {dollars(f['drop_cents'])}"
                    f"  win {dollars(f['win_cents'])}  {_pct(f['hold_percent'])}"
                    f"  theoretical {_pct(f['theoretical_percent'])}"
                    f"  band {'n/a' if band is None else f'{band[0]}% to {band[1]}%'}"
                    f"  last year {'none' if last is None else _pct(last['hold_percent'])}"
                    f"{'  FLUCTUATION' if f['fluctuation'] else ''}"
                )


# kind -> (the form's data, its text). Another kind is one more entry.
KINDS: dict[str, tuple[Callable[..., dict[str, Any]], Callable[..., None]]] = {
    "statistical": (_statistical, _statistical_text),
}


class Command(BaseCommand):
    help = "Print a regulator's report."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", required=True, choices=sorted(KINDS))
        when = parser.add_mutually_exclusive_group(required=True)
        when.add_argument("--day", help="the gaming day, YYYY-MM-DD")
        when.add_argument("--month", help="the month, YYYY-MM")
        parser.add_argument("--table", help="one table's name")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        day = None
        if options.get("day"):
            try:
                day = date.fromisoformat(options["day"])
            except ValueError:
                raise CommandError(
                    f"--day must be a date like 2026-11-21, not {options['day']!r}", returncode=2
                ) from None
        figures, text = KINDS[options["kind"]]
        try:
            data = figures(day, options.get("month"), options.get("table"))
        except ServiceError as e:
            raise CommandError(e.message, returncode=2) from None
        if options["json"]:
            self.stdout.write(json.dumps(data, indent=2))
        else:
            text(data, self.stdout.write)
