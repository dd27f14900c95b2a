"""The players' display keys: issued and revoked by a pit boss or an admin, on the record.

A display key opens one table's players' display on the screen facing the players and nothing
else (tables.views.displays keeps it in a session that carries no account). The key is shown
once, when it is issued; only its SHA-256 is stored. Opening a display with a key is recorded
too, so the record says which screen showed which table from when.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import DISPLAY_KEEPERS, require
from tables import games
from tables.models import DisplayKey, Table, display_key_digest

from . import ServiceError


def has_display(table: Table) -> bool:
    """Whether the table's game has a page for the players (a display key opens it)."""
    game = games.GAMES.get(table.game)
    return isinstance(game, games.PlayerVsPlayerGame) and bool(game.player_pages)


@transaction.atomic
def display_key_issue(
    *, table: Table, by: AbstractBaseUser | AnonymousUser
) -> tuple[DisplayKey, str]:
    """A new display key for `table` and the key itself, which is never stored: the caller
    shows it once. Only a pit boss or an admin issues one; a table whose game has no players'
    display gets none."""
    require(by, DISPLAY_KEEPERS, "issue a display key")
    if not has_display(table):
        raise ServiceError(
            f"{table} has no players' display: its game shows the players nothing of its own",
            field="table",
            code="no_display",
        )
    key = secrets.token_hex(20)
    row = DisplayKey.objects.create(table=table, digest=display_key_digest(key), issued_by=by)
    audit_record(actor=by, kind=EventKind.DISPLAY_KEY_ISSUED, obj=row, table_name=table.name)
    return row, key


@transaction.atomic
def display_key_revoke(*, key: DisplayKey, by: AbstractBaseUser | AnonymousUser) -> DisplayKey:
    """Revoke a display key: the screen showing it is refused from its next refresh on."""
    require(by, DISPLAY_KEEPERS, "revoke a display key")
    row = DisplayKey.objects.select_for_update().select_related("table").get(pk=key.pk)
    if row.revoked_at is not None:
        raise ServiceError(
            f"this display key of {row.table} is already revoked", field="key", code="revoked"
        )
    row.revoked_at = timezone.now()
    row.revoked_by = by  # type: ignore[assignment]
    row.save(update_fields=["revoked_at", "revoked_by"])
    audit_record(actor=by, kind=EventKind.DISPLAY_KEY_REVOKED, obj=row, table_name=row.table.name)
    return row


@transaction.atomic
def display_opened(*, key: DisplayKey, remote: str = "") -> None:
    """Record that a screen opened the table's display with this key (no account: the key
    names itself)."""
    audit_record(
        actor=None,
        actor_name=f"display key {key.pk}",
        kind=EventKind.DISPLAY_OPENED,
        obj=key,
        bind_obj=False,
        data={"remote": remote} if remote else None,
        table_name=key.table.name,
    )
