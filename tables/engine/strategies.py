"""Named player strategies, shared by the house-edge analysis and the simulators.

Four names, the same for every game: `optimal`, `house_way`, `published` and `typical`. Each
game says what they mean for it (`describe`); where a game has no strategy of its own under a
name, the name plays the nearest one and the description says which. A strategy is a mix of
pure plays with exact weights (`Mix`), so the analysis can take its expectation exactly and a
simulator draws one play per hand with the same weights.

- 2nd Chance: whether to take a mulligan. `published` keeps king-ten or better (K-T-2 kept,
  K-9-8 swapped); `house_way` plays like the dealer (keeps king-high or better); `optimal`
  plays the published strategy (the published analysis's best play; no search here);
  `typical` is four hands in five by the published strategy and one in five like the dealer.
- Lowball: which cards to discard. No player strategy is published and no optimal one is
  computed: `optimal`, `published` and `house_way` draw by the dealer's house way (its edge is
  about 7 points below the simple draw's); `typical` draws so four hands in five and
  by the simple draw (one card of a pair and every card ten or higher, at most two, which
  keeps straights and flushes) in the fifth.
- Pyramid: which card goes alone. `optimal` maximises the expected value against the dealer's
  house way (computed exactly in `edge_pyramid`); `house_way` and `published` are the rules'
  player strategy (what "set it for me" does, ruling 1); `typical` plays that strategy four
  hands in five and copies the dealer's house way in the fifth.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final, Generic, TypeVar

from . import lowball, pyramid, second_chance
from .cards import Card
from .errors import EngineError, Refusal
from .rankings import poker_value

T = TypeVar("T")


class Strategy(StrEnum):
    OPTIMAL = "optimal"
    HOUSE_WAY = "house_way"
    PUBLISHED = "published"
    TYPICAL = "typical"


STRATEGY_NAMES: Final = tuple(s.value for s in Strategy)
_TEN: Final = 10
_TYPICAL_SLIP: Final = Fraction(1, 5)  # typical: one hand in five played like the dealer


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


def _pure(description: str, play: Callable[[Sequence[Card]], T]) -> Mix[T]:
    return Mix(description, ((Fraction(1), play),))


def _typical(
    description: str, main: Callable[[Sequence[Card]], T], slip: Callable[[Sequence[Card]], T]
) -> Mix[T]:
    return Mix(description, ((1 - _TYPICAL_SLIP, main), (_TYPICAL_SLIP, slip)))


# --- 2nd Chance: True when the player takes a mulligan -------------------------------------

_KEEP_AT_LEAST: Final = poker_value((Card(13, "c"), Card(10, "d"), Card(2, "h"))).score


def mulligan_published(cards: Sequence[Card]) -> bool:
    """The published advice: keep king-ten or better (K-T-2 kept, K-9-8 swapped)."""
    return poker_value(cards).score < _KEEP_AT_LEAST


def mulligan_like_dealer(cards: Sequence[Card]) -> bool:
    """Play like the dealer's house way: swap queen-high or worse."""
    return second_chance.dealer_draws(cards)


SECOND_CHANCE: Final[dict[Strategy, Mix[bool]]] = {
    Strategy.OPTIMAL: _pure(
        "the published keep-king-ten strategy (the published analysis's best play)",
        mulligan_published,
    ),
    Strategy.HOUSE_WAY: _pure(
        "like the dealer: keep king-high or better, take a mulligan on queen-high or worse",
        mulligan_like_dealer,
    ),
    Strategy.PUBLISHED: _pure(
        "keep king-ten or better (K-T-2 kept, K-9-8 swapped), else take a mulligan",
        mulligan_published,
    ),
    Strategy.TYPICAL: _typical(
        "four hands in five by the published keep-king-ten strategy, one in five like the "
        "dealer (keep any king-high)",
        mulligan_published,
        mulligan_like_dealer,
    ),
}


# --- Lowball: the cards the player throws away ---------------------------------------------


def discard_simple(cards: Sequence[Card]) -> tuple[Card, ...]:
    """One card of a pair and every card ten or higher, highest first, at most two."""
    ranks = [c.low_rank for c in cards]
    wanted: list[Card] = []
    for card in sorted(cards, key=lambda c: c.low_rank, reverse=True):
        paired = ranks.count(card.low_rank) > 1 and not any(
            w.low_rank == card.low_rank for w in wanted
        )
        if card.low_rank >= _TEN or paired:
            wanted.append(card)
    return tuple(wanted[:2])


def discard_house_way(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The dealer's house way applied to the player's hand (the system's proposal)."""
    return lowball.dealer_house_way(cards).proposal


LOWBALL: Final[dict[Strategy, Mix[tuple[Card, ...]]]] = {
    Strategy.OPTIMAL: _pure(
        "no optimal draw is computed for Lowball: the dealer's house way, the better of the "
        "two draws the engine knows (docs/benchmarks.md)",
        discard_house_way,
    ),
    Strategy.HOUSE_WAY: _pure("draw by the dealer's house way", discard_house_way),
    Strategy.PUBLISHED: _pure(
        "no player strategy is published for Lowball: the dealer's house way, the only "
        "published way to draw",
        discard_house_way,
    ),
    Strategy.TYPICAL: _typical(
        "four hands in five by the dealer's house way, one in five by the simple draw (one "
        "card of a pair and every card ten or higher: it keeps straights and flushes)",
        discard_house_way,
        discard_simple,
    ),
}


# --- Pyramid: the card that goes alone -----------------------------------------------------


def alone_player_strategy(cards: Sequence[Card]) -> Card:
    """The rules' player strategy (what "set it for me" does)."""
    return pyramid.player_setting(cards).one_card


def alone_like_dealer(cards: Sequence[Card]) -> Card:
    """The dealer's house way applied to the player's hand."""
    return pyramid.dealer_setting(cards).one_card


def alone_optimal(cards: Sequence[Card]) -> Card:
    """The setting with the highest expected value at even money (see `edge_pyramid`)."""
    from .edge_pyramid import optimal_one_card

    return optimal_one_card(cards)


PYRAMID: Final[dict[Strategy, Mix[Card]]] = {
    Strategy.OPTIMAL: _pure(
        "the setting with the highest expected value against the dealer's house way",
        alone_optimal,
    ),
    Strategy.HOUSE_WAY: _pure(
        "the rules' player strategy, as the dealer sets a hand on request (ruling 1)",
        alone_player_strategy,
    ),
    Strategy.PUBLISHED: _pure("the rules' player strategy", alone_player_strategy),
    Strategy.TYPICAL: _typical(
        "four hands in five by the rules' player strategy, one in five copying the dealer's "
        "house way",
        alone_player_strategy,
        alone_like_dealer,
    ),
}

HOUSE_GAMES: Final[
    dict[
        str,
        dict[Strategy, Mix[bool]]
        | dict[Strategy, Mix[tuple[Card, ...]]]
        | dict[Strategy, Mix[Card]],
    ]
] = {
    "second_chance": SECOND_CHANCE,
    "lowball": LOWBALL,
    "pyramid": PYRAMID,
}


def describe(game: str, strategy: Strategy) -> str:
    """What `strategy` means in `game`."""
    if game in HOUSE_GAMES:
        return HOUSE_GAMES[game][strategy].description
    raise KeyError(game)
