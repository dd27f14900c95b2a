"""Mulligan five-card hands (`hand_rankings.md`, "Mulligan"): category, value hand, winner.

A hand counts as its best category, and inside it as its best value hand (the cards that make
the category). Between hands of one category the value hand holding the single highest card
wins; cards compare by rank, then by suit (spades > hearts > clubs > diamonds). No card is in
two hands, so two hands never tie: `MulliganValue.key` is one integer that orders them.

Unlike poker there are two straights: a low straight (four consecutive ranks, just above two
pair) and a high straight (five). An ace is high, or low inside a straight (A-2-3-4, whose
highest card is the 4), never both: K-A-2 is not a run. This is evaluated after every action
of a game, so it is table lookups on a rank bit mask, no search over subsets.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, NamedTuple

from tables.engine.cards import DECK, Card


class MulliganCategory(StrEnum):
    """Mulligan categories, worst to best (definition order is strength order)."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    LOW_STRAIGHT = "low_straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    HIGH_STRAIGHT = "high_straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"


MULLIGAN_ORDER: Final[tuple[MulliganCategory, ...]] = tuple(MulliganCategory)  # worst first
_CATEGORY_INDEX: Final = {c: i for i, c in enumerate(MULLIGAN_ORDER)}

SUIT_ORDER: Final = {"d": 0, "c": 1, "h": 2, "s": 3}  # spades > hearts > clubs > diamonds
# A card's strength (rank, then suit) in 0..63, so `key` = category * 64 + strength of `top`.
_STRENGTH: Final[dict[Card, int]] = {c: c.rank * 4 + SUIT_ORDER[c.suit] for c in DECK}
_CATEGORY_STEP: Final = 64


class MulliganValue(NamedTuple):
    """A hand's value: the higher `key` wins (category first, then `top`)."""

    category: MulliganCategory
    value_hand: tuple[Card, ...]  # the cards that make the category, `top` first
    top: Card  # the value hand's highest card (a low ace never is)
    key: int


def _bit(rank: int) -> int:
    return 1 << rank


def _runs(length: int) -> list[tuple[int, ...]]:
    """Every run of `length` consecutive ranks, top rank first; ace (14) also below the 2."""
    runs: list[tuple[int, ...]] = []
    for top in range(length, 15):
        runs.append(tuple(14 if r == 1 else r for r in range(top, top - length, -1)))
    return runs


def _rank_mask(ranks: Sequence[int]) -> int:
    mask = 0
    for r in ranks:
        mask |= _bit(r)
    return mask


# Rank mask of five distinct ranks -> the run, top first (A-2-3-4-5 is 5, 4, 3, 2, 14).
_HIGH_RUN: Final[dict[int, tuple[int, ...]]] = {_rank_mask(run): run for run in _runs(5)}


def _low_runs() -> dict[int, tuple[int, ...]]:
    """Rank mask of four or five distinct ranks holding a 4-run but no 5-run -> the best run."""
    table: dict[int, tuple[int, ...]] = {}
    for run in _runs(4):  # lowest run first, so a better run overwrites a worse one
        mask = _rank_mask(run)
        table[mask] = run
        for extra in range(2, 15):
            wider = mask | _bit(extra)
            if wider != mask and wider not in _HIGH_RUN:
                table[wider] = run
    return table


_LOW_RUN: Final = _low_runs()


def _value(category: MulliganCategory, value_hand: tuple[Card, ...]) -> MulliganValue:
    top = value_hand[0]
    return MulliganValue(
        category, value_hand, top, _CATEGORY_INDEX[category] * _CATEGORY_STEP + _STRENGTH[top]
    )


def _run_cards(by_rank: dict[int, list[Card]], run: tuple[int, ...]) -> tuple[Card, ...]:
    """The run's cards, top first; of a duplicated rank, the better suit."""
    return tuple(by_rank[r][0] for r in run)


def mulligan_value(cards: Sequence[Card]) -> MulliganValue:
    """Value of exactly five distinct cards; ValueError for anything else."""
    if len(cards) != 5:
        raise ValueError(f"a Mulligan hand has 5 cards, not {len(cards)}")
    try:
        ordered = sorted(cards, key=_STRENGTH.__getitem__, reverse=True)  # best card first
    except (KeyError, TypeError):
        raise ValueError(f"a Mulligan hand holds cards of one deck, not {cards!r}") from None
    if len(set(ordered)) != 5:
        raise ValueError("a Mulligan hand cannot hold the same card twice")

    # Cards by rank, best rank first; inside a rank the best suit first.
    by_rank: dict[int, list[Card]] = {}
    for c in ordered:
        by_rank.setdefault(c.rank, []).append(c)
    mask = _rank_mask(list(by_rank))

    suit = ordered[0].suit
    if all(c.suit == suit for c in ordered):
        run = _HIGH_RUN.get(mask)
        if run is not None:
            return _value(MulliganCategory.STRAIGHT_FLUSH, _run_cards(by_rank, run))
        return _value(MulliganCategory.FLUSH, tuple(ordered))

    groups = sorted(by_rank.values(), key=len, reverse=True)  # stable: equal sizes stay by rank
    size = len(groups[0])
    distinct = len(groups)
    if size == 4:
        return _value(MulliganCategory.FOUR_OF_A_KIND, tuple(groups[0]))
    if size == 3:
        if distinct == 2:
            return _value(MulliganCategory.FULL_HOUSE, tuple(ordered))
        return _value(MulliganCategory.THREE_OF_A_KIND, tuple(groups[0]))
    if distinct == 5:
        run = _HIGH_RUN.get(mask)
        if run is not None:
            return _value(MulliganCategory.HIGH_STRAIGHT, _run_cards(by_rank, run))
    run = _LOW_RUN.get(mask)
    if run is not None:
        return _value(MulliganCategory.LOW_STRAIGHT, _run_cards(by_rank, run))
    if distinct == 3:
        return _value(MulliganCategory.TWO_PAIR, (*groups[0], *groups[1]))
    if distinct == 4:
        return _value(MulliganCategory.PAIR, tuple(groups[0]))
    return _value(MulliganCategory.HIGH_CARD, (ordered[0],))


def compare(a: Sequence[Card], b: Sequence[Card]) -> int:
    """1 if hand `a` wins, -1 if `b` wins; 0 only for hands sharing their top card."""
    ka = mulligan_value(a).key
    kb = mulligan_value(b).key
    return (ka > kb) - (ka < kb)


def best_of(hands: Sequence[Sequence[Card]]) -> int:
    """Index of the winning hand (the first one, should hands sharing cards tie)."""
    if not hands:
        raise ValueError("no hands to compare")
    keys = [mulligan_value(h).key for h in hands]
    return keys.index(max(keys))
