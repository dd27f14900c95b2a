"""Mulligan through the API: a whole game for chips under Secret Offers at the demo's MG-1 (the
deal, auctions, offers, a mulligan with its draws, a swap, the end), the state with what may be
done now, refusals that change nothing, a broken assertion answered as a bug."""

from __future__ import annotations

from typing import Any

import pytest

from audit.models import AuditEvent
from tables.engine.errors import GameAssertionError
from tables.games.mulligan import game as mulligan_game
from tables.models import Hand
from tables.services.sessions import dealer_sign_in
from tests.games.mulligan.script import HANDS_4
from tests.helpers import client_for, ok, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(floor: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["MG-1"])
    return {**floor, "c": client_for(floor["dealer"])}


def post_step(a: dict[str, Any], hand: dict[str, Any], step: dict[str, Any]) -> Any:
    return a["c"].post(f"/api/hands/{hand['id']}/step/", step, format="json")


def test_a_whole_game_through_the_api(api: dict[str, Any]) -> None:
    body = {"table": api["MG-1"].pk, "players": {1: 2000, 2: 2000, 3: 2000}, "first": 0}
    hand = ok(api["c"].post("/api/hands/", body, format="json"), 201)
    assert hand["state"]["waiting"] == "deal"
    hand = ok(post_step(api, hand, {"do": "deal", "hands": HANDS_4[:3]}))
    state = hand["state"]
    assert state["waiting"] == "action" and state["at"] == 0
    (turn,) = state["allowed"]
    assert turn["player"] == 0 and turn["do"] == ["auction", "fold", "skip"]
    assert (turn["chips_min"], turn["chips_max"]) == (100, 2000)
    for step in (
        {"do": "auction", "player": 0, "card": "2c", "chips": 200},
        {"do": "offer", "player": 1, "card": "8s"},
        {"do": "offer", "player": 2, "card": "7c", "chips": 50},
    ):
        hand = ok(post_step(api, hand, step))
    (decision,) = hand["state"]["allowed"]
    assert decision["do"] == ["mulligan", "swap"] and decision["draw_order"] == [0, 1, 2]
    # The floor's API shows the house's view: every offer, Secret Offers included.
    assert [r["card"] for r in hand["state"]["game"]["ring"]] == ["2c", "8s", "7c"]
    hand = ok(post_step(api, hand, {"do": "mulligan", "player": 0, "draws": ["Tc", "Jc", "Qc"]}))
    assert hand["state"]["game"]["pot"] == 250
    for step in (
        {"do": "auction", "player": 1, "card": "Jc", "chips": 100, "at": 4},
        {"do": "offer", "player": 2, "card": "7s"},
        {"do": "offer", "player": 0, "card": "Tc"},
        {"do": "swap", "player": 1, "offer_of": 2},
        {"do": "fold", "player": 2},
        {"do": "fold", "player": 0},
    ):
        hand = ok(post_step(api, hand, step))
    assert hand["state"]["waiting"] == "over" and hand["status"] == "open"
    hand = ok(api["c"].post(f"/api/hands/{hand['id']}/finish/", {}, format="json"))
    assert (hand["status"], hand["pot_cents"], hand["rake_cents"]) == ("finished", 250, 12)
    # Player 0's ace-high straight beats player 1's seven-high one and three nines.
    assert hand["result"]["winner"] == 0 and hand["result"]["ended_by"] == "fold"
    assert hand["result"]["categories"] == ["high_straight", "high_straight", "three_of_a_kind"]
    assert [p["payoff_cents"] for p in hand["players"]] == [38, -100, 50]
    assert hand["record"]["replay"]["game"] == "mulligan"


def test_refusals_through_the_api_change_nothing(api: dict[str, Any]) -> None:
    body = {"table": api["MG-1"].pk, "players": {1: 2000, 2: 2000}, "first": 0}
    hand = ok(api["c"].post("/api/hands/", body, format="json"), 201)
    hand = ok(post_step(api, hand, {"do": "deal", "hands": HANDS_4[:2]}))
    before = (Hand.objects.get(pk=hand["id"]).record, AuditEvent.objects.count())
    for step, words in (
        ({"do": "skip", "player": 1}, "it is Seat 1's turn"),
        ({"do": "auction", "player": 0, "card": "2c", "chips": 50}, "at least 100"),
        ({"do": "auction", "player": 0, "card": "2c", "chips": 100, "at": 5}, "out of date"),
        ({"do": "deal", "hands": HANDS_4[:2]}, "already dealt"),
        # another game's step: Mulligan's own step serializer knows no such field
        ({"hole": ["Ah", "Kd"]}, "hole: is not a field of this request"),
        ({"player": 0}, "a step is exactly one of do"),
    ):
        response = post_step(api, hand, step)
        assert words in str(refused(response, 400)), response.json()
        assert (Hand.objects.get(pk=hand["id"]).record, AuditEvent.objects.count()) == before


def test_a_broken_assertion_through_the_api_is_refused_and_audited(
    api: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"table": api["MG-1"].pk, "players": {1: 2000, 2: 2000}, "first": 0}
    hand = ok(api["c"].post("/api/hands/", body, format="json"), 201)
    hand = ok(post_step(api, hand, {"do": "deal", "hands": HANDS_4[:2]}))
    record = Hand.objects.get(pk=hand["id"]).record

    def broken(game: Any, *, before: Any = None) -> None:
        raise GameAssertionError("ring", "cards left on the ring: 2c")

    monkeypatch.setattr(mulligan_game, "check_assertions", broken)
    response = post_step(api, hand, {"do": "skip", "player": 0})
    assert response.status_code == 500
    assert "ring" in str(response.json()) and "nothing changed" in str(response.json())
    assert Hand.objects.get(pk=hand["id"]).record == record
    assert AuditEvent.objects.filter(kind="hand.assertion_failed").count() == 1
