"""Rhode Island Hold 'Em's rules as the engine's drivers ask for them (`tables.engine.registry`):
its half of the `replay` contract, and its rake simulated with the `typical` strategy: each
player bets and raises a strong hand, checks and calls a middling one and checks or folds a
weak one (strength from the hole card and the community cards seen so far), and one action in
ten is a random legal one. Played on `RhodeIslandHand`.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Final

from tables.engine.cards import DECK, Card
from tables.engine.edge_rake import RakeFigures, RakeRun, rake_figures
from tables.engine.rankings import Category, poker_value
from tables.engine.registry import PlayerGameRules, PlayerRules

from .game import (
    DEFAULT_ANTE,
    DEFAULT_BETS,
    HandSetup,
    LegalAction,
    Move,
    RakeRule,
    RhodeIslandHand,
    Waiting,
)
from .replay import replay_rhode_island

NAME: Final = "rhode_island"
DEFAULT_SAMPLES: Final = 5_000  # hands
TYPICAL: Final = "typical"  # the strategy's name
SIMULATED_STACK: Final = 1000  # each player's stack in the simulation, in chips

DESCRIPTION: Final = (
    "bet or raise a strong hand, check or call a middling one, check or fold a weak one "
    "(from the cards seen so far); one action in ten is a random legal one"
)


def _strength(hole: int, board: list[int]) -> int:
    """0 weak, 1 middling, 2 strong: from the hole card (rank) and the board seen so far."""
    return _strength_of([DECK[hole]] + [DECK[c] for c in board])


def _strength_of(cards: list[Card]) -> int:
    if len(cards) == 1:
        rank = cards[0].rank
        return 2 if rank >= 12 else 1 if rank >= 7 else 0
    if len(cards) == 2:
        if cards[0].rank == cards[1].rank:
            return 2
        return 1 if max(c.rank for c in cards) >= 12 else 0
    value = poker_value(cards)
    if value.category is not Category.HIGH_CARD:
        return 2
    return 1 if max(c.rank for c in cards) >= 13 else 0


def _ri_choose(legal: list[LegalAction], strength: int, rng: random.Random) -> Move:
    moves = {a.move for a in legal}
    if rng.random() < 0.1:
        return rng.choice(legal).move
    if strength == 2:
        for move in (Move.RAISE, Move.BET, Move.CALL, Move.CHECK):
            if move in moves:
                return move
    if strength == 1:
        for move in (Move.CHECK, Move.CALL):
            if move in moves:
                return move
    for move in (Move.CHECK, Move.FOLD):
        if move in moves:
            return move
    return legal[0].move


def typical_move(legal: list[LegalAction], cards: list[Card], rng: random.Random) -> Move:
    """The `typical` player's move (the rake simulation's), from the legal ones, with the
    player's hole card and the board seen so far (`cards`, hole card first)."""
    return _ri_choose(legal, _strength_of(cards), rng)


def rhode_island(
    hands: int,
    rng: random.Random,
    *,
    players: int = 2,
    rake: RakeRule,
    stack: int = SIMULATED_STACK,
    unit: int = 1,
) -> RakeFigures:
    """Play `hands` hands on the engine; the rake and pot of each (`unit`: money per chip of
    the ante, bets and stack)."""
    rakes: list[int] = []
    pots: list[int] = []
    for i in range(hands):
        deck = rng.sample(range(52), players + 2)
        setup = HandSetup(
            stacks=(stack * unit,) * players,
            first=i % players,
            ante=DEFAULT_ANTE * unit,
            bets=(DEFAULT_BETS[0] * unit, DEFAULT_BETS[1] * unit, DEFAULT_BETS[2] * unit),
            rake=rake,
        )
        hand = RhodeIslandHand(setup, [DECK[c] for c in deck[:players]])
        board: list[int] = []
        while True:
            waiting = hand.waiting
            if waiting is Waiting.OVER:
                break
            if waiting is Waiting.FLOP:
                board.append(deck[players])
                hand.deal_flop(DECK[deck[players]])
            elif waiting is Waiting.TURN:
                board.append(deck[players + 1])
                hand.deal_turn(DECK[deck[players + 1]])
            else:
                seat = hand.to_act
                assert seat is not None
                move = _ri_choose(hand.legal_actions(), _strength(deck[seat], board), rng)
                hand.act(move)
        result = hand.result()
        rakes.append(result.rake)
        pots.append(result.pot)
    return rake_figures(rakes, pots)


def rake_edge(
    samples: int,
    rng: random.Random,
    *,
    players: int,
    rake_percent: Decimal,
    rake_cap: int | None,
    unit: int = 1,
) -> RakeRun:
    """The rake over `samples` hands of the default betting (ante 5, bets 10/20/20, each chip
    worth `unit`)."""
    figures = rhode_island(
        samples, rng, players=players, rake=RakeRule(rake_percent, rake_cap), unit=unit
    )
    terms = {"ante": 5, "bets": [10, 20, 20], "raise_cap": 3, "stack": 1000}
    return RakeRun(figures, DESCRIPTION, "hand", terms)


RULES: Final[PlayerRules] = PlayerGameRules(
    name=NAME,
    default_samples=DEFAULT_SAMPLES,
    replay=replay_rhode_island,
    rake_edge=rake_edge,
)
