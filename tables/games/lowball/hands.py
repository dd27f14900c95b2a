"""Three Card Lowball's hands (`docs/rules/hand_rankings.md`): a hand's low value is the
engine's (`rankings.low_value`: aces low, the lower hand wins); its name here is what the
contract's `hand` says, a bonus hand's name (4-2-A in one or two colours, 4-3-A, five to seven
high) else the category.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from tables.engine.cards import Card
from tables.engine.rankings import CATEGORY_NAME, LOW_RANK, Category, HandValue, low_value


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
    v = low_value(cards)
    return v.category is Category.HIGH_CARD and sorted(c.low_rank for c in cards) == [1, 2, 4]


def lowball_hand_name(cards: Sequence[Card], value: HandValue | None = None) -> str:
    """The contract's `hand` for a lowball hand: a bonus hand name, else the category.

    `value` may pass the hand's `low_value` when the caller has it already.
    """
    v = value or low_value(cards)
    if v.category is not Category.HIGH_CARD:
        return CATEGORY_NAME[v.category]
    ranks = sorted((LOW_RANK[c.rank] for c in cards), reverse=True)
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
