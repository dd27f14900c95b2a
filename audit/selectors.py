"""Reads of the audit trail: event search."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet

from .kinds import EventKind
from .models import AuditEvent

# The amounts an event's data may carry (integer cents), searched by the amount range.
AMOUNT_KEYS = ("handle_cents", "players_net_cents", "amount_cents")


def _word(word: str) -> Q:
    """One search word: part of the kind (its code or its words), the table, who, or the
    object's id."""
    kinds = [k.value for k in EventKind if word.lower() in str(k.label).lower()]
    match = (
        Q(kind__icontains=word)
        | Q(kind__in=kinds)
        | Q(table_name__icontains=word)
        | Q(actor_name__icontains=word)
    )
    if word.isdigit():
        match |= Q(object_id=word)
    return match


def _amount_between(low: int | None, high: int | None) -> Q:
    """Any amount of the event's data (a net either way) within [low, high] cents."""
    match = Q()
    for key in AMOUNT_KEYS:
        for sign in (1, -1):
            bounds: dict[str, int] = {}
            if low is not None:
                bounds[f"data__{key}__{'gte' if sign == 1 else 'lte'}"] = sign * low
            if high is not None:
                bounds[f"data__{key}__{'lte' if sign == 1 else 'gte'}"] = sign * high
            match |= Q(**bounds)
    return match


def search_events(
    *,
    table: str = "",
    user: str = "",
    kind: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
    round_id: int | None = None,
    words: str = "",
    min_cents: int | None = None,
    max_cents: int | None = None,
) -> QuerySet[AuditEvent]:
    """Events matching every filter given: `words` (each word is part of the kind, the table,
    who or the object), parts of the table, user and kind, a time range, a round, and an amount
    range (any of the data's amounts, in cents)."""
    events = AuditEvent.objects.all().order_by("seq")
    for word in words.split():
        events = events.filter(_word(word))
    if table:
        events = events.filter(table_name__icontains=table.strip())
    if user:
        events = events.filter(actor_name__icontains=user.strip())
    if kind:
        events = events.filter(_word(kind.strip()))
    if min_cents is not None or max_cents is not None:
        events = events.filter(_amount_between(min_cents, max_cents))
    if since:
        events = events.filter(at__gte=since)
    if until:
        events = events.filter(at__lt=until)
    if round_id:
        events = events.filter(
            Q(object_type="tables.round", object_id=str(round_id)) | Q(data__round_id=round_id)
        )
    return events
