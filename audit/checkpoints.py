"""Signed, chained checkpoints of the audit chain's head, anchored outside the database.

A checkpoint records the head (seq and hash) at a moment, signed with HMAC-SHA256 under a key
that is never stored in the database (`AUDIT_CHECKPOINT_KEY`), and chained to the checkpoint
before it (its signature covers the previous checkpoint's signature). Checkpoints are made:
- in-process, in the transaction of the event that makes one due (every
  `AUDIT_CHECKPOINT_EVERY` events, or when the last one is older than
  `AUDIT_CHECKPOINT_SECONDS`), so the embedded default needs no beat;
- by Celery beat, by `manage.py audit_checkpoint` (an auditor closing a gaming day), and by the
  loop `audit_checkpoint --every SECONDS` that `bin/run` starts, so a quiet tail is covered too.

Every checkpoint, once committed, is appended as a JSON line to the anchor file
(`AUDIT_ANCHOR_PATH`, and to syslog when `AUDIT_ANCHOR_SYSLOG` is set). Someone who rewrites
or cuts the database, checkpoints included, cannot rewrite the anchor's signed lines without
the key: `verify_audit` compares the two. See docs/security.md for what this does not cover.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import logging.handlers
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .chain import GENESIS, json_text
from .models import AuditCheckpoint, AuditHead

log = logging.getLogger("audit.anchor")

ANCHOR_FIELDS = ("seq", "hash", "at", "key_id", "prev_signature", "signature")


def signing_key() -> bytes:
    """The key of the checkpoints and of every event's seal (never stored in the database)."""
    return str(settings.AUDIT_CHECKPOINT_KEY).encode()


def iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def sign(*, seq: int, chain_hash: str, at_iso: str, key_id: str, prev_signature: str) -> str:
    """The signature of a chained checkpoint. One made before checkpoints were chained (its
    `prev_signature` is empty) was signed over `seq:hash:at` alone."""
    if prev_signature:
        message = f"2:{seq}:{chain_hash}:{at_iso}:{key_id}:{prev_signature}"
    else:
        message = f"{seq}:{chain_hash}:{at_iso}"
    return hmac.new(signing_key(), message.encode(), hashlib.sha256).hexdigest()


def signature_valid(fields: dict[str, Any]) -> bool:
    expected = sign(
        seq=int(fields["seq"]),
        chain_hash=str(fields["hash"]),
        at_iso=str(fields["at"]),
        key_id=str(fields["key_id"]),
        prev_signature=str(fields["prev_signature"]),
    )
    return hmac.compare_digest(str(fields["signature"]), expected)


def as_fields(cp: AuditCheckpoint) -> dict[str, Any]:
    return {
        "seq": cp.seq,
        "hash": cp.hash,
        "at": iso(cp.at),
        "key_id": cp.key_id,
        "prev_signature": cp.prev_signature,
        "signature": cp.signature,
    }


def last_checkpoint() -> AuditCheckpoint | None:
    return AuditCheckpoint.objects.order_by("-seq", "-id").first()


def _make(*, seq: int, chain_hash: str, last: AuditCheckpoint | None) -> AuditCheckpoint:
    """Write a checkpoint of (seq, hash); the caller holds the head's lock."""
    at = timezone.now().astimezone(UTC)
    prev = last.signature if last is not None and last.prev_signature else GENESIS
    key_id = str(settings.AUDIT_CHECKPOINT_KEY_ID)
    cp = AuditCheckpoint.objects.create(
        seq=seq,
        hash=chain_hash,
        at=at,
        key_id=key_id,
        prev_signature=prev,
        signature=sign(
            seq=seq, chain_hash=chain_hash, at_iso=iso(at), key_id=key_id, prev_signature=prev
        ),
    )
    fields = as_fields(cp)
    transaction.on_commit(lambda: anchor_append(fields))
    return cp


# The newest checkpoint this process has seen committed: (seq, at). Checkpoints only move
# forward, so the one in the database is this one or newer, and when this one says no
# checkpoint is due yet, none is: `checkpoint_if_due` reads the table only when one may be.
_seen: tuple[int, datetime] | None = None


def _remember(seq: int, at: datetime) -> None:
    global _seen
    if _seen is None or seq >= _seen[0]:
        _seen = (seq, at)


def forget_seen() -> None:
    """Forget the newest checkpoint seen (a test that empties the database)."""
    global _seen
    _seen = None


def _due(last_seq: int, last_at: datetime, seq: int, at: datetime) -> bool:
    """A checkpoint is due when none covers an event yet (the genesis checkpoint, at the first
    event even after one of the empty chain), every N events, and after the interval."""
    if last_seq == 0 < seq:
        return True
    return seq - last_seq >= settings.AUDIT_CHECKPOINT_EVERY or at - last_at >= timedelta(
        seconds=settings.AUDIT_CHECKPOINT_SECONDS
    )


def checkpoint_if_due(*, seq: int, chain_hash: str, at: datetime) -> AuditCheckpoint | None:
    """Called by `audit_record` under the head's lock, right after writing event `seq`."""
    seen = _seen
    if seen is not None and seen[0] <= seq and not _due(seen[0], seen[1], seq, at):
        return None
    last = last_checkpoint()
    if last is not None:
        known = (last.seq, last.at)
        transaction.on_commit(lambda: _remember(*known))
    if last is not None and not _due(last.seq, last.at, seq, at):
        return None
    cp = _make(seq=seq, chain_hash=chain_hash, last=last)
    transaction.on_commit(lambda: _remember(cp.seq, cp.at))
    return cp


@transaction.atomic
def record_checkpoint() -> AuditCheckpoint:
    """Sign the chain's current head now (no new row if the last checkpoint has it already)."""
    head = AuditHead.objects.select_for_update().filter(pk=1).first()
    seq, chain_hash = (head.seq, head.hash) if head else (0, GENESIS)
    last = last_checkpoint()
    if last is not None and last.seq == seq and last.hash == chain_hash and last.prev_signature:
        return last
    return _make(seq=seq, chain_hash=chain_hash, last=last)


# The anchor: an append-only file of JSON lines outside the database ---------------------------


def anchor_path() -> Path:
    return Path(settings.AUDIT_ANCHOR_PATH)


def anchor_append(fields: dict[str, Any]) -> None:
    """Append one checkpoint to the anchor file (O_APPEND, fsync) and, when set, to syslog.

    Runs after the checkpoint's transaction committed. A failure is logged, not raised: the
    round that made the checkpoint is already on the record, and `verify_audit` reports a
    checkpoint missing from the anchor (`audit_checkpoint` re-anchors it)."""
    line = json.dumps({k: fields[k] for k in ANCHOR_FIELDS}, sort_keys=True) + "\n"
    path = anchor_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            os.write(fd, line.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        log.exception("could not append checkpoint #%s to the anchor %s", fields["seq"], path)
    if settings.AUDIT_ANCHOR_SYSLOG:
        _syslog().info("casino-audit-anchor %s", line.strip())


_syslog_logger: logging.Logger | None = None


def _syslog() -> logging.Logger:
    global _syslog_logger
    if _syslog_logger is None:
        target = str(settings.AUDIT_ANCHOR_SYSLOG)
        address: str | tuple[str, int]
        if target.startswith("/"):
            address = target
        else:
            host, _, port = target.partition(":")
            address = (host, int(port or 514))
        logger = logging.getLogger("audit.anchor.syslog")
        logger.propagate = False
        logger.setLevel(logging.INFO)
        logger.addHandler(logging.handlers.SysLogHandler(address=address))
        _syslog_logger = logger
    return _syslog_logger


@dataclass(frozen=True)
class AnchorLine:
    number: int  # 1-based line number in the file
    fields: dict[str, Any] | None  # None: the line is not a checkpoint (damaged)
    start: bool = False  # a signed new start (`audit_new_start`), not a checkpoint


# A deliberate new start (`manage.py audit_new_start`): the first line of a new anchor, naming
# the chain's head it starts from (seq, hash), the newest checkpoint of the database then (the
# next anchored checkpoint chains to it; GENESIS when there was none), who, when and why.
START_FIELDS = ("new_start", "seq", "hash", "at", "key_id", "checkpoint", "by", "reason")


def sign_start(fields: dict[str, Any]) -> str:
    message = "start:" + json_text({k: fields[k] for k in START_FIELDS})
    return hmac.new(signing_key(), message.encode(), hashlib.sha256).hexdigest()


def start_signature_valid(fields: dict[str, Any]) -> bool:
    return hmac.compare_digest(str(fields.get("signature", "")), sign_start(fields))


def _is_start(fields: Any) -> bool:
    return (
        isinstance(fields, dict)
        and fields.get("new_start") is True
        and all(k in fields for k in (*START_FIELDS, "signature"))
        and isinstance(fields["seq"], int)
    )


def anchor_read() -> list[AnchorLine] | None:
    """The anchor file's lines (None when there is no file)."""
    path = anchor_path()
    if not path.exists():
        return None
    lines = []
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                fields = json.loads(text)
                ok = isinstance(fields, dict) and all(k in fields for k in ANCHOR_FIELDS)
                ok = ok and isinstance(fields["seq"], int)
            except ValueError:
                ok = False
                fields = None
            if not ok and _is_start(fields):
                lines.append(AnchorLine(number, fields, start=True))
                continue
            lines.append(AnchorLine(number, fields if ok else None))
    return lines


def reanchor_missing() -> int:
    """Append to the anchor every checkpoint of the database it lacks (after a crash between
    a commit and its append); returns how many. It restores only genuine, signed lines."""
    lines = anchor_read() or []
    known = {line.fields["signature"] for line in lines if line.fields is not None}
    before_start = started_before(lines)
    added = 0
    for cp in AuditCheckpoint.objects.exclude(prev_signature="").order_by("seq", "id"):
        if cp.signature not in known and cp.signature not in before_start:
            anchor_append(as_fields(cp))
            added += 1
    return added


def started_before(lines: list[AnchorLine]) -> set[str]:
    """The signatures of the database's checkpoints up to the one a new start names (they are
    in the anchor the new start set aside, not in this one); empty without a new start."""
    if not lines or not lines[0].start or lines[0].fields is None:
        return set()
    named = lines[0].fields["checkpoint"]
    if named == GENESIS:
        return set()
    before: list[str] = []
    for signature in (
        AuditCheckpoint.objects.exclude(prev_signature="")
        .order_by("seq", "id")
        .values_list("signature", flat=True)
    ):
        before.append(signature)
        if signature == named:
            return set(before)
    return set()  # the named checkpoint is not in the database: verify_chain reports it


def write_start(
    *, by: str, reason: str, seq: int, chain_hash: str
) -> tuple[Path | None, dict[str, Any]]:
    """Set the anchor aside (renamed with the time) and begin a new one with a signed new start
    at the chain's head (seq, hash); the caller holds the head's lock. Returns (where the old
    anchor went, or None when there was none; the new start's fields)."""
    now = timezone.now().astimezone(UTC)
    last = last_checkpoint()
    fields: dict[str, Any] = {
        "new_start": True,
        "seq": seq,
        "hash": chain_hash,
        "at": iso(now),
        "key_id": str(settings.AUDIT_CHECKPOINT_KEY_ID),
        "checkpoint": last.signature if last is not None and last.prev_signature else GENESIS,
        "by": by,
        "reason": reason,
    }
    fields["signature"] = sign_start(fields)
    path = anchor_path()
    moved = None
    if path.exists():
        moved = path.with_name(f"{path.name}.before-new-start-{now:%Y%m%dT%H%M%S%fZ}")
        path.rename(moved)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o640)
    try:
        os.write(fd, (json.dumps(fields, sort_keys=True) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    if settings.AUDIT_ANCHOR_SYSLOG:
        _syslog().info("casino-audit-anchor %s", json.dumps(fields, sort_keys=True))
    return moved, fields
