"""Reads of the audit trail: event search."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from django.db.models import Q, QuerySet

from core.money import dollars
from core.params import ascii_int

from .kinds import EventKind
from .models import AuditEvent, AuditEventText

# The amounts an event's data may carry (integer cents), searched by the amount range.
AMOUNT_KEYS = ("handle_cents", "players_net_cents", "amount_cents")


# An amount as typed: "$25,000", "25,000.00", "25000.00", "$12.5" (bare digits are not: a
# round's id, a seat, a card's rank are digits too).
_AMOUNT = re.compile(r"^[+-]?(\$\d[\d,]*(\.\d{1,2})?|\d{1,3}(,\d{3})+(\.\d{1,2})?|\d+\.\d{1,2})$")


def amount_words(word: str) -> str | None:
    """An amount as the trail's words say it ("$25,000.00"), or None for any other word."""
    if not _AMOUNT.match(word):
        return None
    number = Decimal(word.lstrip("+-").lstrip("$").replace(",", ""))
    return dollars(int(number * 100))


def words_of(text: str) -> list[str]:
    """The search's words: split at spaces, a phrase in double quotes kept whole ("seat 3")."""
    return [a or b for a, b in re.findall(r'"([^"]+)"|(\S+)', text) if (a or b).strip()]


def _kind(word: str) -> Q:
    """Part of the kind: its code or its words."""
    kinds = [k.value for k in EventKind if word.lower() in str(k.label).lower()]
    return Q(kind__icontains=word) | Q(kind__in=kinds)


def _word(word: str) -> Q:
    """One search word or phrase: part of the event's words (`audit.search`: its kind, table
    and who, its details as the pages say them, its data's names and codes), or, digits, its
    object's id; an amount ("$25,000", "25000.00") as the words say it ("$25,000.00"). The
    words are one indexed column (a trigram index on PostgreSQL), read by a subquery."""
    said = (amount_words(word) or word).lower()
    match = Q(pk__in=AuditEventText.objects.filter(text__contains=said).values("event_id"))
    object_id = ascii_int(word)
    if object_id is not None:
        match |= Q(object_id=str(object_id))
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
    """Events matching every filter given: `words` (each word or quoted phrase is part of the
    kind, the table, who, the object or the event's words: `_word`), parts of the table, user
    and kind, a time range, a round, and an amount range (any of the data's amounts, in
    cents)."""
    events = AuditEvent.objects.all().order_by("seq")
    for word in words_of(words):
        events = events.filter(_word(word))
    if table:
        events = events.filter(table_name__icontains=table.strip())
    if user:
        events = events.filter(actor_name__icontains=user.strip())
    if kind:
        events = events.filter(_kind(kind.strip()))
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
