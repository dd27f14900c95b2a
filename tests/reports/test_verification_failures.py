"""A verification that cannot finish still ends: a misdealt round is no reason for any check to
stop, a check that stops anyway is a problem named on a failed run (the other checks still
run), the page answers with the failed run, never a 500, the nightly job records it once, and a
run that never finished is closed as failed, never shown as running for ever."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from audit import verify
from audit.models import AuditEvent
from reports.models import HoldSummary, VerificationRun
from reports.reporting import rebuild_stale
from reports.tasks import refresh_stale_reports, verify_the_record
from reports.verification import GIVEN_UP_AFTER, record_status, run_start
from tables.models import Round
from tables.services import rounds as svc
from tables.services.controls import round_cancel
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db


def misdeal(floor: dict[str, Any]) -> Round:
    table, dealer = floor["SC-1"], floor["dealer"]
    dealer_sign_in(dealer=dealer, table=table)
    r = svc.round_open(table=table, dealer=dealer, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=dealer, seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c")
    return round_cancel(round=r, by=dealer, reason="misdeal: two cards stuck together")


def test_every_check_of_the_night_is_clean_after_a_misdeal(
    floor: dict[str, Any], settled: Any, eager_celery: Any
) -> None:
    cancelled = misdeal(floor)
    assert cancelled.status == "cancelled" and cancelled.gaming_day is None
    rebuild_stale()  # the settled round's summary written, as the worker would
    assert HoldSummary.objects.exists()
    assert verify.verify_record().problems == ()
    out = io.StringIO()
    call_command("verify_audit", stdout=out)
    assert "audit chain whole" in out.getvalue()
    out = io.StringIO()
    call_command("verify_record", stdout=out)
    assert "the record is whole" in out.getvalue()
    run = VerificationRun.objects.get(pk=verify_the_record.delay().get())
    assert run.ok is True
    c = Client()
    assert c.login(username="auditor", password="demo")
    response = c.post("/audit/record/verify/", follow=True)
    assert response.status_code == 200
    assert "The record is whole" in response.content.decode()


def broken_check() -> list[str]:
    raise TypeError("'<' not supported between instances of 'NoneType' and 'datetime.date'")


@pytest.fixture
def a_check_that_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(verify.DERIVED_CHECKS, "broken sums", broken_check)


def test_a_check_that_stops_is_a_problem_and_the_others_still_run(
    floor: dict[str, Any], a_check_that_stops: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []
    monkeypatch.setitem(verify.DERIVED_CHECKS, "later", lambda: ran.append("later") or [])
    report = verify.verify_record()
    assert report.problems == (
        "broken sums: the check stopped with TypeError: '<' not supported between instances "
        "of 'NoneType' and 'datetime.date'",
    )
    assert ran == ["later"]


def test_the_page_answers_a_failed_run_not_a_500(
    floor: dict[str, Any], a_check_that_stops: None, eager_celery: Any
) -> None:
    c = Client()
    assert c.login(username="pitboss", password="demo")
    response = c.post("/audit/record/verify/", follow=True)
    assert response.status_code == 200
    assert "The record is NOT whole" in response.content.decode()
    run = VerificationRun.objects.get()
    assert run.ok is False and run.finished_at is not None
    assert "broken sums: the check stopped with TypeError" in run.problems[0]
    assert record_status().open_failures == [run]
    assert AuditEvent.objects.filter(kind="record.verification_failed").count() == 1


def test_a_verification_that_raises_ends_as_one_failed_run_and_the_job_does_not_retry(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch, eager_celery: Any
) -> None:
    def stops() -> verify.RecordReport:
        raise RuntimeError("the chain's rows could not be read")

    monkeypatch.setattr("reports.verification.verify_record", stops)
    run = VerificationRun.objects.get(pk=verify_the_record.delay().get())
    assert run.ok is False and run.finished_at is not None
    assert run.problems == [
        "the verification stopped with RuntimeError: the chain's rows could not be read"
    ]
    assert VerificationRun.objects.count() == 1
    failed = AuditEvent.objects.filter(kind="record.verification_failed")
    assert failed.count() == 1 and failed.get().data["problem_count"] == 1
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_record", stdout=out, stderr=err)
    assert exit_.value.code == 1 and "RuntimeError" in err.getvalue()


def test_a_run_that_never_finished_is_closed_as_failed(floor: dict[str, Any]) -> None:
    stalled = run_start(trigger="nightly")
    VerificationRun.objects.filter(pk=stalled.pk).update(
        started_at=timezone.now() - GIVEN_UP_AFTER - timedelta(minutes=1)
    )
    assert record_status().running is None
    refresh_stale_reports.apply()
    stalled.refresh_from_db()
    assert stalled.ok is False and stalled.finished_at is not None
    assert "gave no result within 2 hours" in stalled.problems[0]
    status = record_status()
    assert status.open_failures == [stalled]
    # it verified nothing: the record was never verified, and the dashboard still says so
    assert status.last is None and status.never_verified
    refresh_stale_reports.apply()  # once only
    assert AuditEvent.objects.filter(kind="record.verification_failed").count() == 1
