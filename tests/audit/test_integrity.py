"""The record against an insider with database access but not the keys: the anchored,
chained checkpoints; the guards the database enforces; data that survives the database.

Tampering is done with raw SQL after lifting the guard triggers, as such an insider would; each
kind must be caught by `verify_audit` with a message naming the first bad point. Runs on SQLite
and, with DATABASE_URL, on PostgreSQL.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Sum
from django.utils import timezone

from audit import triggers
from audit.chain import AuditDataError, json_text, stored_event_hash
from audit.checkpoints import anchor_read
from audit.guards import EXPECTED, guard_problems
from audit.models import AuditCheckpoint, AuditEvent
from audit.services import audit_record
from audit.verify import verify_chain
from tables.models import Hand, MeterEntry, ProgressiveMeter, Round, SettlementLine
from tables.services import ServiceError
from tables.services.corrections import round_correct, round_void

from .tamper import raw, reseal, run_verify

pytestmark = pytest.mark.django_db


def guarded(sql: str, params: list[Any] | None = None) -> None:
    """Run SQL with the guards in place (deferred checks forced at once); must be refused."""
    with (
        pytest.raises((DatabaseError, IntegrityError)),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params or [])
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.fixture
def write(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> Iterator[Callable[[int], list[AuditEvent]]]:
    """Write n events as committed work would: a checkpoint every 3, each one anchored."""
    settings.AUDIT_CHECKPOINT_EVERY = 3
    settings.AUDIT_ANCHOR_GRACE_SECONDS = 0  # every checkpoint must be in the anchor at once

    def write(n: int) -> list[AuditEvent]:
        for i in range(n):
            with django_capture_on_commit_callbacks(execute=True):
                audit_record(
                    actor=None, actor_name="tester", kind="test.event", data={"i": i, "c": 10 * i}
                )
        return list(AuditEvent.objects.order_by("seq"))

    yield write


def anchor_lines(settings: Any) -> list[str]:
    return Path(settings.AUDIT_ANCHOR_PATH).read_text().splitlines()


# --- checkpoints: always made, chained, anchored ----------------------------------------------


def test_checkpoints_are_made_in_process_every_n_events_chained_and_anchored(
    write: Any, settings: Any
) -> None:
    write(10)
    cps = list(AuditCheckpoint.objects.order_by("seq"))
    assert [cp.seq for cp in cps] == [1, 4, 7, 10]
    assert cps[0].prev_signature == "0" * 64
    assert [cp.prev_signature for cp in cps[1:]] == [cp.signature for cp in cps[:-1]]
    lines = [json.loads(line) for line in anchor_lines(settings)]
    assert [line["signature"] for line in lines] == [cp.signature for cp in cps]
    assert run_verify()[0] == 0
    assert run_verify()[1].startswith("audit chain whole: 10 events, every checkpoint matches")


def test_a_checkpoint_is_made_when_the_last_is_older_than_the_interval(write: Any) -> None:
    write(2)
    later = timezone.now() + timedelta(minutes=6)
    with mock.patch("audit.services.timezone.now", return_value=later):
        audit_record(actor=None, actor_name="t", kind="test.event", data={})
    assert list(AuditCheckpoint.objects.values_list("seq", flat=True).order_by("seq")) == [1, 3]


def test_the_audit_checkpoint_command_signs_the_head_and_re_anchors_what_is_missing(
    settings: Any,
) -> None:
    settings.AUDIT_CHECKPOINT_EVERY = 1000
    for i in range(5):  # rolled-back test transactions never run on_commit: nothing anchored
        audit_record(actor=None, actor_name="t", kind="test.event", data={"i": i})
    assert anchor_read() is None
    out = StringIO()
    call_command("audit_checkpoint", stdout=out)
    assert "checkpoint at event #5" in out.getvalue()
    assert "2 checkpoint(s) re-anchored" in out.getvalue()  # never committed here
    assert [json.loads(x)["seq"] for x in anchor_lines(settings)] == [1, 5]
    settings.AUDIT_ANCHOR_GRACE_SECONDS = 0
    assert run_verify()[0] == 0


# --- tampering by an insider with the triggers dropped ----------------------------------------


def test_a_cut_tail_with_every_checkpoint_deleted_is_caught_by_the_anchor(write: Any) -> None:
    events = write(10)
    raw("DELETE FROM audit_auditevent WHERE seq > 8")
    raw("DELETE FROM audit_auditcheckpoint")
    raw("UPDATE audit_audithead SET seq = 8, hash = %s WHERE id = 1", [events[7].hash])
    code, text = run_verify()
    assert code == 1
    assert "covers event #10 but the chain ends at #8" in text


def test_an_emptied_trail_is_caught_by_the_anchor(write: Any) -> None:
    write(6)
    raw("DELETE FROM audit_auditevent")
    raw("DELETE FROM audit_auditcheckpoint")
    raw("UPDATE audit_audithead SET seq = 0, hash = %s WHERE id = 1", ["0" * 64])
    code, text = run_verify()
    assert code == 1
    assert "covers event #1 but the chain ends at #0" in text


def test_a_consistent_re_hash_with_the_checkpoints_deleted_is_caught_by_the_anchor(
    write: Any,
) -> None:
    events = write(9)
    prev = events[0].hash
    for ev in events[1:]:
        data = {"i": 42, "c": 1} if ev.seq == 2 else ev.data
        new_hash = stored_event_hash(ev, data=data, prev_hash=prev)
        raw(
            "UPDATE audit_auditevent SET data = %s, prev_hash = %s, hash = %s WHERE seq = %s",
            [json_text(data), prev, new_hash, ev.seq],
        )
        prev = new_hash
    raw("UPDATE audit_audithead SET hash = %s WHERE id = 1", [prev])
    raw("DELETE FROM audit_auditcheckpoint")
    code, text = run_verify()
    assert code == 1 and "event #2" in text and "seal is not valid" in text  # no key: no seal
    reseal(2)  # with the seal forged too, the anchor still disagrees
    code, text = run_verify()
    assert code == 1
    assert "event #4" in text and "no longer matches" in text


def test_deleted_checkpoints_are_caught(write: Any) -> None:
    write(10)
    raw("DELETE FROM audit_auditcheckpoint WHERE seq = 7")
    code, text = run_verify()
    assert code == 1
    assert "line 3" in text and "missing from the database" in text


def test_deleting_the_newest_checkpoints_and_their_anchor_lines_leaves_a_broken_chain(
    write: Any, settings: Any
) -> None:
    write(10)
    raw("DELETE FROM audit_auditcheckpoint WHERE seq = 4")
    path = Path(settings.AUDIT_ANCHOR_PATH)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(line for i, line in enumerate(lines) if i != 1) + "\n")
    code, text = run_verify()
    assert code == 1 and "#7" in text and "does not follow" in text


def test_an_edited_anchor_line_is_caught(write: Any, settings: Any) -> None:
    write(7)
    path = Path(settings.AUDIT_ANCHOR_PATH)
    lines = path.read_text().splitlines()
    line = json.loads(lines[1])
    line["hash"] = "f" * 64
    lines[1] = json.dumps(line)
    path.write_text("\n".join(lines) + "\n")
    code, text = run_verify()
    assert code == 1 and "anchor line 2's signature is not valid" in text


def test_a_damaged_anchor_line_is_caught(write: Any, settings: Any) -> None:
    write(4)
    path = Path(settings.AUDIT_ANCHOR_PATH)
    path.write_text(path.read_text() + "{not json\n")
    code, text = run_verify()
    assert code == 1 and "anchor line 3 is not a checkpoint" in text


def test_a_truncated_anchor_is_caught(write: Any, settings: Any) -> None:
    write(10)
    path = Path(settings.AUDIT_ANCHOR_PATH)
    path.write_text(path.read_text().splitlines()[0] + "\n")
    code, text = run_verify()
    assert code == 1
    assert "(at #4) is not in the anchor file" in text and "truncated" in text


def test_a_deleted_anchor_file_is_caught(write: Any, settings: Any) -> None:
    write(4)
    Path(settings.AUDIT_ANCHOR_PATH).unlink()
    code, text = run_verify()
    assert code == 1 and "the anchor file is missing" in text


def test_events_older_than_the_lag_must_be_covered_by_a_checkpoint(settings: Any) -> None:
    settings.AUDIT_CHECKPOINT_EVERY = 1000
    settings.AUDIT_ANCHOR_GRACE_SECONDS = 10**6  # (rolled back: nothing was anchored)
    long_ago = timezone.now() - timedelta(hours=1)
    with mock.patch("audit.services.timezone.now", return_value=long_ago):
        for i in range(4):
            audit_record(actor=None, actor_name="t", kind="test.event", data={"i": i})
    code, text = run_verify()
    assert code == 1
    assert "events #2 to #4 are older than the allowed lag" in text
    call_command("audit_checkpoint", stdout=StringIO())
    assert run_verify()[0] == 0


# --- guards the database enforces, triggers in place ------------------------------------------


@pytest.mark.services
@pytest.mark.parametrize(
    "table",
    [
        "audit_auditevent",
        "audit_auditcheckpoint",
        "audit_audithead",
        "tables_settlementline",
        "tables_meterentry",
        "tables_round",
        "tables_progressivemeter",
        "tables_paytableversion",
        "tables_hand",
        "tables_handplayer",
        "tables_tablesettingsversion",
        "tables_tablesettingsassignment",
        "accounting_slip",
        "accounting_slipsignature",
        "accounting_slipvoid",
        "accounting_variancealert",
        "accounting_chipdenomination",
    ],
)
def test_truncate_is_refused_on_postgresql(write: Any, table: str) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("TRUNCATE is PostgreSQL's (needs DATABASE_URL)")
    write(2)
    with (
        pytest.raises(IntegrityError, match="append-only: TRUNCATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(f"TRUNCATE {table} CASCADE")
    assert AuditEvent.objects.count() == 2


def test_the_head_only_moves_forward_to_the_event_just_written(write: Any) -> None:
    events = write(3)
    guarded("UPDATE audit_audithead SET seq = 2, hash = %s WHERE id = 1", [events[1].hash])
    guarded("UPDATE audit_audithead SET seq = 4, hash = %s WHERE id = 1", ["a" * 64])
    guarded("DELETE FROM audit_audithead")


def test_an_event_must_follow_the_head(write: Any) -> None:
    events = write(3)
    guarded(
        "INSERT INTO audit_auditevent (seq, at, actor_id, actor_name, kind, object_type, "
        "object_id, table_name, data, prev_hash, hash) VALUES "
        "(9, %s, NULL, 'x', 'k', '', '', '', '{}', %s, %s)",
        [events[-1].at, events[-1].hash, "b" * 64],
    )


def test_a_checkpoint_must_chain_to_the_last_one(write: Any) -> None:
    events = write(4)
    guarded(
        "INSERT INTO audit_auditcheckpoint (seq, hash, at, key_id, prev_signature, signature) "
        "VALUES (4, %s, %s, 'k1', %s, %s)",
        [events[3].hash, events[3].at, "0" * 64, "c" * 64],
    )


# --- data that survives the database exactly as hashed ----------------------------------------


@pytest.mark.parametrize(
    ("data", "where", "why"),
    [
        ({"amount": 1e16}, "data.amount", "floating-point"),
        ({"x": [1.0]}, "data.x[0]", "floating-point"),
        ({"x": -0.0}, "data.x", "floating-point"),
        ({"reason": "a\u0000b"}, "data.reason", "NUL"),
        ({"name": "\ud800"}, "data.name", "lone surrogate"),
        ({"k\u0000": 1}, "data key", "NUL"),
    ],
)
def test_values_the_database_would_change_are_refused_naming_where(
    data: dict[str, Any], where: str, why: str
) -> None:
    with pytest.raises(AuditDataError) as refused:
        audit_record(actor=None, actor_name="t", kind="test.event", data=data)
    assert str(refused.value).startswith(where) and why in str(refused.value)
    assert not AuditEvent.objects.exists()


def test_deep_nesting_is_refused_and_moderate_nesting_kept() -> None:
    deep: Any = "bottom"
    for _ in range(40):
        deep = {"d": deep}
    with pytest.raises(AuditDataError, match="nested more than 32 levels"):
        audit_record(actor=None, actor_name="t", kind="test.event", data={"x": deep})
    fine: Any = "bottom"
    for _ in range(30):
        fine = [fine]
    audit_record(actor=None, actor_name="t", kind="test.event", data={"x": fine})
    assert verify_chain()[1] is None


def test_values_that_round_trip_are_stored_and_verified() -> None:
    data = {
        "big": 2**70,
        "negative": -(2**63),
        "decimal": "1E+16",
        "unicode": "Ünïcödé ♠ 𝔸",
        "escapes": 'quote " backslash \\ tab \t',
        "empty": {},
        "list": [True, False, None],
    }
    audit_record(actor=None, actor_name="t", kind="test.event", data=data)
    stored = AuditEvent.objects.get()
    stored.refresh_from_db()
    assert stored.data == data
    assert verify_chain() == (1, None)


def test_a_correction_carrying_a_float_is_refused_naming_the_field(floor: Any) -> None:
    from tables.services import rounds as svc
    from tables.services.sessions import dealer_sign_in

    d = floor["dealer"]
    dealer_sign_in(dealer=d, table=floor["SC-1"])
    r = svc.round_open(table=floor["SC-1"], dealer=d, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
    r = svc.round_settle(round=svc.round_dealer(round=r, dealer=d), dealer=d)
    voided = round_void(round=r, by=floor["pitboss"], reason="wrong cards")
    entry = {**voided.entry, "note": 1e16}
    with pytest.raises(ServiceError) as refused:
        round_correct(voided=voided, by=floor["pitboss"], entry=entry)
    assert refused.value.field == "entry.note" and "floating-point" in refused.value.message
    assert not voided.corrections.exists()


# --- the floor's invariants ---------------------------------------------------------------


@pytest.fixture
def settled(floor: Any) -> Round:
    """A Lowball round with a progressive wager, ready to settle (the dealer has drawn)."""
    from tables.services import rounds as svc
    from tables.services.sessions import dealer_sign_in

    d = floor["dealer"]
    dealer_sign_in(dealer=d, table=floor["LB-1"])
    r = svc.round_open(
        table=floor["LB-1"],
        dealer=d,
        wagers={
            1: {"ante": "10.00", "progressive": "1.00"},
            2: {"ante": "10.00", "bonus": "10.00"},
        },
    )
    r = svc.round_deal(
        round=r, dealer=d, seat_cards={1: "5d 3c Jh", 2: "9h 9c 2d"}, dealer_cards="Kd 8s 3h"
    )
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={"discard": ["Jh"], "draw": ["Ac"]})
    r = svc.round_decide(round=r, dealer=d, seat=2, decision={"discard": ["9h"], "draw": ["7s"]})
    return svc.round_dealer(round=r, dealer=d, draw=["6c"])


def _settle(r: Round, dealer: Any) -> Round:
    from tables.services import rounds as svc

    return svc.round_settle(round=r, dealer=dealer)


def test_a_void_changes_only_the_voids_own_fields(floor: Any, settled: Round) -> None:
    r = _settle(settled, floor["dealer"])
    args = [floor["pitboss"].pk, r.pk]
    void = "status = 'voided', voided_at = CURRENT_TIMESTAMP, voided_by_id = %s, void_reason = 'x'"
    for extra in (
        "gaming_day = '2001-01-01'",
        "shift = '03:00'",
        f"dealer_id = {floor['dealer2'].pk}",
        "idempotency_key = 'rewritten'",
        "handle_cents = handle_cents + 1",
    ):
        guarded(f"UPDATE tables_round SET {void}, {extra} WHERE id = %s", args)
    guarded("UPDATE tables_round SET idempotency_key = 'k' WHERE id = %s", [r.pk])
    with connection.cursor() as cursor:  # the void alone is accepted
        cursor.execute(f"UPDATE tables_round SET {void} WHERE id = %s", args)
    guarded("UPDATE tables_round SET void_reason = 'changed' WHERE id = %s", [r.pk])
    guarded("DELETE FROM tables_round WHERE id = %s", [r.pk])


def test_a_void_request_changes_only_its_own_fields(floor: Any, settled: Round) -> None:
    r = _settle(settled, floor["dealer"])
    boss = floor["pitboss"].pk
    ask = "void_requested_at = CURRENT_TIMESTAMP, void_requested_by_id = %s, void_reason = 'x'"
    for extra in ("handle_cents = handle_cents + 1", "gaming_day = '2001-01-01'"):
        guarded(f"UPDATE tables_round SET {ask}, {extra} WHERE id = %s", [boss, r.pk])
    # who and when go together
    guarded("UPDATE tables_round SET void_requested_at = CURRENT_TIMESTAMP WHERE id = %s", [r.pk])
    with connection.cursor() as cursor:  # the request alone is accepted, and its withdrawal
        cursor.execute(f"UPDATE tables_round SET {ask} WHERE id = %s", [boss, r.pk])
        cursor.execute(
            "UPDATE tables_round SET void_requested_at = NULL, void_requested_by_id = NULL, "
            "void_reason = '' WHERE id = %s",
            [r.pk],
        )
    guarded("UPDATE tables_round SET status = 'voided' WHERE id = %s", [r.pk])  # no void fields


def test_the_sqlite_allow_list_names_every_column_of_a_round() -> None:
    migration = importlib.import_module("tables.migrations.0016_round_void_request")
    columns = {f.column for f in Round._meta.concrete_fields}
    assert columns == set(migration.ROUND_COLUMNS), "add the new column to a new trigger"


def test_the_sqlite_allow_list_names_every_column_of_a_hand() -> None:
    migration = importlib.import_module("tables.migrations.0007_pvp_hands_and_table_settings")
    columns = {f.column for f in Hand._meta.concrete_fields}
    assert columns == set(migration.HAND_COLUMNS), "add the new column to a new trigger"


def test_a_closed_rounds_handle_and_net_equal_its_lines(floor: Any, settled: Round) -> None:
    r = _settle(settled, floor["dealer"])
    lines = SettlementLine.objects.filter(round=r).aggregate(
        s=Sum("stake_cents"), n=Sum("net_cents")
    )
    assert (r.handle_cents, r.players_net_cents) == (lines["s"], lines["n"])
    guarded(
        "INSERT INTO tables_settlementline (round_id, seat, wager, stake_cents, result, "
        "net_cents, breakage, award, odds) VALUES (%s, 2, 'ante', 500, 'lose', -500, 0, '', '')",
        [r.pk],
    )


def test_a_round_closed_without_its_lines_is_refused(floor: Any, settled: Round) -> None:
    guarded(
        "UPDATE tables_round SET status = 'settled', settlement = '{}', "
        "settled_at = CURRENT_TIMESTAMP, handle_cents = 1600, players_net_cents = -1600 "
        "WHERE id = %s",
        [settled.pk],
    )


def test_the_meter_entries_always_add_up_to_its_value(floor: Any, settled: Round) -> None:
    from tables.services.meters import meter_correct

    _settle(settled, floor["dealer"])
    meter = ProgressiveMeter.objects.get()
    meter_correct(meter=meter, by=floor["admin"], amount_cents=-100, reason="count")
    meter.refresh_from_db()
    entries = MeterEntry.objects.filter(meter=meter).order_by("id")
    assert entries[0].kind == "opening" and entries[0].amount_cents == 2_500_000
    assert sum(e.amount_cents for e in entries) == meter.value_cents
    last = entries.last()
    assert last is not None
    guarded(
        "UPDATE tables_progressivemeter SET value_cents = value_cents + 1 WHERE id = %s", [meter.pk]
    )
    guarded(
        "INSERT INTO tables_meterentry (meter_id, kind, amount_cents, value_after_cents, "
        "reason, at) VALUES (%s, 'correction', 100, %s, 'x', CURRENT_TIMESTAMP)",
        [meter.pk, last.value_after_cents + 99],
    )
    guarded(
        "INSERT INTO tables_progressivemeter (name, value_cents, reset_cents, rate, wager_cents, "
        "game, awards, split, overflow_cents) "
        "VALUES ('Sneaky', 500, 0, 0.1, 100, 'lowball', '{}', 'equal', 0)"
    )


def test_every_guard_is_installed_after_the_migrations() -> None:
    """A later migration that rebuilds a table on SQLite drops its triggers: this notices."""
    have = {name: table for name, table, _sql in triggers.installed(connection)}
    assert have == EXPECTED[connection.vendor]
    assert guard_problems(connection) == []


def test_lifting_the_guards_puts_back_exactly_what_was_there() -> None:
    before = triggers.installed(connection)
    with triggers.lifted(connection):
        assert triggers.installed(connection) == []
    assert triggers.installed(connection) == before


def test_the_checkpoint_loop_stops_when_the_site_it_serves_is_gone(settings: Any) -> None:
    import subprocess
    import sys

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    audit_record(actor=None, actor_name="t", kind="test.event", data={})
    call_command("audit_checkpoint", every=1, while_pid=gone.pid, stdout=StringIO())
    assert AuditCheckpoint.objects.filter(seq=1).exists()
