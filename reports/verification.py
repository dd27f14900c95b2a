"""The record verified and each verification kept: every night (beat), on demand (a pit boss or
an auditor, from the trail's pages) and from `manage.py verify_record`.

A run is a `VerificationRun`: written when it starts, finished once with what
`audit.verify.verify_record` found, and, when it failed, acknowledged once with a note by a pit
boss or an auditor. Its finish and its acknowledgement are each an event on the audit chain (a
failure is written on the chain it found broken: the chain's head is where the next event
goes, whatever is wrong before it). Reads for the pages are here too (`record_status`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from audit.verify import RecordReport, verify_record
from core.errors import ServiceError
from core.roles import RECORD_READERS, require

from .models import VerificationRun

logger = logging.getLogger(__name__)

# A record last verified longer ago than this is shown as a warning (the nightly run missed).
STALE_AFTER = timedelta(days=1)
# At most this many problems are kept on a run (and fewer on its audit event); the rest are
# counted. `manage.py verify_audit` prints every one.
KEPT_PROBLEMS = 200
# A run not finished this long after it started was stopped (its worker died past its retries,
# or the broker lost it): it is no longer shown as running.
GIVEN_UP_AFTER = timedelta(hours=2)
PROBLEMS_ON_THE_CHAIN = 20

Trigger = VerificationRun.Trigger
User = AbstractBaseUser | AnonymousUser


def run_start(*, trigger: str, by: User | None = None) -> VerificationRun:
    """A run begins. On demand it is a pit boss's or an auditor's, who is named on it."""
    if trigger not in Trigger.values:
        raise ServiceError(f"{trigger!r} is not a way to start a verification", field="trigger")
    if trigger == Trigger.ON_DEMAND:
        require(by, RECORD_READERS, "verify the record")
    requested_by = by if by is not None and by.is_authenticated else None
    with transaction.atomic():
        run = VerificationRun.objects.create(
            trigger=trigger,
            requested_by=requested_by,
            started_at=timezone.now(),
        )
        # On the record from its start (the run is bound to its events like any row that
        # decides what the floor is shown), so that the run verifies itself clean.
        audit_record(
            actor=requested_by,
            actor_name=None if requested_by else "",
            kind=EventKind.RECORD_VERIFICATION_STARTED,
            obj=run,
            data={"run": run.pk, "started": how_started(run)},
        )
    return run


def _kept(problems: tuple[str, ...]) -> list[str]:
    if len(problems) <= KEPT_PROBLEMS:
        return list(problems)
    more = len(problems) - KEPT_PROBLEMS
    return [
        *problems[:KEPT_PROBLEMS],
        f"... and {more:,} more (`manage.py verify_audit` prints every one)",
    ]


def run_finish(run_id: int) -> VerificationRun:
    """Verify the record for the run and keep what was found. Idempotent: a run already
    finished (a task delivered twice) is returned as it is, verified only once."""
    run = VerificationRun.objects.get(pk=run_id)
    if run.finished_at is not None:
        return run
    try:
        report = verify_record()  # a long read, outside any transaction
    except Exception as exc:  # noqa: BLE001 - a verification that stops is a failed run
        logger.exception("verification run %s stopped", run_id)
        report = RecordReport(
            events=0,
            rows=0,
            problems=(f"the verification stopped with {type(exc).__name__}: {exc}",),
        )
    return _finish(run_id, report)


def _finish(run_id: int, report: RecordReport) -> VerificationRun:
    with transaction.atomic():
        run = VerificationRun.objects.select_for_update().get(pk=run_id)
        if run.finished_at is not None:
            return run
        run.finished_at = timezone.now()
        run.events, run.rows, run.ok = report.events, report.rows, report.ok
        run.problems = _kept(report.problems)
        run.save(update_fields=["finished_at", "events", "rows", "ok", "problems"])
        data: dict[str, Any] = {
            "run": run.pk,
            "started": how_started(run),
            "events_checked": report.events,
            "bound_rows_checked": report.rows,
        }
        if not report.ok:
            data["problem_count"] = len(report.problems)
            data["problems"] = list(report.problems[:PROBLEMS_ON_THE_CHAIN])
        audit_record(
            actor=run.requested_by,
            actor_name=None if run.requested_by else "",
            kind=EventKind.RECORD_VERIFIED if report.ok else EventKind.RECORD_VERIFICATION_FAILED,
            obj=run,
            data=data,
        )
    return run


def close_abandoned(*, now: datetime | None = None) -> int:
    """Every run not finished `GIVEN_UP_AFTER` after it started (its worker died past its
    retries, the broker lost it, the database went away under it) is finished as failed, once,
    saying so: the dashboard shows it as an alert, never as running for ever. Returns how many."""
    cutoff = (now or timezone.now()) - GIVEN_UP_AFTER
    closed = 0
    for run_id in VerificationRun.objects.filter(
        finished_at__isnull=True, started_at__lt=cutoff
    ).values_list("pk", flat=True):
        hours = GIVEN_UP_AFTER.total_seconds() / 3600
        _finish(
            run_id,
            RecordReport(
                events=0,
                rows=0,
                problems=(
                    f"the verification gave no result within {hours:g} hours of its start "
                    "(its worker stopped or its task was lost): verify the record again",
                ),
            ),
        )
        closed += 1
    return closed


def verify_now(*, trigger: str, by: User | None = None) -> VerificationRun:
    """Start a run and finish it here (the nightly task, the command, a page with no worker)."""
    return run_finish(run_start(trigger=trigger, by=by).pk)


@transaction.atomic
def run_acknowledge(*, run: VerificationRun, by: User, note: str) -> VerificationRun:
    """A pit boss or an auditor acknowledges a failed run with a note saying what was found
    and done (once): the dashboard's alert ends; the run's result stays as it was."""
    require(by, RECORD_READERS, "acknowledge a failed verification of the record")
    note = (note or "").strip()
    if not note:
        raise ServiceError(
            "acknowledging a failed verification needs a note saying what was found and done "
            "(the note field is empty)",
            field="note",
        )
    run = VerificationRun.objects.select_for_update().get(pk=run.pk)
    if run.ok is not False:
        raise ServiceError(
            f"verification run {run.pk} did not fail: there is nothing to acknowledge",
            field="run",
            code="conflict",
            status=409,
        )
    if run.acknowledged_at is not None:
        raise ServiceError(
            f"verification run {run.pk} was already acknowledged by {run.acknowledged_by}",
            field="run",
            code="conflict",
            status=409,
        )
    run.acknowledged_by, run.acknowledged_at, run.acknowledgement_note = by, timezone.now(), note
    run.save(update_fields=["acknowledged_by", "acknowledged_at", "acknowledgement_note"])
    audit_record(
        actor=by,
        kind=EventKind.RECORD_FAILURE_ACKNOWLEDGED,
        obj=run,
        data={
            "run": run.pk,
            "started": how_started(run),
            "run_started_at": _local(run.started_at),
            "problem_count": len(run.problems),
            "note": note,
        },
    )
    return run


def _local(moment: datetime) -> str:
    """A time as a person at the casino reads it (its time zone, named)."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M %Z")


def how_started(run: VerificationRun) -> str:
    """ "nightly", "on demand by auditor", "command": how a person reads it."""
    if run.trigger == Trigger.ON_DEMAND and run.requested_by is not None:
        return f"on demand by {run.requested_by.get_username()}"
    return str(Trigger(run.trigger).label).lower()


@dataclass(frozen=True)
class RecordStatus:
    """What the dashboard says of the record: the last finished run, the failures nobody has
    acknowledged yet, and a run still going."""

    last: VerificationRun | None
    open_failures: list[VerificationRun]
    running: VerificationRun | None
    now: datetime

    @property
    def never_verified(self) -> bool:
        return self.last is None

    @property
    def stale(self) -> bool:
        """Last verified longer ago than a day (the nightly run did not happen)."""
        return (
            self.last is not None
            and self.last.finished_at is not None
            and self.now - self.last.finished_at > STALE_AFTER
        )

    @property
    def alerts(self) -> int:
        return len(self.open_failures)

    @property
    def warning(self) -> bool:
        return self.never_verified or self.stale


def record_status(*, now: datetime | None = None) -> RecordStatus:
    runs = VerificationRun.objects.select_related("requested_by", "acknowledged_by")
    # The last run that walked the record: one that stopped before it checked anything (its
    # error, or given up) is a failure to verify, never the record's last verification.
    last = (
        runs.filter(finished_at__isnull=False)
        .exclude(ok=False, events=0)
        .order_by("-finished_at", "-id")
        .first()
    )
    open_failures = list(
        runs.filter(ok=False, acknowledged_at__isnull=True).order_by("-finished_at", "-id")
    )
    now = now or timezone.now()
    running = (
        runs.filter(finished_at__isnull=True, started_at__gte=now - GIVEN_UP_AFTER)
        .order_by("-started_at", "-id")
        .first()
    )
    return RecordStatus(last=last, open_failures=open_failures, running=running, now=now)


def recent_runs(limit: int = 50) -> list[VerificationRun]:
    return list(
        VerificationRun.objects.select_related("requested_by", "acknowledged_by").order_by(
            "-started_at", "-id"
        )[:limit]
    )
