"""Seating by card: the refusals (unknown card, a seat already rated, a card rated elsewhere, a
barred or self-excluded card, a seat out of range), each a clear 4xx naming the problem with
nothing saved; a refused card raises the pit boss's alert. Who may seat, enrol and read."""

from __future__ import annotations

from typing import Any

import pytest

from audit.kinds import EventKind
from audit.models import AuditEvent
from players.models import Player, Rating, RefusedCardAlert
from tests.helpers import client_for, ok, refused
from tests.players.conftest import seat

pytestmark = pytest.mark.django_db


def seat_post(client: Any, table: Any, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table.pk}/seat-player/", body, format="json")


def test_each_refused_seating_names_the_problem_and_saves_nothing(
    floor: dict[str, Any], dealer_at: Any
) -> None:
    table = floor["PY-1"]
    client = dealer_at("PY-1")
    seat(client, table, 1, "100001")
    before = (Rating.objects.count(), AuditEvent.objects.count())

    error = refused(seat_post(client, table, {"seat": 2, "card": "999999"}), 400, "unknown_card")
    assert "999999" in error["message"] and error["field"] == "card"
    error = refused(seat_post(client, table, {"seat": 1, "card": "100002"}), 409, "seat_rated")
    assert "Seat 1" in error["message"]
    error = refused(seat_post(client, table, {"seat": 3, "card": "100001"}), 409, "already_seated")
    assert "100001" in error["message"] and "PY-1 seat 1" in error["message"]
    error = refused(seat_post(client, table, {"seat": 8, "card": "100002"}), 400, "no_seat")
    assert "Seat 8" in error["message"] and "1 to 7" in error["message"]
    refused(seat_post(client, table, {"seat": 0, "card": "100002"}), 400, "no_seat")
    refused(seat_post(client, table, {"seat": 2}), 400)
    refused(seat_post(client, table, {"seat": 2, "card": "  "}), 400)
    error = refused(
        client.post(f"/api/tables/{table.pk}/unseat-player/", {"seat": 4}, format="json"),
        409,
        "not_rated",
    )
    assert "Seat 4" in error["message"]
    assert (Rating.objects.count(), AuditEvent.objects.count()) == before


def test_a_barred_or_self_excluded_card_is_refused_and_raises_an_alert(
    floor: dict[str, Any], dealer_at: Any
) -> None:
    table = floor["PY-1"]
    client = dealer_at("PY-1")
    for card in ("100004", "100005"):  # barred, self-excluded
        error = refused(seat_post(client, table, {"seat": 2, "card": card}), 403, "player_refused")
        assert card in error["message"] and "call the pit boss" in error["message"]
    assert not Rating.objects.exists()
    alerts = list(RefusedCardAlert.objects.order_by("id"))
    assert [(a.player.card, a.status, a.seat) for a in alerts] == [
        ("100004", "barred", 2),
        ("100005", "self_excluded", 2),
    ]
    assert AuditEvent.objects.filter(kind=EventKind.PLAYER_REFUSED).count() == 2
    # On the pit boss's dashboard.
    page = client_for(floor["pitboss"]).get("/reports/dashboard/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Refused cards" in text and "100004" in text and "Barred" in text


def test_a_card_is_rated_at_one_table_at_a_time(floor: dict[str, Any], dealer_at: Any) -> None:
    seat(dealer_at("PY-1"), floor["PY-1"], 1, "100001")
    other = dealer_at("SC-1", "dealer2")
    error = refused(seat_post(other, floor["SC-1"], {"seat": 1, "card": "100001"}), 409)
    assert "PY-1" in error["message"]
    ok(
        other.post(f"/api/tables/{floor['PY-1'].pk}/unseat-player/", {"seat": 1}, format="json"),
        403,
    )


def test_a_dealer_seats_only_at_their_own_table(floor: dict[str, Any], dealer_at: Any) -> None:
    client = dealer_at("PY-1")
    error = refused(seat_post(client, floor["SC-1"], {"seat": 1, "card": "100001"}), 403)
    assert "SC-1" in error["message"]
    assert not Rating.objects.exists()


def test_a_dealer_neither_manages_players_nor_reads_a_players_page(
    floor: dict[str, Any], dealer_at: Any
) -> None:
    dealer = dealer_at("PY-1")
    alice = Player.objects.get(card="100001")
    refused(dealer.post("/api/players/", {"card": "1", "name": "X"}, format="json"), 403)
    refused(dealer.get(f"/api/players/{alice.pk}/"), 403)
    refused(dealer.get("/api/players/?q=alice"), 403)
    assert dealer.get(f"/players/{alice.pk}/").status_code == 403
    assert dealer.get("/players/").status_code == 403
    assert not AuditEvent.objects.filter(kind=EventKind.PLAYER_VIEWED).exists()


def test_a_host_enrols_and_reads_players_and_every_view_is_on_the_record(
    floor: dict[str, Any],
) -> None:
    host = client_for(floor["host"])
    body = {"card": "200001", "name": "Greta Lind", "tier": "silver"}
    made = ok(host.post("/api/players/", body, format="json"), 201)
    assert made["card"] == "200001" and made["status"] == "active"
    error = refused(host.post("/api/players/", body, format="json"), 409, "duplicate")
    assert "200001" in error["message"]
    refused(
        host.post("/api/players/", {**body, "card": "2", "tier": "diamond"}, format="json"), 400
    )
    found = ok(host.get("/api/players/?q=greta"))["results"]
    assert [p["card"] for p in found] == ["200001"]
    assert [p["card"] for p in ok(host.get("/api/players/?q=200001"))["results"]] == ["200001"]
    page = ok(host.get(f"/api/players/{made['id']}/"))
    assert page["points"] == {"earned": 0, "redeemed": 0, "balance": 0}
    assert host.get(f"/players/{made['id']}/").status_code == 200
    views = AuditEvent.objects.filter(kind=EventKind.PLAYER_VIEWED, object_id=str(made["id"]))
    assert [e.actor_name for e in views] == ["host", "host"]
    auditor = client_for(floor["auditor"])
    ok(auditor.get(f"/api/players/{made['id']}/"))
    refused(auditor.post("/api/players/", {**body, "card": "3"}, format="json"), 403)
    assert views.all().count() == 3
    assert (
        AuditEvent.objects.filter(kind=EventKind.PLAYER_CREATED)
        .filter(data__card="200001")
        .exists()
    )


def test_the_schema_documents_rated_plays_routes(floor: dict[str, Any]) -> None:
    import json

    from drf_spectacular.validation import validate_schema

    response = client_for(floor["host"]).get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    schema = json.loads(response.content)
    validate_schema(schema)
    assert {
        "/api/players/",
        "/api/players/{id}/",
        "/api/tables/{id}/seat-player/",
        "/api/tables/{id}/unseat-player/",
    } <= set(schema["paths"])
