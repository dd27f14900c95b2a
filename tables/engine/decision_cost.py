"""A decision's cost: what a player's choice gave up against the best choice, in cents.

A game values each choice a seat had at a decision (the expected net of the seat's wagers, in
cents, over everything the player could not see), exactly as a Fraction where it enumerates,
or as an estimate where it samples; the cost is the best choice's value less the value of the
choice made, never below zero. Values may leave out what every choice shares (a side bet
settled on the first cards alone), since only their differences count.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Final, TypeVar

from .cards import Card

K = TypeVar("K", bound=Hashable)

# Costs are given to a hundredth of a cent: an exact Fraction's decimal may not end.
QUANTUM: Final = Decimal("0.01")


def cents(value: Fraction) -> Decimal:
    """A Fraction of cents as a Decimal, to a hundredth of a cent (half to even)."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        QUANTUM, rounding=ROUND_HALF_EVEN
    )


def cost(values: Mapping[K, Fraction], chosen: K) -> Decimal:
    """The best value less the chosen one's (>= 0), in cents."""
    best = max(values.values())
    return cents(max(best - values[chosen], Fraction(0)))


def seeded(*parts: Iterable[Card] | str) -> random.Random:
    """A generator seeded by what a decision saw, so that an estimate of the same decision
    is the same number every time it is asked."""
    words = [p if isinstance(p, str) else " ".join(sorted(str(c) for c in p)) for p in parts]
    return random.Random("|".join(words))
