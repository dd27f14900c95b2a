"""Celery tasks of the audit trail: thin, idempotent, bounded retries and time limits, acked
late so that a job whose worker dies is delivered again."""

from __future__ import annotations

from celery import shared_task

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
    from .checkpoints import record_checkpoint

    return record_checkpoint().seq
