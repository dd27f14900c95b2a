"""Mulligan's rules as the engine's drivers ask for them (`tables.engine.registry`): its half of
the `replay` contract, and its rake simulated with the `typical` strategy:
`game.random_action` (rare folds, occasional skips, random auctions, offers and
swaps), played for chips on `game.apply`.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Final

from tables.engine.edge_rake import RakeFigures, RakeRun, rake_figures
from tables.engine.registry import PlayerGameRules, PlayerRules

from . import game as mg
from .replay import replay_mulligan

NAME: Final = "mulligan"
DEFAULT_SAMPLES: Final = 1_000  # games
SIMULATED_CHIPS: Final = 20  # each player's chips in the simulation

DESCRIPTION: Final = (
    "random legal play (`mulligan.game.random_action`): rare folds, occasional skips, random "
    "auctions, offers and swaps"
)


def mulligan(
    games: int,
    rng: random.Random,
    *,
    players: int = 2,
    rake: mg.Rake,
    chips: int = SIMULATED_CHIPS,
    max_actions: int = 5000,
    unit: int = 1,
) -> RakeFigures:
    """Play `games` games for chips on the engine; the rake and pot of each (`unit`: money per
    chip of the stacks and the table minimum)."""
    rakes: list[int] = []
    pots: list[int] = []
    for _ in range(games):
        setup = mg.shuffled_setup(
            rng,
            players,
            variants=(mg.Variant.CHIPS,),
            chips=(chips * unit,) * players,
            table_minimum=unit,
            rake=rake,
        )
        game = mg.new_game(setup)
        for _step in range(max_actions):
            if game.is_over:
                break
            game = mg.apply(game, mg.random_action(game, rng))
        else:
            raise RuntimeError(f"a Mulligan game did not end in {max_actions} actions")
        result = mg.result(game)
        rakes.append(result.rake)
        pots.append(result.pot)
    return rake_figures(rakes, pots)


def rake_edge(
    samples: int,
    rng: random.Random,
    *,
    players: int,
    rake_percent: Decimal,
    rake_cap: int | None,
    unit: int = 1,
) -> RakeRun:
    """The rake over `samples` games for chips (20 each, a table minimum of 1, each chip worth
    `unit`)."""
    figures = mulligan(
        samples, rng, players=players, rake=mg.Rake(rake_percent, rake_cap), unit=unit
    )
    return RakeRun(figures, DESCRIPTION, "game", {"chips": 20, "table_minimum": 1})


RULES: Final[PlayerRules] = PlayerGameRules(
    name=NAME,
    default_samples=DEFAULT_SAMPLES,
    replay=replay_mulligan,
    rake_edge=rake_edge,
)
