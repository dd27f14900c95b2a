"""Pyramid Poker's Ante, exactly, over all 22,100 x 18,424 = 407,170,400 deals.

Suits play no part in Pyramid (no straights, no flushes), so a three-card hand is one of 455
rank classes: 286 of three ranks (64 hands each), 156 of a pair and an odd card (24 each) and
13 of trips (4 each). The dealer's setting is the house way's for the class, computed once by
`pyramid.dealer_setting`; each of the player's legal settings is `pyramid.split`'s. For a
player class and a dealer class, the number of dealer hands of that class left in the 49 cards
is the product over the dealer's ranks of C(4 - player's cards of the rank, dealer's cards of
the rank). So the whole count is 455 x 455 class pairs, each compared as `pyramid.settle`
compares (the two-card hands by `two_card_score`, the one-card hands by rank; a copy loses).
`tests/engine/test_house_edge.py` settles sampled deals with `pyramid.settle` and checks them
against these tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from typing import Final

from tables.engine.cards import Card
from tables.engine.errors import EngineError

from . import game as pyramid

TOTAL_DEALS: Final = comb(52, 3) * comb(49, 3)  # 407,170,400
_SUITS: Final = "cdhs"


@dataclass(frozen=True)
class RankClass:
    """Hands with the same ranks: `ranks` ascending, a representative hand, how many hands."""

    ranks: tuple[int, int, int]
    cards: tuple[Card, Card, Card]
    hands: int
    counts: tuple[tuple[int, int], ...]  # (rank, cards of that rank)


def _representative(ranks: tuple[int, int, int]) -> tuple[Card, Card, Card]:
    seen: dict[int, int] = {}
    out = []
    for r in ranks:
        k = seen.get(r, 0)
        seen[r] = k + 1
        out.append(Card(r, _SUITS[k]))
    return out[0], out[1], out[2]


@cache
def rank_classes() -> tuple[RankClass, ...]:
    """The 455 rank classes of three cards (their hands add up to 22,100)."""
    classes = []
    for ranks in combinations_with_replacement(range(2, 15), 3):
        counts = tuple((r, ranks.count(r)) for r in sorted(set(ranks)))
        hands = 1
        for _r, k in counts:
            hands *= comb(4, k)
        classes.append(RankClass(ranks, _representative(ranks), hands, counts))
    return tuple(classes)


Score = tuple[tuple[int, int, int], int]  # (two-card score, one-card rank)


def score_of(setting: pyramid.Setting) -> Score:
    """What `pyramid.settle` compares: the two-card hand's score, the one-card hand's rank."""
    return setting.two_card_score(), setting.one_card.rank


def legal_settings(cards: Sequence[Card]) -> dict[int, pyramid.Setting]:
    """Every setting `pyramid.split` allows, by the rank of the card alone."""
    settings: dict[int, pyramid.Setting] = {}
    for card in cards:
        if card.rank in settings:
            continue
        try:
            settings[card.rank] = pyramid.split(cards, card)
        except EngineError:
            continue
    return settings


@dataclass(frozen=True)
class SettingCounts:
    """Against every dealer hand left: how many the setting wins both, splits, loses."""

    alone: int  # the rank of the card alone
    win: int
    push: int
    lose: int

    def value(self, odds: Fraction) -> Fraction:
        return odds * self.win - self.lose


@cache
def _dealer_scores() -> tuple[tuple[Score, tuple[tuple[int, int], ...]], ...]:
    return tuple((score_of(pyramid.dealer_setting(c.cards)), c.counts) for c in rank_classes())


def class_counts(player: RankClass) -> tuple[SettingCounts, ...]:
    """Every legal setting of one player rank class (by the rank alone, ascending), counted
    against the 18,424 dealer hands from the other 49 cards (per player hand of the class)."""
    held = dict(player.counts)
    weights = []
    for dealer_score, dealer_counts in _dealer_scores():
        w = 1
        for r, k in dealer_counts:
            w *= comb(4 - held.get(r, 0), k)
        if w:
            weights.append((dealer_score, w))
    results = []
    for alone, setting in sorted(legal_settings(player.cards).items()):
        two, one = score_of(setting)
        win = push = lose = 0
        for (d_two, d_one), w in weights:
            wins = (two > d_two) + (one > d_one)
            if wins == 2:
                win += w
            elif wins == 1:
                push += w
            else:
                lose += w
        results.append(SettingCounts(alone, win, push, lose))
    return tuple(results)


@cache
def setting_counts() -> dict[tuple[int, int, int], tuple[SettingCounts, ...]]:
    """For each player rank class, every legal setting's counts (`class_counts`)."""
    return {player.ranks: class_counts(player) for player in rank_classes()}


def _key(cards: Sequence[Card]) -> tuple[int, int, int]:
    a, b, c = sorted(card.rank for card in cards)
    return a, b, c


@cache
def _optimal_alone(odds: Fraction) -> dict[tuple[int, int, int], int]:
    """The best rank to put alone per rank class at `odds`; ties go to the player strategy's."""
    best: dict[tuple[int, int, int], int] = {}
    for player in rank_classes():
        options = setting_counts()[player.ranks]
        preferred = pyramid.player_setting(player.cards).one_card.rank
        top = max(o.value(odds) for o in options)
        tied = [o.alone for o in options if o.value(odds) == top]
        best[player.ranks] = preferred if preferred in tied else tied[0]
    return best


def optimal_one_card(cards: Sequence[Card], odds: Fraction = Fraction(1)) -> Card:
    """The card to put alone for the highest expected value at `odds` to 1."""
    rank = _optimal_alone(odds)[_key(cards)]
    return next(c for c in cards if c.rank == rank)


def exact_counts(
    odds: Fraction, plays: Sequence[tuple[Fraction, Callable[[Sequence[Card]], Card] | None]]
) -> dict[str, Fraction]:
    """Win/push/lose counts over all 407,170,400 deals for a strategy mix; a play of None
    is the optimal setting at `odds`."""
    totals = {"win": Fraction(0), "push": Fraction(0), "lose": Fraction(0)}
    table = setting_counts()
    optimal = _optimal_alone(odds)
    for player in rank_classes():
        by_alone = {o.alone: o for o in table[player.ranks]}
        for weight, play in plays:
            alone = optimal[player.ranks] if play is None else play(player.cards).rank
            counts = by_alone[alone]
            scale = weight * player.hands
            totals["win"] += scale * counts.win
            totals["push"] += scale * counts.push
            totals["lose"] += scale * counts.lose
    return totals
