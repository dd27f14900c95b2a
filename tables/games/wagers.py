"""Checks every game's service hooks share: a wager against its limits, known fields only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import ServiceError
from core.strict import known_keys
from tables.engine.money import format_cents


def limit(limits: Mapping[str, Any], wager: str) -> tuple[int, int] | None:
    lim = limits.get(wager)
    return (lim["min_cents"], lim["max_cents"]) if lim else None


def check_limit(cents: int, limits: Mapping[str, Any], wager: str, where: str) -> None:
    """Refuse a stake outside the wager's minimum and maximum (naming the seat's field)."""
    lim = limit(limits, wager)
    if lim and not lim[0] <= cents <= lim[1]:
        raise ServiceError(
            f"{where} must be from {format_cents(lim[0])} to {format_cents(lim[1])}, "
            f"not {format_cents(cents)}",
            field=where,
            code="bad_wager",
        )


def only(given: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    """Refuse a field that is not one of `allowed` (naming it and the allowed ones)."""
    known_keys(given, allowed, where)


__all__ = ["check_limit", "limit", "only"]
