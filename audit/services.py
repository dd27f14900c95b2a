"""Writing the audit trail. Call `audit_record` inside the transaction of the change it records."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC
from typing import Any, Protocol

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils import timezone

from core.db import brief_lock_wait
from core.errors import SeparationOfDuties
from core.prepared import PreparedQuery

from .binding import KEY, bound_data, deleted_data, spec_for
from .chain import (
    GENESIS,
    MAX_BYTES,
    AuditDataError,
    canonical_parts,
    check_data,
    check_text,
    json_text,
    seal,
    spliced_hash,
)
from .checkpoints import checkpoint_if_due, signing_key
from .kinds import EventKind
from .models import AuditEvent, AuditHead
from .search import event_text, write_text


def _plain(data: Any) -> Any:
    """JSON-safe data (Decimals, datetimes as strings) exactly as it will be stored, refused
    (`AuditDataError`, naming where) when the database would not give it back as hashed."""
    check_data(data, before_encoding=True)  # a float must not slip through as its repr
    text = json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False)
    if len(text) > MAX_BYTES:
        raise AuditDataError("data", f"is larger than {MAX_BYTES} bytes")
    plain = json.loads(text)
    check_data(plain)
    return plain


def _head_query(pk: int) -> Any:
    return AuditHead.objects.select_for_update().filter(pk=pk).order_by("pk")[:1]


_HEAD = PreparedQuery(_head_query, pk=int)  # the chain's head, locked by every event


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    kind: str,
    obj: models.Model | None = None,
    data: dict[str, Any] | None = None,
    table_name: str = "",
    actor_name: str | None = None,
    bind: Iterable[models.Model] = (),
    bind_obj: bool = True,
    unbind: Iterable[models.Model] = (),
) -> AuditEvent:
    """Append one event to the chain (locks the head so writers never fork the chain).

    The event binds the rows it changes (`audit.binding`): `obj` when its model is bound
    (`bind_obj=False` for an event that only concerns it: a sign-in), and the rows in
    `bind`, each as saved, so call it after the change's last write to them; the bound rows in
    `unbind` are recorded as deleted (call it once they are).

    Data the database would not give back exactly as hashed is refused (`AuditDataError`)
    before anything is written. Inside the caller's transaction it takes no savepoint of its
    own: any failure here fails the caller's whole change, as it must."""
    rows = bound_data([obj, *bind] if obj is not None and bind_obj else bind)
    for row in unbind:
        model = type(row)._meta.concrete_model
        if model is not None and spec_for(model) is not None:
            for label, gone in deleted_data(model, [row.pk]).items():
                rows.setdefault(label, {}).update(gone)
    plain = _plain(data or {})
    if rows:  # canonical already (audit.binding: JSON-safe values, every text checked)
        plain = {**plain, KEY: rows}
    user_id = getattr(actor, "pk", None) if actor is not None else None
    name = actor_name if actor_name is not None else (actor.get_username() if user_id else "")
    fields: dict[str, Any] = {
        "actor_id": user_id,
        "actor_name": name,
        "kind": kind,
        "object_type": obj._meta.label_lower if obj is not None else "",
        "object_id": str(obj.pk) if obj is not None else "",
        "table_name": table_name,
        "data": plain,
    }
    for field in ("actor_name", "kind", "object_type", "object_id", "table_name"):
        check_text(fields[field], field)
    # Everything but the head's part of the hash is encoded before the head is locked: every
    # writer on the floor waits for the lock, held from here to the commit.
    data_text = json_text(plain)
    parts = canonical_parts(fields, data_text)
    words = event_text(AuditEvent(**fields))  # the search's words, before the head's lock
    with transaction.atomic(savepoint=False):
        connection = transaction.get_connection()
        if connection.vendor == "postgresql":
            event = _append_in_database(fields, parts, data_text, connection)
        else:
            event = _append(fields, parts)
        write_text(event, words)
        checkpoint_if_due(seq=event.seq, chain_hash=event.hash, at=event.at)
    return event


def _head_row() -> AuditHead:
    """The head, locked. A missing row is made again: at the genesis for an empty chain (a
    flushed test database), else at the chain's last event, and the recovery is recorded as
    the next event (`audit.head_recovered`), so a deleted head never restarts the chain at #1."""
    head = _HEAD.first(pk=1)
    if head is None:
        _recover_head()
        head = AuditHead.objects.select_for_update().get(pk=1)
    return head  # type: ignore[no-any-return]


def _recover_head() -> None:
    """Make the head row again from the chain's last event (the guards accept no other)."""
    last = AuditEvent.objects.order_by("-seq").values_list("seq", "hash").first()
    seq, chain_hash = last if last is not None else (0, GENESIS)
    _head, created = AuditHead.objects.get_or_create(
        pk=1, defaults={"seq": seq, "hash": chain_hash}
    )
    if not created or last is None:
        return
    data = {
        "seq": seq,
        "hash": chain_hash,
        "why": "the head row was missing (deleted); made again from the last event",
    }
    fields: dict[str, Any] = {
        "actor_id": None,
        "actor_name": "",
        "kind": EventKind.AUDIT_HEAD_RECOVERED,
        "object_type": "",
        "object_id": "",
        "table_name": "",
        "data": data,
    }
    data_text = json_text(data)
    parts = canonical_parts(fields, data_text)
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        event = _append_in_database(fields, parts, data_text, connection)
    else:
        event = _append(fields, parts)
    write_text(event, event_text(event))


def _append(fields: dict[str, Any], parts: tuple[str, str, str]) -> AuditEvent:
    head = _head_row()
    chained = {"seq": head.seq + 1, "at": timezone.now().astimezone(UTC), "prev_hash": head.hash}
    event = AuditEvent(
        **fields, **chained, hash=spliced_hash(parts, **chained), seal=seal(parts, signing_key())
    )
    connection = transaction.get_connection()
    if connection.vendor == "sqlite":
        _insert_canonical(event, connection)
    else:
        event.save(force_insert=True)
    AuditHead.objects.filter(pk=head.pk).update(seq=event.seq, hash=event.hash)
    return event


_INSERT_SQL = (
    "INSERT INTO audit_auditevent (seq, at, actor_id, actor_name, kind, object_type, object_id, "
    "table_name, data, prev_hash, hash, seal) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)


def _insert_canonical(event: AuditEvent, connection: Any) -> None:
    """SQLite keeps the data as text: stored exactly as the hash covers it (`json_text`:
    compact, keys sorted), which `verify_chain` requires of every stored event."""
    params = [
        event.seq,
        connection.ops.adapt_datetimefield_value(event.at),
        event.actor_id,
        event.actor_name,
        event.kind,
        event.object_type,
        event.object_id,
        event.table_name,
        json_text(event.data),
        event.prev_hash,
        event.hash,
        event.seal,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_INSERT_SQL, params)
        event.pk = cursor.lastrowid
    event._state.adding = False
    event._state.db = connection.alias


_APPEND_SQL = (
    "SELECT e_id, e_seq, e_at, e_prev, e_hash FROM casino_audit_append"
    "(%s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s)"
)


def _append_in_database(
    fields: dict[str, Any], parts: tuple[str, str, str], data_text: str, connection: Any
) -> AuditEvent:
    """PostgreSQL: one statement locks the head, writes the event and moves the head
    (audit/migrations/0008_append_function.py); the hash is computed there from `parts`."""
    params = [
        fields["actor_id"],
        fields["actor_name"],
        fields["kind"],
        fields["object_type"],
        fields["object_id"],
        fields["table_name"],
        data_text,
        *parts,
        timezone.now().astimezone(UTC),
        seal(parts, signing_key()),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_APPEND_SQL, params)
        row = cursor.fetchone()
        if row is None:  # no head row: recover it (recorded as an event), then write again
            _recover_head()
            cursor.execute(_APPEND_SQL, params)
            row = cursor.fetchone()
    event_id, seq, at, prev_hash, digest = row
    event = AuditEvent(
        id=event_id, **fields, seq=seq, at=at, prev_hash=prev_hash, hash=digest, seal=params[-1]
    )
    event._state.adding = False
    event._state.db = connection.alias
    return event


def audit_refused(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    method: str,
    path: str,
    reason: str,
    action: str = "",
    about: Mapping[str, Any] | None = None,
    table_name: str = "",
) -> AuditEvent:
    """The one writer of "permission refused" events (pages' 403s, the admin's refusals shown
    as messages, the API's 403s, separation-of-duties refusals wherever they are answered).
    Call it outside the refused write's transaction, so the record survives its rollback.

    A refused request writes nothing else: on SQLite it waits for the database's lock only
    briefly (`core.db.brief_lock_wait`), and a lock not free then fails it ("database is
    locked"), which its caller answers 503 with Retry-After.

    `action` and `about` name what was refused and what it concerned (a round's id and name:
    `round_id` puts the refusal on that round's record)."""
    user = actor if actor is not None and actor.is_authenticated else None
    data: dict[str, Any] = {"method": method, "path": path, "reason": reason}
    if action:
        data["action"] = action
    data.update(about or {})
    with brief_lock_wait():
        return audit_record(
            actor=user,
            kind=EventKind.PERMISSION_REFUSED,
            data=data,
            table_name=table_name,
        )


class Asked(Protocol):
    """A request as the pages and the API both have it (Django's or DRF's)."""

    @property
    def method(self) -> str | None: ...

    @property
    def path(self) -> str: ...


def audit_refused_duties(
    request: Asked,
    refusal: SeparationOfDuties,
    *,
    actor: AbstractBaseUser | AnonymousUser | None = None,
) -> AuditEvent:
    """Record a separation-of-duties refusal answered to `request` as a refused permission,
    with its action and what it concerned. `actor`: who was refused, when not the request's
    user (a pit boss's sign-off typed at a dealer's tablet)."""
    who = actor if actor is not None else getattr(request, "user", None)
    return audit_refused(
        actor=who,
        method=request.method or "",
        path=request.path,
        reason=refusal.message,
        action=refusal.action,
        about=refusal.about,
        table_name=refusal.table_name,
    )


# --- binding rows no service wrote ----------------------------------------------------------------

ROWS_PER_EVENT = 200


def bind_rows(
    rows: Iterable[models.Model], *, kind: str, actor_name: str, data: dict[str, Any]
) -> int:
    """Bind rows written in bulk (synthetic history, an upgrade's existing rows) in events of
    at most `ROWS_PER_EVENT` rows each, every one with `data`; returns the events written.
    Call it in the transaction that wrote the rows."""
    events = 0
    chunk: list[models.Model] = []

    def flush() -> None:
        nonlocal events
        if chunk:
            audit_record(actor=None, actor_name=actor_name, kind=kind, data=data, bind=chunk)
            events += 1
            chunk.clear()

    for row in rows:
        chunk.append(row)
        if len(chunk) >= ROWS_PER_EVENT:
            flush()
    flush()
    return events
