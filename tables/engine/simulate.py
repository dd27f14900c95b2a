"""Random legal rounds in the `settle` contract's input form (`docs/contracts/settle.md`).

Used by property tests, the settle benchmark and the `simulate_rounds` command. Every round is
dealt from one shuffled 52-card deck (no card twice), and every decision the contract checks
follows the rules: the dealer draws exactly when the house way does, wagers match where they
must, no hand fouls (each game deals its own rounds: its rules' `deal`,
`tables.engine.registry`). Player decisions follow the published strategies with some
randomness, or, given a named strategy (`strategies.Strategy`), that strategy exactly, so a
simulated history holds what the house-edge analysis assumes. The same `random.Random` state
always gives the same rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from . import registry, strategies
from .cards import Shoe
from .strategies import Strategy

MAX_SEATS: Final = 7

# Stakes as the contract writes them: decimal strings with two places. Odd amounts exercise
# rounding down to the cent (breakage).
WAGERS: Final = ("5.00", "10.00", "25.00", "0.05", "3.33", "100.00", "0.01", "7.50", "12.35")

if TYPE_CHECKING:
    GAMES: tuple[str, ...]  # the house-banked games, in the order they were installed
    PAYTABLES: dict[str, tuple[str, ...]]  # each game's named paytables


def __getattr__(name: str) -> Any:
    """`GAMES` and `PAYTABLES`, from the registered games (read when asked for)."""
    if name == "GAMES":
        return registry.banked_names()
    if name == "PAYTABLES":
        return {g: registry.banked_rules(g).paytables for g in registry.banked_names()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _seat_numbers(rng: random.Random, seats: int | None) -> list[int]:
    """A random non-empty subset of seats 1..7 (exactly `seats` of them when given)."""
    if seats is None:
        count = rng.randint(1, MAX_SEATS)
    elif 1 <= seats <= MAX_SEATS:
        count = seats
    else:
        raise ValueError(f"seats must be from 1 to {MAX_SEATS}, not {seats}")
    return sorted(rng.sample(range(1, MAX_SEATS + 1), count))


def _paytable(rng: random.Random, named: tuple[str, ...], paytable: str | None) -> str | None:
    """The given paytable; else a random named one, or None (omitted: the default)."""
    if paytable is not None:
        return paytable
    return None if rng.random() < 0.3 else rng.choice(named)


def random_wager(rng: random.Random) -> str:
    """One of the stakes above, at random."""
    return rng.choice(WAGERS)


def random_round(
    rng: random.Random,
    game: str,
    *,
    seats: int | None = None,
    paytable: str | None = None,
    strategy: Strategy | str | None = None,
) -> dict[str, Any]:
    """One random legal round of `game` as the contract's JSON-ready input object.

    `seats` forces that many occupied seats (1-7, which ones is random); `paytable` is written
    as given, otherwise a random named paytable or none (the default). `strategy` names the
    players' strategy (`strategies.Strategy`); None keeps the mix above.
    """
    chosen_strategy = None if strategy is None else strategies.parse_strategy(strategy)
    rules = registry.banked(game)
    if rules is None:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(registry.banked_names())}")
    seat_numbers = _seat_numbers(rng, seats)
    chosen = _paytable(rng, rules.paytables, paytable)
    body = rules.deal(rng, seat_numbers, Shoe(rng), chosen_strategy)
    round_: dict[str, Any] = {"game": game}
    if chosen is not None:
        round_["paytable"] = chosen
    round_.update(body)
    return round_


def random_rounds(
    seed: int,
    count: int,
    games: Sequence[str] | None = None,
    *,
    seats: int | None = None,
) -> list[dict[str, Any]]:
    """`count` random legal rounds from one seed, cycling through `games` in order (default:
    every house-banked game, as installed; `seats` as in `random_round`)."""
    if games is None:
        games = registry.banked_names()
    if not games:
        raise ValueError("games must name at least one game")
    rng = random.Random(seed)
    return [random_round(rng, games[i % len(games)], seats=seats) for i in range(count)]
