"""Helpers for the Rhode Island tests: play a scripted hand to its end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tables.engine.rhode_island import HandSetup, RhodeIslandHand, Waiting

from .helpers import card, cards


def deal_when_waiting(hand: RhodeIslandHand, flop: str | None, turn: str | None) -> None:
    """Deal the flop and turn (those given) as soon as the hand waits for them."""
    while True:
        if hand.waiting is Waiting.FLOP and flop is not None:
            hand.deal_flop(card(flop))
        elif hand.waiting is Waiting.TURN and turn is not None:
            hand.deal_turn(card(turn))
        else:
            return


def new_hand(stacks: Sequence[int], hole: str, **setup: Any) -> RhodeIslandHand:
    return RhodeIslandHand(HandSetup(stacks=tuple(stacks), **setup), cards(hole))


def play(
    stacks: Sequence[int],
    hole: str,
    actions: Sequence[str] = (),
    *,
    flop: str | None = None,
    turn: str | None = None,
    **setup: Any,
) -> RhodeIslandHand:
    """A hand after `actions`, with the flop and turn dealt whenever the hand waits for them."""
    hand = new_hand(stacks, hole, **setup)
    for action in actions:
        deal_when_waiting(hand, flop, turn)
        hand.act(action)
    deal_when_waiting(hand, flop, turn)
    return hand
