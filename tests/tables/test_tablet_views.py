"""The dealer tablet's pages through the Django test client: a full round of each banked game
posted step by step, with the confirm step and the stored lines checked against the engine;
refused entries shown at their field with nothing saved; rebet; two tablets settling one
round; and who may use the tablet at all."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from tables.display import amount
from tables.engine import contract
from tables.models import Round, SettlementLine, Table
from tables.selectors import engine_paytable, meter_config
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db

# Each round as the pages post it, and the same round in the settle contract's input form.
ROUNDS: dict[str, dict[str, Any]] = {
    "SC-1": {
        "wagers": {
            "seat-1-ante": "10",
            "seat-1-pair_plus": "5",
            "seat-3-ante": "20",
            "seat-5-ante": "5",
            "seat-5-pair_plus": "2",
            "seat-6-ante": "5",
        },
        "cards": {
            "seat-1-cards": "Kc Kd 3h",
            "seat-3-cards": "4c 7d 9s",
            "seat-5-cards": "5h 5s 2d",
            "seat-6-cards": "Qh 9h 2c",
            "dealer-cards": "Ah 8c 4d",
        },
        "decisions": [
            {"seat": "1", "action": "stand"},
            {
                "seat": "3",
                "action": "mulligan",
                "seat-3-mulligan-cards": "Ts Js Qs",
                "seat-3-mulligan-pair_plus": "10",
            },
            {"seat": "5", "action": "stand"},
            {"seat": "6", "action": "stand"},
        ],
        "dealer": {},
        "house_way": "Dealer stands",
        "contract": {
            "game": "second_chance",
            "dealer": {"cards": ["Ah", "8c", "4d"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "10.00", "pair_plus": "5.00"},
                    "cards": ["Kc", "Kd", "3h"],
                },
                {
                    "seat": 3,
                    "wagers": {"ante": "20.00"},
                    "cards": ["4c", "7d", "9s"],
                    "mulligan": {"cards": ["Ts", "Js", "Qs"], "pair_plus": "10.00"},
                },
                {
                    "seat": 5,
                    "wagers": {"ante": "5.00", "pair_plus": "2.00"},
                    "cards": ["5h", "5s", "2d"],
                },
                {"seat": 6, "wagers": {"ante": "5.00"}, "cards": ["Qh", "9h", "2c"]},
            ],
        },
    },
    "LB-1": {
        "wagers": {"seat-2-ante": "10", "seat-4-ante": "5", "seat-4-progressive": "1"},
        "cards": {
            "seat-2-cards": "7c 4h 2s",
            "seat-4-cards": "Kd 9c 3c",
            "dealer-cards": "Jd Jc 6h",
        },
        "decisions": [
            {"seat": "2", "action": "stand"},
            {"seat": "4", "action": "draw", "seat-4-discard": ["Kd"], "seat-4-draw": "Ad"},
        ],
        "dealer": {"dealer-draw": "8s 5c"},
        "house_way": "Discard J♦ J♣ and draw 2 cards",
        "contract": {
            "game": "lowball",
            "dealer": {"cards": ["Jd", "Jc", "6h"], "draw": ["8s", "5c"]},
            "seats": [
                {
                    "seat": 2,
                    "wagers": {"ante": "10.00", "bonus": "10.00"},
                    "cards": ["7c", "4h", "2s"],
                },
                {
                    "seat": 4,
                    "wagers": {"ante": "5.00", "bonus": "5.00", "progressive": "1.00"},
                    "cards": ["Kd", "9c", "3c"],
                    "discard": ["Kd"],
                    "draw": ["Ad"],
                },
            ],
        },
    },
    "PY-1": {
        "wagers": {"seat-1-ante": "25", "seat-2-ante": "10"},
        "cards": {
            "seat-1-cards": "Kh Ks 4c",
            "seat-2-cards": "9h 8d 2s",
            "dealer-cards": "Qc Jd 3h",
        },
        "decisions": [
            {"seat": "1", "action": "house_way"},
            {"seat": "2", "action": "set", "seat-2-one_card": "8d"},
        ],
        "dealer": {},
        "house_way": "Set Q♣ 3♥ / J♦",
        "contract": {
            "game": "pyramid",
            "dealer": {"cards": ["Qc", "Jd", "3h"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "25.00"},
                    "cards": ["Kh", "Ks", "4c"],
                    "house_way": True,
                },
                {
                    "seat": 2,
                    "wagers": {"ante": "10.00"},
                    "cards": ["9h", "8d", "2s"],
                    "one_card": "8d",
                },
            ],
        },
    },
}


def client_for(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


def text(response: Any) -> str:
    return html.unescape(response.content.decode())


def refused(client: Client, url: str, data: dict[str, Any], table: Table | None = None) -> Any:
    """Post a refused entry: the browser is sent (303) to a page (never a POST address, so a
    reload shows no 405), which shows the refusal once."""
    response = client.post(url, data)
    assert response.status_code == 303, response.status_code
    page = client.get(response["Location"])
    assert page.status_code == 200
    return page


def step(response: Any) -> str:
    found = re.search(r'<li class="now" aria-current="step">([^<]+)</li>', text(response))
    assert found, "the page shows no current step"
    return found.group(1)


def hidden(response: Any, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]+)"', text(response))
    assert found, f"no hidden {name} on the page"
    return found.group(1)


def shown_lines(page: str) -> dict[int, dict[str, str]]:
    """The net of every line on the confirm (or result) page, per seat, and the seat totals."""
    seats: dict[int, dict[str, str]] = {}
    for n, body in re.findall(
        r'<article class="seat-result" data-seat="(\d+)">(.*?)</article>', page, re.S
    ):
        lines = dict(
            re.findall(r'<tr data-wager="(\w+)">.*?class="num net \w+">([^<]+)</td>', body, re.S)
        )
        lines["total"] = re.search(r'class="seat-net">([^<]+)<', body).group(1)  # type: ignore[union-attr]
        seats[int(n)] = lines
    return seats


def engine_lines(expected: dict[str, Any]) -> dict[int, dict[str, str]]:
    return {
        s["seat"]: {
            **{ln["wager"]: amount(ln["net"], signed=True) for ln in s["lines"]},
            "total": amount(s["net"], signed=True),
        }
        for s in expected["seats"]
    }


@pytest.fixture
def dealer(floor: dict[str, Any]) -> Client:
    return client_for("dealer")


def sign_in(client: Client, table: Table) -> None:
    response = client.post("/tablet/", {"table": table.pk})
    assert response.status_code == 303
    assert response["Location"] == f"/tablet/table/{table.pk}/"


def play_to_confirm(client: Client, table: Table, spec: dict[str, Any]) -> Any:
    """Post every step of `spec`'s round; returns the confirm page."""
    url = f"/tablet/table/{table.pk}/"
    assert step(client.get(url)) == "Wagers"
    assert client.post(url + "open/", spec["wagers"]).status_code == 303
    page = client.get(url)
    assert step(page) == "Cards"
    round_id = hidden(page, "round")
    assert client.post(url + "deal/", {"round": round_id, **spec["cards"]}).status_code == 303
    for decision in spec["decisions"]:
        page = client.get(url)
        assert step(page) == "Players"
        response = client.post(url + "decide/", {"round": round_id, **decision})
        assert response.status_code == 303, text(response)
    page = client.get(url)
    assert step(page) == "House way"
    headline = re.search(r'<p class="headline" id="house-way">(.*?)</p>', text(page), re.S)
    assert (
        headline
        and re.sub(r"<[^>]+>|\s+", " ", headline.group(1)).split() == spec["house_way"].split()
    )
    assert client.post(url + "dealer/", {"round": round_id, **spec["dealer"]}).status_code == 303
    page = client.get(url)
    assert step(page) == "Pay and close"
    return page


@pytest.mark.parametrize("table_name", ["SC-1", "LB-1", "PY-1"])
def test_dealer_plays_a_round_through_the_pages_and_is_shown_and_paid_what_the_engine_says(
    floor: dict[str, Any], dealer: Client, table_name: str
) -> None:
    table = floor[table_name]
    spec = ROUNDS[table_name]
    sign_in(dealer, table)
    confirm = play_to_confirm(dealer, table, spec)
    meter = meter_config(table.meter) if table.meter else None
    expected = contract.settlement_to_json(
        contract.settle(
            spec["contract"], paytable=engine_paytable(table.paytable_version), meter=meter
        )
    )
    assert shown_lines(text(confirm)) == engine_lines(expected)

    response = dealer.post(
        f"/tablet/table/{table.pk}/settle/",
        {"round": hidden(confirm, "round"), "idempotency_key": hidden(confirm, "idempotency_key")},
    )
    round_ = Round.objects.get(table=table)
    assert response.status_code == 303 and response["Location"] == f"/tablet/round/{round_.pk}/"
    assert round_.status == Round.Status.SETTLED
    assert round_.settlement == expected
    stored = {
        (ln.seat, ln.wager): (ln.stake_cents, ln.result, ln.net_cents)
        for ln in SettlementLine.objects.filter(round=round_)
    }
    assert stored == {
        (s["seat"], ln["wager"]): (
            int(ln["stake"].replace(".", "")),
            ln["result"],
            int(ln["net"].replace(".", "")),
        )
        for s in expected["seats"]
        for ln in s["lines"]
    }
    result = dealer.get(response["Location"])
    assert result.status_code == 200
    assert shown_lines(text(result)) == engine_lines(expected)
    assert "Next round" in text(result)


def test_second_chance_amounts_are_the_rules_payouts(floor: dict[str, Any], dealer: Client) -> None:
    """Not only the engine's word: the default paytable's odds, worked by hand."""
    sign_in(dealer, floor["SC-1"])
    shown = shown_lines(text(play_to_confirm(dealer, floor["SC-1"], ROUNDS["SC-1"])))
    assert shown[1] == {
        "ante": "+$10.00",
        "pair_plus": "+$5.00",
        "total": "+$15.00",
    }  # kings: 1 to 1
    # a straight flush on the mulligan: ante and raise 6 to 1, mulligan pair plus 40 to 1
    assert shown[3] == {
        "ante": "+$120.00",
        "raise": "+$120.00",
        "mulligan_pair_plus": "+$400.00",
        "total": "+$640.00",
    }
    assert shown[6] == {"ante": "-$5.00", "total": "-$5.00"}  # queen high under the ace


def test_a_duplicate_card_is_refused_at_its_field_with_the_input_kept_and_nothing_saved(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    dealer.post(f"/tablet/table/{table.pk}/open/", ROUNDS["SC-1"]["wagers"])
    round_ = Round.objects.get(table=table)
    events = AuditEvent.objects.count()
    cards = {**ROUNDS["SC-1"]["cards"], "seat-5-cards": "5h Kd 2d"}  # Kd is seat 1's
    response = refused(dealer, f"/tablet/table/{table.pk}/deal/", {"round": round_.pk, **cards})
    page = text(response)
    message = "Kd in seat 5's cards is already in the round (seat 1's cards)"
    assert f'<p class="field-error" id="err-seat-5-cards" role="alert">{message}</p>' in page
    assert page.count(message) == 1  # at the field, not also on top
    assert 'name="seat-5-cards" value="5h Kd 2d"' in page  # what the dealer typed is kept
    assert 'name="dealer-cards" value="Ah 8c 4d"' in page
    assert step(response) == "Cards"
    round_.refresh_from_db()
    assert round_.entry["dealer"] == {} and "cards" not in round_.entry["seats"][0]
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize(
    "post, field_id, message",
    [
        (
            {"seat-2-ante": "1000"},
            "seat-2-ante",
            "seat 2 ante must be from 5.00 to 500.00, not 1000.00",
        ),
        ({"seat-4-pair_plus": "5"}, "seat-4-ante", "seat 4 needs an ante"),
        ({"seat-1-ante": "ten"}, "seat-1-ante", "seat 1's ante must be an amount"),
    ],
)
def test_a_refused_wager_is_shown_at_its_seat_and_no_round_opens(
    floor: dict[str, Any], dealer: Client, post: dict[str, str], field_id: str, message: str
) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    response = refused(dealer, f"/tablet/table/{table.pk}/open/", {"seat-3-ante": "10", **post})
    page = text(response)
    field = page.index(f'id="id-{field_id}"')
    error = page.index('class="field-error"')
    assert 0 < error - field < 400, "the message is not next to its field"
    assert message in page
    assert 'name="seat-3-ante" value="10"' in page
    assert not Round.objects.filter(table=table).exists()


def test_refused_decisions_name_the_seat_and_change_nothing(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["PY-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    dealer.post(url + "open/", ROUNDS["PY-1"]["wagers"])
    round_ = Round.objects.get(table=table)
    dealer.post(url + "deal/", {"round": round_.pk, **ROUNDS["PY-1"]["cards"]})
    before = Round.objects.get(pk=round_.pk).entry
    # Pyramid: the ace alone is above the two-card hand (9 8): a foul
    response = refused(
        dealer,
        url + "decide/",
        {"round": round_.pk, "seat": "2", "action": "set", "seat-2-one_card": "9h"},
    )
    page = text(response)
    assert re.search(r'id="seat-2".*?seat 2: 9h alone is higher than the two-card hand', page, re.S)
    assert 'value="9h" checked' in page  # the choice is kept
    assert Round.objects.get(pk=round_.pk).entry == before


def test_lowball_refuses_three_discards_at_the_seat(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["LB-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    dealer.post(url + "open/", ROUNDS["LB-1"]["wagers"])
    round_ = Round.objects.get(table=table)
    dealer.post(url + "deal/", {"round": round_.pk, **ROUNDS["LB-1"]["cards"]})
    response = refused(
        dealer,
        url + "decide/",
        {
            "round": round_.pk,
            "seat": "4",
            "action": "draw",
            "seat-4-discard": ["Kd", "9c", "3c"],
            "seat-4-draw": "Ad As Ah",
        },
    )
    assert "seat 4 may discard at most 2 cards" in text(response)
    assert Round.objects.get(pk=round_.pk).entry["decided"] == []


def test_a_wrong_dealer_draw_is_refused_at_the_draw(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["LB-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    spec = ROUNDS["LB-1"]
    dealer.post(url + "open/", spec["wagers"])
    round_ = Round.objects.get(table=table)
    dealer.post(url + "deal/", {"round": round_.pk, **spec["cards"]})
    for decision in spec["decisions"]:
        dealer.post(url + "decide/", {"round": round_.pk, **decision})
    response = refused(dealer, url + "dealer/", {"round": round_.pk, "dealer-draw": "8s"})
    page = text(response)
    assert re.search(
        r'id="err-dealer-draw" role="alert">the dealer discards 2 cards \(Jd Jc\) and must '
        r"draw as many, not 1<",
        page,
    )
    assert step(response) == "House way"
    assert not Round.objects.get(pk=round_.pk).entry.get("dealer_done")


def test_the_next_round_rebets_the_last_rounds_wagers(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["LB-1"]
    sign_in(dealer, table)
    confirm = play_to_confirm(dealer, table, ROUNDS["LB-1"])
    dealer.post(
        f"/tablet/table/{table.pk}/settle/",
        {"round": hidden(confirm, "round"), "idempotency_key": hidden(confirm, "idempotency_key")},
    )
    page = dealer.get(f"/tablet/table/{table.pk}/")
    body = text(page)
    assert step(page) == "Wagers"
    assert 'name="seat-2-ante" value="10.00"' in body
    assert 'name="seat-4-ante" value="5.00"' in body
    assert 'name="seat-1-ante" value=""' in body
    assert re.search(r'name="seat-4-progressive" value="1" checked', body)
    assert not re.search(r'name="seat-2-progressive" value="1" checked', body)
    # changed and posted again, the new wagers open round 2
    response = dealer.post(
        f"/tablet/table/{table.pk}/open/", {"seat-2-ante": "15", "seat-4-ante": "5"}
    )
    assert response.status_code == 303
    assert Round.objects.get(table=table, number=2).entry["seats"] == [
        {"seat": 2, "wagers": {"ante": "15.00", "bonus": "15.00"}},
        {"seat": 4, "wagers": {"ante": "5.00", "bonus": "5.00"}},
    ]


def test_two_tablets_cannot_settle_one_round_twice(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    tablet_a = play_to_confirm(dealer, table, ROUNDS["SC-1"])
    tablet_b = dealer.get(f"/tablet/table/{table.pk}/")  # the same round on a second tablet
    key_a, key_b = hidden(tablet_a, "idempotency_key"), hidden(tablet_b, "idempotency_key")
    assert key_a != key_b
    round_id = hidden(tablet_a, "round")
    settle = f"/tablet/table/{table.pk}/settle/"

    first = dealer.post(settle, {"round": round_id, "idempotency_key": key_a})
    lines = SettlementLine.objects.count()
    second = refused(dealer, settle, {"round": round_id, "idempotency_key": key_b})

    assert first.status_code == 303
    assert "Round 1 is already settled (on another tablet?): it was not settled again" in text(
        second
    )
    assert f'href="/tablet/round/{round_id}/"' in text(second)
    assert SettlementLine.objects.count() == lines
    round_ = Round.objects.get(pk=round_id)
    assert round_.idempotency_key == key_a
    # the same tablet tapping twice (same key) is answered with the settled round, once
    again = dealer.post(settle, {"round": round_id, "idempotency_key": key_a})
    assert again.status_code == 303 and again["Location"] == f"/tablet/round/{round_id}/"
    assert SettlementLine.objects.count() == lines
    assert AuditEvent.objects.filter(kind="round.settled").count() == 1


@pytest.mark.parametrize("username", ["pitboss", "admin", "auditor"])
def test_only_dealers_use_the_tablet(floor: dict[str, Any], username: str) -> None:
    client = client_for(username)
    table = floor["SC-1"]
    dealer_sign_in(dealer=floor["dealer"], table=table)
    for url in ("/tablet/", f"/tablet/table/{table.pk}/"):
        response = client.get(url)
        assert response.status_code == 403
        assert "The dealer tablet is for dealers" in text(response)
    assert client.post("/tablet/", {"table": floor["PY-1"].pk}).status_code == 403
    assert client.post(f"/tablet/table/{table.pk}/open/", {"seat-1-ante": "10"}).status_code == 403
    assert not Round.objects.exists()
    assert "Dealer tablet" not in text(client.get("/"))


def test_anonymous_visitors_are_sent_to_sign_in(floor: dict[str, Any]) -> None:
    response = Client().get("/tablet/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_dealer_plays_only_at_the_table_they_are_signed_in_at(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    other = client_for("dealer2")
    assert "Dealer tablet" in text(other.get("/", follow=True))
    page = text(other.get("/tablet/"))
    assert re.search(r'data-table="SC-1">.*?dealer is dealing here', page, re.S)

    response = other.get(f"/tablet/table/{table.pk}/")
    assert response.status_code == 403
    assert "You are not signed in at SC-1 (dealer is signed in there)" in text(response)
    assert (
        other.post(f"/tablet/table/{table.pk}/open/", ROUNDS["SC-1"]["wagers"]).status_code == 403
    )
    shown = refused(other, "/tablet/", {"table": table.pk})
    assert "dealer is signed in at SC-1" in text(shown)
    assert not Round.objects.exists()

    # once dealer has opened a round, dealer2 cannot deal it either
    dealer.post(f"/tablet/table/{table.pk}/open/", ROUNDS["SC-1"]["wagers"])
    round_ = Round.objects.get(table=table)
    response = other.post(
        f"/tablet/table/{table.pk}/deal/", {"round": round_.pk, **ROUNDS["SC-1"]["cards"]}
    )
    assert response.status_code == 403
    round_.refresh_from_db()
    assert round_.entry["dealer"] == {}


def test_signing_out_leaves_the_table(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["PY-1"]
    sign_in(dealer, table)
    assert dealer.get(f"/tablet/table/{table.pk}/").status_code == 200
    response = dealer.post("/tablet/sign-out/")
    assert response.status_code == 303 and response["Location"] == "/tablet/"
    assert dealer.get(f"/tablet/table/{table.pk}/").status_code == 403
    assert "Sign in at PY-1" in text(dealer.get("/tablet/"))


def test_the_page_hears_of_a_round_moved_on_elsewhere(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["PY-1"]
    sign_in(dealer, table)
    token = re.search(r"watch/\?token=(\w+)", text(dealer.get(f"/tablet/table/{table.pk}/"))).group(
        1
    )  # type: ignore[union-attr]
    watch = f"/tablet/table/{table.pk}/watch/?token={token}"
    assert dealer.get(watch).status_code == 204
    dealer.post(f"/tablet/table/{table.pk}/open/", {"seat-1-ante": "10"})  # as another tablet would
    changed = dealer.get(watch)
    assert changed.status_code == 200
    assert "This round was changed on another tablet." in text(changed)


def test_signing_in_at_a_closed_table_is_refused_on_the_first_page(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["PY-1"]
    Table.objects.filter(pk=table.pk).update(is_open=False)
    response = refused(dealer, "/tablet/", {"table": table.pk})
    assert "table PY-1 is closed" in text(response)
    assert dealer.get(f"/tablet/table/{table.pk}/").status_code == 403


def test_the_dealer_can_correct_the_dealers_cards_before_closing(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["LB-1"]
    sign_in(dealer, table)
    confirm = play_to_confirm(dealer, table, ROUNDS["LB-1"])
    round_id = hidden(confirm, "round")
    url = f"/tablet/table/{table.pk}/dealer/"
    shown = refused(dealer, url, {"round": round_id, "dealer-draw": "8s"})
    assert step(shown) == "Pay and close"
    assert '<details class="t-panel correct" open>' in text(shown)
    assert 'id="err-dealer-draw"' in text(shown)
    assert dealer.post(url, {"round": round_id, "dealer-draw": "8s 5d"}).status_code == 303
    page = dealer.get(f"/tablet/table/{table.pk}/")
    assert step(page) == "Pay and close"
    assert Round.objects.get(pk=round_id).entry["dealer"]["draw"] == ["8s", "5d"]
    assert re.search(r'class="dealer-result">.*?data-card="5d"', text(page), re.S)
