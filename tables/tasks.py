"""Celery tasks of the floor: thin, idempotent (the figures' unique (version, strategy) claims
the work), bounded retries and time limits, acked late.

`tables.services.figures` imports these tasks at module level to send them; a task imports the
service it calls inside its function, so the two modules never import each other at load.
"""

from __future__ import annotations

from celery import shared_task

from audit.tasks import TASK_OPTIONS


@shared_task(**TASK_OPTIONS)
def compute_paytable_figures(self, version_id: int) -> int:  # type: ignore[no-untyped-def]
    """Compute and store an approved paytable version's theoretical figures."""
    from .services.figures import paytable_figures_compute

    try:
        return len(paytable_figures_compute(version_id=version_id))
    except Exception as exc:
        raise self.retry(exc=exc) from exc


@shared_task(**TASK_OPTIONS)
def compute_missing_paytable_figures(self) -> int:  # type: ignore[no-untyped-def]
    """Catch up every approved version without its figures (e.g. the broker was down)."""
    from .services.figures import compute_missing_figures

    return compute_missing_figures()
