"""The hook a cash buy-in passes through before its slip is written: the cash compliance app
(`compliance`, above accounting) registers a check that may refuse the buy-in (a patron not
named from the MTL threshold, a patron with an open CTR not yet identified) and records the
transaction once the slip is saved, in the slip's own transaction. Accounting names no patron
and imports nothing above it: the patron is passed through as given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from tables.models import Table

# A check takes the buy-in (table, seat, patron as given, cash in cents, gaming day, who and
# when), refuses it with a ServiceError or returns what records it once the slip is saved.
Finish = Callable[[Any], None]
CashCheck = Callable[..., Finish]
_checks: list[CashCheck] = []


def register_cash_check(check: CashCheck) -> None:
    if check not in _checks:
        _checks.append(check)


def check_cash_in(
    *,
    table: Table,
    seat: int | None,
    patron: Any,
    cash_cents: int,
    gaming_day: Any,
    by: AbstractBaseUser,
    at: Any,
) -> list[Finish]:
    """Every registered check's verdict on a cash buy-in (refusals raise)."""
    return [
        check(
            table=table,
            seat=seat,
            patron=patron,
            cash_cents=cash_cents,
            gaming_day=gaming_day,
            by=by,
            at=at,
        )
        for check in _checks
    ]


# Markers (casino credit) issued at a table go into its drop box like a buy-in's cash: the
# compliance app registers what reads them, {(table id, shift): cents} of a gaming day, and the
# count adds them to the drop it expects.
MarkerSource = Callable[..., dict[tuple[int, str], int]]
_marker_sources: list[MarkerSource] = []


def register_markers_issued(source: MarkerSource) -> None:
    if source not in _marker_sources:
        _marker_sources.append(source)


def markers_issued(*, gaming_day: Any, tables: list[int] | None) -> dict[tuple[int, str], int]:
    """The markers issued per (table id, shift) on `gaming_day`, by every registered source."""
    out: dict[tuple[int, str], int] = {}
    for source in _marker_sources:
        for key, cents in source(gaming_day=gaming_day, tables=tables).items():
            out[key] = out.get(key, 0) + cents
    return out


# What a confirmed void of a buy-in tells the checks' app (its cash did not change hands): each
# hook takes the slip, who confirmed the void, when and why, in the void's own transaction.
VoidHook = Callable[..., None]
_void_hooks: list[VoidHook] = []


def register_void_hook(hook: VoidHook) -> None:
    if hook not in _void_hooks:
        _void_hooks.append(hook)


def buy_in_voided(*, slip: Any, by: AbstractBaseUser, at: Any, reason: str) -> None:
    for hook in _void_hooks:
        hook(slip=slip, by=by, at=at, reason=reason)
