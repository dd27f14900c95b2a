"""The house's take in the games between players: the rake per hand (Rhode Island Hold 'Em)
or per game (Mulligan), simulated with the engines themselves and a simple named strategy.

Nobody but the players wins or loses the pot, so the house's hold is its rake; its mean and
spread per hand depend on the rake terms and on how the players bet, hence a simulation with
a stated strategy (`typical`, the only one these games have):

- Rhode Island: each player bets and raises a strong hand, checks and calls a middling one and
  checks or folds a weak one (strength from the hole card and the community cards seen so
  far), and one action in ten is a random legal one. Played on `RhodeIslandHand`.
- Mulligan: `mulligan_game.random_action` (rare folds, occasional skips, random auctions,
  offers and swaps), played for chips on `mulligan_game.apply`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from math import sqrt
from typing import Final

from . import mulligan_game as mg
from .cards import DECK
from .edge_stats import Z95
from .rankings import Category, poker_value
from .rhode_island import HandSetup, LegalAction, Move, RakeRule, RhodeIslandHand, Waiting

RI_DESCRIPTION: Final = (
    "bet or raise a strong hand, check or call a middling one, check or fold a weak one "
    "(from the cards seen so far); one action in ten is a random legal one"
)
MULLIGAN_DESCRIPTION: Final = (
    "random legal play (`mulligan_game.random_action`): rare folds, occasional skips, random "
    "auctions, offers and swaps"
)


@dataclass(frozen=True)
class RakeFigures:
    """The rake per hand (chips): mean, spread, 95% interval; the pot's mean; hands played."""

    hands: int
    mean: float
    std_dev: float
    ci95: tuple[float, float]
    pot_mean: float
    raked_share: float  # hands that paid any rake

    @property
    def per_pot(self) -> float:
        """The rake as a share of the chips put in the pot."""
        return self.mean / self.pot_mean if self.pot_mean else 0.0


def _figures(rakes: list[int], pots: list[int]) -> RakeFigures:
    n = len(rakes)
    mean = sum(rakes) / n
    var = sum((r - mean) ** 2 for r in rakes) / max(n - 1, 1)
    half = Z95 * sqrt(var / n)
    return RakeFigures(
        hands=n,
        mean=mean,
        std_dev=sqrt(var),
        ci95=(mean - half, mean + half),
        pot_mean=sum(pots) / n,
        raked_share=sum(1 for r in rakes if r) / n,
    )


def _strength(hole: int, board: list[int]) -> int:
    """0 weak, 1 middling, 2 strong: from the hole card (rank) and the board seen so far."""
    cards = [DECK[hole]] + [DECK[c] for c in board]
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


def rhode_island(
    hands: int,
    rng: random.Random,
    *,
    players: int = 2,
    rake: RakeRule,
    stack: int = 1000,
) -> RakeFigures:
    """Play `hands` hands on the engine; the rake and pot of each."""
    rakes: list[int] = []
    pots: list[int] = []
    for i in range(hands):
        deck = rng.sample(range(52), players + 2)
        setup = HandSetup(stacks=(stack,) * players, first=i % players, rake=rake)
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
    return _figures(rakes, pots)


def mulligan(
    games: int,
    rng: random.Random,
    *,
    players: int = 2,
    rake: mg.Rake,
    chips: int = 20,
    max_actions: int = 5000,
) -> RakeFigures:
    """Play `games` games for chips on the engine; the rake and pot of each."""
    rakes: list[int] = []
    pots: list[int] = []
    for _ in range(games):
        setup = mg.shuffled_setup(
            rng, players, variants=(mg.Variant.CHIPS,), chips=(chips,) * players, rake=rake
        )
        game = mg.new_game(setup)
        for _step in range(max_actions):
            if game.is_over:
                break
            game = mg.apply(game, mg.random_action(game, rng))
        else:
            raise RuntimeError(f"a Mulligan game did not end in {max_actions} actions")
        result = mg.result(game)
        rakes.append(result.rake)
        pots.append(result.pot)
    return _figures(rakes, pots)


DEFAULT_RAKE_PERCENT: Final = Decimal(5)
