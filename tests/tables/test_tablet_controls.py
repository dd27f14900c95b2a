"""The controls on the tablet: a pit boss signs off a jackpot with their own name and password
(a dealer's or a wrong one is refused, nothing paid), a misdeal is cancelled, the dealer goes
back to fix the cards; every refusal is answered with a redirect (no 405 on reload) and every
field's refusal is shown at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts import signoff
from audit.models import AuditEvent
from tables.models import MeterEntry, Round

from .test_tablet_views import client_for, hidden, refused, sign_in, step, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer(floor: dict[str, Any]) -> Client:
    return client_for("dealer")


def jackpot_to_confirm(client: Client, table: Any) -> tuple[str, str]:
    url = f"/tablet/table/{table.pk}/"
    assert (
        client.post(url + "open/", {"seat-1-ante": "10", "seat-1-progressive": "1"}).status_code
        == 303
    )
    round_id = hidden(client.get(url), "round")
    cards = {"seat-1-cards": "Ah 2c 4d", "dealer-cards": "As 2d 4c"}
    assert client.post(url + "deal/", {"round": round_id, **cards}).status_code == 303
    assert (
        client.post(
            url + "decide/", {"round": round_id, "seat": "1", "action": "stand"}
        ).status_code
        == 303
    )
    assert client.post(url + "dealer/", {"round": round_id}).status_code == 303
    return url, round_id


def test_a_jackpot_waits_on_the_tablet_for_the_pit_boss_password(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["LB-1"]
    sign_in(dealer, table)
    url, round_id = jackpot_to_confirm(dealer, table)
    page = dealer.get(url)
    key = hidden(page, "idempotency_key")
    settle = dealer.post(url + "settle/", {"round": round_id, "idempotency_key": key})
    assert settle.status_code == 303 and settle["Location"] == url
    page = text(dealer.get(url))
    assert (
        "Waiting for a pit boss&#x27;s sign-off" in page
        or "Waiting for a pit boss's sign-off" in page
    )
    assert "Seat 1 wins the progressive jackpot" in page
    assert 'id="settle-form"' not in page  # no Confirm button while it waits
    entries = MeterEntry.objects.count()
    # nothing given: both fields named at once
    shown = text(refused(dealer, url + "approve/", {"round": round_id}))
    assert 'id="err-approver"' in shown and 'id="err-approver-password"' in shown
    # the dealer's own credentials, a wrong password, not a pit boss, no such account: one
    # answer for all (accounts.signoff), nothing paid
    for name, password in (
        ("dealer", "demo"),
        ("pitboss", "nope"),
        ("auditor", "demo"),
        ("nobody", "demo"),
    ):
        shown = text(
            refused(
                dealer,
                url + "approve/",
                {"round": round_id, "approver": name, "approver-password": password},
            )
        )
        assert signoff.REFUSED in shown, name
        assert "not a pit boss" not in shown and "do not match" not in shown
    assert Round.objects.get(pk=round_id).status == "open" and MeterEntry.objects.count() == entries
    ok = dealer.post(
        url + "approve/", {"round": round_id, "approver": "pitboss", "approver-password": "demo"}
    )
    assert ok.status_code == 303 and ok["Location"] == f"/tablet/round/{round_id}/"
    r = Round.objects.get(pk=round_id)
    assert r.status == "settled" and r.approved_by == floor["pitboss"]
    assert AuditEvent.objects.filter(kind="round.approved", actor_name="pitboss").count() == 1


def test_a_misdeal_is_cancelled_from_the_tablet(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    dealer.post(url + "open/", {"seat-1-ante": "10"})
    round_id = hidden(dealer.get(url), "round")
    assert "Misdeal: cancel round 1" in text(dealer.get(url))
    shown = text(refused(dealer, url + "cancel/", {"round": round_id, "reason": ""}))
    assert 'id="err-reason"' in shown and '<details class="misdeal" open>' in shown
    done = dealer.post(url + "cancel/", {"round": round_id, "reason": "misdeal"})
    assert done.status_code == 303
    assert Round.objects.get(pk=round_id).status == "cancelled"
    assert step(dealer.get(url)) == "Wagers"  # the table is free


def test_going_back_to_fix_the_cards_on_the_tablet(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    dealer.post(url + "open/", {"seat-1-ante": "10"})
    round_id = hidden(dealer.get(url), "round")
    dealer.post(
        url + "deal/", {"round": round_id, "seat-1-cards": "9d 8h 2s", "dealer-cards": "Ks 7d 2c"}
    )
    assert step(dealer.get(url)) == "Players"
    back = dealer.post(url + "back/", {"round": round_id, "to": "cards"})
    assert back.status_code == 303
    assert step(dealer.get(url)) == "Cards"
    assert "cards" not in Round.objects.get(pk=round_id).entry["seats"][0]
    assert AuditEvent.objects.filter(kind="round.step_back").count() == 1


def test_every_card_box_refused_is_shown_at_once_and_a_reload_is_a_get(
    floor: dict[str, Any], dealer: Client
) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    dealer.post(url + "open/", {"seat-1-ante": "10", "seat-2-ante": "10", "seat-3-ante": "10"})
    round_id = hidden(dealer.get(url), "round")
    response = dealer.post(
        url + "deal/",
        {
            "round": round_id,
            "seat-1-cards": "9d 8h Zz",
            "seat-2-cards": "",
            "seat-3-cards": "Kc Qd 2h",
            "dealer-cards": "Kc 7d 2c",
        },
    )
    assert response.status_code == 303 and response["Location"] == url
    page = text(dealer.get(url))
    for field in ("seat-1-cards", "seat-2-cards", "dealer-cards"):
        assert f'id="err-{field}"' in page, field
    assert "Kc in the dealer's cards is already in the round (seat 3's cards)" in page
    assert 'name="seat-1-cards" value="9d 8h Zz"' in page
    again = dealer.get(url)  # the reload: the page as it is, no error, never a 405
    assert again.status_code == 200 and 'id="err-seat-1-cards"' not in text(again)


def test_every_seat_wager_refused_is_shown_at_once(floor: dict[str, Any], dealer: Client) -> None:
    table = floor["SC-1"]
    sign_in(dealer, table)
    url = f"/tablet/table/{table.pk}/"
    page = text(
        refused(
            dealer, url + "open/", {"seat-1-ante": "1", "seat-3-ante": "ten", "seat-5-ante": "10"}
        )
    )
    assert 'id="err-seat-1-ante"' in page and 'id="err-seat-3-ante"' in page
    assert not Round.objects.exists()


def test_pyramid_payouts_say_which_hand_won_and_which_lost() -> None:
    from tables import games
    from tables.display import settlement

    shown = settlement(
        {
            "game": "pyramid",
            "dealer": {
                "cards": ["Kc", "9d", "5h"],
                "action": "set",
                "two_card": ["Kc", "5h"],
                "one_card": "9d",
            },
            "seats": [
                {
                    "seat": 2,
                    "final": ["Jh", "Js", "4c"],
                    "two_card": ["Js", "4c"],
                    "one_card": "Jh",
                    "hand": "high_card",
                    "lines": [{"wager": "ante", "stake": "10.00", "result": "push", "net": "0.00"}],
                    "net": "0.00",
                }
            ],
        },
        games.banked("pyramid"),
    )
    seat = shown["seats"][0]
    assert [(h["label"], h["words"]) for h in seat["hands"]] == [
        ("Two-card hand", "loses"),
        ("One-card hand", "wins"),
    ]
    assert seat["verdict"] == "Push: the one-card hand wins, the two-card hand loses"
