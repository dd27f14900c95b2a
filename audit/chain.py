"""The hash chain: canonical serialisation of an event and its SHA-256 hash.

The hash covers the event exactly as the database gives it back, so only JSON that survives a
round trip through PostgreSQL's jsonb and SQLite's text unchanged may enter the trail
(`check_data`): no floats (jsonb prints `1e16` back as `10000000000000000` and `-0.0` as `0`;
money and counts are integers or decimal strings here), no NUL character (jsonb refuses it), no
lone surrogate (not UTF-8), string keys only, and a bounded depth and size.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

GENESIS = "0" * 64

MAX_DEPTH = 32
MAX_BYTES = 1_000_000


class AuditDataError(ValueError):
    """Data that cannot be kept exactly as hashed; `path` names the offending value."""

    def __init__(self, path: str, what: str) -> None:
        super().__init__(f"{path}: {what}")
        self.path = path
        self.what = what


def check_text(text: str, path: str) -> None:
    if "\x00" in text:
        raise AuditDataError(path, "contains the NUL character, which the record cannot keep")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AuditDataError(path, "contains a lone surrogate (not valid UTF-8 text)") from None


def check_data(
    data: Any, path: str = "data", depth: int = 0, *, before_encoding: bool = False
) -> None:
    """Refuse, naming where, any value that would not come back from the database as hashed.

    `before_encoding`: other types (Decimal, datetime...) pass; the JSON encoder makes them text.
    """
    if depth > MAX_DEPTH:
        raise AuditDataError(path, f"is nested more than {MAX_DEPTH} levels deep")
    if data is None or isinstance(data, bool | int):
        return
    if isinstance(data, str):
        check_text(data, path)
        return
    if isinstance(data, float):
        raise AuditDataError(
            path, f"is a floating-point number ({data!r}); use an integer or a decimal string"
        )
    if isinstance(data, list | tuple):
        for i, item in enumerate(data):
            check_data(item, f"{path}[{i}]", depth + 1, before_encoding=before_encoding)
        return
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str):
                check_text(key, f"{path} key {key[:40]!r}")
            elif not before_encoding:
                raise AuditDataError(path, f"has a key that is not text ({key!r})")
            check_data(value, f"{path}.{key}", depth + 1, before_encoding=before_encoding)
        return
    if not before_encoding:
        raise AuditDataError(path, f"is a {type(data).__name__}, which JSON cannot hold")


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
    return json_text(body).encode()


def event_hash(**fields: Any) -> str:
    return hashlib.sha256(canonical(**fields)).hexdigest()


def json_text(value: Any) -> str:
    """Compact JSON with sorted keys, as the hash covers it."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_parts(fields: Mapping[str, Any], data_text: str) -> tuple[str, str, str]:
    """`canonical` in three pieces of text, around what only the chain's head decides:

        head + at + middle + prev_hash + ',"seq":' + seq + tail

    (the keys in `canonical`'s sorted order, each value as JSON; `at` as `canonical` writes
    it). `fields`: the event's other fields, as `canonical` takes them; `data_text`: its data
    as `json_text` gives it. Encoded before the head is locked, so that the writer holds the
    lock for no more than the splice and the hash (tests/audit/test_chain.py checks the splice
    against `canonical`)."""
    head = (
        '{"actor_id":'
        + json_text(fields["actor_id"])
        + ',"actor_name":'
        + json_text(fields["actor_name"])
        + ',"at":'
    )
    middle = (
        ',"data":'
        + data_text
        + ',"kind":'
        + json_text(fields["kind"])
        + ',"object_id":'
        + json_text(fields["object_id"])
        + ',"object_type":'
        + json_text(fields["object_type"])
        + ',"prev_hash":'
    )
    tail = ',"table_name":' + json_text(fields["table_name"]) + "}"
    return head, middle, tail


def spliced_hash(parts: tuple[str, str, str], *, seq: int, at: datetime, prev_hash: str) -> str:
    """The event's hash from `canonical_parts` and the head's fields (= `event_hash`)."""
    head, middle, tail = parts
    at_text = json_text(at.isoformat(timespec="microseconds"))
    text = f'{head}{at_text}{middle}{json_text(prev_hash)},"seq":{json_text(seq)}{tail}'
    return hashlib.sha256(text.encode()).hexdigest()


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


# --- the seal: each event's content signed with the key ------------------------------------------
#
# The hash chain needs no key: an insider with SQL could append a well-formed event at the head
# (one that binds a changed money row, audit.binding), and the next checkpoint would sign it.
# Every event therefore also carries a seal: a fresh nonce and the HMAC-SHA256, under the
# checkpoint key (never in the database), of that nonce and the event's content (everything
# but its place in the chain: who, what, on what, the data). A forged event has no valid seal;
# a genuine one copied elsewhere repeats its nonce, which the verifier refuses.

SEAL_VERSION = "s1"


def content_digest(parts: tuple[str, str, str]) -> str:
    """SHA-256 of the event's content, from `canonical_parts` (its place in the chain left out)."""
    return hashlib.sha256("".join(parts).encode()).hexdigest()


def seal(parts: tuple[str, str, str], key: bytes, nonce: str | None = None) -> str:
    """`s1:<nonce>:<hmac>` for an event's content."""
    import hmac
    import secrets

    nonce = nonce or secrets.token_hex(12)
    mac = hmac.new(key, f"{SEAL_VERSION}:{nonce}:{content_digest(parts)}".encode(), "sha256")
    return f"{SEAL_VERSION}:{nonce}:{mac.hexdigest()}"


def seal_problem(stored: str, parts: tuple[str, str, str], key: bytes) -> str:
    """What is wrong with a stored seal ("" when it is valid for the event's content)."""
    import hmac

    version, _, rest = stored.partition(":")
    nonce, _, _mac = rest.partition(":")
    if not stored:
        return "it has no seal (written without the key: a forged event)"
    if version != SEAL_VERSION or not nonce:
        return "its seal is malformed (edited)"
    if not hmac.compare_digest(seal(parts, key, nonce), stored):
        return "its seal is not valid for the key (a forged or edited event)"
    return ""
