"""Helpers for the Rhode Island tests: play a scripted hand to its end."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    RhodeIslandHoldemHand,
    State,
    Street,
)

from tables.games.rhode_island.game import HandSetup, Move, RhodeIslandHand, Waiting
from tests.engine.helpers import card, cards


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


_FULL_AUTOMATION = tuple(  # everything but the deal: the hand's own cards are dealt
    a for a in Automation if a not in (Automation.HOLE_DEALING, Automation.BOARD_DEALING)
)
_PK = {repr(c): c for c in Deck.STANDARD}


def pokerkit_payoffs(
    setup: HandSetup,
    hand: RhodeIslandHand,
    rake: Callable[[int, State], tuple[int, int]] | None = None,
) -> tuple[int, ...]:
    """The same hand on PokerKit's own state with every automation on (its own showdown, rake
    hook and split), in seat order: what PokerKit would pay without this project's wrapper."""
    n = setup.players
    seat = [(setup.first + k) % n for k in range(n)]
    cap = setup.raise_cap + 1
    state = State(
        _FULL_AUTOMATION,
        Deck.STANDARD,
        (RhodeIslandHoldemHand,),
        tuple(
            Street(
                False,
                (False,) if i == 0 else (),
                0 if i == 0 else 1,
                False,
                Opening.POSITION,
                setup.bets[i],
                cap,
            )
            for i in range(3)
        ),
        BettingStructure.FIXED_LIMIT,
        True,
        setup.ante,
        0,
        0,
        tuple(setup.stacks[s] for s in seat),
        n,
        mode=Mode.TOURNAMENT,
        **({} if rake is None else {"rake": rake}),
    )
    for k in range(n):
        state.deal_hole((_PK[str(hand.hole[seat[k]])],), k)
    board = list(hand.board)
    moves = [r.move for r in hand.history]
    while state.status:
        if state.can_deal_board():
            state.deal_board((_PK[str(board.pop(0))],))
        elif moves:
            move = moves.pop(0)
            if move in (Move.CHECK, Move.CALL):
                state.check_or_call()
            elif move is Move.FOLD:
                state.fold()
            else:
                state.complete_bet_or_raise_to()
        else:
            raise AssertionError("PokerKit's hand did not end")
    assert not moves and not board
    out = [0] * n
    for k in range(n):
        out[seat[k]] = state.payoffs[k]
    return tuple(out)
