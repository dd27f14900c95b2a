"""Writing the audit trail. Call `audit_record` inside the transaction of the change it records."""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from .chain import GENESIS, event_hash
from .models import AuditEvent, AuditHead


def _plain(data: Any) -> Any:
    """JSON-safe data (Decimals, datetimes as strings) exactly as it will be stored."""
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


@transaction.atomic
def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    kind: str,
    obj: models.Model | None = None,
    data: dict[str, Any] | None = None,
    table_name: str = "",
    actor_name: str | None = None,
) -> AuditEvent:
    """Append one event to the chain (locks the head so writers never fork the chain)."""
    head = AuditHead.objects.select_for_update().filter(pk=1).first()
    if head is None:  # only if the head migration's row was removed (e.g. a flushed test database)
        head, _ = AuditHead.objects.get_or_create(pk=1, defaults={"hash": GENESIS})
        head = AuditHead.objects.select_for_update().get(pk=1)
    user_id = getattr(actor, "pk", None) if actor is not None else None
    name = actor_name if actor_name is not None else (actor.get_username() if user_id else "")
    fields = {
        "seq": head.seq + 1,
        "at": timezone.now().astimezone(UTC),
        "actor_id": user_id,
        "actor_name": name,
        "kind": kind,
        "object_type": obj._meta.label_lower if obj is not None else "",
        "object_id": str(obj.pk) if obj is not None else "",
        "table_name": table_name,
        "data": _plain(data or {}),
        "prev_hash": head.hash,
    }
    event = AuditEvent(**fields, hash=event_hash(**fields))
    event.save()
    head.seq, head.hash = event.seq, event.hash
    head.save(update_fields=["seq", "hash"])
    return event
