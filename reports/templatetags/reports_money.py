"""Money and hold % for the report pages: dollars from integer cents (no float on the way),
hold % with two decimals."""

from __future__ import annotations

from decimal import Decimal

from django import template

from core.money import dollars
from tables import games

from ..reporting import HOLD_MIN_BASE_CENTS

register = template.Library()


def percent(value: Decimal | str | None) -> str:
    """A hold % with two decimals, or a dash when there was no handle."""
    if value is None or value == "":
        return "—"
    return f"{Decimal(value).quantize(Decimal('0.01'))}%"


def _qualified(value: Decimal | str | None, base_cents: int | None, base: str) -> str:
    if value is None or value == "":
        return "—"
    if base_cents is not None and abs(base_cents) < HOLD_MIN_BASE_CENTS:
        return f"n/a ({base} {dollars(base_cents)})"
    return percent(value)


def hold(value: Decimal | str | None, handle_cents: int | None) -> str:
    """A hold % on its handle: below `HOLD_MIN_BASE_CENTS` the percentage says nothing about
    the game (one jackpot on a few dollars of handle reads -20,000%), so it is shown as
    "n/a (handle $X)"; a dash without handle."""
    return _qualified(value, handle_cents, "handle")


def hold_of_drop(value: Decimal | str | None, drop_cents: int | None) -> str:
    """A hold % of drop, qualified the same way below `HOLD_MIN_BASE_CENTS` of drop."""
    return _qualified(value, drop_cents, "drop")


def wager_label(wager: str) -> str:
    """A wager in the games' words ("Side Bet")."""
    return games.wager_label(wager)


def wager_sort_key(wager: str) -> tuple[int, str]:
    """The hold report's columns in the games' own order (`report_wagers`), others after."""
    order = games.report_wagers()
    return (order.index(wager) if wager in order else len(order), wager)


register.filter("dollars", dollars)
register.filter("percent", percent)
register.filter("hold", hold)
register.filter("hold_of_drop", hold_of_drop)
register.filter("wager_label", wager_label)


@register.filter
def get_item(mapping: dict[str, int], key: str) -> int:
    """A wager's handle from a row's `handle_by_wager` (0 when that wager was not played)."""
    return mapping.get(key, 0)


@register.filter
def thousands(count: int | None) -> str:
    """A count with thousands separators (1234567 -> "1,234,567"); a dash for none."""
    return "—" if count is None else f"{int(count):,}"
