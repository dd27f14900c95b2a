"""`manage.py regulator_report --kind KIND (--day YYYY-MM-DD | --month YYYY-MM) [--table NAME]
[--json]`: the figures the regulator's forms print (docs/regulator.md).

Each kind is one entry of KINDS: a function printing the form for the options given, as JSON or
text. `master`: the day's Master Game Report per table and shift (its state, who signed it,
each figure as computed or as signed final, the adjusted figures beside them); `exceptions`:
the day's exceptions; `statistical`: the statistical report by table and type of game for the
day, the month to date and the year to date (reports.statistical; `--month` gives the report
ending on the month's last day, or today's gaming day in the current month). A day with no data
prints an empty form; a refused input (a day or month in the future, a table that did not
play) ends with a message naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ServiceError
from core.money import dollars
from reports import mgr, statistical

Write = Callable[[str], None]


def _day_only(options: dict[str, Any]) -> date:
    if options.get("day") is None:
        raise CommandError(f"--kind {options['kind']} needs --day (a gaming day)")
    if options.get("table"):
        raise CommandError(f"--kind {options['kind']} covers every table: no --table")
    return options["day"]


def _master(options: dict[str, Any], write: Write) -> None:
    day = _day_only(options)
    report = mgr.master_report(day)
    if options.get("json"):
        write(json.dumps(mgr.plain(report), indent=2))
        return
    write(f"Master Game Report, gaming day {day:%Y-%m-%d}: {report['state']}")
    for row in report["rows"]:
        f = row["adjusted"]
        write(
            f"{row['table']:<10} {row['shift']}  drop {dollars(f['drop_cents'])}  "
            f"win {dollars(f['win_cents'])}  hold {f['hold_percent'] or '—'}%  "
            f"hands {dollars(f['hands_win_cents'])}  variance {dollars(f['variance_cents'])}"
        )


def _exceptions(options: dict[str, Any], write: Write) -> None:
    report = mgr.exceptions_report(_day_only(options))
    if options.get("json"):
        write(json.dumps(mgr.plain(report), indent=2))
        return
    for section, items in report.items():
        if isinstance(items, list):
            write(f"{section.replace('_', ' ')}: {len(items)}")


def _pct(value: str | None) -> str:
    return "n/a" if value is None else f"{value}%"


def _statistical(options: dict[str, Any], write: Write) -> None:
    month = options.get("month")
    day = statistical.month_day(month) if month is not None else options["day"]
    data = statistical.as_json(statistical.statistical_report(day=day, table=options.get("table")))
    if month is not None:
        data["month"] = month
    if options.get("json"):
        write(json.dumps(data, indent=2))
        return
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


# kind -> the function printing its form. Another form is one more entry.
KINDS: dict[str, Callable[[dict[str, Any], Write], None]] = {
    "master": _master,
    "exceptions": _exceptions,
    "statistical": _statistical,
}


class Command(BaseCommand):
    help = "Print a regulator's form: the Master Game Report, the exceptions, the statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", required=True, choices=list(KINDS))
        when = parser.add_mutually_exclusive_group(required=True)
        when.add_argument("--day", help="the gaming day, YYYY-MM-DD")
        when.add_argument("--month", help="the month, YYYY-MM (statistical)")
        parser.add_argument("--table", help="one table's name (statistical)")
        parser.add_argument("--json", action="store_true", help="print JSON (default: text)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("day") is not None:
            try:
                options["day"] = date.fromisoformat(options["day"])
            except ValueError:
                raise CommandError(
                    f"--day must be a date like 2026-11-21, not {options['day']!r}"
                ) from None
        elif options["kind"] != "statistical":
            raise CommandError(f"--kind {options['kind']} needs --day (a gaming day)")
        try:
            KINDS[options["kind"]](options, self.stdout.write)
        except ServiceError as e:
            raise CommandError(e.message) from None
