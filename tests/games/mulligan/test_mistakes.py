"""A Mulligan game's mistakes, as the house games' are handled: the last action taken back
while no card has been drawn after it, a misdeal before the first auction (buy-ins returned,
nothing paid), each on the record; a fold asks first on the tablet; refusals name what and
why and change nothing; the audit record verifies clean."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import ServiceError
from tables.games.mulligan.game import Phase
from tables.games.mulligan.play import from_record
from tables.models import Hand
from tables.services import hands as svc
from tests.games.mulligan.floor import mulligan_table
from tests.games.mulligan.script import HANDS_4, as_step, to_the_deck

pytestmark = pytest.mark.django_db


def _dealt(floor: dict[str, Any]) -> tuple[Hand, Any]:
    table = mulligan_table(floor)
    d = floor["dealer"]
    hand = svc.hand_open(table=table, dealer=d, players={n: 4000 for n in (1, 2, 3, 4)}, first=1)
    hand = svc.hand_act(hand=hand, dealer=d, step={"do": "deal", "hands": HANDS_4})
    return hand, table


def _play(floor: dict[str, Any], hand: Hand, until: str) -> Hand:
    """Play the deck script up to and including its first step `until`."""
    for _ in range(50):
        _, game = from_record(hand.record)  # type: ignore[misc]
        step = as_step(to_the_deck(game))
        hand = svc.hand_act(hand=hand, dealer=floor["dealer"], step=step)
        if step["do"] == until:
            return hand
    raise AssertionError(f"no {until} in the script")


def _state(hand: Hand) -> tuple[Any, ...]:
    hand.refresh_from_db()
    return (hand.status, hand.record, AuditEvent.objects.filter(object_id=str(hand.pk)).count())


def test_undo_takes_an_auction_back_and_a_skip(floor: dict[str, Any]) -> None:
    hand, _ = _dealt(floor)
    dealt = dict(hand.record)
    hand = _play(floor, hand, "auction")
    hand = svc.hand_undo(hand=hand, dealer=floor["dealer"])
    assert hand.record == dealt
    event = AuditEvent.objects.filter(object_id=str(hand.pk), kind="hand.undone").get()
    assert event.data["text"].startswith("taken back: Seat 2 auctions ")
    hand = svc.hand_act(hand=hand, dealer=floor["dealer"], step={"do": "skip", "player": 1})
    hand = svc.hand_undo(hand=hand, dealer=floor["dealer"])
    assert hand.record == dealt
    assert verify_record().problems == ()


def test_undo_is_refused_after_a_mulligan_and_of_the_deal(floor: dict[str, Any]) -> None:
    hand, _ = _dealt(floor)
    before = _state(hand)
    with pytest.raises(ServiceError, match="the last step is the deal"):
        svc.hand_undo(hand=hand, dealer=floor["dealer"])
    assert _state(hand) == before
    hand = _play(floor, hand, "mulligan")
    before = _state(hand)
    with pytest.raises(ServiceError) as err:
        svc.hand_undo(hand=hand, dealer=floor["dealer"])
    assert err.value.code == "not_undoable"
    assert "Seat 2's mulligan: its cards were drawn from the deck pile" in err.value.message
    assert _state(hand) == before


def test_a_misdeal_before_the_first_auction(floor: dict[str, Any]) -> None:
    hand, table = _dealt(floor)
    hand = svc.hand_act(hand=hand, dealer=floor["dealer"], step={"do": "skip", "player": 1})
    hand = svc.hand_misdeal(hand=hand, dealer=floor["dealer"], reason="seat 4 got six cards")
    assert hand.status == Hand.Status.MISDEAL
    assert [p.payoff_cents for p in hand.players.all()] == [None] * 4
    event = AuditEvent.objects.filter(object_id=str(hand.pk), kind="hand.misdeal").get()
    assert [b["buy_in_cents"] for b in event.data["buy_ins_returned"]] == [4000] * 4
    assert verify_record().problems == ()


def test_a_misdeal_is_refused_after_the_first_auction(floor: dict[str, Any]) -> None:
    hand, _ = _dealt(floor)
    hand = _play(floor, hand, "auction")
    before = _state(hand)
    with pytest.raises(ServiceError) as err:
        svc.hand_misdeal(hand=hand, dealer=floor["dealer"], reason="exposed")
    assert err.value.code == "too_late"
    assert "the first auction is done (Seat 2 auctioned" in err.value.message
    assert _state(hand) == before


def test_the_api_undoes_and_refuses_a_late_misdeal(floor: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(floor["dealer"])
    hand, _ = _dealt(floor)
    hand = _play(floor, hand, "auction")
    refused = api.post(f"/api/hands/{hand.pk}/misdeal/", {"reason": "exposed"}, format="json")
    assert refused.status_code == 409
    r = api.post(f"/api/hands/{hand.pk}/undo/", {}, format="json")
    assert r.status_code == 200, r.content
    r = api.post(f"/api/hands/{hand.pk}/misdeal/", {"reason": "exposed"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "misdeal"
    assert verify_record().problems == ()


def test_the_tablet_asks_before_a_fold_and_undoes_it(floor: dict[str, Any]) -> None:
    hand, table = _dealt(floor)
    client = Client()
    client.force_login(floor["dealer"])
    url = f"/tablet/table/{table.pk}/"
    form = {"hand": hand.pk, "at": 0, "do": "fold", "player": 1}
    before = _state(hand)
    asked = client.post(url + "hand/step/", form)
    assert asked.status_code == 200
    assert "Seat 2 folds: they are out of this game" in asked.content.decode()
    assert _state(hand) == before
    assert client.post(url + "hand/step/", {**form, "confirmed": "1"}).status_code == 303
    hand.refresh_from_db()
    assert hand.record["actions"] == [{"do": "fold", "player": 1}]
    page = client.get(url).content.decode()
    assert 'id="undo"' in page and "Last: Seat 2 folds" in page
    asked = client.post(url + "hand/undo/", {"hand": hand.pk})
    assert "Take back: Seat 2 folds" in asked.content.decode()
    assert client.post(url + "hand/undo/", {"hand": hand.pk, "confirmed": "1"}).status_code == 303
    hand.refresh_from_db()
    assert hand.record["actions"] == []
    _, game = from_record(hand.record)  # type: ignore[misc]
    assert game.phase is Phase.TURN and game.auctioneer == 1
    # The misdeal, confirmed, before the first auction.
    assert 'id="misdeal"' in client.get(url).content.decode()
    data = {"hand": hand.pk, "reason": "exposed", "confirmed": "1"}
    assert client.post(url + "hand/misdeal/", data).status_code == 303
    hand.refresh_from_db()
    assert hand.status == Hand.Status.MISDEAL
    assert verify_record().problems == ()
