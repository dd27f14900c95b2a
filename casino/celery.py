"""The Celery application. Without CELERY_BROKER_URL tasks run in-process (eager)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from celery import Celery
from celery.signals import beat_init, task_postrun, task_prerun, worker_init

if TYPE_CHECKING:
    from django.core.checks import CheckMessage

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
@beat_init.connect
def refuse_to_start_on_check_errors(signal: Any = None, **kwargs: Any) -> None:
    """A worker or beat never starts when Django's system checks find an error: among them a
    missing, default or short key (accounts.checks), with which the worker would sign audit
    checkpoints anyone could forge. Celery catches an exception a signal handler raises and
    goes on, so the refusal is written to stderr and the process exits (status 1)."""
    problems = start_errors()
    if problems:
        kind = "beat" if signal is beat_init else "worker"
        print(
            f"casino: celery {kind} refuses to start: the system checks found errors\n"
            + "\n".join(str(problem) for problem in problems),
            file=sys.__stderr__,
            flush=True,
        )
        raise SystemExit(1)


def start_errors() -> list[CheckMessage]:
    """The system checks' errors (not warnings, not silenced, not the --deploy ones) that keep
    a process from starting, as `manage.py` commands are kept."""
    import django
    from django.apps import apps
    from django.core.checks import run_checks

    if not apps.ready:
        django.setup()
    return [m for m in run_checks() if m.is_serious() and not m.is_silenced()]


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(task: Any = None, **kwargs: Any) -> None:
    """Before and after a task on a worker: drop a database connection that is broken or older
    than CONN_MAX_AGE (Django's own rule between requests; CELERY_DB_REUSE_MAX keeps the others).
    Never for a task run in-process (eager): that is the request's connection, maybe mid-
    transaction."""
    if task is None or getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
