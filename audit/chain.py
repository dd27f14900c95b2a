"""The hash chain: canonical serialisation of an event and its SHA-256 hash."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
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
