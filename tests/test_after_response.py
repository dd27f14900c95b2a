"""Work a request defers runs once its response is written (core.after_response): a settled
round's answer does not wait for its report's rebuild."""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.request
from typing import Any

import pytest
from django.core.signals import request_finished
from django.db import close_old_connections
from django.http import HttpResponse
from django.test import RequestFactory

from core.after_response import AfterResponseMiddleware, after_response


def close(response: HttpResponse) -> None:
    """What a WSGI server does after writing the last byte (without Django's end-of-request
    database housekeeping, as in Django's own test client: these tests have no database)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def test_outside_a_request_the_work_runs_at_once() -> None:
    ran: list[str] = []
    after_response(lambda: ran.append("now"))
    assert ran == ["now"]


def test_in_a_request_the_work_runs_when_the_response_is_closed_before_request_finished() -> None:
    order: list[str] = []

    def view(request: Any) -> HttpResponse:
        after_response(lambda: order.append("first"))
        after_response(lambda: order.append("second"))
        order.append("view returns")
        return HttpResponse("paid")

    def finished(**kwargs: Any) -> None:
        order.append("request_finished")

    response = AfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert order == ["view returns"]  # nothing ran before the server had the whole answer
    request_finished.connect(finished)
    try:
        close(response)
    finally:
        request_finished.disconnect(finished)
    assert order == ["view returns", "first", "second", "request_finished"]
    after_response(lambda: order.append("outside"))  # the request is over: at once again
    assert order[-1] == "outside"


def test_a_request_that_defers_nothing_leaves_its_response_alone() -> None:
    response = AfterResponseMiddleware(lambda request: HttpResponse("ok"))(
        RequestFactory().get("/")
    )
    assert response._resource_closers == []


def test_a_failing_piece_of_work_is_logged_and_the_rest_still_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("broker gone")

    def view(request: Any) -> HttpResponse:
        after_response(broken)
        after_response(lambda: ran.append("after"))
        return HttpResponse("paid")

    response = AfterResponseMiddleware(view)(RequestFactory().get("/"))
    with caplog.at_level(logging.ERROR, logger="core.after_response"):
        close(response)
    assert ran == ["after"]
    assert "deferred until after the response failed" in caplog.text
    assert "broker gone" in caplog.text


def test_a_view_that_raises_runs_its_deferred_work_before_the_error_goes_on() -> None:
    ran: list[str] = []

    def view(request: Any) -> HttpResponse:
        after_response(lambda: ran.append("committed work"))
        raise ValueError("late failure")

    with pytest.raises(ValueError, match="late failure"):
        AfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert ran == ["committed work"]
    after_response(lambda: ran.append("outside"))
    assert ran[-1] == "outside"


@pytest.mark.django_db(transaction=True)
def test_a_settle_over_http_answers_while_its_report_rebuild_is_still_waiting(
    floor: dict[str, Any], live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from accounts.models import ApiToken
    from reports import reporting
    from tables.services import rounds as svc
    from tables.services.sessions import dealer_sign_in

    release = threading.Event()
    rebuilds: list[tuple[Any, int]] = []

    def slow_rebuild(day: Any, table_id: int) -> None:
        release.wait(10)  # the report's rebuild, held until the test has its answer
        rebuilds.append((day, table_id))

    monkeypatch.setattr(reporting, "request_rebuild", slow_rebuild)
    dealer, table = floor["dealer"], floor["SC-1"]
    dealer_sign_in(dealer=dealer, table=table)
    r = svc.round_open(table=table, dealer=dealer, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=dealer, seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c")
    r = svc.round_decide(round=r, dealer=dealer, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=dealer)
    _token, key = ApiToken.objects.issue(dealer)
    request = urllib.request.Request(
        f"{live_server.url}/api/rounds/{r.pk}/settle/",
        data=b"{}",
        method="POST",
        headers={
            "Authorization": f"Token {key}",
            "Content-Type": "application/json",
            "Idempotency-Key": "after-response-1",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            body = json.loads(answer.read())
        assert body["status"] == "settled"
        assert rebuilds == []  # the answer came while the rebuild was still held
    finally:
        release.set()
    deadline = time.monotonic() + 10
    while not rebuilds and time.monotonic() < deadline:
        time.sleep(0.02)
    r.refresh_from_db()
    assert rebuilds == [(r.gaming_day, table.pk)]
