"""Reads for the auditor's pages: event search and a round's replay."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from tables.models import Round

from .models import AuditEvent


def search_events(
    *,
    table: str = "",
    user: str = "",
    kind: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
    round_id: int | None = None,
) -> QuerySet[AuditEvent]:
    events = AuditEvent.objects.all().order_by("seq")
    if table:
        events = events.filter(table_name__iexact=table.strip())
    if user:
        events = events.filter(actor_name__iexact=user.strip())
    if kind:
        events = events.filter(kind__startswith=kind.strip())
    if since:
        events = events.filter(at__gte=since)
    if until:
        events = events.filter(at__lt=until)
    if round_id:
        events = events.filter(
            Q(object_type="tables.round", object_id=str(round_id)) | Q(data__round_id=round_id)
        )
    return events


def round_replay(round_: Round) -> dict[str, Any]:
    """Everything the record holds on a round, in order: each event, the lines, the links."""
    events = list(search_events(round_id=round_.pk))
    return {
        "round": round_,
        "events": events,
        "lines": list(round_.lines.order_by("seat", "id")),
        "corrections": list(round_.corrections.all()),
        "corrects": round_.corrects,
    }
