"""Dealers signing in and out at tables."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import (
    DEALERS,
    require,
)
from tables.models import DealerSession, Table

from . import ServiceError


@transaction.atomic(durable=True)
def dealer_sign_in(*, dealer: AbstractBaseUser, table: Table) -> DealerSession:
    """Sign a dealer in at a table (signing them out of any other table first)."""
    require(dealer, DEALERS, "sign in at a table", message="only dealers sign in at tables")
    # One sign-in per dealer at a time (the dealer's row, then the table's: always this order).
    get_user_model().objects.select_for_update().filter(pk=dealer.pk).first()
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.is_open:
        raise ServiceError(
            f"table {table} is closed", field="table", code="table_closed", status=409
        )
    current = DealerSession.objects.filter(table=table, ended_at__isnull=True).first()
    if current is not None:
        if current.dealer_id == dealer.pk:
            return current
        raise ServiceError(
            f"{current.dealer.get_username()} is signed in at {table}",
            field="table",
            code="table_taken",
            status=409,
        )
    dealer_sign_out(dealer=dealer)
    try:
        with transaction.atomic():
            session = DealerSession.objects.create(table=table, dealer=dealer)
    except IntegrityError:  # the database's constraints: a sign-in raced this one
        raise ServiceError(
            f"{dealer.get_username()} or another dealer signed in at the same moment: try again",
            field="table",
            code="sign_in_conflict",
            status=409,
        ) from None
    audit_record(actor=dealer, kind=EventKind.DEALER_SIGNED_IN, obj=session, table_name=table.name)
    return session


@transaction.atomic  # also part of signing in elsewhere: not durable
def dealer_sign_out(*, dealer: AbstractBaseUser) -> None:
    for session in DealerSession.objects.select_for_update().filter(
        dealer=dealer, ended_at__isnull=True
    ):
        session.ended_at = timezone.now()
        session.save(update_fields=["ended_at"])
        audit_record(
            actor=dealer,
            kind=EventKind.DEALER_SIGNED_OUT,
            obj=session,
            table_name=session.table.name,
        )


def current_table(dealer: AbstractBaseUser) -> Table | None:
    session = (
        DealerSession.objects.select_related("table")
        .filter(dealer=dealer, ended_at__isnull=True)
        .first()
    )
    return session.table if session else None
