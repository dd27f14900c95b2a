"""A report rebuild in progress (on the worker) holds only its table's rebuild lock: the table's
next round is opened, played and settled meanwhile, and the round it missed leaves the report
stale for the next rebuild. Two rebuilds of one table still run one after the other."""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection, connections, transaction
from django.test import override_settings

from audit.kinds import EventKind
from audit.models import AuditEvent
from audit.services import audit_record
from reports import reporting
from reports.models import HoldSummary, PendingRound, StaleReport
from reports.theory import Theory
from tables.models import Round, Table
from tables.simulation import dealer_for, play_round

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _needs_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): locks between two connections")


def _table() -> Table:
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    return Table.objects.get(name="SC-1")


def _on_its_own_connection(
    work: Callable[[], None], errors: list[BaseException]
) -> threading.Thread:
    """Start `work` in a thread (its own database connection); what it raises goes to
    `errors`, for the test to assert on."""

    def run() -> None:
        try:
            work()
        except BaseException as err:  # noqa: BLE001 - reported to the test
            errors.append(err)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _round_during_rebuild(
    monkeypatch: pytest.MonkeyPatch, rebuild: Callable[[], Any], table: Table, rng: Any
) -> Round:
    """Run `rebuild` on another connection, stopped just before its end (still in its
    transaction), play a round at `table` meanwhile (a wait on a lock fails the test, not hangs
    it), then let the rebuild finish; returns the round."""
    inside, go = threading.Event(), threading.Event()
    real_outside_band = reporting.outside_band
    errors: list[BaseException] = []

    def paused_outside_band(**kwargs: Any) -> Any:
        inside.set()
        assert go.wait(timeout=30)
        return real_outside_band(**kwargs)

    monkeypatch.setattr(reporting, "outside_band", paused_outside_band)
    thread = _on_its_own_connection(rebuild, errors)
    try:
        assert inside.wait(timeout=30), "the rebuild did not start"
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '5s'")
        played = play_round(table, dealer_for(table), rng)
    finally:
        go.set()
        thread.join(timeout=30)
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
        monkeypatch.setattr(reporting, "outside_band", real_outside_band)
    assert not errors, errors
    return played


def test_a_rebuild_in_progress_does_not_hold_up_the_tables_next_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _needs_postgres()
    table = _table()
    dealer = dealer_for(table)
    rng = random.Random(5)
    first = play_round(table, dealer, rng)
    day = first.gaming_day
    reporting.rebuild(day, table.pk)
    assert not StaleReport.objects.filter(table=table).exists()
    # Mark the report stale again, as a round does, and rebuild it on another connection; the
    # rebuild stops just before its end (still in its transaction) until the round is played.
    monkeypatch.setattr(reporting, "request_rebuild", lambda day, table_id: None)
    with transaction.atomic():
        reporting.mark_stale(first)
    second = _round_during_rebuild(
        monkeypatch, lambda: reporting.rebuild(day, table.pk), table, rng
    )
    assert Round.objects.get(pk=second.pk).status == Round.Status.SETTLED
    # The rebuild read the mark before the round bumped it: the mark stays for the next one.
    assert StaleReport.objects.filter(table=table, gaming_day=day).exists()
    reporting.rebuild(day, table.pk)
    assert not StaleReport.objects.filter(table=table, gaming_day=day).exists()
    assert sum(HoldSummary.objects.filter(table=table).values_list("rounds", flat=True)) == 2


def test_a_round_settled_while_a_fold_runs_is_added_by_the_next_fold_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fold claims the rounds waiting when it starts; one settled meanwhile waits (and its
    mark stays) for the next fold, which adds it once."""
    _needs_postgres()
    table = _table()
    dealer = dealer_for(table)
    rng = random.Random(9)
    monkeypatch.setattr(reporting, "request_rebuild", lambda day, table_id: None)
    first = play_round(table, dealer, rng)
    day = first.gaming_day
    reporting.rebuild(day, table.pk)
    second = play_round(table, dealer, rng)
    assert PendingRound.objects.filter(round=second).exists()
    third = _round_during_rebuild(
        monkeypatch, lambda: reporting.rebuild(day, table.pk, only_if_marked=True), table, rng
    )
    assert list(PendingRound.objects.values_list("round_id", flat=True)) == [third.pk]
    assert StaleReport.objects.get(table=table, gaming_day=day).full is False
    reporting.rebuild(day, table.pk, only_if_marked=True)
    assert not PendingRound.objects.exists() and not StaleReport.objects.exists()
    (row,) = HoldSummary.objects.filter(table=table).values("rounds", "handle_cents")
    settled = Round.objects.filter(pk__in=[first.pk, second.pk, third.pk])
    assert row == {"rounds": 3, "handle_cents": sum(r.handle_cents for r in settled)}


def test_two_rebuilds_of_one_table_run_one_after_the_other() -> None:
    _needs_postgres()
    table = _table()
    play_round(table, dealer_for(table), random.Random(6))
    held = threading.Event()
    release = threading.Event()
    errors: list[BaseException] = []

    def holder() -> None:
        with transaction.atomic():
            reporting.lock_table_rebuild(table.pk)
            held.set()
            release.wait(timeout=30)

    thread = _on_its_own_connection(holder, errors)
    try:
        assert held.wait(timeout=30)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
                reporting.lock_table_rebuild(table.pk)
        other = Table.objects.exclude(pk=table.pk).first()
        assert other is not None
        with transaction.atomic():  # another table's rebuild does not wait
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '500ms'")
            reporting.lock_table_rebuild(other.pk)
    finally:
        release.set()
        thread.join(timeout=30)
    assert not errors, errors


def test_a_rebuild_recording_an_outside_band_event_does_not_deadlock_with_a_round_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A round step locks its table's row, then the chain's head; a rebuild that writes an
    outside-band event takes the head too. The rebuild checks its keys (the summary's table) as
    it writes, before it takes the head, so the two wait for each other one way only."""
    _needs_postgres()
    table = _table()
    r = play_round(table, dealer_for(table), random.Random(7))
    monkeypatch.setattr(reporting, "outside_band", lambda **kwargs: ("high", Theory(), 12_300))
    locked = threading.Event()
    errors: list[BaseException] = []

    def round_step() -> None:  # as round_open: the table's row, then an event on the chain
        with transaction.atomic():
            list(Table.objects.select_for_update().filter(pk=table.pk))
            locked.set()
            time.sleep(1.5)  # the rebuild meanwhile writes its summary
            audit_record(actor=None, actor_name="step", kind=EventKind.ROUND_OPENED, obj=table)

    thread = _on_its_own_connection(round_step, errors)
    try:
        assert locked.wait(timeout=30)
        reporting.rebuild(r.gaming_day, table.pk)
    finally:
        thread.join(timeout=30)
    assert not errors, errors
    assert AuditEvent.objects.filter(kind=EventKind.HOLD_OUTSIDE_BAND).count() == 1
