"""Table settings of player-vs-player games (players, ante, bet sizes, raise cap, rake):
drafted by one admin, approved by another, then assigned to a table, for hands that open from
then on (the approved versions' one flow, `versions`, with the values checked by the game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import ADMINS, require
from tables import games
from tables.models import Table, TableSettingsAssignment, TableSettingsVersion

from . import ServiceError
from .versions import VersionKind, version_approve, version_draft, version_for_table

TABLE_SETTINGS = VersionKind(
    model=TableSettingsVersion,
    one="table settings",
    many="table settings",
    its="their",
    drafted=EventKind.TABLE_SETTINGS_DRAFTED,
    approved=EventKind.TABLE_SETTINGS_APPROVED,
    field="settings_version",
    wrong_game="{version} is not for {game}",
)


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
    return version_draft(
        TABLE_SETTINGS,
        author=author,
        game=game,
        name=name,
        content={"values": clean},
        based_on=based_on,
    )


@transaction.atomic
def table_settings_approve(
    *, version: TableSettingsVersion, approver: AbstractBaseUser
) -> TableSettingsVersion:
    """Approve a draft: a second admin, never its author, nor an account linked to its
    author's by a creation or change either way (`versions`). An approved version is final."""
    return version_approve(TABLE_SETTINGS, version=version, approver=approver)


@transaction.atomic
def table_settings_assign(
    *, table: Table, version: TableSettingsVersion, by: AbstractBaseUser
) -> TableSettingsAssignment:
    """Put an approved version in force at a table, for hands opened from now on."""
    table, version = version_for_table(TABLE_SETTINGS, table=table, version=version, by=by)
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
