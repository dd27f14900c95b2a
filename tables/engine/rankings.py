"""Three-card hand rankings: high (three-card poker) and low (aces low, the lower hand wins).

Each evaluator returns a `HandValue`: the category and an integer `score` that orders hands
completely (high: higher is better; low: lower is better). Suits never break ties here.
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


# High: index grows with strength. Low: index grows with weakness (the lower hand wins).
POKER_ORDER: Final = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.FLUSH,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
)
LOW_ORDER: Final = POKER_ORDER  # same sequence; in a low hand the first is the best
_POKER_INDEX: Final = {c: i for i, c in enumerate(POKER_ORDER)}
_BASE: Final = 15**3
# A rank as a low hand counts it: the ace is 1.
LOW_RANK: Final = {r: (1 if r == 14 else r) for r in range(2, 15)}


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


def _low_value(cards: Sequence[Card]) -> HandValue:
    a, b, c = cards
    r1, r2, r3 = sorted((LOW_RANK[a.rank], LOW_RANK[b.rank], LOW_RANK[c.rank]), reverse=True)
    return _classify(r1, r2, r3, a.suit == b.suit == c.suit, ace_high=False)


# The evaluators look their answer up: a hand's value depends only on its ranks (as a multiset)
# and whether it is suited, and the product of one prime per rank names the multiset without
# sorting. The tables are filled by the functions above over every multiset, so a lookup gives
# exactly what they compute; anything not in them (a rank outside 2..14) is computed as before.
_PRIME: Final = dict(
    zip(range(2, 15), (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True)
)
_POKER: Final[dict[tuple[int, bool], HandValue]] = {}
_LOW: Final[dict[tuple[int, bool], HandValue]] = {}
for _r1 in range(2, 15):
    for _r2 in range(2, _r1 + 1):
        for _r3 in range(2, _r2 + 1):
            _key = _PRIME[_r1] * _PRIME[_r2] * _PRIME[_r3]
            for _suited in (False, True):
                _hand = (Card(_r1, "c"), Card(_r2, "c" if _suited else "d"), Card(_r3, "c"))
                _POKER[_key, _suited] = _poker_value(_hand)
                _LOW[_key, _suited] = _low_value(_hand)
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


def low_value(cards: Sequence[Card]) -> HandValue:
    """Low value: aces low, straights and flushes count against; the lower `score` wins."""
    a, b, c = cards
    prime = _PRIME
    try:
        key = prime[a.rank] * prime[b.rank] * prime[c.rank]
    except (KeyError, TypeError):
        return _low_value(cards)
    value = _LOW.get((key, a.suit == b.suit == c.suit))
    return value if value is not None else _low_value(cards)
