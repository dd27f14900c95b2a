"""Paytable versions: drafted by one admin, approved by another, then assigned to tables (the
approved versions' one flow, `versions`, with the lines and limits checked here)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import ADMINS, require
from tables import games
from tables.engine.errors import EngineError
from tables.models import PaytableVersion, Table

from . import ServiceError
from .figures import request_figures
from .versions import VersionKind, version_approve, version_draft, version_for_table

PAYTABLES = VersionKind(
    model=PaytableVersion,
    one="a paytable",
    many="paytables",
    its="its",
    drafted=EventKind.PAYTABLE_DRAFTED,
    approved=EventKind.PAYTABLE_APPROVED,
    field="paytable_version",
    wrong_game="{version} is not a {game} paytable",
)


def validate_limits(game: str, limits: Any) -> dict[str, dict[str, int]]:
    """Every limited wager of the game needs a minimum and a maximum, in cents, 0 < min <= max."""
    if not isinstance(limits, dict):
        raise ServiceError(
            "limits must be an object of wager: {min_cents, max_cents}", field="limits"
        )
    clean: dict[str, dict[str, int]] = {}
    for wager in games.banked(game).limited_wagers:
        given = limits.get(wager)
        if not isinstance(given, dict):
            raise ServiceError(f"the {wager} limits are missing", field=f"limits.{wager}")
        lo, hi = given.get("min_cents"), given.get("max_cents")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)):
            raise ServiceError(
                f"the {wager} limits need whole-cent min_cents and max_cents",
                field=f"limits.{wager}",
            )
        assert isinstance(lo, int) and isinstance(hi, int)
        if lo <= 0 or hi < lo:
            raise ServiceError(
                f"the {wager} limits must have 0 < minimum <= maximum (got {lo} and {hi} cents)",
                field=f"limits.{wager}",
            )
        clean[wager] = {"min_cents": lo, "max_cents": hi}
    extra = set(limits) - set(games.banked(game).limited_wagers)
    if extra:
        raise ServiceError(f"{game} has no limited wager {sorted(extra)[0]!r}", field="limits")
    return clean


@transaction.atomic
def paytable_draft(
    *,
    author: AbstractBaseUser,
    game: str,
    name: str,
    lines: dict[str, dict[str, Any]],
    limits: dict[str, Any],
    based_on: PaytableVersion | None = None,
) -> PaytableVersion:
    """A new draft version (the next version number of `name`), validated line by line."""
    require(author, ADMINS, "draft a paytable")
    try:
        paytable = games.banked(game).paytable(name, lines)
    except EngineError as err:
        raise ServiceError(err.message, field=err.field or "lines") from None
    except games.UnknownGame:
        raise ServiceError(f"unknown game {game!r}", field="game") from None
    clean_limits = validate_limits(game, limits)
    return version_draft(
        PAYTABLES,
        author=author,
        game=game,
        name=name,
        content={"lines": paytable.as_data(), "limits": clean_limits},
        based_on=based_on,
    )


@transaction.atomic
def paytable_approve(*, version: PaytableVersion, approver: AbstractBaseUser) -> PaytableVersion:
    """Approve a draft: a second admin, never its author, nor an account linked to its
    author's (`versions`); then its theoretical figures are computed by a worker once
    committed. An approved version is final."""
    version = version_approve(PAYTABLES, version=version, approver=approver)
    request_figures(version)
    return version


@transaction.atomic
def paytable_assign(*, table: Table, version: PaytableVersion, by: AbstractBaseUser) -> Table:
    """Put an approved version in force at a table, for rounds that start from now on."""
    table, version = version_for_table(PAYTABLES, table=table, version=version, by=by)
    previous = table.paytable_version
    table.paytable_version = version
    table.save(update_fields=["paytable_version"])
    audit_record(
        actor=by,
        kind=EventKind.PAYTABLE_ASSIGNED,
        obj=table,
        table_name=table.name,
        data={
            "version_id": version.pk,
            "version": str(version),
            "previous_id": previous.pk if previous else None,
        },
    )
    return table
