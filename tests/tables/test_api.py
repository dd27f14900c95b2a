"""The REST API end to end: a full round of each game checked against the engine, refusals
that change nothing, idempotent settling, version pinning, token and session auth, the error
shape, the audit of refused permissions, and the OpenAPI schema and its docs page."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.db import connection, connections
from django.urls import resolve
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.engine.contract import settle_round
from tables.engine.paytables import named
from tables.models import (
    MeterEntry,
    PaytableVersion,
    ProgressiveMeter,
    Round,
    SettlementLine,
    Table,
)
from tables.services.paytables import paytable_approve, paytable_assign, paytable_draft
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for, ok, refused

# --- fixtures and helpers (test_api_representation.py and test_api_statements.py use them too) --


def play_to_confirm(
    client: APIClient,
    table: Table,
    wagers: dict[int, dict[str, str]],
    cards: dict[int, Any],
    dealer_cards: Any,
    decisions: dict[int, dict[str, Any]],
    draw: Any = None,
    discard: Any = None,
) -> dict[str, Any]:
    """Open, deal, decide every seat and enter the dealer's draw through the API."""
    r = ok(client.post("/api/rounds/", {"table": table.pk, "wagers": wagers}, format="json"), 201)
    assert r["state"]["step"] == "cards"
    url = f"/api/rounds/{r['id']}/"
    r = ok(client.post(url + "deal/", {"cards": cards, "dealer": dealer_cards}, format="json"))
    assert r["state"]["step"] == "decisions"
    for seat in sorted(cards):
        body = {"seat": seat, "decision": decisions.get(seat, {})}
        r = ok(client.post(url + "decide/", body, format="json"))
    assert r["state"]["step"] == "dealer"
    r = ok(client.post(url + "dealer/", {"draw": draw, "discard": discard}, format="json"))
    assert r["state"]["step"] == "confirm"
    return r


def settle(client: APIClient, round_id: int, key: str = "key-1") -> Any:
    return client.post(
        f"/api/rounds/{round_id}/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


def cents(amount: str) -> int:
    whole, _, part = amount.lstrip("-").partition(".")
    value = int(whole) * 100 + int(part.ljust(2, "0"))
    return -value if amount.startswith("-") else value


def assert_lines_match(body: dict[str, Any], expected: dict[str, Any]) -> None:
    """The API's lines (cents and strings) are the engine's settlement, line for line."""
    want = [
        (seat["seat"], line["wager"], line["stake"], line["result"], line["net"])
        for seat in expected["seats"]
        for line in seat["lines"]
    ]
    got = [(ln["seat"], ln["wager"], ln["stake"], ln["result"], ln["net"]) for ln in body["lines"]]
    assert got == want
    for ln in body["lines"]:
        assert ln["stake_cents"] == cents(ln["stake"]) and ln["net_cents"] == cents(ln["net"])
    assert body["handle_cents"] == sum(ln["stake_cents"] for ln in body["lines"])
    assert body["players_net_cents"] == sum(ln["net_cents"] for ln in body["lines"])


@pytest.fixture
def dealer_at(floor: dict[str, Any]) -> Any:
    """Sign `dealer` in at a table by name and return a session client for them."""

    def sign_in(table_name: str) -> APIClient:
        dealer_sign_in(dealer=floor["dealer"], table=floor[table_name])
        return client_for(floor["dealer"])

    return sign_in


pytestmark = pytest.mark.django_db


# --- a full round of each game ---------------------------------------------------------------


def test_second_chance_round_with_a_mulligan_pays_what_the_engine_pays(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    r = play_to_confirm(
        client,
        floor["SC-1"],
        {1: {"ante": "10.00", "pair_plus": "5.00"}, 4: {"ante": "25.00"}},
        {1: ["9d", "8h", "2s"], 4: "Kc Th 4d"},
        "Qs 7d 2c",
        {1: {"mulligan": True, "cards": "Jc Jd 4h", "pair_plus": "5.00"}},
        draw=["Ah", "Kd", "3c"],
    )
    expected = settle_round(
        {
            "game": "second_chance",
            "dealer": {"cards": ["Qs", "7d", "2c"], "draw": ["Ah", "Kd", "3c"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "10.00", "pair_plus": "5.00"},
                    "cards": ["9d", "8h", "2s"],
                    "mulligan": {"cards": ["Jc", "Jd", "4h"], "pair_plus": "5.00"},
                },
                {"seat": 4, "wagers": {"ante": "25.00"}, "cards": ["Kc", "Th", "4d"]},
            ],
        }
    )
    assert r["house_way"]["draw"] == ["Ah", "Kd", "3c"]
    assert ok(client.get(f"/api/rounds/{r['id']}/preview/")) == expected
    body = ok(settle(client, r["id"]))
    assert body["status"] == "settled" and body["state"] == {"step": "done", "status": "settled"}
    assert body["settlement"] == expected
    assert_lines_match(body, expected)
    # By hand: jacks beat the dealer's ace-high on ante and raise (1 to 1), the first hand's
    # pair plus loses, the mulligan's pair plus pays 1 to 1; seat 4's king-high loses.
    nets = {(ln["seat"], ln["wager"]): ln["net_cents"] for ln in body["lines"]}
    assert nets == {
        (1, "ante"): 1000,
        (1, "raise"): 1000,
        (1, "pair_plus"): -500,
        (1, "mulligan_pair_plus"): 500,
        (4, "ante"): -2500,
    }
    assert body["players_net_cents"] == -500 and body["players_net"] == "-5.00"
    assert body["house_win_cents"] == 500 and body["house_win"] == "5.00"


def test_lowball_round_with_discards_and_the_progressive_moves_the_meter(floor, dealer_at) -> None:
    client = dealer_at("LB-1")
    meter = floor["LB-1"].meter
    before = meter.value_cents
    r = play_to_confirm(
        client,
        floor["LB-1"],
        {1: {"ante": "10.00", "progressive": "1.00"}, 2: {"ante": "5.00", "progressive": "1.00"}},
        {1: "As 2c 4s", 2: "Kd Qh 3c"},
        "Jc 9h 7d",
        {1: {"discard": [], "draw": []}, 2: {"discard": "Kd Qh", "draw": "5d 6h"}},
        draw=["8c"],
    )
    assert r["house_way"]["applied_discard"] == ["Jc"]
    meter_config = {
        "meter": "25000.00",
        "reset": "10000.00",
        "rate": "0.2000",
        "wager": "1.00",
        "awards": {
            "one_colour": "200.00",
            "two_colour": "50.00",
            "four_high": "10.00",
            "five_high": "3.00",
        },
        "split": "equal",
    }
    expected = settle_round(
        {
            "game": "lowball",
            "paytable": "1",
            "progressive": meter_config,
            "dealer": {"cards": ["Jc", "9h", "7d"], "draw": ["8c"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "10.00", "bonus": "10.00", "progressive": "1.00"},
                    "cards": ["As", "2c", "4s"],
                    "discard": [],
                    "draw": [],
                },
                {
                    "seat": 2,
                    "wagers": {"ante": "5.00", "bonus": "5.00", "progressive": "1.00"},
                    "cards": ["Kd", "Qh", "3c"],
                    "discard": ["Kd", "Qh"],
                    "draw": ["5d", "6h"],
                },
            ],
        }
    )
    body = ok(settle(client, r["id"]))
    assert body["settlement"] == expected
    assert_lines_match(body, expected)
    nets = {(ln["seat"], ln["wager"]): ln for ln in body["lines"]}
    # A-2-4 all black: ante 1 to 1, bonus 10 to 1, progressive award one_colour (200.00).
    assert nets[(1, "bonus")]["net_cents"] == 10_000
    assert nets[(1, "progressive")]["award"] == "one_colour"
    assert nets[(1, "progressive")]["net_cents"] == 20_000 - 100
    # 6-5-3 after the draw beats the dealer's 9-8-7: bonus six_high pays 2 to 1.
    assert nets[(2, "bonus")]["net_cents"] == 1_000
    meter.refresh_from_db()
    assert meter.value_cents == cents(expected["progressive"]["meter_after"]) == before + 40
    m = ok(client.get(f"/api/meters/{meter.pk}/"))
    assert (
        m["value_cents"] == meter.value_cents
        and m["value"] == expected["progressive"]["meter_after"]
    )


def test_pyramid_round_with_the_house_way_and_a_one_card_hand(floor, dealer_at) -> None:
    client = dealer_at("PY-1")
    r = play_to_confirm(
        client,
        floor["PY-1"],
        {1: {"ante": "10.00"}, 5: {"ante": "20.00"}},
        {1: "A♥ qd 3c", 5: "7s 7h 2d"},
        "Kc 9d 5h",
        {1: {"one_card": "Qd"}, 5: {"house_way": True}},
    )
    seat5 = next(s for s in r["entry"]["seats"] if s["seat"] == 5)
    assert seat5["house_way"] is True
    expected = settle_round(
        {
            "game": "pyramid",
            "dealer": {"cards": ["Kc", "9d", "5h"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "10.00"},
                    "cards": ["Ah", "Qd", "3c"],
                    "one_card": "Qd",
                },
                {
                    "seat": 5,
                    "wagers": {"ante": "20.00"},
                    "cards": ["7s", "7h", "2d"],
                    "house_way": True,
                },
            ],
        }
    )
    body = ok(settle(client, r["id"]))
    assert body["settlement"] == expected
    assert_lines_match(body, expected)
    assert [s["net"] for s in expected["seats"]][0] == "10.00"  # A3 / Q beats K9 / 5


# --- refusals change nothing -----------------------------------------------------------------


def _unchanged(before: dict[str, Any]) -> None:
    """The round is as the API last showed it: still open, same entry and house way, no lines."""
    r = Round.objects.get(pk=before["id"])
    assert r.status == Round.Status.OPEN == before["status"]
    assert r.entry == before["entry"] and r.house_way == before["house_way"]
    assert not SettlementLine.objects.filter(round=r).exists()


def test_a_duplicate_card_is_refused_naming_the_card_and_nothing_changes(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    wagers = {1: {"ante": "10.00"}, 4: {"ante": "10.00"}}
    r = ok(
        client.post("/api/rounds/", {"table": floor["SC-1"].pk, "wagers": wagers}, format="json"),
        201,
    )
    body = {"cards": {1: "Ah Kd 2c", 4: "Ah 5d 6c"}, "dealer": "9s 8s 3h"}
    error = refused(
        client.post(f"/api/rounds/{r['id']}/deal/", body, format="json"), 400, "duplicate_card"
    )
    assert "Ah" in error["message"] and "seat 4" in error["message"]
    _unchanged(r)


def test_a_foul_pyramid_setting_is_refused_and_nothing_changes(floor, dealer_at) -> None:
    client = dealer_at("PY-1")
    r = ok(
        client.post(
            "/api/rounds/",
            {"table": floor["PY-1"].pk, "wagers": {2: {"ante": "10.00"}}},
            format="json",
        ),
        201,
    )
    r = ok(
        client.post(
            f"/api/rounds/{r['id']}/deal/",
            {"cards": {2: "Ah 9d 3c"}, "dealer": "Kc 9h 5h"},
            format="json",
        )
    )
    decision = {"seat": 2, "decision": {"one_card": "Ah"}}
    error = refused(
        client.post(f"/api/rounds/{r['id']}/decide/", decision, format="json"), 400, "foul"
    )
    assert "Ah alone is higher than the two-card hand" in error["message"]
    assert error["message"].startswith("seat 2")
    _unchanged(r)


def test_a_wager_over_the_limit_is_refused_naming_seat_and_wager(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    wagers = {1: {"ante": "10.00"}, 3: {"ante": "600.00"}}
    error = refused(
        client.post("/api/rounds/", {"table": floor["SC-1"].pk, "wagers": wagers}, format="json"),
        400,
        "bad_wager",
    )
    assert error["message"] == "seat 3 ante must be from 5.00 to 500.00, not 600.00"
    assert error["field"] == "seat 3 ante"
    assert not Round.objects.exists()


def test_a_float_wager_is_refused(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    error = refused(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": 10.5}}},
            format="json",
        ),
        400,
        "bad_wager",
    )
    assert "decimal string" in error["message"]
    assert not Round.objects.exists()


def test_a_dealer_draw_against_the_house_way_is_refused_and_nothing_changes(
    floor, dealer_at
) -> None:
    client = dealer_at("SC-1")
    r = ok(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "10.00"}}},
            format="json",
        ),
        201,
    )
    url = f"/api/rounds/{r['id']}/"
    ok(client.post(url + "deal/", {"cards": {1: "9d 8h 2s"}, "dealer": "Kc 7d 2c"}, format="json"))
    r = ok(client.post(url + "decide/", {"seat": 1, "decision": {}}, format="json"))
    error = refused(
        client.post(url + "dealer/", {"draw": "Ah Kd 3c"}, format="json"), 400, "house_way"
    )
    assert "the dealer stands on" in error["message"] and error["field"] == "dealer.draw"
    _unchanged(r)
    error = refused(settle(client, r["id"]), 409)
    assert error["message"] == "the round is not complete yet"
    _unchanged(r)


def test_a_malformed_request_gets_the_error_shape(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    error = refused(client.post("/api/rounds/", {"wagers": {}}, format="json"), 400, "required")
    assert error["field"] == "table" and error["message"] == "table: This field is required."
    r = ok(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        201,
    )
    body = {"cards": ["Ah", "Kd", "2c"], "dealer": "9s 8s 3h"}
    error = refused(
        client.post(f"/api/rounds/{r['id']}/deal/", body, format="json"), 400, "invalid"
    )
    assert error["field"] == "cards" and "seat number -> cards" in error["message"]
    body = {"seat": 1, "decision": ["mulligan"]}
    refused(client.post(f"/api/rounds/{r['id']}/decide/", body, format="json"), 400, "not_a_dict")
    _unchanged(r)
    refused(client.get("/api/rounds/999999/"), 404, "not_found")
    refused(client.get("/api/rounds/?status=lost"), 400, "invalid_choice")


# --- idempotent settling ---------------------------------------------------------------------


def _complete_lowball_round(floor: dict[str, Any], client: APIClient) -> dict[str, Any]:
    return play_to_confirm(
        client,
        floor["LB-1"],
        {3: {"ante": "10.00", "progressive": "1.00"}},
        {3: "9c 5d 2h"},
        "Kc Qh 4s",
        {3: {"discard": "9c", "draw": "3s"}},
        draw=["7c", "6d"],
    )


def test_settling_twice_with_the_same_key_settles_once_and_answers_the_same(
    floor, dealer_at
) -> None:
    client = dealer_at("LB-1")
    meter = floor["LB-1"].meter
    r = _complete_lowball_round(floor, client)
    first = settle(client, r["id"], "till-7-round-1")
    second = settle(client, r["id"], "till-7-round-1")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    round_ = Round.objects.get(pk=r["id"])
    assert round_.status == Round.Status.SETTLED and round_.idempotency_key == "till-7-round-1"
    assert SettlementLine.objects.filter(round=round_).count() == 3  # ante, bonus, progressive
    assert MeterEntry.objects.filter(round=round_).count() == 1  # one contribution
    meter.refresh_from_db()
    assert meter.value_cents == 2_500_000 + 20
    assert AuditEvent.objects.filter(kind="round.settled", object_id=str(round_.pk)).count() == 1


def test_the_key_may_come_in_the_body_and_must_agree_with_the_header(floor, dealer_at) -> None:
    client = dealer_at("LB-1")
    r = _complete_lowball_round(floor, client)
    url = f"/api/rounds/{r['id']}/settle/"
    refused(client.post(url, {}, format="json"), 400, "idempotency_key_required")
    refused(
        client.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="x" * 101),
        400,
        "idempotency_key_too_long",
    )
    refused(
        client.post(url, {"idempotency_key": "a"}, format="json", HTTP_IDEMPOTENCY_KEY="b"),
        400,
        "idempotency_key_mismatch",
    )
    _unchanged(r)
    first = ok(client.post(url, {"idempotency_key": "body-key"}, format="json"))
    assert ok(settle(client, r["id"], "body-key")) == first


def test_another_key_on_a_settled_round_is_a_conflict(floor, dealer_at) -> None:
    client = dealer_at("LB-1")
    r = _complete_lowball_round(floor, client)
    body = ok(settle(client, r["id"], "first"))
    error = refused(settle(client, r["id"], "second"), 409, "already_settled")
    assert "already settled" in error["message"]
    assert ok(client.get(f"/api/rounds/{r['id']}/")) == body
    assert SettlementLine.objects.filter(round_id=r["id"]).count() == 3
    # A key already spent on one round cannot settle another.
    r2 = _complete_lowball_round(floor, client)
    refused(settle(client, r2["id"], "first"), 409, "idempotency_conflict")
    _unchanged(r2)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("keys", "statuses"),
    [(("k-a", "k-b"), [200, 409]), (("same", "same"), [200, 200])],
    ids=["different-keys", "same-key"],
)
def test_two_concurrent_settles_settle_once(floor, dealer_at, keys, statuses) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite has no row locks for two writers at once")
    client = dealer_at("LB-1")
    r = _complete_lowball_round(floor, client)
    barrier = threading.Barrier(2)
    responses: list[Any] = []

    def attempt(key: str) -> None:
        c = client_for(floor["dealer"])
        barrier.wait()
        try:
            responses.append(settle(c, r["id"], key))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, args=(k,)) for k in keys]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(x.status_code for x in responses) == statuses
    settled = [x.content for x in responses if x.status_code == 200]
    assert all(body == settled[0] for body in settled)  # the same key: the same answer
    assert SettlementLine.objects.filter(round_id=r["id"]).count() == 3
    assert MeterEntry.objects.filter(round_id=r["id"]).count() == 1


# --- version pinning -------------------------------------------------------------------------


def test_a_round_settles_under_the_version_it_opened_with(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    table = floor["SC-1"]
    v1 = table.paytable_version
    wagers = {2: {"ante": "10.00", "pair_plus": "10.00"}}
    r = ok(client.post("/api/rounds/", {"table": table.pk, "wagers": wagers}, format="json"), 201)
    assert r["paytable_version"] == v1.pk
    # Meanwhile an admin puts v2 in force: pair plus pays 3 to 1 on a pair instead of 1 to 1.
    lines = named("second_chance", "default").as_data()
    lines["pair_plus"]["pair"] = "3"
    v2 = paytable_draft(
        author=floor["admin"],
        game="second_chance",
        name="default",
        lines=lines,
        limits=v1.limits,
        based_on=v1,
    )
    v2 = paytable_approve(version=v2, approver=floor["admin2"])
    paytable_assign(table=table, version=v2, by=floor["admin"])
    assert ok(client.get(f"/api/tables/{table.pk}/"))["paytable_version"]["id"] == v2.pk

    url = f"/api/rounds/{r['id']}/"
    ok(client.post(url + "deal/", {"cards": {2: "8h 8d 2c"}, "dealer": "Ks 7d 2s"}, format="json"))
    ok(client.post(url + "decide/", {"seat": 2, "decision": {}}, format="json"))
    ok(client.post(url + "dealer/", {"draw": []}, format="json"))
    body = ok(settle(client, r["id"]))
    assert body["paytable_version"] == v1.pk
    pair_plus = next(ln for ln in body["lines"] if ln["wager"] == "pair_plus")
    assert pair_plus["net_cents"] == 1000 and pair_plus["odds"] == "1"  # v1's 1 to 1, not 3 to 1
    # The next round opens under v2.
    r2 = ok(client.post("/api/rounds/", {"table": table.pk, "wagers": wagers}, format="json"), 201)
    assert r2["paytable_version"] == v2.pk


# --- reading ---------------------------------------------------------------------------------


def test_a_table_shows_its_dealer_open_round_paytable_and_rebet(floor, dealer_at) -> None:
    client = dealer_at("SC-1")
    table = floor["SC-1"]
    wagers = {1: {"ante": "10.00", "pair_plus": "5.00"}, 6: {"ante": "25.00"}}
    r = ok(client.post("/api/rounds/", {"table": table.pk, "wagers": wagers}, format="json"), 201)
    t = ok(client_for(floor["auditor"]).get(f"/api/tables/{table.pk}/"))
    assert t == {
        "id": table.pk,
        "name": "SC-1",
        "pit": "Main pit",
        "game": "second_chance",
        "seats": 7,
        "paytable_version": {
            "id": table.paytable_version.pk,
            "game": "second_chance",
            "name": "default",
            "version": 1,
            "summary": str(table.paytable_version),
        },
        "meter": None,
        "is_open": True,
        "dealer": "dealer",
        "open_round": r["id"],
        "open_hand": None,
        "settings_version": None,
        "rebet": {"1": {"ante": "10.00", "pair_plus": "5.00"}, "6": {"ante": "25.00"}},
    }
    listed = ok(client.get("/api/tables/"))
    assert [x["name"] for x in listed] == ["LB-1", "MG-1", "PY-1", "RI-1", "SC-1"]
    assert next(x for x in listed if x["name"] == "LB-1")["meter"] == floor["LB-1"].meter.pk


def test_rounds_list_filters_paginates_and_a_dealer_sees_only_their_table(floor, dealer_at) -> None:
    client = dealer_at("LB-1")
    done = _complete_lowball_round(floor, client)
    ok(settle(client, done["id"]))
    open_lb = ok(
        client.post(
            "/api/rounds/",
            {"table": floor["LB-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        201,
    )
    dealer_sign_in(dealer=floor["dealer2"], table=floor["SC-1"])
    sc = ok(
        client_for(floor["dealer2"]).post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        201,
    )

    pit = client_for(floor["pitboss"])
    page = ok(pit.get("/api/rounds/"))
    assert set(page) == {"count", "next", "previous", "results"}
    assert [x["id"] for x in page["results"]] == [sc["id"], open_lb["id"], done["id"]]
    assert [x["id"] for x in ok(pit.get(f"/api/rounds/?table={floor['LB-1'].pk}"))["results"]] == [
        open_lb["id"],
        done["id"],
    ]
    assert [x["id"] for x in ok(pit.get("/api/rounds/?status=settled"))["results"]] == [done["id"]]
    two = ok(pit.get("/api/rounds/?page_size=2"))
    assert two["count"] == 3 and len(two["results"]) == 2 and two["next"]

    mine = ok(client.get("/api/rounds/"))
    assert [x["id"] for x in mine["results"]] == [open_lb["id"], done["id"]]
    assert ok(client.get(f"/api/rounds/?table={floor['SC-1'].pk}"))["results"] == []
    done_body = ok(client.get(f"/api/rounds/{done['id']}/"))
    assert done_body["settlement"] and len(done_body["lines"]) == 3
    assert done_body["opened_at"] and done_body["settled_at"]


def test_paytable_versions_are_readable_and_dealers_do_not_see_drafts(floor) -> None:
    v1 = floor["SC-1"].paytable_version
    lines = named("second_chance", "default").as_data()
    draft = paytable_draft(
        author=floor["admin"], game="second_chance", name="house", lines=lines, limits=v1.limits
    )
    body = ok(client_for(floor["pitboss"]).get(f"/api/paytable-versions/{v1.pk}/"))
    assert body["status"] == "approved" and body["lines"] == v1.lines
    assert body["drafted_by"] == "admin" and body["approved_by"] == "admin2"
    assert body["limits"]["ante"] == {
        "min_cents": 500,
        "max_cents": 50000,
        "min": "5.00",
        "max": "500.00",
    }
    assert body["tables"] == [floor["SC-1"].pk]
    ids = {x["id"] for x in ok(client_for(floor["auditor"]).get("/api/paytable-versions/"))}
    assert draft.pk in ids
    dealer = client_for(floor["dealer"])
    ids = {x["id"] for x in ok(dealer.get("/api/paytable-versions/"))}
    assert v1.pk in ids and draft.pk not in ids
    draft_body = ok(client_for(floor["admin"]).get(f"/api/paytable-versions/{draft.pk}/"))
    assert draft_body["approved_by"] is None and draft_body["status"] == "draft"
    refused(dealer.get(f"/api/paytable-versions/{draft.pk}/"), 404, "not_found")
    assert PaytableVersion.objects.count() == 4


def test_meters_show_amounts_in_cents_and_decimal_strings(floor) -> None:
    meter = ProgressiveMeter.objects.get()
    body = ok(client_for(floor["dealer"]).get(f"/api/meters/{meter.pk}/"))
    assert body["value_cents"] == 2_500_000 and body["value"] == "25000.00"
    assert body["reset_cents"] == 1_000_000 and body["reset"] == "10000.00"
    assert body["rate"] == "0.2000"
    assert body["wager_cents"] == 100 and body["wager"] == "1.00"
    assert body["cap_cents"] is None and body["cap"] is None
    assert body["overflow_cents"] == 0 and body["overflow"] == "0.00"
    assert body["game"] == "lowball"
    assert body["awards_cents"] == {
        "one_colour": 20000,
        "two_colour": 5000,
        "four_high": 1000,
        "five_high": 300,
    }
    assert body["awards"] == {
        "one_colour": "200.00",
        "two_colour": "50.00",
        "four_high": "10.00",
        "five_high": "3.00",
    }
    assert body["tables"] == [{"id": floor["LB-1"].pk, "name": "LB-1"}]
    assert not any(isinstance(v, float) for v in body.values())
    assert ok(client_for(floor["auditor"]).get("/api/meters/")) == [body]


def test_the_schema_gives_a_meters_awards_as_data(floor) -> None:
    schema = ok(client_for(floor["auditor"]).get("/api/schema/?format=json"))
    meter = schema["components"]["schemas"]["Meter"]["properties"]
    assert meter["awards"]["type"] == "object"
    assert meter["awards"]["additionalProperties"] == {"type": "string"}
    assert meter["awards"]["example"]["one_colour"] == "200.00"
    assert meter["awards_cents"]["additionalProperties"] == {"type": "integer"}
    assert "4-2-A one colour" in meter["awards"]["description"]


def test_dealers_sign_in_and_out(floor) -> None:
    client = client_for(floor["dealer"])
    session = ok(client.post(f"/api/tables/{floor['PY-1'].pk}/sign-in/"))
    assert session["table"] == floor["PY-1"].pk and session["dealer"] == "dealer"
    assert ok(client.post(f"/api/tables/{floor['PY-1'].pk}/sign-in/"))["id"] == session["id"]
    assert ok(client.get(f"/api/tables/{floor['PY-1'].pk}/"))["dealer"] == "dealer"
    error = refused(
        client_for(floor["dealer2"]).post(f"/api/tables/{floor['PY-1'].pk}/sign-in/"), 409
    )
    assert error["message"] == "dealer is signed in at PY-1"
    assert ok(client.post("/api/sign-out/")) == {"signed_out": ["PY-1"]}
    assert ok(client.post("/api/sign-out/")) == {"signed_out": []}
    assert ok(client.get(f"/api/tables/{floor['PY-1'].pk}/"))["dealer"] is None


# --- authentication and refused permissions --------------------------------------------------


def test_token_authentication(floor) -> None:
    anonymous = APIClient()
    response = anonymous.get("/api/tables/")
    refused(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    refused(
        anonymous.post(
            "/api/auth-token/", {"username": "pitboss", "password": "nope"}, format="json"
        ),
        400,
        "authorization",
    )
    token = ok(
        anonymous.post(
            "/api/auth-token/", {"username": "pitboss", "password": "demo"}, format="json"
        )
    )["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert len(ok(client.get("/api/tables/"))) == 5
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused(client.get("/api/tables/"), 401, "authentication_failed")


def test_a_dealer_plays_with_a_token_and_no_csrf(floor) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    token = ok(
        APIClient().post(
            "/api/auth-token/", {"username": "dealer", "password": "demo"}, format="json"
        )
    )["token"]
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    ok(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        201,
    )


def test_a_session_write_without_the_csrf_token_is_refused(floor) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(floor["dealer"])
    error = refused(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        403,
        "forbidden",
    )
    assert "CSRF" in error["message"]
    assert not Round.objects.exists()


def test_a_refused_role_is_recorded_in_the_audit_trail(floor) -> None:
    client = client_for(floor["admin"])
    error = refused(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        403,
        "forbidden",
    )
    assert error["message"] == "opening a round: only for the dealer role"
    event = AuditEvent.objects.filter(kind="permission.refused").get()
    assert event.actor_name == "admin"
    assert event.data == {"method": "POST", "path": "/api/rounds/", "reason": error["message"]}
    assert not Round.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_service_refusal_is_audited_after_its_transaction_rolled_back(floor) -> None:
    """dealer2 is a dealer, so the role check passes; the service refuses (not signed in at
    SC-1) inside its atomic block, which rolls back; the refusal is still recorded."""
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    client = client_for(floor["dealer2"])
    error = refused(
        client.post(
            "/api/rounds/",
            {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}},
            format="json",
        ),
        403,
        "forbidden",
    )
    assert error["message"] == "dealer2 is not signed in at SC-1"
    assert not Round.objects.exists()
    event = AuditEvent.objects.filter(kind="permission.refused").get()
    assert event.actor_name == "dealer2" and event.data["reason"] == error["message"]


def test_api_views_are_not_wrapped_in_a_request_transaction() -> None:
    for path in ("/api/rounds/", "/api/rounds/1/settle/", "/api/tables/", "/api/sign-out/"):
        assert resolve(path).func._non_atomic_requests  # type: ignore[attr-defined]


# --- schema and docs -------------------------------------------------------------------------


def test_the_schema_and_docs_need_sign_in(client: Any) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    response = client.get("/api/docs/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_schema_is_a_valid_openapi_document_with_every_endpoint(
    client: Any, django_user_model: Any
) -> None:
    client.force_login(django_user_model.objects.create_user("reader"))
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)  # drf-spectacular's bundled OpenAPI 3 JSON schema
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) >= {
        "/api/tables/",
        "/api/tables/{id}/",
        "/api/tables/{id}/sign-in/",
        "/api/sign-out/",
        "/api/rounds/",
        "/api/rounds/{id}/",
        "/api/rounds/{id}/deal/",
        "/api/rounds/{id}/decide/",
        "/api/rounds/{id}/dealer/",
        "/api/rounds/{id}/preview/",
        "/api/rounds/{id}/settle/",
        "/api/paytable-versions/",
        "/api/paytable-versions/{id}/",
        "/api/meters/",
        "/api/meters/{id}/",
        "/api/auth-token/",
    }
    settle_op = schema["paths"]["/api/rounds/{id}/settle/"]["post"]
    assert any(
        p["name"] == "Idempotency-Key" and p["in"] == "header" for p in settle_op["parameters"]
    )
    assert {"200", "409"} <= set(settle_op["responses"])
    assert set(schema["components"]["securitySchemes"]) == {"cookieAuth", "tokenAuth"}


def test_every_operation_documents_the_errors_the_site_can_give(
    client: Any, django_user_model: Any
) -> None:
    client.force_login(django_user_model.objects.create_user("reader"))
    schema = client.get("/api/schema/?format=json").json()
    error_ref = {"$ref": "#/components/schemas/Error"}
    operations = [
        (method.upper(), path, op)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    assert len(operations) > 40
    for method, path, op in operations:
        responses = op["responses"]
        expected = {"400", "406", "413", "503"}
        if (method, path) != ("POST", "/api/auth-token/"):  # username and password only
            expected |= {"401", "403", "429"} if method != "DELETE" else {"401", "403"}
        if "{" in path or any(p["name"] == "page" for p in op.get("parameters", [])):
            expected.add("404")
        if method != "GET":
            expected.add("409")
        if method == "POST":
            expected.add("415")
        assert expected <= set(responses), (method, path, sorted(responses))
        for code, response in responses.items():
            if code >= "400":
                assert response["content"] == {"application/json": {"schema": error_ref}}
                assert response["description"]
        for code in {"429", "503"} & set(responses):
            assert "Retry-After" in responses[code]["headers"], (method, path, code)
    token = schema["paths"]["/api/auth-token/"]["post"]["responses"]
    assert not {"401", "403"} & set(token)


def test_the_docs_page_loads_only_local_assets(client: Any, django_user_model: Any) -> None:
    client.force_login(django_user_model.objects.create_user("reader"))
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources, html
    assert not [s for s in sources if re.match(r"(https?:)?//", s)]
    assert "cdn" not in html.lower()
    static = [s for s in sources if s.startswith("/static/")]
    assert any(s.endswith("swagger-ui-bundle.js") for s in static)
    for src in static:
        assert finders.find(src.removeprefix("/static/")), f"{src} is not a local static file"
