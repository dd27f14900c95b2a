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


# A category's name without the enum's (slow) `value` property.
CATEGORY_NAME: Final[dict[Category, str]] = {c: c.value for c in Category}


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


def _poker_value(cards: Sequence[Card]) -> HandValue:
    a, b, c = cards
    r1, r2, r3 = sorted((a.rank, b.rank, c.rank), reverse=True)
    return _classify(r1, r2, r3, a.suit == b.suit == c.suit, ace_high=True)


def _lowball_value(cards: Sequence[Card]) -> HandValue:
    a, b, c = cards
    r1, r2, r3 = sorted((_LOW[a.rank], _LOW[b.rank], _LOW[c.rank]), reverse=True)
    return _classify(r1, r2, r3, a.suit == b.suit == c.suit, ace_high=False)


# The evaluators look their answer up: a hand's value depends only on its ranks (as a multiset)
# and whether it is suited, and the product of one prime per rank names the multiset without
# sorting. The tables are filled by the functions above over every multiset, so a lookup gives
# exactly what they compute; anything not in them (a rank outside 2..14) is computed as before.
_PRIME: Final = dict(
    zip(range(2, 15), (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True)
)
_POKER: Final[dict[tuple[int, bool], HandValue]] = {}
_LOWBALL: Final[dict[tuple[int, bool], HandValue]] = {}
for _r1 in range(2, 15):
    for _r2 in range(2, _r1 + 1):
        for _r3 in range(2, _r2 + 1):
            _key = _PRIME[_r1] * _PRIME[_r2] * _PRIME[_r3]
            for _suited in (False, True):
                _hand = (Card(_r1, "c"), Card(_r2, "c" if _suited else "d"), Card(_r3, "c"))
                _POKER[_key, _suited] = _poker_value(_hand)
                _LOWBALL[_key, _suited] = _lowball_value(_hand)
del _r1, _r2, _r3, _key, _suited, _hand


def poker_value(cards: Sequence[Card]) -> HandValue:
    """Three-card poker value; the higher `score` wins."""
    a, b, c = cards
    prime = _PRIME
    try:
        key = prime[a.rank] * prime[b.rank] * prime[c.rank]
    except (KeyError, TypeError):
        return _poker_value(cards)
    value = _POKER.get((key, a.suit == b.suit == c.suit))
    return value if value is not None else _poker_value(cards)


def lowball_value(cards: Sequence[Card]) -> HandValue:
    """Lowball value: aces low, straights and flushes count against; the lower `score` wins."""
    a, b, c = cards
    prime = _PRIME
    try:
        key = prime[a.rank] * prime[b.rank] * prime[c.rank]
    except (KeyError, TypeError):
        return _lowball_value(cards)
    value = _LOWBALL.get((key, a.suit == b.suit == c.suit))
    return value if value is not None else _lowball_value(cards)


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
        return CATEGORY_NAME[v.category]
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
