"""Rhode Island Hold 'Em hands through the API: whole hands (a fold, an all-in with a side pot,
a split), the state with the legal actions and their amounts, refusals that change nothing,
the void, and what a dealer elsewhere sees."""

from __future__ import annotations

from typing import Any

import pytest

from tables.models import Hand
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for, ok, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(floor: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    return {**floor, "c": client_for(floor["dealer"])}


def open_hand(a: dict[str, Any], players: dict[int, int], **extra: Any) -> dict[str, Any]:
    body = {"table": a["RI-1"].pk, "players": players, **extra}
    return ok(a["c"].post("/api/hands/", body, format="json"), 201)


def steps(a: dict[str, Any], hand: dict[str, Any], *given: dict[str, Any]) -> dict[str, Any]:
    for step in given:
        hand = ok(a["c"].post(f"/api/hands/{hand['id']}/step/", step, format="json"))
    return hand


def test_a_fold_through_the_api(api: dict[str, Any]) -> None:
    hand = open_hand(api, {1: 10_000, 2: 10_000})
    assert hand["state"]["waiting"] == "hole" and hand["status"] == "open"
    hand = steps(api, hand, {"hole": ["Ah", "7c"]})
    assert hand["state"]["legal"] == [
        {"action": "check", "amount": 0, "all_in": False},
        {"action": "bet", "amount": 1000, "all_in": False},
    ]
    assert hand["state"]["pot"] == 1000 and hand["state"]["stacks"] == [9500, 9500]
    hand = steps(api, hand, {"action": "bet", "player": 0}, {"action": "fold", "player": 1})
    assert hand["state"]["waiting"] == "over"
    hand = ok(api["c"].post(f"/api/hands/{hand['id']}/finish/", {}, format="json"))
    assert (hand["status"], hand["pot_cents"], hand["rake_cents"]) == ("finished", 1000, 0)
    assert [p["payoff_cents"] for p in hand["players"]] == [500, -500]
    assert hand["record"]["actions"] == ["bet", "fold"]


def test_an_all_in_with_a_side_pot_and_a_split_through_the_api(api: dict[str, Any]) -> None:
    hand = open_hand(api, {1: 1500, 2: 10_000, 3: 10_000, 4: 10_000}, first=0)
    hand = steps(
        api,
        hand,
        {"hole": ["Ah", "Kh", "Kc", "2d"]},
        {"action": "bet"},  # player 0 all-in for 1000
        {"action": "call"},
        {"action": "call"},
        {"action": "fold"},
        {"flop": "Kd"},
        {"action": "bet"},
        {"action": "call"},
        {"turn": "Ks"},
        {"action": "check"},
        {"action": "check"},
    )
    outcome = hand["state"]["outcome"]
    # Main pot: 4 antes + 3 x 1000 = 5000; side pot: 2 x 2000 = 4000. Players 1 and 2 both
    # hold trips of kings: they split both pots; the rake (cap 300) comes from the main pot.
    assert [(p["amount"], p["players"], p["winners"]) for p in outcome["pots"]] == [
        (5000, [0, 1, 2], [1, 2]),
        (4000, [1, 2], [1, 2]),
    ]
    hand = ok(api["c"].post(f"/api/hands/{hand['id']}/finish/", {}, format="json"))
    assert hand["rake_cents"] == 300
    payoffs = [p["payoff_cents"] for p in hand["players"]]
    # (5000 - 300 + 4000) / 2 = 4350 each; players 1 and 2 put in 3500 each.
    assert payoffs == [-1500, 850, 850, -500]
    assert sum(payoffs) == -300


def test_refusals_answer_400_naming_the_field_and_change_nothing(api: dict[str, Any]) -> None:
    hand = open_hand(api, {1: 10_000, 2: 10_000})
    url = f"/api/hands/{hand['id']}/step/"
    c = api["c"]
    error = refused(c.post(url, {"hole": ["Ah", "Ah"]}, format="json"), 400)
    assert "A♥" in error["message"] and "Seat 2" in error["message"]
    steps(api, hand, {"hole": ["Ah", "Kd"]})
    before = Hand.objects.get(pk=hand["id"]).record
    error = refused(c.post(url, {"action": "call"}, format="json"), 400, "illegal_action")
    assert error["field"] == "actions" and "no bet to face" in error["message"]
    error = refused(c.post(url, {"action": "check", "player": 1}, format="json"), 400)
    assert "out of turn" in error["message"]
    refused(c.post(url, {"flop": "2c", "action": "check"}, format="json"), 400)
    refused(c.post(url, {}, format="json"), 400)
    refused(c.post(f"/api/hands/{hand['id']}/finish/", {}, format="json"), 400, "incomplete")
    assert Hand.objects.get(pk=hand["id"]).record == before
    body = {"table": api["RI-1"].pk, "players": {3: 100, 4: 100}}
    refused(c.post("/api/hands/", body, format="json"), 409, "hand_open")


def test_a_pit_boss_voids_and_a_dealer_elsewhere_sees_no_hands(api: dict[str, Any]) -> None:
    hand = open_hand(api, {1: 10_000, 2: 10_000})
    hand = steps(api, hand, {"hole": ["Ah", "Kd"]}, {"action": "bet"}, {"action": "fold"})
    ok(api["c"].post(f"/api/hands/{hand['id']}/finish/", {}, format="json"))
    pit = client_for(api["pitboss"])
    refused(pit.post(f"/api/hands/{hand['id']}/void/", {"reason": ""}, format="json"), 400)
    voided = ok(pit.post(f"/api/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json"))
    assert voided["status"] == "voided" and voided["voided_by"] == "pitboss"
    dealer_sign_in(dealer=api["dealer2"], table=api["LB-1"])
    assert client_for(api["dealer2"]).get("/api/hands/").json()["count"] == 0
    assert client_for(api["auditor"]).get("/api/hands/").json()["count"] == 1
    assert api["c"].get("/api/hands/?status=voided").json()["count"] == 1
