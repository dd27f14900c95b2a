"""Reads of the audit trail: event search."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q, QuerySet

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
