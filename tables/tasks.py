"""Celery tasks of the floor: thin, idempotent (the figures' unique (version, strategy) claims
the work), bounded retries and time limits, acked late.

A task imports the service it calls; `tables.services.figures` sends these tasks by name
(`casino.enqueue`), so it never imports this module. `TablesConfig.ready` imports this module,
which registers the tasks in the web process as in the worker.
"""

from __future__ import annotations

from celery import shared_task

from audit.tasks import TASK_OPTIONS

from .services.figures import compute_missing_figures, paytable_figures_compute


@shared_task(**TASK_OPTIONS)
def compute_paytable_figures(self, version_id: int) -> int:  # type: ignore[no-untyped-def]
    """Compute and store an approved paytable version's theoretical figures."""
    try:
        return len(paytable_figures_compute(version_id=version_id))
    except Exception as exc:
        raise self.retry(exc=exc) from exc


@shared_task(**TASK_OPTIONS)
def compute_missing_paytable_figures(self) -> int:  # type: ignore[no-untyped-def]
    """Catch up every approved version without its figures (e.g. the broker was down)."""
    return compute_missing_figures()
