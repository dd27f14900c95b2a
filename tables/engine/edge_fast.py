"""Lookup tables for the sampling and counting fast paths of the house-edge analysis.

Cards are numbered 0..51 in `cards.DECK` order. A three-card hand in any order (a, b, c) is
the index `a * 2704 + b * 52 + c` into flat tables filled, for every one of the 22,100 hands
and its six orders, from the evaluators themselves (`rankings.poker_value`, a game's own,
...), so a lookup is the evaluator's answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, permutations
from typing import Final, TypeVar

from .cards import DECK, Card

T = TypeVar("T")
SIZE: Final = 52 * 52 * 52
HANDS: Final[tuple[tuple[int, int, int], ...]] = tuple(combinations(range(52), 3))


def index(a: int, b: int, c: int) -> int:
    return a * 2704 + b * 52 + c


def cards_of(hand: Sequence[int]) -> tuple[Card, ...]:
    return tuple(DECK[i] for i in hand)


def card_numbers(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(_NUMBER[c] for c in cards)


_NUMBER: Final = {c: i for i, c in enumerate(DECK)}


def table(fn: Callable[[tuple[Card, ...]], T], default: T) -> list[T]:
    """`fn` of every three-card hand, at each of its six orders' indexes."""
    out = [default] * SIZE
    for hand in HANDS:
        value = fn(cards_of(hand))
        for a, b, c in permutations(hand):
            out[a * 2704 + b * 52 + c] = value
    return out


def ordered_table(fn: Callable[[tuple[Card, ...]], T], default: T) -> list[T]:
    """`fn` of every ordered three-card hand (for answers that depend on the order)."""
    out = [default] * SIZE
    for hand in HANDS:
        for order in permutations(hand):
            a, b, c = order
            out[a * 2704 + b * 52 + c] = fn(cards_of(order))
    return out


@cache
def poker_scores() -> list[int]:
    from .rankings import poker_value

    return table(lambda cards: poker_value(cards).score, -1)


@cache
def poker_categories() -> list[str]:
    from .rankings import poker_value

    return table(lambda cards: poker_value(cards).category.value, "")
