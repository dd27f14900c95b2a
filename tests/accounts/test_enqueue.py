"""With the broker down, a request that enqueues a task is not held up: the enqueue gives up
after about CELERY_ENQUEUE_TIMEOUT (100 ms) and then pauses, and the round settles. The time
limits asserted here are generous (many times the target) so a loaded machine never fails
them; before this, every settle waited about 6 s."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from casino.celery import app
from casino.enqueue import enqueue, resume
from reports.models import StaleReport
from reports.tasks import refresh_hold_report
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in

GENEROUS = 1.5  # seconds; the target is 0.1


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    saved = (app.conf.task_always_eager, app.conf.broker_url)

    def point_at(url: str) -> None:
        monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its settings
        app.conf.task_always_eager = False
        app.conf.broker_url = url
        app._pool = None
        resume()

    yield point_at
    app.conf.task_always_eager, app.conf.broker_url = saved
    app._pool = None
    resume()


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers (a hung broker)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(50)
    yield server.getsockname()[1]
    server.close()


def timed(fn: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def test_enqueue_returns_at_once_when_nothing_listens(broker: Any) -> None:
    broker("redis://127.0.0.1:1/0")
    sent, took = timed(enqueue, refresh_hold_report, "2026-01-01", 1)
    assert sent is False and took < GENEROUS


def test_enqueue_gives_up_on_a_broker_that_never_answers(broker: Any, silent_port: int) -> None:
    broker(f"redis://127.0.0.1:{silent_port}/0")
    sent, took = timed(enqueue, refresh_hold_report, "2026-01-01", 1)
    assert sent is False and took < GENEROUS
    # Then it pauses: the next requests do not try again for a while.
    sent, again = timed(enqueue, refresh_hold_report, "2026-01-01", 1)
    assert sent is False and again < 0.05


@pytest.mark.django_db
def test_settling_with_the_broker_hung_is_not_held_up(
    floor: dict[str, Any], broker: Any, silent_port: int, django_capture_on_commit_callbacks: Any
) -> None:
    dealer, table = floor["dealer"], floor["SC-1"]
    dealer_sign_in(dealer=dealer, table=table)
    broker(f"redis://127.0.0.1:{silent_port}/0")
    took = []
    for n in range(3):
        r = svc.round_open(table=table, dealer=dealer, wagers={1: {"ante": "10.00"}})
        r = svc.round_deal(
            round=r, dealer=dealer, seat_cards={1: "9d 8h 2s"}, dealer_cards="Kc 7d 2c"
        )
        r = svc.round_decide(round=r, dealer=dealer, seat=1, decision={})
        r = svc.round_dealer(round=r, dealer=dealer, draw=[])
        start = time.perf_counter()
        with django_capture_on_commit_callbacks(execute=True):
            r = svc.round_settle(round=r, dealer=dealer, idempotency_key=f"k{n}")
        took.append(time.perf_counter() - start)
        assert r.status == "settled"
    assert max(took) < GENEROUS, took
    assert StaleReport.objects.exists()  # the catch-up job rebuilds the report later


@pytest.mark.services
def test_enqueue_sends_when_the_broker_is_up(broker: Any) -> None:
    import os

    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis://"):
        pytest.skip("CELERY_BROKER_URL does not name Redis")
    broker(url)
    assert enqueue(refresh_hold_report, "2000-01-01", 0) is True
