"""The audit trail: append-only in the database, tamper-evident by its hash chain and its
signed checkpoints. Tampering is done with raw SQL after lifting the triggers, as someone with
direct database access would."""

from __future__ import annotations

import threading
from datetime import UTC
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, connection, connections, transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.chain import canonical_parts, event_hash, json_text, spliced_hash, stored_event_hash
from audit.checkpoints import record_checkpoint
from audit.models import AuditCheckpoint, AuditEvent, AuditHead
from audit.services import audit_record
from audit.verify import verify_chain

from .tamper import raw, reseal, run_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain(db: Any) -> list[AuditEvent]:
    for i in range(6):
        audit_record(
            actor=None,
            actor_name="tester",
            kind="test.event",
            data={"i": i, "amount_cents": 100 * i},
        )
    return list(AuditEvent.objects.order_by("seq"))


def test_a_whole_chain_verifies(chain: list[AuditEvent]) -> None:
    code, text = run_verify()
    assert code == 0 and "6 events" in text


def test_each_event_hashes_its_canonical_content_and_links_to_the_previous(
    chain: list[AuditEvent],
) -> None:
    assert chain[0].prev_hash == "0" * 64
    for before, ev in zip(chain, chain[1:], strict=False):
        assert ev.prev_hash == before.hash
    head = AuditHead.objects.get(pk=1)
    assert (head.seq, head.hash) == (chain[-1].seq, chain[-1].hash)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE audit_auditevent SET kind = 'x' WHERE seq = 2",
        "DELETE FROM audit_auditevent WHERE seq = 2",
    ],
)
def test_the_database_refuses_update_and_delete(chain: list[AuditEvent], sql: str) -> None:
    with (
        pytest.raises((DatabaseError, IntegrityError)),
        transaction.atomic(),
        connection.cursor() as c,
    ):
        c.execute(sql)
    assert AuditEvent.objects.count() == 6


def test_a_changed_row_is_named(chain: list[AuditEvent]) -> None:
    raw("UPDATE audit_auditevent SET data = %s WHERE seq = 3", ['{"i": 2, "amount_cents": 99999}'])
    code, text = run_verify()
    assert code == 1 and "#3" in text and "changed" in text


def test_a_deleted_row_is_named(chain: list[AuditEvent]) -> None:
    raw("DELETE FROM audit_auditevent WHERE seq = 3")
    code, text = run_verify()
    assert code == 1 and "#4" in text and "missing" in text


def test_a_deleted_last_row_is_caught_by_the_head(chain: list[AuditEvent]) -> None:
    raw("DELETE FROM audit_auditevent WHERE seq = 6")
    code, text = run_verify()
    assert code == 1 and "head" in text


def test_an_inserted_row_is_named(chain: list[AuditEvent]) -> None:
    ev = chain[2]
    raw("UPDATE audit_auditevent SET seq = seq + 100 WHERE seq > 3")
    raw("UPDATE audit_auditevent SET seq = seq - 99 WHERE seq > 100")
    fake = dict(
        seq=4,
        at=ev.at,
        actor_id=None,
        actor_name="intruder",
        kind="test.event",
        object_type="",
        object_id="",
        table_name="",
        data={"i": 99},
        prev_hash=ev.hash,
    )
    raw(
        "INSERT INTO audit_auditevent (seq, at, actor_id, actor_name, kind, object_type, "
        "object_id, table_name, data, prev_hash, hash) VALUES "
        "(%s, %s, NULL, 'intruder', 'test.event', '', '', '', %s, %s, %s)",
        [4, ev.at, '{"i": 99}', ev.hash, event_hash(**fake)],
    )
    code, text = run_verify()
    assert code == 1 and ("#4" in text or "#5" in text)


def test_reordered_rows_are_named(chain: list[AuditEvent]) -> None:
    raw("UPDATE audit_auditevent SET seq = -1 WHERE seq = 2")
    raw("UPDATE audit_auditevent SET seq = 2 WHERE seq = 3")
    raw("UPDATE audit_auditevent SET seq = 3 WHERE seq = -1")
    code, text = run_verify()
    assert code == 1 and ("#3" in text or "#2" in text)


def test_a_chain_rewritten_consistently_is_caught_by_the_signed_checkpoint(
    chain: list[AuditEvent],
) -> None:
    checkpoint = record_checkpoint()
    assert checkpoint.seq == 6
    # Rewrite event 2 and re-hash everything after it, head included: the chain alone looks whole.
    prev = chain[0].hash
    for ev in chain[1:]:
        data = {"i": 42, "amount_cents": 1} if ev.seq == 2 else ev.data
        new_hash = stored_event_hash(ev, data=data, prev_hash=prev)
        raw(
            "UPDATE audit_auditevent SET data = %s, prev_hash = %s, hash = %s WHERE seq = %s",
            [json_text(data), prev, new_hash, ev.seq],
        )
        prev = new_hash
    raw("UPDATE audit_audithead SET hash = %s WHERE id = 1", [prev])
    code, text = run_verify()
    assert code == 1 and "event #2" in text and "seal is not valid" in text  # no key: no seal
    reseal(2)  # with the seal forged too, the signed checkpoint still disagrees
    code, text = run_verify()
    assert code == 1 and "checkpoint" in text


def test_a_forged_checkpoint_is_caught(chain: list[AuditEvent]) -> None:
    cp = record_checkpoint()
    raw("UPDATE audit_auditcheckpoint SET signature = %s WHERE id = %s", ["0" * 64, cp.pk])
    code, text = run_verify()
    assert code == 1 and "signature" in text


def test_checkpoint_task_is_idempotent(chain: list[AuditEvent]) -> None:
    from audit.tasks import checkpoint_audit_chain

    assert checkpoint_audit_chain.apply().get() == 6
    made = AuditCheckpoint.objects.count()
    assert checkpoint_audit_chain.apply().get() == 6
    assert AuditCheckpoint.objects.count() == made


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_writers_never_fork_the_chain() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL) for truly concurrent writers")
    barrier = threading.Barrier(20)
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            barrier.wait(timeout=10)
            for i in range(10):
                audit_record(
                    actor=None,
                    actor_name=f"tablet-{n}",
                    kind="test.concurrent",
                    data={"n": n, "i": i},
                )
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors
    count, problem = verify_chain()
    assert problem is None
    assert AuditEvent.objects.filter(kind="test.concurrent").count() == 200
    assert list(AuditEvent.objects.order_by("seq").values_list("seq", flat=True)) == list(
        range(1, count + 1)
    )


# --- the writer's splice: the hash without re-encoding under the head's lock ------------------

_text = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=12)
_json_data = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    data=st.dictionaries(_text, _json_data, max_size=5),
    actor_id=st.none() | st.integers(1, 10**12),
    name=_text,
    seq=st.integers(1, 10**15),
    at=st.datetimes(timezones=st.just(UTC)),
)
def test_the_spliced_hash_is_the_canonical_hash(
    data: Any, actor_id: Any, name: str, seq: int, at: Any
) -> None:
    fields = {
        "actor_id": actor_id,
        "actor_name": name,
        "kind": 'test.é"vent',
        "object_type": "tables.round",
        "object_id": "12",
        "table_name": name[::-1],
        "data": data,
    }
    chained = {"seq": seq, "at": at, "prev_hash": "ab" * 32}
    parts = canonical_parts(fields, json_text(data))
    assert spliced_hash(parts, **chained) == event_hash(**fields, **chained)


def test_an_event_as_stored_hashes_as_canonical_says(db: Any) -> None:
    """On PostgreSQL the database hashes the event (casino_audit_append); on SQLite Python does.
    Either way the stored row gives back the stored hash, awkward text and all."""
    data = {"ünï": 'quote " back\\slash \n tab\t', "emoji": "🂡", "n": [1, -2, None, True]}
    written = [
        audit_record(actor=None, actor_name='dé"aler', kind="test.event", data=data),
        audit_record(actor=None, actor_name="", kind="test.event", data={}, table_name="SC-1"),
    ]
    stored = list(AuditEvent.objects.order_by("seq"))
    assert [e.pk for e in stored] == [e.pk for e in written]
    for mine, row in zip(written, stored, strict=True):
        assert (mine.seq, mine.at, mine.prev_hash, mine.hash) == (
            row.seq,
            row.at,
            row.prev_hash,
            row.hash,
        )
        assert row.hash == stored_event_hash(row)
    assert stored[1].prev_hash == stored[0].hash
    assert stored[1].at >= stored[0].at
    assert AuditHead.objects.get().hash == stored[1].hash
    assert run_verify()[0] == 0
