"""Cash compliance's Celery task: the nightly run of the suspicious activity alerts over the
gaming day just closed (`compliance.alerts.scan_day`), from beat. Thin and idempotent: an
alert already raised is not raised again."""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from audit.tasks import TASK_OPTIONS
from tables.gaming_day import gaming_day_of

from .alerts import scan_day


@shared_task(**TASK_OPTIONS)
def scan_for_alerts(self, day: str | None = None) -> int:  # type: ignore[no-untyped-def]
    """Raise the alerts of a gaming day (by default the one before today's); their count."""
    try:
        when = date.fromisoformat(day) if day else gaming_day_of(timezone.now()) - timedelta(1)
        return len(scan_day(when))
    except Exception as exc:
        raise self.retry(exc=exc) from exc
