"""The Celery application. Without CELERY_BROKER_URL tasks run in-process (eager)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init
from django.core.exceptions import ImproperlyConfigured

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _refuse_without_keys(**kwargs: Any) -> None:
    """A worker signs audit checkpoints: never with a missing key (see accounts.checks)."""
    from django.conf import settings

    if settings.MISSING_KEYS:
        raise ImproperlyConfigured(f"set {', '.join(settings.MISSING_KEYS)} (DEBUG is off)")


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
