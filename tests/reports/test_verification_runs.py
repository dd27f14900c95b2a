"""The record verified every night and on demand: each run kept (when, how started, what was
checked, what was wrong), written on the audit chain, shown on the dashboard; a failed run is an
alert until a pit boss or an auditor acknowledges it with a note; a dealer neither sees nor
starts one."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from celery.schedules import crontab
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent
from audit.verify import verify_chain
from casino.celery import app
from reports.models import VerificationRun
from reports.replay import kind_label
from reports.tasks import verify_the_record
from reports.verification import run_acknowledge, run_finish, run_start, verify_now
from tests.audit.tamper import raw

pytestmark = pytest.mark.django_db


def client_for(username: str) -> Client:
    c = Client()
    assert c.login(username=username, password="demo")
    return c


def page_text(response: Any) -> str:
    """The page's words, tags dropped and spaces folded (what a person reads)."""
    text = re.sub(r"<[^>]+>", " ", response.content.decode())
    return re.sub(r"\s+", " ", html.unescape(text))


def tamper() -> None:
    """Change an event's content with SQL, guards dropped, as an insider with a prompt would."""
    raw("UPDATE audit_auditevent SET data = %s WHERE seq = 3", ['{"forged": true}'])


def test_the_nightly_task_keeps_a_whole_run_and_writes_it_on_the_chain(
    floor: dict[str, Any], eager_celery: Any
) -> None:
    before = AuditEvent.objects.count()
    run_id = verify_the_record.delay().get()
    run = VerificationRun.objects.get(pk=run_id)
    assert run.trigger == "nightly" and run.requested_by is None
    assert run.ok is True and run.problems == []
    # the demo floor's events and the run's own start; the floor's bound rows and the run
    assert run.events == before + 1 and run.rows > 0
    assert run.started_at <= run.finished_at
    event = AuditEvent.objects.order_by("seq").last()
    assert event is not None and event.kind == "record.verified"
    assert event.object_type == "reports.verificationrun" and event.object_id == str(run.pk)
    assert event.data["bound"]["reports.verificationrun"][str(run.pk)]["ok"] is True
    assert {k: v for k, v in event.data.items() if k != "bound"} == {
        "run": run.pk,
        "started": "nightly",
        "events_checked": before + 1,
        "bound_rows_checked": run.rows,
    }
    assert verify_chain()[1] is None  # the run's own event keeps the chain whole


def test_a_run_is_verified_once_even_when_its_task_is_delivered_twice(
    floor: dict[str, Any],
) -> None:
    run = verify_now(trigger="command")
    events = AuditEvent.objects.count()
    assert run_finish(run.pk).finished_at == run.finished_at
    assert verify_the_record.apply(kwargs={"run_id": run.pk}).get() == run.pk
    assert AuditEvent.objects.count() == events


def test_a_tampered_record_fails_shows_on_the_dashboard_and_needs_a_note(
    floor: dict[str, Any], eager_celery: Any
) -> None:
    tamper()
    run = VerificationRun.objects.get(pk=verify_the_record.delay().get())
    assert run.ok is False and run.finished_at is not None
    assert "event #3" in run.problems[0] and "changed" in run.problems[0]
    failed = AuditEvent.objects.get(kind="record.verification_failed")
    # the chain's break first; the rows event #3 bound no longer have that event to match
    assert failed.data["problem_count"] == len(run.problems)
    assert failed.data["problems"] == run.problems

    auditor, pitboss = client_for("auditor"), client_for("pitboss")
    dashboard = pitboss.get("/reports/dashboard/")
    text = page_text(dashboard)
    assert 'class="card record-panel alerting"' in dashboard.content.decode()
    assert "1 not acknowledged" in text
    assert f"Verification {run.pk} on" in text and "NOT whole" in text
    assert "acknowledge with a note" in text
    assert re.search(r'id="record-stat">.*?Not whole', dashboard.content.decode())
    floor_part = page_text(pitboss.get("/reports/dashboard/floor/"))
    assert "The record Not whole" in floor_part  # the refreshed summary keeps the alert

    url = f"/audit/record/runs/{run.pk}/acknowledge/"
    refused = auditor.post(url, {"note": "   "})
    assert refused.status_code == 400
    assert "the note field is empty" in page_text(refused)
    assert 'aria-invalid="true"' in refused.content.decode()
    run.refresh_from_db()
    assert run.acknowledged_at is None and run.acknowledgement_note == ""
    assert not AuditEvent.objects.filter(kind="record.failure_acknowledged").exists()
    assert "1 not acknowledged" in page_text(pitboss.get("/reports/dashboard/"))

    done = auditor.post(url, {"note": "Row 3 restored from the backup; DBA access reviewed."})
    assert done.status_code == 303
    run.refresh_from_db()
    assert run.acknowledged_by == floor["auditor"] and run.acknowledged_at is not None
    assert run.acknowledgement_note == "Row 3 restored from the backup; DBA access reviewed."
    assert run.ok is False and run.problems  # the result itself stays
    ack = AuditEvent.objects.get(kind="record.failure_acknowledged")
    assert ack.actor_name == "auditor" and ack.object_id == str(run.pk)
    assert ack.data["note"] == run.acknowledgement_note
    assert ack.data["problem_count"] == len(run.problems)

    after = page_text(pitboss.get("/reports/dashboard/"))
    assert "not acknowledged" not in after and "acknowledge with a note" not in after
    record_page = page_text(auditor.get("/audit/record/"))
    assert "Acknowledged by auditor" in record_page
    again = auditor.post(url, {"note": "twice"})
    assert again.status_code == 303
    run.refresh_from_db()
    assert run.acknowledgement_note.startswith("Row 3")  # acknowledged once


def test_a_whole_run_cannot_be_acknowledged(floor: dict[str, Any]) -> None:
    from core.errors import ServiceError

    run = verify_now(trigger="command")
    with pytest.raises(ServiceError, match="did not fail"):
        run_acknowledge(run=run, by=floor["pitboss"], note="nothing")


def test_an_auditor_verifies_the_record_now_from_the_trail(
    floor: dict[str, Any], eager_celery: Any
) -> None:
    c = client_for("auditor")
    trail = c.get("/audit/").content.decode()
    assert 'action="/audit/record/verify/"' in trail and "Verify the record now" in trail
    assert "csrfmiddlewaretoken" in trail
    assert "Never verified" in page_text(c.get("/audit/"))
    response = c.post("/audit/record/verify/", follow=True)
    run = VerificationRun.objects.get()
    assert run.trigger == "on_demand" and run.requested_by == floor["auditor"] and run.ok
    text = page_text(response)
    assert "The record is whole" in text and f"Verification {run.pk}" in text
    assert "on demand by auditor" in text
    event = AuditEvent.objects.get(kind="record.verified")
    assert event.actor_name == "auditor" and event.data["started"] == "on demand by auditor"


def test_a_pit_boss_may_verify_too(floor: dict[str, Any], eager_celery: Any) -> None:
    assert client_for("pitboss").post("/audit/record/verify/").status_code == 303
    assert VerificationRun.objects.get().requested_by == floor["pitboss"]


def test_with_a_worker_the_page_says_the_run_is_under_way(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "reports.record.enqueue", lambda task, **kwargs: sent.append(kwargs) or True
    )
    c = client_for("auditor")
    text = page_text(c.post("/audit/record/verify/", follow=True))
    run = VerificationRun.objects.get()
    assert sent == [{"trigger": "on_demand", "run_id": run.pk}]
    assert run.finished_at is None and run.ok is None
    assert f"Verification {run.pk} started" in text and "still running" in text
    verify_the_record.apply(kwargs=sent[0])  # the worker's turn
    run.refresh_from_db()
    assert run.ok is True


def test_with_the_broker_unreachable_the_page_verifies_in_the_request(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("reports.record.enqueue", lambda task, **kwargs: False)
    client_for("auditor").post("/audit/record/verify/")
    assert VerificationRun.objects.get().ok is True


@pytest.mark.parametrize("user", ["dealer", "admin", "cage"])
def test_others_neither_see_nor_start_a_verification(
    floor: dict[str, Any], eager_celery: Any, user: str
) -> None:
    tamper()
    failed = verify_now(trigger="command")
    c = client_for(user)
    assert c.get("/audit/record/").status_code == 403
    assert c.post("/audit/record/verify/").status_code == 403
    assert c.post(f"/audit/record/runs/{failed.pk}/acknowledge/", {"note": "x"}).status_code == 403
    assert VerificationRun.objects.count() == 1
    failed.refresh_from_db()
    assert failed.acknowledged_at is None
    refused = AuditEvent.objects.filter(kind="permission.refused", actor_name=user)
    assert refused.filter(data__path="/audit/record/verify/").exists()


def test_a_dealer_cannot_start_one_through_the_service(floor: dict[str, Any]) -> None:
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        run_start(trigger="on_demand", by=floor["dealer"])
    assert not VerificationRun.objects.exists()


def test_never_verified_and_overdue_are_warnings(floor: dict[str, Any], settings: Any) -> None:
    c = client_for("pitboss")
    page = c.get("/reports/dashboard/").content.decode()
    assert 'class="card record-panel warning"' in page
    assert "Never verified: no verification of the record has finished yet" in page_text(
        c.get("/reports/dashboard/")
    )
    run = verify_now(trigger="nightly")
    fresh = page_text(c.get("/reports/dashboard/"))
    assert "Never verified" not in fresh and "more than a day ago" not in fresh
    assert re.search(r"Last verified .* whole · [\d,]+ events and [\d,]+ bound rows checked", fresh)
    VerificationRun.objects.filter(pk=run.pk).update(
        finished_at=timezone.now() - timedelta(days=1, minutes=1)
    )
    stale = page_text(c.get("/reports/dashboard/"))
    assert "Last verified more than a day ago" in stale and "The record Overdue" in stale


def test_counts_and_times_read_as_a_person_reads_them(floor: dict[str, Any], settings: Any) -> None:
    settings.TIME_ZONE = "America/New_York"
    at = datetime(2026, 1, 15, 9, 31, tzinfo=UTC)  # 04:31 in New York
    VerificationRun.objects.create(
        trigger="nightly", started_at=at, finished_at=at, events=1_234_567, rows=89_012, ok=True
    )
    c = client_for("auditor")
    text = page_text(c.get("/reports/dashboard/"))
    assert "1,234,567 events and 89,012 bound rows checked" in text
    assert "Thu 15 Jan 2026, 04:31 EST" in text
    record = page_text(c.get("/audit/record/"))
    assert "Thu 15 Jan 2026, 04:31:00 EST · nightly" in record
    assert "1,234,567 events, 89,012 bound rows" in record
    assert "on_demand" not in record and "None" not in record


def test_the_new_kinds_read_well_in_the_trail() -> None:
    assert kind_label("record.verified") == "Record verified: whole"
    assert kind_label("record.verification_failed") == "Record verification failed"
    assert kind_label("record.failure_acknowledged") == "Record verification failure acknowledged"


def test_beat_verifies_the_record_every_night() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["record-verification"]
    assert entry["task"] == verify_the_record.name == "reports.tasks.verify_the_record"
    assert entry["task"] in app.tasks
    assert entry["schedule"] == crontab(hour=4, minute=30)
    assert verify_the_record.soft_time_limit >= 3000
    assert verify_the_record.time_limit > verify_the_record.soft_time_limit
    assert verify_the_record.max_retries == 3


def test_the_command_keeps_its_run(floor: dict[str, Any]) -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("verify_record", stdout=out)
    run = VerificationRun.objects.get()
    assert run.trigger == "command" and run.ok and "the record is whole" in out.getvalue()
    tamper()
    err = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("verify_record", stderr=err)
    assert exit_.value.code == 1 and "changed" in err.getvalue()
    assert VerificationRun.objects.filter(trigger="command", ok=False).count() == 1


def test_the_trail_names_a_run_and_opens_it(floor: dict[str, Any]) -> None:
    run = verify_now(trigger="nightly")
    page = client_for("auditor").get("/audit/", {"kind": "record"}).content.decode()
    assert f'href="/audit/record/#run-{run.pk}">verification {run.pk}</a>' in page
    assert "Record verified: whole" in page and "reports.verificationrun" not in page
