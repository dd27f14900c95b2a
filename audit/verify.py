"""Verifying the audit chain against its signed checkpoints and the anchor outside the database.

`verify_chain()` reports the first thing that is wrong, in this order:
1. the events, walked in the order they were written: a changed row (its hash no longer
   matches its content), a deleted, inserted or reordered row (a gap in `seq` or a `prev_hash`
   that does not match), then a head that does not match the last event;
2. the anchor file: every line must be a checkpoint signed with the key, the lines must chain,
   each must still be in the database, and the chain must still hold the hash it anchored (a
   cut, emptied or consistently re-hashed chain fails here even with its checkpoints deleted);
3. the checkpoints in the database: signed, chained one to the next, matching the chain, and in
   the anchor (unless made in the last `AUDIT_ANCHOR_GRACE_SECONDS`, their append in flight);
4. the lag: an event older than `AUDIT_CHECKPOINT_MAX_LAG_SECONDS` must be covered by a
   checkpoint.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from .chain import GENESIS, canonical_parts, json_text, seal_problem, stored_event_hash
from .checkpoints import (
    AnchorLine,
    anchor_path,
    anchor_read,
    as_fields,
    signature_valid,
    signing_key,
    start_signature_valid,
)
from .guards import guard_problems
from .models import AuditCheckpoint, AuditEvent, AuditHead

logger = logging.getLogger(__name__)


class _Event(NamedTuple):
    """A stored event's fields, read without building a model instance (a million in seconds)."""

    id: int
    seq: int
    at: datetime
    actor_id: int | None
    actor_name: str
    kind: str
    object_type: str
    object_id: str
    table_name: str
    data: Any
    prev_hash: str
    hash: str
    seal: str


@dataclass(frozen=True)
class Problem:
    seq: int | None
    event_id: int | None
    what: str

    def __str__(self) -> str:
        where = f"event #{self.seq} (id {self.event_id})" if self.seq is not None else "the chain"
        return f"{where}: {self.what}"


_CHUNK = 5000
_SQLITE_EVENTS = (
    "SELECT id, seq, at, actor_id, actor_name, kind, object_type, object_id, table_name, data, "
    "prev_hash, hash, seal FROM audit_auditevent ORDER BY id"
)


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def _stored_data(text: str) -> tuple[Any, str]:
    """(the data, "" or what is wrong with its stored text): SQLite keeps the text as written,
    which must be exactly `json_text` of the data (a row edited by hand with a duplicate key
    would hash one value and show another to a text search)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None, "its data was changed: the stored text is not JSON"
    if json_text(data) == text:
        return data, ""
    try:
        json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as dup:
        return data, f"its data was changed: the stored text has the key {str(dup)[:40]!r} twice"
    return data, "its data was changed: the stored text is not in its canonical form"


def _sqlite_rows() -> Iterator[_Event]:
    """The events as SQLite stores them: a raw cursor in chunks, the data as its stored text
    (checked by `_stored_data`), no model instances."""
    with connection.cursor() as cursor:
        cursor.execute(_SQLITE_EVENTS)
        while rows := cursor.fetchmany(_CHUNK):
            for row in rows:
                at = row[2]
                if isinstance(at, str):
                    at = datetime.fromisoformat(at)
                if at.tzinfo is None:
                    at = at.replace(tzinfo=UTC)
                yield _Event(*row[:2], at, *row[3:])


def _rows() -> Iterator[_Event]:
    if connection.vendor == "sqlite":
        return _sqlite_rows()
    rows = AuditEvent.objects.order_by("id").values_list(*_Event._fields).iterator(_CHUNK)
    return (_Event(*row) for row in rows)


def _link_problem(ev: _Event, expected_seq: int, prev_hash: str) -> str:
    """What is wrong with the event's place in the chain or its hash ("" when nothing)."""
    if ev.seq != expected_seq:
        return f"expected seq {expected_seq} but found {ev.seq}: " + (
            "events are missing (deleted)"
            if ev.seq > expected_seq
            else "an event was inserted or reordered"
        )
    if ev.prev_hash != prev_hash:
        return (
            "its prev_hash does not match the event before it "
            "(an event before it was deleted, inserted or reordered)"
        )
    if stored_event_hash(ev) != ev.hash:
        return "its content was changed (the hash does not match)"
    return ""


def _seal_problem(ev: _Event, key: bytes, nonces: dict[str, int]) -> str:
    """What is wrong with the event's seal ("" when it is valid and its own)."""
    fields = {name: getattr(ev, name) for name in _SEALED_FIELDS}
    what = seal_problem(ev.seal, canonical_parts(fields, json_text(ev.data)), key)
    if what:
        return what
    nonce = ev.seal.split(":")[1]
    first = nonces.setdefault(nonce, ev.seq)
    if first != ev.seq:
        return f"its seal repeats event #{first}'s (a genuine event copied: a replay)"
    return ""


_SEALED_FIELDS = ("actor_id", "actor_name", "kind", "object_type", "object_id", "table_name")


def _walk_events(wanted: set[int]) -> tuple[int, int, str, dict[int, str], Problem | None]:
    """(events, last seq, last hash, {seq: hash} for the wanted seqs, first problem)."""
    prev_hash, expected_seq, count = GENESIS, 1, 0
    last_seq = 0
    found: dict[int, str] = {}
    raw_text = connection.vendor == "sqlite"
    key = signing_key()
    nonces: dict[str, int] = {}
    for ev in _rows():
        count += 1
        what = ""
        if raw_text:
            data, what = _stored_data(ev.data)
            ev = ev._replace(data=data)
        what = what or _link_problem(ev, expected_seq, prev_hash)
        what = what or _seal_problem(ev, key, nonces)
        if what:
            return count, last_seq, prev_hash, found, Problem(ev.seq, ev.id, what)
        prev_hash, last_seq = ev.hash, ev.seq
        expected_seq += 1
        if last_seq in wanted:
            found[last_seq] = prev_hash
    return count, last_seq, prev_hash, found, None


def _chain_problem(seq: int, want: str, last_seq: int, found: dict[int, str], what: str) -> str:
    if seq > last_seq:
        return (
            f"{what} covers event #{seq} but the chain ends at #{last_seq} "
            "(events at the end were deleted)"
        )
    if seq and found.get(seq) != want:
        return f"{what} no longer matches event #{seq} (the chain was rewritten)"
    return ""


def verify_chain() -> tuple[int, Problem | None]:
    """(events checked, the first problem or None)."""
    checkpoints = list(AuditCheckpoint.objects.order_by("seq", "id"))
    anchored = anchor_read()
    wanted = {cp.seq for cp in checkpoints}
    for line in anchored or []:
        if line.fields is not None:
            wanted.add(line.fields["seq"])

    count, last_seq, last_hash, found, problem = _walk_events(wanted)
    if problem is not None:
        return count, problem
    head = AuditHead.objects.filter(pk=1).first()
    if head is None and count:
        return count, Problem(
            None,
            None,
            f"the head row is missing (deleted) but the chain holds {count} events "
            "(the next audited write makes it again from the last event, and records that)",
        )
    if head is not None and (head.seq != last_seq or head.hash != last_hash):
        return count, Problem(
            None,
            None,
            f"the head says #{head.seq} but the chain ends at #{last_seq} "
            "(events at the end were deleted or the head was altered)",
        )

    start = anchored[0] if anchored and anchored[0].start else None
    before_start = _before_start(start, checkpoints)
    problem = _check_anchor(anchored, checkpoints, last_seq, found)
    if problem is None:
        problem = _check_checkpoints(anchored, checkpoints, last_seq, found, before_start)
    if problem is None:
        problem = _check_coverage(count, anchored, checkpoints, before_start)
    if problem is None:
        problem = _check_lag(checkpoints, last_seq)
    return count, problem


def _before_start(start: AnchorLine | None, checkpoints: list[AuditCheckpoint]) -> set[str]:
    """The chained checkpoints up to the one a new start names: in the anchor it set aside."""
    if start is None or start.fields is None or start.fields["checkpoint"] == GENESIS:
        return set()
    before = []
    for cp in checkpoints:
        if cp.prev_signature:
            before.append(cp.signature)
            if cp.signature == start.fields["checkpoint"]:
                return set(before)
    return set()


def _check_anchor(
    anchored: list[AnchorLine] | None,
    checkpoints: list[AuditCheckpoint],
    last_seq: int,
    found: dict[int, str],
) -> Problem | None:
    if anchored is None:
        return None  # no file yet: every checkpoint must then be within the grace (below)
    in_db = {cp.signature: cp for cp in checkpoints}
    lines = []
    start = None
    for line in anchored:
        if line.fields is None:
            return Problem(None, None, f"anchor line {line.number} is not a checkpoint (edited)")
        if line.start:
            if line is not anchored[0]:
                return Problem(
                    None, None, f"anchor line {line.number} is a new start but not the first line"
                )
            if not start_signature_valid(line.fields):
                return Problem(
                    line.fields["seq"],
                    None,
                    f"anchor line {line.number} (a new start)'s signature is not valid for the "
                    "key (edited or forged)",
                )
            start = line
            continue
        if not signature_valid(line.fields):
            return Problem(
                line.fields["seq"],
                None,
                f"anchor line {line.number}'s signature is not valid for the key (edited)",
            )
        lines.append(line)
    if start is not None and start.fields is not None:
        f = start.fields
        text = _chain_problem(f["seq"], f["hash"], last_seq, found, "the new start at line 1")
        if text:
            return Problem(f["seq"], None, text)
        if f["checkpoint"] != GENESIS and f["checkpoint"] not in in_db:
            return Problem(
                f["seq"],
                None,
                "the new start at anchor line 1 follows a checkpoint that is missing from the "
                "database (checkpoints were deleted)",
            )
    lines.sort(key=lambda line: (line.fields["seq"], line.number))
    for line in lines:  # first what matters most: does the chain still hold what was anchored?
        f = line.fields
        what = f"the checkpoint anchored at line {line.number}"
        text = _chain_problem(f["seq"], f["hash"], last_seq, found, what)
        if text:
            return Problem(f["seq"], None, text)
    prev = start.fields["checkpoint"] if start is not None and start.fields else GENESIS
    for line in lines:
        f = line.fields
        what = f"the checkpoint anchored at line {line.number}"
        if f["prev_signature"] != prev:
            return Problem(
                f["seq"],
                None,
                f"{what} does not follow the anchored checkpoint before it "
                "(anchor lines were removed, or the checkpoints' chain was broken)",
            )
        prev = f["signature"]
        cp = in_db.get(f["signature"])
        if cp is None or as_fields(cp) != {k: f[k] for k in as_fields(cp)}:
            return Problem(
                f["seq"],
                None,
                f"{what} is missing from the database (checkpoints were deleted or altered)",
            )
    return None


def _check_checkpoints(
    anchored: list[AnchorLine] | None,
    checkpoints: list[AuditCheckpoint],
    last_seq: int,
    found: dict[int, str],
    before_start: set[str],
) -> Problem | None:
    in_anchor = {line.fields["signature"] for line in anchored or [] if line.fields}
    grace = timezone.now() - timedelta(seconds=settings.AUDIT_ANCHOR_GRACE_SECONDS)
    prev = GENESIS
    chained_started = False
    for cp in checkpoints:
        what = f"checkpoint {cp.pk} (at #{cp.seq})"
        if not signature_valid(as_fields(cp)):
            return Problem(cp.seq, None, f"{what}: its signature is not valid for the key")
        if not cp.prev_signature:  # made before checkpoints were chained
            if chained_started:
                return Problem(cp.seq, None, f"{what} is unchained after chained checkpoints")
        else:
            chained_started = True
            if cp.prev_signature != prev:
                return Problem(
                    cp.seq,
                    None,
                    f"{what} does not follow the checkpoint before it "
                    "(checkpoints were deleted or inserted)",
                )
            prev = cp.signature
            missing = cp.signature not in in_anchor and cp.signature not in before_start
            if missing and cp.at < grace:
                if anchored is None:
                    why = "the anchor file is missing (deleted or moved)"
                elif not anchored:
                    why = "the anchor file is empty (emptied)"
                else:
                    why = "the anchor was truncated or edited"
                return Problem(
                    cp.seq,
                    None,
                    f"{what} is not in the anchor file {anchor_path()}: {why} "
                    "(after a crash between a commit and its append, `audit_checkpoint` "
                    "re-anchors)",
                )
        text = _chain_problem(cp.seq, cp.hash, last_seq, found, what)
        if text:
            return Problem(cp.seq, None, text)
    return None


def _check_coverage(
    count: int,
    anchored: list[AnchorLine] | None,
    checkpoints: list[AuditCheckpoint],
    before_start: set[str],
) -> Problem | None:
    """A chain with events has a checkpoint in the database and a line in the anchor that
    cover them, whatever the events' times (the first event always makes one); the anchor may
    lack it only while the append of a checkpoint made in the grace is in flight."""
    if not count:
        return None
    if not any(cp.seq >= 1 for cp in checkpoints):
        return Problem(
            1,
            None,
            f"the chain holds {count} events but no checkpoint in the database covers them "
            "(checkpoints were deleted: the first event always makes one)",
        )
    if any(line.fields is not None and line.fields["seq"] >= 1 for line in anchored or []):
        return None
    in_flight = any(
        cp.prev_signature and cp.seq >= 1 and cp.signature not in before_start for cp in checkpoints
    )  # every one not in the anchor is within the grace, or _check_checkpoints said so
    if in_flight:
        return None
    state = "missing" if anchored is None else "empty of checkpoints"
    return Problem(
        1,
        None,
        f"the anchor file {anchor_path()} is {state} but the chain holds {count} events "
        "(the anchor was deleted or emptied; a deliberate new start is `audit_new_start`)",
    )


def _check_lag(checkpoints: list[AuditCheckpoint], last_seq: int) -> Problem | None:
    covered = max((cp.seq for cp in checkpoints), default=0)
    if covered >= last_seq:
        return None
    cutoff = timezone.now() - timedelta(seconds=settings.AUDIT_CHECKPOINT_MAX_LAG_SECONDS)
    oldest_uncovered = AuditEvent.objects.filter(seq__gt=covered, at__lte=cutoff).aggregate(
        m=Max("seq")
    )["m"]
    if oldest_uncovered is None:
        return None
    return Problem(
        covered + 1,
        None,
        f"events #{covered + 1} to #{oldest_uncovered} are older than the allowed lag "
        f"({settings.AUDIT_CHECKPOINT_MAX_LAG_SECONDS} s) but no checkpoint covers them "
        "(checkpoints were deleted, or none is being made: run `audit_checkpoint`)",
    )


@dataclass(frozen=True)
class RecordReport:
    """What `verify_record` found: the events walked, the bound rows compared, and every
    problem (the chain's first, then each row that does not say what its latest event says)."""

    events: int
    rows: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


# Derived data the pages read (the hold reports' summaries) is not bound event by event: it is
# summed from bound rows, and a check of an app's own (registered in its `ready`) sums it again
# and names each row that says otherwise.
DERIVED_CHECKS: dict[str, Callable[[], list[str]]] = {}


def register_derived_check(name: str, check: Callable[[], list[str]]) -> None:
    """`check()` returns one line per derived row that differs from the rows it is summed from."""
    DERIVED_CHECKS[name] = check


def derived_problems(name: str, check: Callable[[], list[str]]) -> list[str]:
    """A derived check's problems; a check that stops (a bug, a row it cannot read) is itself a
    problem naming the check and its error, and the other checks still run."""
    try:
        # In a transaction (a savepoint inside one): a check whose query fails leaves the
        # connection usable for the checks after it.
        with transaction.atomic():
            return list(check())
    except Exception as exc:  # noqa: BLE001 - any failure of a check is a finding, not a crash
        logger.exception("the %s check stopped", name)
        return [f"{name}: the check stopped with {type(exc).__name__}: {exc}"]


def verify_record() -> RecordReport:
    """The whole record: the chain with its checkpoints and anchor (`verify_chain`), every row
    that holds or decides money against its latest event (`audit.binding.check_rows`), the
    derived data summed again from those rows (`DERIVED_CHECKS`), then the database's guard
    triggers (`audit.guards.guard_problems`: each one missing or disabled)."""
    from .binding import check_rows, summary

    count, problem = verify_chain()
    rows, row_problems = check_rows()
    problems = ([f"audit chain BROKEN at {problem}"] if problem is not None else []) + summary(
        row_problems
    )
    for name, check in DERIVED_CHECKS.items():
        problems += derived_problems(name, check)
    problems += [f"database guard: {p}" for p in guard_problems(connection)]
    return RecordReport(events=count, rows=rows, problems=tuple(problems))
