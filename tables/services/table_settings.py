"""Table settings of player-vs-player games (players, ante, bet sizes, raise cap, rake):
drafted by one admin, approved by another (never its author, nor an account its author created
or changed, nor one that created or changed its author's), then assigned to a table, for hands
that open from then on. Like paytables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import ADMINS, Role, has_role, require
from tables import games
from tables.models import Table, TableSettingsAssignment, TableSettingsVersion

from . import ServiceError
from .two_person import refuse_linked_accounts


@transaction.atomic
def table_settings_draft(
    *,
    author: AbstractBaseUser,
    game: str,
    name: str,
    values: Mapping[str, Any],
    based_on: TableSettingsVersion | None = None,
) -> TableSettingsVersion:
    """A new draft version (the next version number of `name`), checked by the game."""
    require(author, ADMINS, "draft table settings")
    try:
        pvp = games.player_vs_player(game)
    except games.UnknownGame:
        raise ServiceError(
            f"{game!r} is not a player-vs-player game: it has no table settings", field="game"
        ) from None
    name = (name or "").strip()
    if not name:
        raise ServiceError("the settings need a name", field="name")
    clean = pvp.check_settings(values)
    last = (
        TableSettingsVersion.objects.filter(game=game, name=name).aggregate(m=Max("version"))["m"]
        or 0
    )
    version = TableSettingsVersion.objects.create(
        game=game,
        name=name,
        version=last + 1,
        values=clean,
        drafted_by=author,
        based_on=based_on,
    )
    audit_record(
        actor=author,
        kind=EventKind.TABLE_SETTINGS_DRAFTED,
        obj=version,
        data={"game": game, "name": name, "version": version.version, "values": clean},
    )
    return version


@transaction.atomic
def table_settings_approve(
    *, version: TableSettingsVersion, approver: AbstractBaseUser
) -> TableSettingsVersion:
    """Approve a draft: a second admin, never its author, nor an account linked to its
    author's by a creation or change either way (`two_person`). An approved version is final."""
    if has_role(approver, Role.SECURITY):
        raise PermissionDenied("the security role does not approve table settings")
    require(approver, ADMINS, "approve table settings")
    version = TableSettingsVersion.objects.select_for_update().get(pk=version.pk)
    if version.is_approved:
        raise ServiceError(f"{version} is already approved", code="already_approved", status=409)
    if version.drafted_by_id == approver.pk:
        raise PermissionDenied(
            "table settings must be approved by a second admin, not their author"
        )
    refuse_linked_accounts(drafter=version.drafted_by, approver=approver, what=str(version))
    version.status = TableSettingsVersion.Status.APPROVED
    version.approved_by = approver  # type: ignore[assignment]
    version.approved_at = timezone.now()
    version.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        actor=approver,
        kind=EventKind.TABLE_SETTINGS_APPROVED,
        obj=version,
        data={
            "game": version.game,
            "name": version.name,
            "version": version.version,
            "drafted_by": version.drafted_by.get_username(),
        },
    )
    return version


@transaction.atomic
def table_settings_assign(
    *, table: Table, version: TableSettingsVersion, by: AbstractBaseUser
) -> TableSettingsAssignment:
    """Put an approved version in force at a table, for hands opened from now on."""
    require(by, ADMINS, "assign table settings")
    table = Table.objects.select_for_update().get(pk=table.pk)
    version = TableSettingsVersion.objects.get(pk=version.pk)
    if not version.is_approved:
        raise ServiceError(f"{version} is not approved yet", field="settings_version")
    if version.game != table.game:
        raise ServiceError(
            f"{version} is not for {table.get_game_display()}", field="settings_version"
        )
    previous = TableSettingsAssignment.objects.filter(table=table).order_by("-id").first()
    assignment = TableSettingsAssignment.objects.create(
        table=table, settings_version=version, by=by
    )
    audit_record(
        actor=by,
        kind=EventKind.TABLE_SETTINGS_ASSIGNED,
        obj=table,
        table_name=table.name,
        data={
            "settings_version_id": version.pk,
            "settings_version": str(version),
            "previous_id": previous.settings_version_id if previous else None,
        },
        bind=[assignment],
    )
    return assignment
