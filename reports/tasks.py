"""Celery tasks of the hold reports: thin, idempotent, bounded retries and time limits, acked
late so that a job whose worker dies is delivered again.

A task imports the service it calls; the services send these tasks by name
(`casino.enqueue`), so neither module imports the other's importer. `ReportsConfig.ready`
imports this module, which registers the tasks in the web process as in the worker.
"""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from audit.tasks import TASK_OPTIONS
from tables.gaming_day import gaming_day_of

from .reporting import rebuild, rebuild_day, rebuild_stale
from .verification import close_abandoned, run_finish, run_start


@shared_task(**TASK_OPTIONS)
def refresh_hold_report(  # type: ignore[no-untyped-def]
    self, day: str, table_id: int, only_if_marked: bool = False
) -> int:
    """Rebuild one (gaming day, table) report from its rounds (a settled round's rebuild: only
    if no rebuild since has covered it, `only_if_marked`)."""
    try:
        return rebuild(date.fromisoformat(day), table_id, only_if_marked=only_if_marked)
    except Exception as exc:
        raise self.retry(exc=exc) from exc


@shared_task(**TASK_OPTIONS)
def refresh_stale_reports(self) -> int:  # type: ignore[no-untyped-def]
    """Catch up every report marked stale (e.g. while the broker was down), and finish as
    failed every verification run that was abandoned."""
    close_abandoned()
    return rebuild_stale()


@shared_task(**TASK_OPTIONS)
def recompute_closed_days(self, days: int = 2) -> int:  # type: ignore[no-untyped-def]
    """Rebuild the last closed gaming days (yesterday and before) for every table."""
    today = gaming_day_of(timezone.now())
    return sum(rebuild_day(today - timedelta(days=n)) for n in range(1, days + 1))


# The whole record is walked (every event, every bound row): minutes on a large one.
VERIFY_OPTIONS = {**TASK_OPTIONS, "soft_time_limit": 3000, "time_limit": 3300}


@shared_task(**VERIFY_OPTIONS)
def verify_the_record(  # type: ignore[no-untyped-def]
    self, trigger: str = "nightly", run_id: int | None = None
) -> int:
    """Verify the whole record and keep the run (nightly from beat; a page's run on demand
    passes the run it started). Returns the run's id; a run already finished is not run again."""
    if run_id is None:
        close_abandoned()
        run_id = run_start(trigger=trigger).pk
    try:
        return run_finish(run_id).pk
    except Exception as exc:
        raise self.retry(exc=exc, kwargs={"trigger": trigger, "run_id": run_id}) from exc
