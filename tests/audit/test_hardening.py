"""The audit record against an insider who goes around the guards: a REPLACE on SQLite, a
dropped or disabled trigger, deleted checkpoints and anchor, a deleted head row, data edited by
hand into a form the hash does not see. Runs on SQLite and, with DATABASE_URL, on PostgreSQL
(the PostgreSQL-only ones are marked `services`)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from io import StringIO
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from audit import triggers
from audit.chain import json_text, stored_event_hash
from audit.checks import guard_triggers
from audit.guards import EXPECTED, guard_problems
from audit.kinds import EventKind
from audit.models import AuditCheckpoint, AuditEvent, AuditHead
from audit.services import audit_record
from audit.verify import verify_chain
from tables.models import PaytableVersion, Round, SettlementLine

from .tamper import raw, run_verify

pytestmark = pytest.mark.django_db


def _sqlite() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's REPLACE and text-stored JSON (run without DATABASE_URL)")


@pytest.fixture
def write(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> Iterator[Callable[[int], list[AuditEvent]]]:
    """Write n events as committed work would: a checkpoint every 3, each one anchored."""
    settings.AUDIT_CHECKPOINT_EVERY = 3
    settings.AUDIT_ANCHOR_GRACE_SECONDS = 0

    def write(n: int) -> list[AuditEvent]:
        for i in range(n):
            with django_capture_on_commit_callbacks(execute=True):
                audit_record(actor=None, actor_name="t", kind="test.event", data={"i": i})
        return list(AuditEvent.objects.order_by("seq"))

    yield write


def refused(sql: str, params: list[Any] | None = None) -> None:
    with (
        pytest.raises((DatabaseError, IntegrityError)),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, params or [])


def replace_sql(model: Any, **changes: str) -> str:
    """INSERT OR REPLACE of the row with the given id, as it is (or with column expressions)."""
    table = model._meta.db_table
    columns = [f.column for f in model._meta.concrete_fields]
    select = ", ".join(changes.get(c, c) for c in columns)
    return (
        f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
        f"SELECT {select} FROM {table} WHERE id = %s"
    )


@pytest.fixture
def recursive_triggers_off(db: Any) -> Iterator[None]:
    _sqlite()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA recursive_triggers = OFF")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA recursive_triggers = ON")


# --- 1. guards a REPLACE cannot go around -----------------------------------------------------


def test_every_sqlite_connection_fires_delete_triggers_for_a_replace() -> None:
    _sqlite()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA recursive_triggers")
        assert cursor.fetchone()[0] == 1


def test_replacing_a_guarded_row_is_refused_even_with_recursive_triggers_off(
    settled: Round, recursive_triggers_off: None
) -> None:
    _sqlite()
    event = AuditEvent.objects.order_by("-seq").first()
    assert event is not None
    refused(replace_sql(AuditEvent, actor_name="'forger'"), [event.pk])
    refused(replace_sql(Round), [settled.pk])
    line = SettlementLine.objects.filter(round=settled).first()
    assert line is not None
    refused(replace_sql(SettlementLine, net_cents="net_cents + 100"), [line.pk])
    version = PaytableVersion.objects.filter(status="approved").first()
    assert version is not None
    refused(replace_sql(PaytableVersion, name="'forged'"), [version.pk])
    # a unique key, not the id: a REPLACE would delete the row it collides with
    refused(
        "INSERT OR REPLACE INTO tables_paytableversion (game, name, version, lines, limits, "
        "status, drafted_at) SELECT game, name, version, lines, limits, 'draft', drafted_at "
        "FROM tables_paytableversion WHERE id = %s",
        [version.pk],
    )
    assert PaytableVersion.objects.get(pk=version.pk).name == version.name


def test_the_pragma_alone_refuses_a_replace_and_without_both_it_would_pass(
    floor: Any, recursive_triggers_off: None
) -> None:
    _sqlite()
    version = PaytableVersion.objects.filter(status="approved").first()
    assert version is not None
    sql = replace_sql(PaytableVersion, name="'forged'")
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER casino_paytableversion_no_replace")
        cursor.execute("PRAGMA recursive_triggers = ON")
    refused(sql, [version.pk])  # the REPLACE's delete meets casino_paytableversion_no_delete
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA recursive_triggers = OFF")
        cursor.execute(sql, [version.pk])  # the hole the two close
    assert PaytableVersion.objects.get(pk=version.pk).name == "forged"
    assert "guard trigger casino_paytableversion_no_replace on tables_paytableversion is " in (
        " ".join(guard_problems(connection))
    )


def test_the_insert_guards_name_every_unique_key_of_their_tables() -> None:
    """A new unique key on a guarded table needs its own insert guard (a REPLACE hits it)."""
    _sqlite()
    modules = [
        "audit.migrations.0010_insert_guards_and_head_recovery",
        "tables.migrations.0013_insert_guards",
        "accounting.migrations.0003_insert_guards",
        "compliance.migrations.0003_guards",
        "compliance.migrations.0006_markers",
        "compliance.migrations.0007_filing",
        "compliance.migrations.0008_patrons",
        "compliance.migrations.0009_alerts",
        "accounting.migrations.0004_count_and_signature_rules",
        "accounting.migrations.0006_handover_alert_guards",
    ]
    with connection.cursor() as cursor:
        for name in modules:
            for table, keys in importlib.import_module(name).KEYS.items():
                named = {tuple(columns) for columns, _condition in keys}
                cursor.execute(f"PRAGMA index_list({table})")
                for _seq, index, unique, _origin, _partial in cursor.fetchall():
                    if unique:
                        cursor.execute(f"PRAGMA index_info({index})")
                        columns = tuple(row[2] for row in cursor.fetchall())
                        assert columns in named, f"{table}: unique key {columns} has no guard"
                assert ("id",) in named
    no_replace = {n for n, _t in EXPECTED["sqlite"].items() if n.endswith("_no_replace")}
    assert len(no_replace) == 45


# --- 1. a dropped or disabled guard is reported -----------------------------------------------


def test_a_dropped_guard_is_reported_by_verify_audit_and_the_system_check(write: Any) -> None:
    write(2)
    assert run_verify()[0] == 0
    assert guard_triggers(databases=["default"]) == []
    drop = {
        "sqlite": "DROP TRIGGER casino_auditevent_no_delete",
        "postgresql": "DROP TRIGGER casino_auditevent_no_change ON audit_auditevent",
    }[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(drop)
    code, text = run_verify()
    name = drop.split()[2]
    assert code == 1 and f"guard trigger {name} on audit_auditevent is missing" in text
    errors = guard_triggers(databases=["default"])
    assert [e.id for e in errors] == ["audit.E003"] and name in errors[0].msg
    assert [e.id for e in guard_triggers(databases=None)] == ["audit.E003"]


@pytest.mark.services
def test_a_disabled_guard_is_reported_on_postgresql(write: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("ALTER TABLE ... DISABLE TRIGGER is PostgreSQL's (needs DATABASE_URL)")
    write(2)
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE tables_settlementline DISABLE TRIGGER ALL")
    problems = guard_problems(connection)
    assert (
        "guard trigger casino_settlementline_no_change on tables_settlementline is disabled "
        "(ALTER TABLE ... DISABLE TRIGGER)" in problems
    )
    assert len(problems) == 3  # no_change, sums, no_truncate
    code, text = run_verify()
    assert code == 1 and "casino_settlementline_sums" in text
    assert guard_triggers(databases=["default"])[0].id == "audit.E003"


# --- 2. the anchor is not optional once there is history --------------------------------------


def test_the_first_write_makes_a_genesis_checkpoint_in_the_database_and_the_anchor(
    write: Any, settings: Any
) -> None:
    call_command("audit_checkpoint", stdout=StringIO())  # a checkpoint of the empty chain
    assert AuditCheckpoint.objects.get().seq == 0
    write(1)
    assert list(AuditCheckpoint.objects.order_by("seq").values_list("seq", flat=True)) == [0, 1]
    lines = [json.loads(x) for x in Path(settings.AUDIT_ANCHOR_PATH).read_text().splitlines()]
    assert [line["seq"] for line in lines] == [0, 1]
    assert run_verify()[0] == 0


def test_deleted_checkpoints_and_anchor_with_recent_events_are_caught(
    write: Any, settings: Any
) -> None:
    events = write(5)
    raw("DELETE FROM audit_auditcheckpoint")
    Path(settings.AUDIT_ANCHOR_PATH).unlink()
    now, prev = timezone.now(), "0" * 64
    for ev in events:  # re-stamped as recent (within any lag) and re-hashed consistently
        digest = stored_event_hash(ev, at=now, prev_hash=prev)
        raw(
            "UPDATE audit_auditevent SET at = %s, prev_hash = %s, hash = %s WHERE id = %s",
            [now, prev, digest, ev.pk],
        )
        prev = digest
    raw("UPDATE audit_audithead SET hash = %s WHERE id = 1", [prev])
    code, text = run_verify()
    assert code == 1 and "no checkpoint in the database covers them" in text


@pytest.mark.parametrize("how", ["deleted", "emptied"])
def test_a_missing_or_emptied_anchor_is_caught_once_past_the_grace(
    write: Any, settings: Any, how: str
) -> None:
    write(4)
    path = Path(settings.AUDIT_ANCHOR_PATH)
    if how == "deleted":
        path.unlink()
    else:
        path.write_text("")
    settings.AUDIT_ANCHOR_GRACE_SECONDS = 60  # the checkpoints were made just now: in flight
    assert run_verify()[0] == 0
    later = timezone.now() + timedelta(seconds=61)
    with mock.patch("audit.verify.timezone.now", return_value=later):
        code, text = run_verify()
    assert code == 1
    assert ("missing" if how == "deleted" else "empty") in text


def test_only_unchained_checkpoints_and_no_anchor_is_caught(write: Any, settings: Any) -> None:
    write(2)
    raw("DELETE FROM audit_auditcheckpoint")
    raw(
        "INSERT INTO audit_auditcheckpoint (seq, hash, at, key_id, prev_signature, signature) "
        "SELECT seq, hash, at, 'k1', '', 'legacy' FROM audit_auditevent WHERE seq = 2"
    )
    Path(settings.AUDIT_ANCHOR_PATH).unlink()
    with mock.patch("audit.verify.signature_valid", return_value=True):
        code, text = run_verify()
    assert code == 1 and "anchor file" in text and "is missing" in text


def test_an_emptied_chain_whose_anchor_names_events_is_caught(write: Any) -> None:
    write(4)
    raw("DELETE FROM audit_auditevent")
    raw("DELETE FROM audit_auditcheckpoint")
    raw("DELETE FROM audit_audithead")
    code, text = run_verify()
    assert code == 1 and "covers event #1 but the chain ends at #0" in text


def test_a_new_start_needs_a_reason() -> None:
    with pytest.raises(CommandError, match="reason"):
        call_command("audit_new_start", stdout=StringIO())
    with pytest.raises(CommandError, match="--reason"):
        call_command("audit_new_start", reason="   ", stdout=StringIO())


def new_start(reason: str, capture: Any) -> str:
    out = StringIO()
    with capture(execute=True):
        call_command("audit_new_start", reason=reason, by="auditor", stdout=out)
    return out.getvalue()


def test_a_lost_anchor_is_accepted_only_after_a_signed_new_start(
    write: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    write(5)
    path = Path(settings.AUDIT_ANCHOR_PATH)
    old = path.read_text()
    path.write_text(old.splitlines()[0] + "\n")  # the disk lost most of it
    assert run_verify()[0] == 1
    text = new_start("anchor disk failed, ticket 1234", django_capture_on_commit_callbacks)
    assert "starts at event #5" in text
    kept = list(path.parent.glob(f"{path.name}.before-new-start-*"))
    assert len(kept) == 1 and kept[0].read_text() == old.splitlines()[0] + "\n"
    first = json.loads(path.read_text().splitlines()[0])
    assert first["new_start"] is True and first["reason"] == "anchor disk failed, ticket 1234"
    assert (first["seq"], first["by"]) == (5, "auditor")
    assert AuditEvent.objects.order_by("-seq").first().kind == EventKind.AUDIT_NEW_START  # type: ignore[union-attr]
    assert run_verify() == (0, mock.ANY)
    write(4)
    assert run_verify()[0] == 0
    # the new start cannot be forged or edited without the key
    lines = path.read_text().splitlines()
    edited = {**first, "reason": "nothing happened"}
    path.write_text("\n".join([json.dumps(edited), *lines[1:]]) + "\n")
    code, text = run_verify()
    assert code == 1 and "(a new start)'s signature is not valid" in text


def test_a_restored_database_is_accepted_after_a_new_start(
    write: Any, django_capture_on_commit_callbacks: Any
) -> None:
    events = write(10)
    raw("DELETE FROM audit_auditevent WHERE seq > 8")
    raw("DELETE FROM audit_auditcheckpoint WHERE seq > 8")
    raw("UPDATE audit_audithead SET seq = 8, hash = %s WHERE id = 1", [events[7].hash])
    code, text = run_verify()
    assert code == 1 and "covers event #10 but the chain ends at #8" in text
    new_start("database restored from the 02:00 backup", django_capture_on_commit_callbacks)
    assert run_verify()[0] == 0
    write(3)
    assert run_verify()[0] == 0


# --- 3. the head row deleted --------------------------------------------------------------------


def test_a_deleted_head_is_reported_and_recovered_by_the_next_write(write: Any) -> None:
    events = write(4)
    raw("DELETE FROM audit_audithead")
    code, text = run_verify()
    assert code == 1 and "the head row is missing" in text
    event = audit_record(actor=None, actor_name="t", kind="test.event", data={"after": 1})
    recovered = AuditEvent.objects.get(seq=5)
    assert recovered.kind == EventKind.AUDIT_HEAD_RECOVERED
    assert recovered.data["seq"] == 4 and recovered.data["hash"] == events[-1].hash
    assert event.seq == 6 and event.prev_hash == recovered.hash
    assert AuditHead.objects.get().seq == 6
    count, problem = verify_chain()
    assert (count, problem) == (6, None)


def test_a_head_is_never_inserted_anywhere_but_at_the_last_event(write: Any) -> None:
    events = write(3)
    raw("DELETE FROM audit_audithead")
    genesis = "0" * 64
    refused("INSERT INTO audit_audithead (id, seq, hash) VALUES (1, 0, %s)", [genesis])
    refused("INSERT INTO audit_audithead (id, seq, hash) VALUES (1, 2, %s)", [events[1].hash])
    refused("INSERT INTO audit_audithead (id, seq, hash) VALUES (1, 3, %s)", ["a" * 64])
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO audit_audithead (id, seq, hash) VALUES (1, 3, %s)", [events[2].hash]
        )
    assert verify_chain()[1] is None


# --- 4. event data stored in canonical form ---------------------------------------------------


def test_sqlite_stores_event_data_exactly_as_hashed(db: Any) -> None:
    _sqlite()
    data = {"zeta": 1, "alpha": {"b": "é", "a": [1, None]}}
    event = audit_record(actor=None, actor_name="t", kind="test.event", data=data)
    with connection.cursor() as cursor:
        cursor.execute("SELECT data FROM audit_auditevent WHERE id = %s", [event.pk])
        stored = cursor.fetchone()[0]
    assert stored == json_text(data) == '{"alpha":{"a":[1,null],"b":"é"},"zeta":1}'
    assert AuditEvent.objects.get(pk=event.pk).data == data


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ('{"amount_cents":100,"amount_cents":999999}', "the key 'amount_cents' twice"),
        ('{"amount_cents": 100}', "not in its canonical form"),
    ],
)
def test_an_event_whose_stored_text_is_not_canonical_is_named(
    write: Any, text: str, what: str
) -> None:
    _sqlite()
    write(3)
    event = AuditEvent.objects.get(seq=2)
    raw("UPDATE audit_auditevent SET data = %s WHERE seq = 2", [text])
    code, output = run_verify()
    assert code == 1 and f"event #2 (id {event.pk})" in output and what in output


def test_the_migration_rewrites_stored_data_in_canonical_form(write: Any) -> None:
    _sqlite()
    events = write(3)
    for ev in events:  # the same data, as Django's JSONField wrote it
        raw("UPDATE audit_auditevent SET data = %s WHERE id = %s", [json.dumps(ev.data), ev.pk])
    assert verify_chain()[1] is not None
    before = triggers.installed(connection)
    migration = importlib.import_module("audit.migrations.0011_canonical_event_data")
    migration.rewrite(None, SimpleNamespace(connection=connection))
    assert triggers.installed(connection) == before
    assert verify_chain() == (3, None)
