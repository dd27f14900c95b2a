"""Celery tasks of the audit app: thin, idempotent, bounded retries and time limits, acked
late so that a job whose worker dies is delivered again."""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from tables.gaming_day import gaming_day_of

from . import reporting
from .checkpoints import record_checkpoint

TASK_OPTIONS = {
    "bind": True,
    "max_retries": 3,
    "default_retry_delay": 10,
    "time_limit": 600,
    "soft_time_limit": 540,
    "acks_late": True,
}


@shared_task(**TASK_OPTIONS)
def checkpoint_audit_chain(self) -> int:  # type: ignore[no-untyped-def]
    """Sign the chain's head (idempotent: a re-run with no new events adds nothing)."""
    return record_checkpoint().seq


@shared_task(**TASK_OPTIONS)
def refresh_hold_report(self, day: str, table_id: int) -> int:  # type: ignore[no-untyped-def]
    """Rebuild one (gaming day, table) report from its rounds."""
    try:
        return reporting.rebuild(date.fromisoformat(day), table_id)
    except Exception as exc:
        raise self.retry(exc=exc) from exc


@shared_task(**TASK_OPTIONS)
def refresh_stale_reports(self) -> int:  # type: ignore[no-untyped-def]
    """Catch up every report marked stale (e.g. while the broker was down)."""
    return reporting.rebuild_stale()


@shared_task(**TASK_OPTIONS)
def recompute_closed_days(self, days: int = 2) -> int:  # type: ignore[no-untyped-def]
    """Rebuild the last closed gaming days (yesterday and before) for every table."""
    today = gaming_day_of(timezone.now())
    return sum(reporting.rebuild_day(today - timedelta(days=n)) for n in range(1, days + 1))
