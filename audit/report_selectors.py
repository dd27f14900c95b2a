"""Reads of the hold reports, by any grouping over a range of gaming days (the dashboard, the
CSV exports and `manage.py hold_report` all read these)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import Sum

from .models import HoldSummary
from .reporting import hold_percent

GROUPS = {
    "table": ["table__name", "game"],
    "game": ["game"],
    "paytable_version": [
        "paytable_version",
        "paytable_version__name",
        "paytable_version__version",
        "game",
    ],
    "dealer": ["dealer__username"],
    "shift": ["shift"],
    "gaming_day": ["gaming_day"],
}
FIGURES = [
    "rounds",
    "hands",
    "handle_cents",
    "win_cents",
    "progressive_contributions_cents",
    "jackpots_paid_cents",
    "voids",
    "voided_handle_cents",
    "corrections",
]


def hold_rows(
    *, start: date, end: date, by: str = "table", table: str | None = None, game: str | None = None
) -> list[dict[str, Any]]:
    """Summed figures from `start` to `end` (inclusive) grouped `by` one of GROUPS, with hold %."""
    qs = HoldSummary.objects.filter(gaming_day__gte=start, gaming_day__lte=end)
    if table:
        qs = qs.filter(table__name=table)
    if game:
        qs = qs.filter(game=game)
    fields = GROUPS[by]
    rows = list(qs.values(*fields).annotate(**{f: Sum(f) for f in FIGURES}).order_by(*fields))
    handle_by_wager = _handle_by_wager(qs, fields)
    for row in rows:
        row["hold_percent"] = hold_percent(row["win_cents"], row["handle_cents"])
        row["handle_by_wager"] = handle_by_wager.get(tuple(row[f] for f in fields), {})
    return rows


def _handle_by_wager(qs: Any, fields: list[str]) -> dict[tuple[Any, ...], dict[str, int]]:
    out: dict[tuple[Any, ...], dict[str, int]] = {}
    for values in qs.values_list(*fields, "handle_by_wager"):
        key, wagers = tuple(values[:-1]), values[-1]
        bucket = out.setdefault(key, {})
        for wager, cents in wagers.items():
            bucket[wager] = bucket.get(wager, 0) + cents
    return out


def totals(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    total = {f: 0 for f in FIGURES}
    for row in rows:
        for f in FIGURES:
            total[f] += row[f] or 0
    total["hold_percent"] = hold_percent(total["win_cents"], total["handle_cents"])
    return total


def periods(day: date) -> dict[str, tuple[date, date]]:
    """The day, month to date and year to date ending on `day`."""
    return {
        "day": (day, day),
        "mtd": (day.replace(day=1), day),
        "ytd": (day.replace(month=1, day=1), day),
    }
