"""Verifying the audit chain, and signing checkpoints of its head.

`verify_chain()` walks every event in order and reports the first one that is wrong: a
changed row (its hash no longer matches its content), a deleted row (a gap in `seq`, or a
`prev_hash` that does not match), an inserted or reordered row (the same), a head that does not
match the last event; then every checkpoint: its signature must be valid for the key, and the
event at its `seq` must still carry its hash (a chain rewritten from scratch fails here).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .chain import GENESIS, stored_event_hash
from .models import AuditCheckpoint, AuditEvent, AuditHead


@dataclass(frozen=True)
class Problem:
    seq: int | None
    event_id: int | None
    what: str

    def __str__(self) -> str:
        where = f"event #{self.seq} (id {self.event_id})" if self.seq is not None else "the chain"
        return f"{where}: {self.what}"


def _key() -> bytes:
    return settings.AUDIT_CHECKPOINT_KEY.encode()


def sign(seq: int, chain_hash: str, at_iso: str) -> str:
    message = f"{seq}:{chain_hash}:{at_iso}".encode()
    return hmac.new(_key(), message, hashlib.sha256).hexdigest()


def verify_chain() -> tuple[int, Problem | None]:
    """(events checked, the first problem or None)."""
    prev_hash = GENESIS
    expected_seq = 1
    count = 0
    by_seq: dict[int, str] = {}
    last_seq = 0
    for ev in AuditEvent.objects.order_by("id").iterator(chunk_size=2000):
        count += 1
        if ev.seq != expected_seq:
            what = f"expected seq {expected_seq} but found {ev.seq}: " + (
                "events are missing (deleted)"
                if ev.seq > expected_seq
                else "an event was inserted or reordered"
            )
            return count, Problem(ev.seq, ev.pk, what)
        if ev.prev_hash != prev_hash:
            return count, Problem(
                ev.seq,
                ev.pk,
                "its prev_hash does not match the event before it "
                "(an event before it was deleted, inserted or reordered)",
            )
        if stored_event_hash(ev) != ev.hash:
            return count, Problem(
                ev.seq, ev.pk, "its content was changed (the hash does not match)"
            )
        prev_hash, expected_seq, last_seq = ev.hash, expected_seq + 1, ev.seq
        by_seq[ev.seq] = ev.hash
    head = AuditHead.objects.filter(pk=1).first()
    if head is not None and (head.seq != last_seq or head.hash != prev_hash):
        return count, Problem(
            None,
            None,
            f"the head says #{head.seq} but the chain ends at #{last_seq} "
            "(events at the end were deleted or the head was altered)",
        )
    for cp in AuditCheckpoint.objects.order_by("seq", "id"):
        at_iso = cp.at.astimezone(UTC).isoformat(timespec="microseconds")
        if not hmac.compare_digest(cp.signature, sign(cp.seq, cp.hash, at_iso)):
            return count, Problem(
                cp.seq, None, f"checkpoint {cp.pk}'s signature is not valid for the key"
            )
        if cp.seq == 0:
            continue
        if by_seq.get(cp.seq) != cp.hash:
            return count, Problem(
                cp.seq,
                None,
                f"the chain no longer matches signed checkpoint {cp.pk} "
                "(the chain was rewritten or cut after it)",
            )
    return count, None


@transaction.atomic
def record_checkpoint() -> AuditCheckpoint:
    """Sign the chain's current head (idempotent: no new row if the head has not moved)."""
    head = AuditHead.objects.select_for_update().filter(pk=1).first()
    seq, chain_hash = (head.seq, head.hash) if head else (0, GENESIS)
    last = AuditCheckpoint.objects.order_by("-seq", "-id").first()
    if last is not None and last.seq == seq and last.hash == chain_hash:
        return last
    at = timezone.now().astimezone(UTC)
    return AuditCheckpoint.objects.create(
        seq=seq,
        hash=chain_hash,
        at=at,
        key_id=settings.AUDIT_CHECKPOINT_KEY_ID,
        signature=sign(seq, chain_hash, at.isoformat(timespec="microseconds")),
    )
