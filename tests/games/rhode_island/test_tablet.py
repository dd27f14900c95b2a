"""The dealer tablet for Rhode Island Hold 'Em: buy-ins, hole cards, only legal actions with their
amounts, the flop and turn, who wins what before confirm; refusals at the field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tables.models import Hand
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def tablet(floor: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    client = Client()
    client.force_login(floor["dealer"])
    url = f"/tablet/table/{floor['RI-1'].pk}/"
    return {**floor, "client": client, "url": url}


def post(t: dict[str, Any], path: str, data: dict[str, Any], status: int = 303) -> str:
    response = t["client"].post(t["url"] + path, data)
    assert response.status_code == status, response.content.decode()[:2000]
    if status == 303:
        response = t["client"].get(t["url"])
    return str(response.content.decode())


def buttons(page: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", b).strip()
        for b in re.findall(r'<button type="submit" name="action"[^>]*>([^<]*)</button>', page)
    ]


def act(t: dict[str, Any], action: str) -> str:
    hand = Hand.objects.get(table=t["RI-1"], status="open")
    return post(t, "hand/step/", {"hand": hand.pk, "step": "action", "action": action})


def test_a_whole_hand_on_the_tablet_with_an_all_in_and_a_side_pot(tablet: dict[str, Any]) -> None:
    t = tablet
    page = t["client"].get(t["url"]).content.decode()
    assert "Buy-ins for the next hand" in page and "ante $5.00" in page
    page = post(
        t, "hand/open/", {"seat-1-buy_in": "15", "seat-2-buy_in": "100", "seat-4-buy_in": "100"}
    )
    assert "Hole cards" in page
    hand = Hand.objects.get(table=t["RI-1"], status="open")
    page = post(
        t,
        "hand/step/",
        {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Kc", "hole-2": "Qc"},
    )
    assert 'id="pot">$15.00<' in page  # three antes of $5
    # Seat 1 acts first in hand 1; $10 left after the ante: a bet is all of it.
    assert buttons(page) == ["Check", "Bet $10.00 (all-in)"]
    page = act(t, "check")
    assert buttons(page) == ["Check", "Bet $10.00"]
    page = act(t, "bet")
    assert buttons(page) == ["Fold", "Call $10.00", "Raise $20.00"]
    page = act(t, "call")
    # Seat 1 has $10 left: calling puts all of it in.
    assert buttons(page) == ["Fold", "Call $10.00 (all-in)"]
    page = act(t, "call")
    assert "Deal the flop" in page
    page = post(t, "hand/step/", {"hand": hand.pk, "step": "flop", "flop": "Ad"})
    assert buttons(page) == ["Check", "Bet $20.00"]  # seat 1 is all-in: seat 2 opens
    page = act(t, "bet")
    page = act(t, "call")
    page = post(t, "hand/step/", {"hand": hand.pk, "step": "turn", "turn": "2s"})
    page = act(t, "check")
    page = act(t, "check")
    assert "Hand over" in page and "Confirm and close the hand" in page
    assert "Main pot $45.00" in page and "Side pot 1 $40.00" in page
    # The rake (5% of $85, capped at $3) comes out of the main pot first.
    assert "won by seat 1: $42.00" in page and "(rake $3.00)" in page
    assert "won by seat 2: $40.00" in page
    page = post(t, "hand/finish/", {})
    hand.refresh_from_db()
    assert hand.status == "finished" and hand.rake_cents == 300
    assert "Buy-ins for the next hand" in page and "pot $85.00, rake $3.00" in page
    # The next hand's buy-ins are the stacks after this one.
    assert 'name="seat-1-buy_in" value="42.00"' in page


def test_refusals_show_at_the_field_and_change_nothing(tablet: dict[str, Any]) -> None:
    t = tablet
    page = post(t, "hand/open/", {"seat-1-buy_in": "100", "seat-2-buy_in": "abc"}, status=400)
    assert "seat 2" in page and 'aria-invalid="true"' in page
    assert not Hand.objects.exists()
    page = post(t, "hand/open/", {"seat-3-buy_in": "100"}, status=400)
    assert 'id="err-players"' in page
    post(t, "hand/open/", {"seat-1-buy_in": "100", "seat-2-buy_in": "100"})
    hand = Hand.objects.get(status="open")
    page = post(
        t, "hand/step/", {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Ah"}, 400
    )
    assert "Seat 2" in page and "player 1" not in page and 'value="Ah"' in page
    page = post(
        t, "hand/step/", {"hand": hand.pk, "step": "hole", "hole-0": "Xx", "hole-1": "Kd"}, 400
    )
    assert "Xx" in page and "is not a card" in page
    post(t, "hand/step/", {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Kd"})
    page = act_refused(t, "raise")
    assert "cannot raise" in page
    act(t, "bet")
    act(t, "call")
    page = post(t, "hand/step/", {"hand": hand.pk, "step": "flop", "flop": "Kd"}, status=400)
    assert "Kd" in page and "Deal the flop" in page
    hand.refresh_from_db()
    assert hand.record["actions"] == ["bet", "call"] and "flop" not in hand.record


def act_refused(t: dict[str, Any], action: str) -> str:
    hand = Hand.objects.get(table=t["RI-1"], status="open")
    return post(t, "hand/step/", {"hand": hand.pk, "step": "action", "action": action}, 400)


def test_only_the_dealer_signed_in_uses_the_hand_tablet(tablet: dict[str, Any]) -> None:
    for user in ("dealer2", "pitboss", "auditor", "admin"):
        client = Client()
        client.force_login(tablet[user])
        assert client.get(tablet["url"]).status_code == 403
        response = client.post(tablet["url"] + "hand/open/", {"seat-1-buy_in": "10"})
        assert response.status_code == 403
    assert not Hand.objects.exists()


def pot_board(page: str) -> str:
    """The table's pot, pots and this round's bets, in words."""
    board = re.search(r'<div class="ri-board">(.*?)<div class="ri-players">', page, re.S)
    assert board is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", board.group(1))).strip()


def stacks(page: str) -> list[str]:
    return re.findall(r'<dd class="stack">([^<]*)</dd>', page)


def test_the_pot_the_stacks_and_the_pots_agree_at_every_step(tablet: dict[str, Any]) -> None:
    t = tablet
    page = post(t, "hand/open/", {"seat-1-buy_in": "100", "seat-2-buy_in": "100"})
    # The antes are in: in the pot and out of the stacks, before the hole cards are entered.
    assert "Antes are in ($10.00 in the pot)" in page
    assert pot_board(page).startswith("Pot $10.00") and "Main pot $10.00" in pot_board(page)
    assert stacks(page) == ["$95.00", "$95.00"]
    hand = Hand.objects.get(table=t["RI-1"], status="open")
    page = post(t, "hand/step/", {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Kc"})
    assert pot_board(page).startswith("Pot $10.00") and "Bets this round" not in page
    assert stacks(page) == ["$95.00", "$95.00"]
    # A bet: the pot counts it, the main pot does not yet; the words say both.
    page = act(t, "bet")
    words = pot_board(page)
    assert words.startswith("Pot $20.00") and "Main pot $10.00" in words
    assert "Bets this round $10.00" in words
    assert stacks(page) == ["$85.00", "$95.00"]
    page = act(t, "call")  # the round's bets are collected into the main pot
    words = pot_board(page)
    assert words.startswith("Pot $30.00") and "Main pot $30.00" in words
    assert "Bets this round" not in words
    # The flop's card box and the grid, the hole cards greyed on it.
    assert 'id="id-flop"' in page
    used = re.findall(r'data-card="(\w\w)"[^>]*disabled data-used', page)
    assert sorted(used) == ["Ah", "Kc"]


def test_after_a_voided_hand_the_stacks_carry_from_the_hand_before_it(
    tablet: dict[str, Any],
) -> None:
    from tables.services.hands import hand_void

    t = tablet
    post(t, "hand/open/", {"seat-1-buy_in": "100", "seat-2-buy_in": "100"})
    hand = Hand.objects.get(table=t["RI-1"], status="open")
    post(t, "hand/step/", {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Kc"})
    act(t, "bet")
    post(t, "hand/step/", {"hand": hand.pk, "step": "action", "action": "fold", "confirmed": "1"})
    page = post(t, "hand/finish/", {})
    assert 'value="105.00"' in page and 'value="95.00"' in page  # after hand 1
    post(t, "hand/open/", {"seat-1-buy_in": "105", "seat-2-buy_in": "95"})
    second = Hand.objects.get(table=t["RI-1"], status="open")
    hand_void(hand=second, by=t["pitboss"], reason="wrong table")
    page = t["client"].get(t["url"]).content.decode()
    assert "Hand 2 was voided: its result does not count." in page
    assert "The stacks after hand 1 are filled in." in page
    assert 'value="105.00"' in page and 'value="95.00"' in page
