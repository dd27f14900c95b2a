"""Reads for the API: the querysets behind each endpoint, and who sees which rounds and hands.

(The round selectors proper, `round_state`, `round_preview` and `last_wagers`, live in
`tables/selectors.py`, shared with the tablet.)
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404

from core.params import ascii_int
from core.roles import (
    OVERSIGHT,
    Role,
    has_any_role,
    has_role,
)
from tables.models import (
    DealerSession,
    Hand,
    PaytableVersion,
    ProgressiveMeter,
    Round,
    Table,
    TableSettingsAssignment,
)

Played = TypeVar("Played", Round, Hand)


def tables() -> QuerySet[Table]:
    """Every table, with its signed-in dealer's username and its open round's id annotated."""
    open_session = DealerSession.objects.filter(table=OuterRef("pk"), ended_at__isnull=True)
    open_round = Round.objects.filter(
        table=OuterRef("pk"), status=Round.Status.OPEN, corrects__isnull=True
    )
    open_hand = Hand.objects.filter(table=OuterRef("pk"), status=Hand.Status.OPEN)
    settings = TableSettingsAssignment.objects.filter(table=OuterRef("pk")).order_by("-id")
    return (
        Table.objects.select_related("pit", "paytable_version", "meter")
        .annotate(
            dealer_username=Subquery(open_session.values("dealer__username")[:1]),
            open_round_id=Subquery(open_round.values("pk")[:1]),
            open_hand_id=Subquery(open_hand.values("pk")[:1]),
            settings_version_id=Subquery(settings.values("settings_version_id")[:1]),
        )
        .order_by("name")
    )


def rounds() -> QuerySet[Round]:
    """Every round, newest first, with what its representation reads."""
    return (
        Round.objects.select_related("table", "dealer", "paytable_version", "voided_by")
        .prefetch_related("lines")
        .order_by("-id")
    )


def round_to_play(pk: Any, user: AbstractBaseUser | AnonymousUser) -> Round:
    """The round for a play step, with only what the permission check reads: its table's id
    and name, and whether `user` is signed in there (`caller_signed_in`); the service reads
    and locks the rest. One plain statement: this runs before every play step. Http404 when
    there is no such round."""
    round_id = ascii_int(pk) if isinstance(pk, str) else pk
    if not isinstance(round_id, int) or isinstance(round_id, bool):
        raise Http404("no such round")
    rounds, tables = Round._meta.db_table, Table._meta.db_table
    sessions = DealerSession._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.table_id, t.name, EXISTS (SELECT 1 FROM {sessions} s "
            "WHERE s.table_id = r.table_id AND s.dealer_id = %s AND s.ended_at IS NULL) "
            f"FROM {rounds} r INNER JOIN {tables} t ON t.id = r.table_id WHERE r.id = %s",
            [user.pk, round_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise Http404("no such round")
    table_id, table_name, signed_in = row
    round_ = Round(pk=round_id, table=Table(pk=table_id, name=table_name))
    round_.caller_signed_in = bool(signed_in)  # type: ignore[attr-defined]
    return round_


def visible_to(
    played: QuerySet[Played],
    user: AbstractBaseUser | AnonymousUser,
    *,
    table_id: int | None = None,
    status: str | None = None,
) -> QuerySet[Played]:
    """The rounds or hands (`played`) `user` may list: all for pit boss, admin and auditor; for
    a dealer, those of the table they are signed in to (none when signed in nowhere)."""
    if not has_any_role(user, OVERSIGHT):
        signed_in_at = DealerSession.objects.filter(dealer_id=user.pk, ended_at__isnull=True)
        played = (
            played.filter(table_id__in=signed_in_at.values("table_id"))
            if has_role(user, Role.DEALER)
            else played.none()
        )
    if table_id is not None:
        played = played.filter(table_id=table_id)
    if status:
        played = played.filter(status=status)
    return played


def paytable_versions_visible_to(
    user: AbstractBaseUser | AnonymousUser,
) -> QuerySet[PaytableVersion]:
    """Pit boss, admin and auditor see every version; a dealer only approved ones (a draft is
    not a paytable anyone plays)."""
    qs = PaytableVersion.objects.select_related("drafted_by", "approved_by").prefetch_related(
        "tables"
    )
    if not has_any_role(user, OVERSIGHT):
        qs = qs.filter(status=PaytableVersion.Status.APPROVED)
    return qs.order_by("game", "name", "-version")


def meters() -> QuerySet[ProgressiveMeter]:
    return ProgressiveMeter.objects.prefetch_related("tables").order_by("name")


def hands() -> QuerySet[Hand]:
    """Every player-vs-player hand, newest first, with what its representation reads."""
    return (
        Hand.objects.select_related("table", "dealer", "settings_version", "voided_by")
        .prefetch_related("players")
        .order_by("-id")
    )
