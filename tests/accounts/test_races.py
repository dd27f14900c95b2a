"""Races on the real database answer 409 with a clear code (or both succeed in turn), never a
500: one dealer signing in at two tables at once; one idempotency key settling two rounds at
once; many sign-ins and settles at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tables.models import DealerSession, Round
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL) for writers racing on separate connections")


def race(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - reported by the assertions
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_one_dealer_signing_in_at_two_tables_at_once(floor: dict[str, Any]) -> None:
    dealer = floor["dealer"]
    for attempt in range(5):
        DealerSession.objects.filter(ended_at__isnull=True).update(ended_at="2000-01-01T00:00Z")
        a, b = client_for(dealer), client_for(dealer)
        responses = race(
            lambda a=a: a.post(f"/api/tables/{floor['SC-1'].pk}/sign-in/"),
            lambda b=b: b.post(f"/api/tables/{floor['PY-1'].pk}/sign-in/"),
        )
        codes = sorted(r.status_code for r in responses)
        assert codes in ([200, 200], [200, 409]), [r.content for r in responses]
        for r in responses:
            if r.status_code == 409:
                assert r.json()["error"]["code"] == "sign_in_conflict"
        open_sessions = DealerSession.objects.filter(dealer=dealer, ended_at__isnull=True)
        assert open_sessions.count() == 1, attempt


def _complete(floor: dict[str, Any], table: str, user: str) -> Round:
    dealer = floor[user]
    dealer_sign_in(dealer=dealer, table=floor[table])
    r = svc.round_open(table=floor[table], dealer=dealer, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=dealer, seat_cards={1: "9d 8h 2s"}, dealer_cards="Kc 7d 2c")
    decision = {"house_way": True} if table == "PY-1" else {}
    r = svc.round_decide(round=r, dealer=dealer, seat=1, decision=decision)
    return svc.round_dealer(round=r, dealer=dealer, draw=[])


def test_one_key_settling_two_rounds_at_once(floor: dict[str, Any]) -> None:
    r1 = _complete(floor, "SC-1", "dealer")
    r2 = _complete(floor, "PY-1", "dealer2")
    c1, c2 = client_for(floor["dealer"]), client_for(floor["dealer2"])
    responses = race(
        lambda: c1.post(
            f"/api/rounds/{r1.pk}/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k"
        ),
        lambda: c2.post(
            f"/api/rounds/{r2.pk}/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k"
        ),
    )
    assert sorted(r.status_code for r in responses) == [200, 409], [r.content for r in responses]
    (loser,) = [r for r in responses if r.status_code == 409]
    assert loser.json()["error"]["code"] == "idempotency_conflict"
    assert Round.objects.filter(status="settled").count() == 1
    assert Round.objects.filter(status="open").count() == 1
    assert not any(r.status_code >= 500 for r in responses)
