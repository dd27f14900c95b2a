"""Sending a Celery task from a request without ever holding the request up.

With the broker down, Celery's own publish retries and kombu's connection timeouts hold the
caller for seconds. `enqueue` connects with a short timeout (CELERY_ENQUEUE_TIMEOUT, 100 ms
by default), publishes once, and on failure stops trying for CELERY_ENQUEUE_PAUSE seconds
(every request in that time returns at once). A task not sent is not lost work: whatever it
would have done is marked in the database, and a periodic job catches up (see
reports.reporting).

A service names the task it sends (`"reports.tasks.refresh_hold_report"`), as the beat
schedule does, and never imports the task's module: the task imports the service it calls, so
the two never import each other. Each app's `ready()` imports its `tasks` module, which
registers its tasks in every process (web and worker) before any is sent.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

_lock = threading.Lock()
_paused_until = 0.0
# Each thread keeps its broker connection between sends (opening one, and declaring the
# queue on it, cost more than the send); dropped on any failure, and when the broker changes.
_local = threading.local()


def _drop_connection() -> None:
    held = getattr(_local, "held", None)
    _local.held = None
    if held is not None:
        with contextlib.suppress(Exception):  # a broken connection: nothing more to do with it
            held[1].release()


def _connection(app: Any, timeout: float) -> Any:
    url = app.conf.broker_url
    held = getattr(_local, "held", None)
    if held is not None and held[0] == url:
        return held[1]
    _drop_connection()
    options = {
        **(app.conf.broker_transport_options or {}),
        "socket_connect_timeout": timeout,
        "socket_timeout": timeout,
        "max_retries": 0,
    }
    conn = app.connection_for_write(connect_timeout=timeout, transport_options=options)
    _local.held = (url, conn)
    return conn


def _pause() -> None:
    global _paused_until
    with _lock:
        _paused_until = time.monotonic() + settings.CELERY_ENQUEUE_PAUSE


def resume() -> None:
    """Forget an earlier failure (tests, or after the broker is known to be back)."""
    global _paused_until
    with _lock:
        _paused_until = 0.0
    _drop_connection()


def registered(name: str) -> Any:
    """The task registered under `name` (celery.exceptions.NotRegistered if none is)."""
    from casino.celery import app

    return app.tasks[name]


def enqueue(task: Any, *args: Any, **kwargs: Any) -> bool:
    """Send `task(*args, **kwargs)` (the task, or its registered name); False (logged) when the
    broker could not take it. A name no task has raises: a wrong name is a bug, not an outage."""
    if isinstance(task, str):
        task = registered(task)
    app = task.app
    if app.conf.task_always_eager:
        task.apply_async(args=args, kwargs=kwargs)  # runs here and now
        return True
    if time.monotonic() < _paused_until:
        log.warning("%s not queued: the broker was unreachable moments ago", task.name)
        return False
    try:
        conn = _connection(app, settings.CELERY_ENQUEUE_TIMEOUT)
        task.apply_async(args=args, kwargs=kwargs, connection=conn, retry=False)
    except Exception as exc:  # noqa: BLE001 - any broker failure: the caller goes on
        _drop_connection()
        _pause()
        log.warning("%s not queued (%s): the periodic job will catch up", task.name, exc)
        return False
    return True
