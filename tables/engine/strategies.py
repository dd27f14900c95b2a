"""Named player strategies, shared by the house-edge analysis and the simulators.

Four names, the same for every game: `optimal`, `house_way`, `published` and `typical`. Each
game says what they mean for it (its rules' `describe`, `tables.engine.registry`); where a
game has no strategy of its own under a name, the name plays the nearest one and the
description says which. A strategy is a mix of pure plays with exact weights (`Mix`), so the
analysis can take its expectation exactly and a simulator draws one play per hand with the
same weights.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final, Generic, TypeVar

from .cards import Card
from .errors import EngineError, Refusal

T = TypeVar("T")


class Strategy(StrEnum):
    OPTIMAL = "optimal"
    HOUSE_WAY = "house_way"
    PUBLISHED = "published"
    TYPICAL = "typical"


STRATEGY_NAMES: Final = tuple(s.value for s in Strategy)
TYPICAL_SLIP: Final = Fraction(1, 5)  # typical: one hand in five played another way


def parse_strategy(name: object) -> Strategy:
    """The named strategy; refuses an unknown name, listing the known ones."""
    try:
        return Strategy(str(name))
    except ValueError:
        raise EngineError(
            Refusal.BAD_SETUP,
            f"there is no strategy {name!r}: one of {', '.join(STRATEGY_NAMES)}",
            field="strategy",
        ) from None


@dataclass(frozen=True)
class Mix(Generic[T]):
    """A strategy as pure plays with exact weights summing to 1."""

    description: str
    plays: tuple[tuple[Fraction, Callable[[Sequence[Card]], T]], ...]

    def choose(self, rng: random.Random, cards: Sequence[Card]) -> T:
        """One play drawn by weight (no draw when there is only one), applied to `cards`."""
        if len(self.plays) == 1:
            return self.plays[0][1](cards)
        roll = Fraction(rng.random())
        for weight, play in self.plays:
            if roll < weight:
                return play(cards)
            roll -= weight
        return self.plays[-1][1](cards)


def pure(description: str, play: Callable[[Sequence[Card]], T]) -> Mix[T]:
    return Mix(description, ((Fraction(1), play),))


def typical(
    description: str, main: Callable[[Sequence[Card]], T], slip: Callable[[Sequence[Card]], T]
) -> Mix[T]:
    return Mix(description, ((1 - TYPICAL_SLIP, main), (TYPICAL_SLIP, slip)))
