"""The Celery application. Without CELERY_BROKER_URL tasks run in-process (eager)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init
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
