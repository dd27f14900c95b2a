"""The hash chain: canonical serialisation of an event and its SHA-256 hash."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64


def canonical(
    *,
    seq: int,
    at: datetime,
    actor_id: int | None,
    actor_name: str,
    kind: str,
    object_type: str,
    object_id: str,
    table_name: str,
    data: Any,
    prev_hash: str,
) -> bytes:
    """The bytes an event's hash covers: every field, in a fixed order, as compact JSON."""
    body = {
        "seq": seq,
        "at": at.isoformat(timespec="microseconds"),
        "actor_id": actor_id,
        "actor_name": actor_name,
        "kind": kind,
        "object_type": object_type,
        "object_id": object_id,
        "table_name": table_name,
        "data": data,
        "prev_hash": prev_hash,
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def event_hash(**fields: Any) -> str:
    return hashlib.sha256(canonical(**fields)).hexdigest()


HASHED_FIELDS = (
    "seq",
    "at",
    "actor_id",
    "actor_name",
    "kind",
    "object_type",
    "object_id",
    "table_name",
    "data",
    "prev_hash",
)


def stored_event_hash(event: Any, **changes: Any) -> str:
    """The hash a stored event's fields give (with `changes` applied, e.g. a new prev_hash)."""
    fields = {name: getattr(event, name) for name in HASHED_FIELDS}
    fields.update(changes)
    fields["at"] = fields["at"].astimezone(UTC)
    return event_hash(**fields)
