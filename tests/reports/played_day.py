"""A real played day for the trail's words: the demo floor, every table played through the
services (rounds, poker hands, slips with a shortage), a progressive jackpot signed off, a void,
a cancelled round, a step back, a poker hand's undo, misdeal and void."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from django.core.management import call_command

from tables.engine.errors import GameAssertionError
from tables.models import DealerSession, Hand, Round, Table
from tables.services import ServiceError, controls, corrections
from tables.services import hands as hand_svc
from tables.services import rounds as svc
from tables.services.hand_play import hand_assertion_failed
from tables.services.sessions import dealer_sign_in


def play_a_day(floor: dict[str, Any]) -> dict[str, Any]:
    """Play the day; returns the jackpot round and the voided hand."""
    call_command(
        "simulate_rounds",
        "--all",
        "--rounds",
        "3",
        "--seed",
        "7",
        "--slips",
        "--shortage",
        "25.00",
        stdout=io.StringIO(),
    )
    d = _dealer_at(floor["LB-1"])
    jackpot = svc.round_open(
        table=floor["LB-1"], dealer=d, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    jackpot = svc.round_deal(
        round=jackpot, dealer=d, seat_cards={1: "Ah 2c 4d"}, dealer_cards="As 2d 4c"
    )
    jackpot = svc.round_decide(
        round=jackpot, dealer=d, seat=1, decision={"discard": [], "draw": []}
    )
    jackpot = svc.round_dealer(round=jackpot, dealer=d)
    with contextlib.suppress(ServiceError):  # a jackpot waits for a pit boss's sign-off
        svc.round_settle(round=jackpot, dealer=d)
    jackpot = controls.round_approve(round=jackpot, by=floor["pitboss"])
    jackpot = corrections.round_void(
        round=jackpot, by=floor["pitboss_b"], reason="wrong cards entered"
    )
    if jackpot.void_waiting:  # a jackpot's void waits for a second pit boss
        corrections.round_void_approve(round=jackpot, by=floor["pitboss_c"])

    fixed = svc.round_open(table=floor["LB-1"], dealer=d, wagers={2: {"ante": "5.00"}})
    fixed = svc.round_deal(
        round=fixed, dealer=d, seat_cards={2: "2c 3d 5h"}, dealer_cards="Kc Kd 9s"
    )
    fixed = controls.round_step_back(round=fixed, dealer=d, to="cards")
    controls.round_cancel(round=fixed, by=floor["pitboss"], reason="misdeal at the table")

    ri = floor["RI-1"]
    d = floor["dealer2"]
    dealer_sign_in(dealer=d, table=ri)
    hand = hand_svc.hand_open(table=ri, dealer=d, players={2: 10000, 4: 20000})
    hand = hand_svc.hand_act(hand=hand, dealer=d, step={"hole": ["Ah", "Kd"]})
    hand_svc.hand_misdeal(hand=hand, dealer=d, reason="a card was exposed")
    hand = hand_svc.hand_open(table=ri, dealer=d, players={2: 10000, 4: 20000}, first=0)
    hand = hand_svc.hand_act(hand=hand, dealer=d, step={"hole": ["Ah", "Kd"]})
    hand = hand_svc.hand_act(hand=hand, dealer=d, step={"action": "bet"})
    hand = hand_svc.hand_undo(hand=hand, dealer=d)
    hand = hand_svc.hand_act(hand=hand, dealer=d, step={"action": "bet"})
    hand = hand_svc.hand_act(hand=hand, dealer=d, step={"action": "fold"})
    hand = hand_svc.hand_finish(hand=hand, dealer=d)
    hand_svc.hand_void(hand=hand, by=floor["pitboss"], reason="the wrong player folded")
    # A broken game assertion keeps the step as entered (players numbered from 0).
    if not Hand.objects.filter(game="mulligan").exists():
        call_command("simulate_rounds", "--table", "MG-1", "--rounds", "1", stdout=io.StringIO())
    game = Hand.objects.filter(game="mulligan").order_by("pk").first()
    assert game is not None
    step = {"do": "mulligan", "player": 1, "draws": {"0": "Kh", "1": "2c"}}
    hand_assertion_failed(
        hand=game,
        dealer=game.dealer,
        step=step,
        error=GameAssertionError("deck_pile", "a card drawn twice"),
    )
    return {
        "mulligan_hand": game,
        "jackpot": Round.objects.get(pk=jackpot.pk),
        "voided_hand": Hand.objects.get(pk=hand.pk),
    }


def _dealer_at(table: Table) -> Any:
    """The simulation's dealer, still signed in at the table."""
    return DealerSession.objects.get(table=table, ended_at__isnull=True).dealer
