"""Three-card hand rankings: three-card poker (2nd Chance, Rhode Island) and lowball.

Each evaluator returns a `HandValue`: the category and an integer `score` that orders hands
completely (poker: higher is better; lowball: lower is better). Suits never break ties here.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, NamedTuple

from .cards import Card


class Category(StrEnum):
    """Three-card categories, named as the contract's `hand` values."""

    STRAIGHT_FLUSH = "straight_flush"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    PAIR = "pair"
    HIGH_CARD = "high_card"


# Poker: index grows with strength. Lowball: index grows with weakness (lower wins).
POKER_ORDER: Final = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.FLUSH,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)
LOWBALL_ORDER: Final = POKER_ORDER  # same sequence; in lowball the first is the best
_POKER_INDEX: Final = {c: i for i, c in enumerate(POKER_ORDER)}
_BASE: Final = 15**3
_LOW: Final = {r: (1 if r == 14 else r) for r in range(2, 15)}  # lowball: the ace is 1


class HandValue(NamedTuple):
    category: Category
    score: int


def _score(category: Category, a: int, b: int = 0, c: int = 0) -> int:
    return _POKER_INDEX[category] * _BASE + a * 225 + b * 15 + c


def _classify(r1: int, r2: int, r3: int, flush: bool, ace_high: bool) -> HandValue:
    """r1 >= r2 >= r3 are ranks (ace as 14 when ace_high, else as 1)."""
    if r1 == r3:
        return HandValue(Category.THREE_OF_A_KIND, _score(Category.THREE_OF_A_KIND, r1))
    if r1 == r2 or r2 == r3:
        pair, kicker = (r1, r3) if r1 == r2 else (r2, r1)
        return HandValue(Category.PAIR, _score(Category.PAIR, pair, kicker))
    top = 0
    if r1 - r3 == 2:
        top = r1
    elif ace_high and (r1, r2, r3) == (14, 3, 2):
        top = 3  # A-2-3: the lowest straight, its highest card is the 3
    if top:
        cat = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
        return HandValue(cat, _score(cat, top))
    cat = Category.FLUSH if flush else Category.HIGH_CARD
    return HandValue(cat, _score(cat, r1, r2, r3))


def poker_value(cards: Sequence[Card]) -> HandValue:
    """Three-card poker value; the higher `score` wins."""
    a, b, c = cards
    r1, r2, r3 = sorted((a.rank, b.rank, c.rank), reverse=True)
    return _classify(r1, r2, r3, a.suit == b.suit == c.suit, ace_high=True)


def lowball_value(cards: Sequence[Card]) -> HandValue:
    """Lowball value: aces low, straights and flushes count against; the lower `score` wins."""
    a, b, c = cards
    r1, r2, r3 = sorted((_LOW[a.rank], _LOW[b.rank], _LOW[c.rank]), reverse=True)
    return _classify(r1, r2, r3, a.suit == b.suit == c.suit, ace_high=False)


class LowballHand(StrEnum):
    """Lowball's named bonus hands (winning high-card hands seven-high or better)."""

    A24_ONE_COLOUR = "a24_one_colour"
    A24_TWO_COLOUR = "a24_two_colour"
    A34 = "a34"
    FIVE_HIGH = "five_high"
    SIX_HIGH = "six_high"
    SEVEN_HIGH = "seven_high"


def is_a24(cards: Sequence[Card]) -> bool:
    """4-2-A, unsuited (a suited A-2-4 is a flush)."""
    v = lowball_value(cards)
    return v.category is Category.HIGH_CARD and sorted(c.low_rank for c in cards) == [1, 2, 4]


def lowball_hand_name(cards: Sequence[Card], value: HandValue | None = None) -> str:
    """The contract's `hand` for a lowball hand: a bonus hand name, else the category.

    `value` may pass the hand's `lowball_value` when the caller has it already.
    """
    v = value or lowball_value(cards)
    if v.category is not Category.HIGH_CARD:
        return v.category.value
    ranks = sorted((_LOW[c.rank] for c in cards), reverse=True)
    if ranks == [4, 2, 1]:
        colours = {c.is_red for c in cards}
        return (
            LowballHand.A24_ONE_COLOUR if len(colours) == 1 else LowballHand.A24_TWO_COLOUR
        ).value
    if ranks == [4, 3, 1]:
        return LowballHand.A34.value
    return {5: LowballHand.FIVE_HIGH, 6: LowballHand.SIX_HIGH, 7: LowballHand.SEVEN_HIGH}.get(
        ranks[0], Category.HIGH_CARD
    ).value
