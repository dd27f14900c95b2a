"""Paytable versions: drafted by one admin, approved by another, then assigned to tables."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import (
    ADMINS,
    Role,
    has_role,
    require,
)
from tables import games
from tables.engine.errors import EngineError
from tables.models import PaytableVersion, Table

from . import ServiceError
from .figures import request_figures
from .two_person import refuse_linked_accounts


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


def _require_admin(user: AbstractBaseUser, action: str) -> None:
    require(user, ADMINS, action)


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
    _require_admin(author, "draft a paytable")
    try:
        paytable = games.banked(game).paytable(name, lines)
    except EngineError as err:
        raise ServiceError(err.message, field=err.field or "lines") from None
    except games.UnknownGame:
        raise ServiceError(f"unknown game {game!r}", field="game") from None
    clean_limits = validate_limits(game, limits)
    last = (
        PaytableVersion.objects.filter(game=game, name=name).aggregate(m=Max("version"))["m"] or 0
    )
    version = PaytableVersion.objects.create(
        game=game,
        name=name,
        version=last + 1,
        lines=paytable.as_data(),
        limits=clean_limits,
        drafted_by=author,
        based_on=based_on,
    )
    audit_record(
        actor=author,
        kind=EventKind.PAYTABLE_DRAFTED,
        obj=version,
        data={
            "game": game,
            "name": name,
            "version": version.version,
            "lines": version.lines,
            "limits": version.limits,
        },
    )
    return version


@transaction.atomic
def paytable_approve(*, version: PaytableVersion, approver: AbstractBaseUser) -> PaytableVersion:
    """Approve a draft: a second admin, never its author, nor an account its author created
    or changed, nor the one who created or changed its author's account (one person with a
    second account is still one person: `two_person`). The security role never approves. An
    approved version is final."""
    if has_role(approver, Role.SECURITY):
        raise PermissionDenied("the security role does not approve paytables")
    _require_admin(approver, "approve a paytable")
    version = PaytableVersion.objects.select_for_update().get(pk=version.pk)
    if version.is_approved:
        raise ServiceError(f"{version} is already approved", code="already_approved", status=409)
    if version.drafted_by_id == approver.pk:
        raise PermissionDenied("a paytable must be approved by a second admin, not its author")
    refuse_linked_accounts(drafter=version.drafted_by, approver=approver, what=str(version))
    version.status = PaytableVersion.Status.APPROVED
    version.approved_by = approver  # type: ignore[assignment]
    version.approved_at = timezone.now()
    version.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        actor=approver,
        kind=EventKind.PAYTABLE_APPROVED,
        obj=version,
        data={
            "game": version.game,
            "name": version.name,
            "version": version.version,
            "drafted_by": version.drafted_by.get_username(),
        },
    )
    request_figures(version)  # the theoretical figures, computed by a worker once committed
    return version


@transaction.atomic
def paytable_assign(*, table: Table, version: PaytableVersion, by: AbstractBaseUser) -> Table:
    """Put an approved version in force at a table, for rounds that start from now on."""
    _require_admin(by, "assign a paytable")
    table = Table.objects.select_for_update().get(pk=table.pk)
    version = PaytableVersion.objects.get(pk=version.pk)  # the stored status, not a stale copy
    if not version.is_approved:
        raise ServiceError(f"{version} is not approved yet", field="paytable_version")
    if version.game != table.game:
        raise ServiceError(
            f"{version} is not a {table.get_game_display()} paytable", field="paytable_version"
        )
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
