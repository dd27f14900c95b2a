"""A player's buy-in when a poker hand opens is within the limit an admin sets for poker buy-ins
(`tables.AmountLimit`, kind `poker_buy_in`), on every path: the API and the tablet's page (Rhode
Island Hold 'Em and Mulligan for chips alike; the stacks the page fills in from the last hand
are posted as typed ones). The refusal names the seat and the dollars; nothing is saved. The
page says the range."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from tables.games.mulligan.game import Variant
from tables.models import Hand, HandPlayer
from tables.services.limits import limit_set
from tables.services.sessions import dealer_sign_in
from tests.games.mulligan.floor import mulligan_table
from tests.helpers import client_for, ok, refused

pytestmark = pytest.mark.django_db

OVER = "seat 3's buy-in may be at most $1,000.00 (the limit an admin sets for poker buy-ins), "


@pytest.fixture
def lowered(floor: dict[str, Any]) -> dict[str, Any]:
    """The poker buy-in limit set to $1,000.00 by an admin; the dealer signed in at RI-1."""
    limit_set(kind="poker_buy_in", max_cents=1_000_00, by=floor["admin"])
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    return floor


def nothing_saved(events: int) -> None:
    assert not Hand.objects.exists() and not HandPlayer.objects.exists()
    assert AuditEvent.objects.count() == events


def test_the_api_refuses_a_buy_in_over_the_admins_limit_naming_seat_and_dollars(
    lowered: dict[str, Any],
) -> None:
    client = client_for(lowered["dealer"])
    events = AuditEvent.objects.count()
    body = {"table": lowered["RI-1"].pk, "players": {"1": 500_00, "3": 1_000_01}}
    error = refused(client.post("/api/hands/", body, format="json"), 400, "over_limit")
    assert error["field"] == "seat 3 buy_in"
    assert error["message"] == OVER + "not $1,000.01"
    nothing_saved(events)
    body["players"]["3"] = 1_000_00  # the limit itself is taken
    hand = ok(client.post("/api/hands/", body, format="json"), 201)
    assert [p["buy_in_cents"] for p in hand["players"]] == [500_00, 1_000_00]


def test_the_tablet_refuses_it_at_the_seat_and_says_the_range(lowered: dict[str, Any]) -> None:
    client = Client()
    client.force_login(lowered["dealer"])
    url = f"/tablet/table/{lowered['RI-1'].pk}/"
    page = client.get(url).content.decode()
    assert "Each buy-in from $0.01 to $1,000.00" in page
    events = AuditEvent.objects.count()
    response = client.post(url + "hand/open/", {"seat-1-buy_in": "500", "seat-3-buy_in": "1000.01"})
    assert response.status_code == 400
    text = response.content.decode().replace("&#x27;", "'")
    assert OVER + "not $1,000.01" in text and 'aria-invalid="true"' in text
    nothing_saved(events)


def test_a_mulligan_table_for_chips_has_the_same_limit(floor: dict[str, Any]) -> None:
    table = mulligan_table(floor, {Variant.CHIPS})
    limit_set(kind="poker_buy_in", max_cents=1_000_00, by=floor["admin"])
    api, client = client_for(floor["dealer"]), Client()
    client.force_login(floor["dealer"])
    events = AuditEvent.objects.count()  # (signing in is on the record)
    players = {"1": 500_00, "3": 2_000_00}
    error = refused(
        api.post("/api/hands/", {"table": table.pk, "players": players}, format="json"),
        400,
        "over_limit",
    )
    assert error["message"] == OVER + "not $2,000.00"
    response = client.post(
        f"/tablet/table/{table.pk}/hand/open/", {"seat-1-buy_in": "500", "seat-3-buy_in": "2000"}
    )
    assert response.status_code == 400
    assert OVER + "not $2,000.00" in response.content.decode().replace("&#x27;", "'")
    nothing_saved(events)
