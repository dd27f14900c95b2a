"""A Rhode Island hand's mistakes, as the house games' are handled: the last action taken back
while no card has come after it, a misdeal before the flop (buy-ins returned, nothing paid),
each on the record; refusals that name what and why and change nothing; the audit record
verifies clean."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import ServiceError
from tables.models import Hand
from tables.services import hands as svc
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def ri(floor: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    return {**floor, "table": floor["RI-1"]}


def _open(ri: dict[str, Any], *steps: dict[str, Any]) -> Hand:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 10_000, 3: 10_000})
    for step in steps:
        hand = svc.hand_act(hand=hand, dealer=d, step=step)
    return hand


def _state(hand: Hand) -> tuple[Any, ...]:
    hand.refresh_from_db()
    return (hand.status, hand.record, AuditEvent.objects.filter(object_id=str(hand.pk)).count())


def test_undo_takes_the_last_action_back_on_the_record(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    hand = _open(ri, {"hole": ["Ah", "7c"]}, {"action": "bet", "player": 0})
    record_with_bet = dict(hand.record)
    hand = svc.hand_act(hand=hand, dealer=d, step={"action": "raise", "player": 1})
    hand = svc.hand_undo(hand=hand, dealer=d)
    assert hand.record == record_with_bet
    event = AuditEvent.objects.filter(object_id=str(hand.pk), kind="hand.undone").get()
    assert event.data["step"] == {"action": "raise", "player": 1}
    assert event.data["text"] == "taken back: Seat 3 raises $20.00"
    # The hand plays on from there: seat 3 calls instead, and a second undo takes it back too.
    hand = svc.hand_act(hand=hand, dealer=d, step={"action": "call", "player": 1})
    hand = svc.hand_undo(hand=hand, dealer=d)
    assert hand.record == record_with_bet
    hand = svc.hand_undo(hand=hand, dealer=d)
    assert hand.record["actions"] == []
    assert verify_record().problems == ()


def test_undo_is_refused_after_the_next_card(ri: dict[str, Any]) -> None:
    hand = _open(
        ri,
        {"hole": ["Ah", "7c"]},
        {"action": "bet", "player": 0},
        {"action": "call", "player": 1},
        {"flop": "Kd"},
    )
    before = _state(hand)
    with pytest.raises(ServiceError) as err:
        svc.hand_undo(hand=hand, dealer=ri["dealer"])
    assert err.value.code == "not_undoable"
    assert "the flop (K♦) has been dealt since the last action" in err.value.message
    assert _state(hand) == before


def test_undo_of_the_hole_cards_or_of_nothing_is_refused(ri: dict[str, Any]) -> None:
    hand = _open(ri)
    before = _state(hand)
    with pytest.raises(ServiceError, match="has no step to take back yet"):
        svc.hand_undo(hand=hand, dealer=ri["dealer"])
    assert _state(hand) == before
    hand = svc.hand_act(hand=hand, dealer=ri["dealer"], step={"hole": ["Ah", "7c"]})
    before = _state(hand)
    with pytest.raises(ServiceError, match="the hole cards: no action to take back yet"):
        svc.hand_undo(hand=hand, dealer=ri["dealer"])
    assert _state(hand) == before


def test_only_the_dealer_at_the_table_undoes(ri: dict[str, Any]) -> None:
    hand = _open(ri, {"hole": ["Ah", "7c"]}, {"action": "bet", "player": 0})
    before = _state(hand)
    for who in (ri["dealer2"], ri["pitboss"]):
        with pytest.raises((ServiceError, PermissionDenied)):
            svc.hand_undo(hand=hand, dealer=who)
    assert _state(hand) == before


def test_a_misdeal_before_the_flop_returns_the_buy_ins(ri: dict[str, Any]) -> None:
    hand = _open(ri, {"hole": ["Ah", "7c"]}, {"action": "bet", "player": 0})
    hand = svc.hand_misdeal(hand=hand, dealer=ri["dealer"], reason="  seat 3's card exposed ")
    assert hand.status == Hand.Status.MISDEAL
    assert (hand.void_reason, hand.voided_by) == ("seat 3's card exposed", ri["dealer"])
    assert (hand.pot_cents, hand.rake_cents, hand.result) == (0, 0, None)
    assert [p.payoff_cents for p in hand.players.all()] == [None, None]
    event = AuditEvent.objects.filter(object_id=str(hand.pk), kind="hand.misdeal").get()
    assert event.data["buy_ins_returned"] == [
        {"seat": 1, "buy_in_cents": 10_000},
        {"seat": 3, "buy_in_cents": 10_000},
    ]
    # The table is free for its next hand; the misdealt hand takes no more steps or voids.
    _open(ri)
    for call in (
        lambda: svc.hand_undo(hand=hand, dealer=ri["dealer"]),
        lambda: svc.hand_misdeal(hand=hand, dealer=ri["dealer"], reason="again"),
        lambda: svc.hand_void(hand=hand, by=ri["pitboss"], reason="x"),
    ):
        with pytest.raises(ServiceError):
            call()
    assert verify_record().problems == ()


def test_a_misdeal_is_refused_after_the_flop_and_without_a_reason(ri: dict[str, Any]) -> None:
    hand = _open(ri, {"hole": ["Ah", "7c"]})
    before = _state(hand)
    with pytest.raises(ServiceError) as err:
        svc.hand_misdeal(hand=hand, dealer=ri["dealer"], reason="  ")
    assert err.value.field == "reason"
    assert _state(hand) == before
    hand = svc.hand_act(hand=hand, dealer=ri["dealer"], step={"action": "check", "player": 0})
    hand = svc.hand_act(hand=hand, dealer=ri["dealer"], step={"action": "check", "player": 1})
    hand = svc.hand_act(hand=hand, dealer=ri["dealer"], step={"flop": "Kd"})
    before = _state(hand)
    with pytest.raises(ServiceError) as err:
        svc.hand_misdeal(hand=hand, dealer=ri["dealer"], reason="a card exposed")
    assert err.value.code == "too_late"
    assert "the flop (K♦) is dealt: a misdeal is called only before the flop" in err.value.message
    assert _state(hand) == before


def test_the_api_undoes_and_misdeals(ri: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(ri["dealer"])
    hand = _open(ri, {"hole": ["Ah", "7c"]}, {"action": "bet", "player": 0})
    r = api.post(f"/api/hands/{hand.pk}/undo/", {}, format="json")
    assert r.status_code == 200, r.content
    hand.refresh_from_db()
    assert hand.record["actions"] == []
    r = api.post(f"/api/hands/{hand.pk}/undo/", {}, format="json")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "not_undoable"
    r = api.post(f"/api/hands/{hand.pk}/misdeal/", {}, format="json")
    assert r.status_code == 400
    r = api.post(f"/api/hands/{hand.pk}/misdeal/", {"reason": "a card exposed"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "misdeal"
    assert verify_record().problems == ()


def test_the_api_refuses_a_misdeal_after_the_flop(ri: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(ri["dealer"])
    hand = _open(
        ri,
        {"hole": ["Ah", "7c"]},
        {"action": "check", "player": 0},
        {"action": "check", "player": 1},
        {"flop": "Kd"},
    )
    before = _state(hand)
    r = api.post(f"/api/hands/{hand.pk}/misdeal/", {"reason": "late"}, format="json")
    assert r.status_code == 409
    assert "only before the flop" in r.json()["error"]["message"]
    r = api.post(f"/api/hands/{hand.pk}/undo/", {}, format="json")
    assert r.status_code == 409
    assert _state(hand) == before


# --- the tablet ------------------------------------------------------------------------------


@pytest.fixture
def tablet(ri: dict[str, Any]) -> dict[str, Any]:
    client = Client()
    client.force_login(ri["dealer"])
    return {**ri, "client": client, "url": f"/tablet/table/{ri['table'].pk}/"}


def _page(t: dict[str, Any]) -> str:
    return str(t["client"].get(t["url"]).content.decode())


def test_the_tablet_asks_before_a_fold(tablet: dict[str, Any]) -> None:
    t = tablet
    hand = _open(t, {"hole": ["Ah", "7c"]}, {"action": "bet", "player": 0})
    before = _state(hand)
    form = {"hand": hand.pk, "step": "action", "player": "1", "action": "fold"}
    asked = t["client"].post(t["url"] + "hand/step/", form)
    page = asked.content.decode()
    assert asked.status_code == 200
    assert "Seat 3 folds: their hand is over" in page
    assert 'name="confirmed" value="1"' in page and 'id="confirm-back"' in page
    assert _state(hand) == before  # asked, nothing entered
    done = t["client"].post(t["url"] + "hand/step/", {**form, "confirmed": "1"})
    assert done.status_code == 303
    hand.refresh_from_db()
    assert hand.record["actions"] == ["bet", "fold"]
    assert "Hand over" in _page(t)
    # Any other action is entered at once (no question).
    hand2 = _open_next(t)
    form = {"hand": hand2.pk, "step": "action", "action": "check"}
    assert t["client"].post(t["url"] + "hand/step/", form).status_code == 303


def _open_next(t: dict[str, Any]) -> Hand:
    t["client"].post(t["url"] + "hand/finish/")
    return _open(t, {"hole": ["Ah", "7c"]})


def test_the_tablet_undoes_after_a_confirmation(tablet: dict[str, Any]) -> None:
    t = tablet
    hand = _open(t, {"hole": ["Ah", "7c"]}, {"action": "bet", "player": 0})
    page = _page(t)
    assert 'id="undo"' in page and "Last: Seat 1 bets" in page
    before = _state(hand)
    asked = t["client"].post(t["url"] + "hand/undo/", {"hand": hand.pk})
    assert asked.status_code == 200
    assert "Take back: Seat 1 bets" in asked.content.decode()
    assert _state(hand) == before
    done = t["client"].post(t["url"] + "hand/undo/", {"hand": hand.pk, "confirmed": "1"})
    assert done.status_code == 303
    hand.refresh_from_db()
    assert hand.record["actions"] == []
    assert 'id="undo"' not in _page(t)  # the hole cards are not taken back


def test_the_tablet_refuses_an_undo_and_a_misdeal_after_the_flop(tablet: dict[str, Any]) -> None:
    t = tablet
    hand = _open(
        t,
        {"hole": ["Ah", "7c"]},
        {"action": "check", "player": 0},
        {"action": "check", "player": 1},
        {"flop": "Kd"},
    )
    page = _page(t)
    assert 'id="undo"' not in page and 'id="misdeal"' not in page
    before = _state(hand)
    refused = t["client"].post(t["url"] + "hand/undo/", {"hand": hand.pk, "confirmed": "1"})
    assert refused.status_code == 409
    assert "the flop (K♦) has been dealt since the last action" in refused.content.decode()
    refused = t["client"].post(t["url"] + "hand/misdeal/", {"hand": hand.pk, "reason": "late"})
    assert refused.status_code == 409
    assert "a misdeal is called only before the flop" in refused.content.decode()
    assert _state(hand) == before


def test_the_tablet_misdeal_asks_then_returns_the_buy_ins(tablet: dict[str, Any]) -> None:
    t = tablet
    hand = _open(t, {"hole": ["Ah", "7c"]})
    assert 'id="misdeal"' in _page(t)
    before = _state(hand)
    refused = t["client"].post(t["url"] + "hand/misdeal/", {"hand": hand.pk, "reason": " "})
    assert refused.status_code == 400
    assert 'id="err-reason"' in refused.content.decode()
    asked = t["client"].post(t["url"] + "hand/misdeal/", {"hand": hand.pk, "reason": "exposed"})
    assert asked.status_code == 200
    assert "Misdeal: exposed. Nothing is paid" in asked.content.decode()
    assert _state(hand) == before
    done = t["client"].post(
        t["url"] + "hand/misdeal/", {"hand": hand.pk, "reason": "exposed", "confirmed": "1"}
    )
    assert done.status_code == 303
    hand.refresh_from_db()
    assert hand.status == Hand.Status.MISDEAL
    page = _page(t)
    assert "Buy-ins for the next hand" in page and "(a misdeal) are filled in" in page
    assert 'name="seat-1-buy_in" value="100.00"' in page
    assert verify_record().problems == ()
