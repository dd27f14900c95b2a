"""A Celery worker keeps its database connection between tasks (Celery's Django fix-up would
close it around every task) and drops it, as Django does between requests, when it is broken
or older than CONN_MAX_AGE; a task run in-process never touches the request's connection."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from casino.celery import _close_old_connections, app

pytestmark = pytest.mark.django_db(transaction=True)


def _task(eager: bool) -> Any:
    return SimpleNamespace(request=SimpleNamespace(is_eager=eager))


def test_the_fix_up_reuses_the_connection() -> None:
    assert DjangoWorkerFixup(app).db_reuse_max == 1000


def test_a_worker_keeps_a_young_connection_and_drops_an_old_one(settings: Any) -> None:
    if connection.vendor == "sqlite":
        pytest.skip("Django never closes SQLite's in-memory test database")
    connection.ensure_connection()
    kept = connection.connection
    _close_old_connections(task=_task(eager=False))
    assert connection.connection is kept
    connection.close_at = 0  # older than CONN_MAX_AGE
    _close_old_connections(task=_task(eager=False))
    assert connection.connection is None


def test_an_eager_task_leaves_the_requests_connection_alone() -> None:
    connection.ensure_connection()
    kept = connection.connection
    connection.close_at = 0
    _close_old_connections(task=_task(eager=True))
    assert connection.connection is kept
