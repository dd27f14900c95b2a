"""Money and hold % for the report pages: dollars from integer cents (no float on the way),
hold % with two decimals."""

from __future__ import annotations

from decimal import Decimal

from django import template

from core.money import dollars
from tables import games

register = template.Library()


def percent(value: Decimal | str | None) -> str:
    """A hold % with two decimals, or a dash when there was no handle."""
    if value is None or value == "":
        return "—"
    return f"{Decimal(value).quantize(Decimal('0.01'))}%"


def wager_label(wager: str) -> str:
    """A wager in the games' words ("Side Bet")."""
    return games.wager_label(wager)


def wager_sort_key(wager: str) -> tuple[int, str]:
    """The hold report's columns in the games' own order (`report_wagers`), others after."""
    order = games.report_wagers()
    return (order.index(wager) if wager in order else len(order), wager)


register.filter("dollars", dollars)
register.filter("percent", percent)
register.filter("wager_label", wager_label)


@register.filter
def get_item(mapping: dict[str, int], key: str) -> int:
    """A wager's handle from a row's `handle_by_wager` (0 when that wager was not played)."""
    return mapping.get(key, 0)


@register.filter
def thousands(count: int | None) -> str:
    """A count with thousands separators (1234567 -> "1,234,567"); a dash for none."""
    return "—" if count is None else f"{int(count):,}"
