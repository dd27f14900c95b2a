"""The floor's input is taken as given, never coerced nor silently dropped: a whole number is a
JSON number ("4", 1.5 and true are not; table 1.5 is not table 1), a flag true or false
("mulligan": "yes" is not a mulligan), an unknown key is refused naming it, a dealer's discard
is cards the dealer holds, and a poker buy-in is within the limit an admin sets. Each refusal
names the field and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from tables.models import Hand, HandPlayer, Round
from tables.services import rounds as svc
from tables.services.limits import limit_set
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for, ok, refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def at(floor: dict[str, Any]) -> Any:
    """Sign `dealer` in at a table by name; returns an API client of theirs."""

    def sign_in(table: str) -> Any:
        dealer_sign_in(dealer=floor["dealer"], table=floor[table])
        return client_for(floor["dealer"])

    return sign_in


def dealt(client: Any, floor: dict[str, Any], table: str, seat: str, dealer: str) -> int:
    """A round opened (seat 1 antes $10) and dealt; its id."""
    wagers = {"1": {"ante": "10.00"}}
    r = ok(client.post("/api/rounds/", {"table": floor[table].pk, "wagers": wagers}, "json"), 201)
    body = {"cards": {"1": seat}, "dealer": dealer}
    ok(client.post(f"/api/rounds/{r['id']}/deal/", body, format="json"))
    return int(r["id"])


def unchanged(round_id: int, entry: dict[str, Any], events: int) -> None:
    assert Round.objects.get(pk=round_id).entry == entry
    assert AuditEvent.objects.count() == events


# --- rounds -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "words"),
    [("1.5", "whole number"), (1.5, "whole number"), (True, "whole number"), ("1", "whole")],
)
def test_a_table_is_an_id(floor: dict[str, Any], at: Any, table: Any, words: str) -> None:
    client = at("SC-1")
    body = {"table": table, "wagers": {"1": {"ante": "10.00"}}}
    error = refused(client.post("/api/rounds/", body, format="json"), 400)
    assert error["field"] == "table" and words in error["message"]
    assert not Round.objects.exists()


def test_an_unknown_key_of_a_request_is_refused_naming_it(floor: dict[str, Any], at: Any) -> None:
    client = at("SC-1")
    body = {"table": floor["SC-1"].pk, "wagers": {"1": {"ante": "10.00"}}, "tip": "5.00"}
    error = refused(client.post("/api/rounds/", body, format="json"), 400, "unknown_field")
    assert error["field"] == "tip" and "tip: is not a field" in error["message"]
    assert not Round.objects.exists()
    round_id = dealt(client, floor, "SC-1", "9d 8h 2s", "Ks 7d 2c")
    entry, events = Round.objects.get(pk=round_id).entry, AuditEvent.objects.count()
    body = {"seat": 1, "decision": {}, "stand": True}
    error = refused(client.post(f"/api/rounds/{round_id}/decide/", body, format="json"), 400)
    assert error["field"] == "stand"
    unchanged(round_id, entry, events)


@pytest.mark.parametrize("seat", ["1", 1.0, True])
def test_a_decisions_seat_is_a_number(floor: dict[str, Any], at: Any, seat: Any) -> None:
    client = at("SC-1")
    round_id = dealt(client, floor, "SC-1", "9d 8h 2s", "Ks 7d 2c")
    entry, events = Round.objects.get(pk=round_id).entry, AuditEvent.objects.count()
    body = {"seat": seat, "decision": {}}
    error = refused(client.post(f"/api/rounds/{round_id}/decide/", body, format="json"), 400)
    assert error["field"] == "seat" and "whole number" in error["message"]
    unchanged(round_id, entry, events)


@pytest.mark.parametrize(
    ("table", "seat", "dealer", "decision", "field", "words"),
    [
        ("SC-1", "9d 8h 2s", "Ks 7d 2c", {"mulligan": "yes", "cards": "Jc Jd 4h"}, "mulligan", ""),
        ("SC-1", "9d 8h 2s", "Ks 7d 2c", {"mulligan": 1, "cards": "Jc Jd 4h"}, "mulligan", ""),
        ("SC-1", "9d 8h 2s", "Ks 7d 2c", {"mulligan": True, "card": "Jc"}, "card", "no field"),
        ("SC-1", "9d 8h 2s", "Ks 7d 2c", {"cards": "Jc Jd 4h"}, "cards", "goes with a mulligan"),
        (
            "LB-1",
            "9d 8h 2s",
            "Ks 7d 2c",
            {"discard": ["9d"], "draw": ["Ah"], "keep": 1},
            "keep",
            "",
        ),
        ("PY-1", "9d 8h 2s", "Ks 7d 2c", {"house_way": "yes"}, "house_way", "true or false"),
        ("PY-1", "9d 8h 2s", "Ks 7d 2c", {"one_card": "2s", "why": "x"}, "why", "no field"),
        ("PY-1", "9d 8h 2s", "Ks 7d 2c", {"house_way": True, "one_card": "2s"}, "one_card", ""),
    ],
)
def test_a_decision_has_only_its_games_keys_and_types(
    floor: dict[str, Any],
    at: Any,
    table: str,
    seat: str,
    dealer: str,
    decision: dict[str, Any],
    field: str,
    words: str,
) -> None:
    client = at(table)
    round_id = dealt(client, floor, table, seat, dealer)
    entry, events = Round.objects.get(pk=round_id).entry, AuditEvent.objects.count()
    body = {"seat": 1, "decision": decision}
    error = refused(client.post(f"/api/rounds/{round_id}/decide/", body, format="json"), 400)
    assert error["field"] == f"seat 1 {field}" and words in error["message"], error
    unchanged(round_id, entry, events)


@pytest.mark.parametrize(
    ("table", "dealer", "draw", "discard", "code", "words"),
    [
        # 2nd Chance: the dealer's Q-7-2 draws three; a discard names only the dealer's cards.
        ("SC-1", "Qs 7d 2c", ["Ah", "Kd", "3c"], ["Ad"], "bad_card", "A♦ is not one of"),
        ("SC-1", "Qs 7d 2c", ["Ah", "Kd", "3c"], ["Qs"], "house_way", "discards Q♠ 7♦ 2♣"),
        # Pyramid: the dealer sets, and discards nothing.
        ("PY-1", "Ks 7d 2c", None, ["Kd"], "bad_card", "K♦ is not one of"),
        ("PY-1", "Ks 7d 2c", None, ["Ks"], "house_way", "discards nothing"),
        # Lowball: the choice among equivalent discards is the dealer's own cards.
        ("LB-1", "Kd 8s 3h", ["6c"], ["Qc"], "bad_card", "Q♣ is not one of"),
    ],
)
def test_a_dealers_discard_is_of_the_dealers_cards(
    floor: dict[str, Any],
    at: Any,
    table: str,
    dealer: str,
    draw: Any,
    discard: Any,
    code: str,
    words: str,
) -> None:
    client = at(table)
    round_id = dealt(client, floor, table, "9d 8h 2s", dealer)
    decision = {"one_card": "2s"} if table == "PY-1" else {}
    ok(client.post(f"/api/rounds/{round_id}/decide/", {"seat": 1, "decision": decision}, "json"))
    entry, events = Round.objects.get(pk=round_id).entry, AuditEvent.objects.count()
    body = {"draw": draw, "discard": discard}
    error = refused(client.post(f"/api/rounds/{round_id}/dealer/", body, format="json"), 400, code)
    assert error["field"] == "dealer discard" and words in error["message"], error
    unchanged(round_id, entry, events)


def test_the_house_ways_own_discard_is_taken(floor: dict[str, Any], at: Any) -> None:
    client = at("SC-1")
    round_id = dealt(client, floor, "SC-1", "9d 8h 2s", "Qs 7d 2c")
    ok(client.post(f"/api/rounds/{round_id}/decide/", {"seat": 1, "decision": {}}, "json"))
    body = {"draw": ["Ah", "Kd", "3c"], "discard": "2c Qs 7d"}
    r = ok(client.post(f"/api/rounds/{round_id}/dealer/", body, format="json"))
    assert r["state"]["step"] == "confirm"


def test_the_tablets_mulligan_and_stand_still_play(floor: dict[str, Any]) -> None:
    """A form posts text: the game turns its buttons into the decision's types."""
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    d = floor["dealer"]
    r = svc.round_open(table=floor["SC-1"], dealer=d, wagers={1: {"ante": "10"}, 2: {"ante": "10"}})
    svc.round_deal(
        round=r, dealer=d, seat_cards={1: "9d 8h 2s", 2: "As Ad 3c"}, dealer_cards="Ks 7d 2c"
    )
    client = Client()
    client.force_login(d)
    url = f"/tablet/table/{floor['SC-1'].pk}/decide/"
    mulligan = {
        "round": r.pk,
        "seat": "1",
        "action": "mulligan",
        "seat-1-mulligan-cards": "Jc Jd 4h",
    }
    assert client.post(url, mulligan).status_code == 303
    assert client.post(url, {"round": r.pk, "seat": "2", "action": "stand"}).status_code == 303
    seats = {s["seat"]: s for s in Round.objects.get(pk=r.pk).entry["seats"]}
    assert seats[1]["mulligan"] == {"cards": ["Jc", "Jd", "4h"]} and "mulligan" not in seats[2]


# --- poker hands ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "field", "code", "words"),
    [
        ({"1": 10**15, "2": 10_000}, "seat 1 buy_in", "over_limit", "at most $50,000.00"),
        # past I-JSON's exact integers: the request's parser refuses it first
        ({"1": 10**16, "2": 10_000}, "players.1", "invalid", "is too large"),
        ({"1": 5_000_001, "2": 10_000}, "seat 1 buy_in", "over_limit", "not $50,000.01"),
        ({"1": "10000", "2": 10_000}, "seat 1 buy_in", "bad_buy_in", "whole cents"),
        ({"1": 10_000.0, "2": 10_000}, "seat 1 buy_in", "bad_buy_in", "whole cents"),
        ({"1": True, "2": 10_000}, "seat 1 buy_in", "bad_buy_in", "whole cents"),
    ],
)
def test_a_poker_buy_in_is_whole_cents_within_the_limit(
    floor: dict[str, Any], at: Any, players: dict[str, Any], field: str, code: str, words: str
) -> None:
    client = at("RI-1")
    body = {"table": floor["RI-1"].pk, "players": players}
    error = refused(client.post("/api/hands/", body, format="json"), 400, code)
    assert error["field"] == field and words in error["message"], error
    assert not Hand.objects.exists() and not HandPlayer.objects.exists()


def test_an_admin_raises_the_poker_buy_in_limit(floor: dict[str, Any], at: Any) -> None:
    client = at("RI-1")
    limit_set(kind="poker_buy_in", max_cents=200_000_00, by=floor["admin"])
    body = {"table": floor["RI-1"].pk, "players": {"1": 100_000_00, "2": 10_000}}
    hand = ok(client.post("/api/hands/", body, format="json"), 201)
    assert [p["buy_in_cents"] for p in hand["players"]] == [100_000_00, 10_000]


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"first": "1"}, "first"), ({"first": 0.0}, "first"), ({"rake": 0}, "rake")],
)
def test_a_hands_opening_has_its_types(
    floor: dict[str, Any], at: Any, extra: dict[str, Any], field: str
) -> None:
    client = at("RI-1")
    body = {"table": floor["RI-1"].pk, "players": {"1": 10_000, "2": 10_000}, **extra}
    error = refused(client.post("/api/hands/", body, format="json"), 400)
    assert error["field"] == field
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("step", "field"),
    [
        ({"action": "check", "player": "0"}, "player"),
        ({"action": "check", "player": False}, "player"),
        ({"action": "check", "note": "x"}, "note"),
        ({"hole": ["Ah", 7]}, "hole.1"),
        ({"action": 1}, "action"),
    ],
)
def test_a_hands_step_has_its_types(
    floor: dict[str, Any], at: Any, step: dict[str, Any], field: str
) -> None:
    client = at("RI-1")
    body = {"table": floor["RI-1"].pk, "players": {"1": 10_000, "2": 10_000}}
    hand = ok(client.post("/api/hands/", body, format="json"), 201)
    ok(client.post(f"/api/hands/{hand['id']}/step/", {"hole": ["Ah", "7c"]}, format="json"))
    record = Hand.objects.get(pk=hand["id"]).record
    error = refused(client.post(f"/api/hands/{hand['id']}/step/", step, format="json"), 400)
    assert error["field"] == field, error
    assert Hand.objects.get(pk=hand["id"]).record == record


def test_an_action_that_takes_no_input_refuses_a_key(floor: dict[str, Any], at: Any) -> None:
    client = at("RI-1")
    body = {"table": floor["RI-1"].pk, "players": {"1": 10_000, "2": 10_000}}
    hand = ok(client.post("/api/hands/", body, format="json"), 201)
    error = refused(
        client.post(f"/api/hands/{hand['id']}/finish/", {"force": True}, format="json"), 400
    )
    assert error["field"] == "force" and error["code"] == "unknown_field"
    sign_in = client.post(f"/api/tables/{floor['SC-1'].pk}/sign-in/", {"table": 3}, "json")
    assert refused(sign_in, 400)["field"] == "table"


def test_the_tablet_refuses_a_buy_in_over_the_limit_at_its_seat(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    client = Client()
    client.force_login(floor["dealer"])
    url = f"/tablet/table/{floor['RI-1'].pk}/hand/open/"
    page = client.post(url, {"seat-1-buy_in": "60,000", "seat-2-buy_in": "100"})
    assert page.status_code == 400
    page = client.post(url, {"seat-1-buy_in": "60000", "seat-2-buy_in": "100"})
    assert page.status_code == 400
    text = page.content.decode()
    assert (
        "seat 1&#x27;s buy-in may be at most $50,000.00" in text and 'aria-invalid="true"' in text
    )
    assert not Hand.objects.exists()


def test_a_lowball_seat_discarding_a_card_it_does_not_hold_is_bad_card(
    floor: dict[str, Any], at: Any
) -> None:
    client = at("LB-1")
    round_id = dealt(client, floor, "LB-1", "9d 8h 2s", "Kd 8s 3h")
    entry, events = Round.objects.get(pk=round_id).entry, AuditEvent.objects.count()
    body = {"seat": 1, "decision": {"discard": ["Ah"], "draw": ["2c"]}}
    error = refused(client.post(f"/api/rounds/{round_id}/decide/", body, format="json"), 400)
    assert error["code"] == "bad_card", error
    unchanged(round_id, entry, events)
