"""Rated play's API takes input as the rest of the API does (`tables.api.strict`): a key the
request does not know is refused naming it, a seat is a JSON whole number and a card or a name
is text; nothing is saved on a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from audit.models import AuditEvent
from players.models import Player, Rating
from tests.helpers import client_for, refused

pytestmark = pytest.mark.django_db


def test_an_unknown_key_is_refused_naming_it(floor: dict[str, Any], dealer_at: Any) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    host = client_for(floor["host"])
    before = (Player.objects.count(), Rating.objects.count(), AuditEvent.objects.count())

    body = {"card": "300001", "name": "Ivy Stone", "vip": True}
    error = refused(host.post("/api/players/", body, format="json"), 400, "unknown_field")
    assert error["field"] == "vip"
    body = {"seat": 2, "card": "100001", "sead": 3}
    error = refused(
        dealer.post(f"/api/tables/{table.pk}/seat-player/", body, format="json"),
        400,
        "unknown_field",
    )
    assert error["field"] == "sead"
    error = refused(
        dealer.post(
            f"/api/tables/{table.pk}/unseat-player/", {"seat": 2, "card": "1"}, format="json"
        ),
        400,
        "unknown_field",
    )
    assert error["field"] == "card"
    assert (Player.objects.count(), Rating.objects.count(), AuditEvent.objects.count()) == before


@pytest.mark.parametrize("seat", ["2", 2.0, 1.5, True, None, [2]])
def test_a_seat_is_a_whole_number(floor: dict[str, Any], dealer_at: Any, seat: Any) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    body = {"seat": seat, "card": "100001"}
    error = refused(dealer.post(f"/api/tables/{table.pk}/seat-player/", body, format="json"), 400)
    assert error["field"] == "seat"
    assert not Rating.objects.exists()


def test_a_card_and_a_name_are_text(floor: dict[str, Any], dealer_at: Any) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    host = client_for(floor["host"])
    body = {"seat": 2, "card": 100001}
    error = refused(dealer.post(f"/api/tables/{table.pk}/seat-player/", body, format="json"), 400)
    assert error["field"] == "card"
    body = {"card": "300001", "name": 42}
    error = refused(host.post("/api/players/", body, format="json"), 400)
    assert error["field"] == "name"
    assert not Rating.objects.exists() and not Player.objects.filter(card="300001").exists()


def test_a_seat_below_one_is_no_seat(floor: dict[str, Any], dealer_at: Any) -> None:
    table = floor["PY-1"]
    dealer = dealer_at("PY-1")
    body = {"seat": -1, "card": "100001"}
    error = refused(
        dealer.post(f"/api/tables/{table.pk}/seat-player/", body, format="json"), 400, "no_seat"
    )
    assert "Seat -1" in error["message"] and "1 to 7" in error["message"]
