"""Theoretical hold: each wager's house edge and spread under a paytable and a named strategy.

`house_edge(game, ...)` returns an `EdgeReport` (`as_data()` is its JSON form, the
`house_edge` command's output); `edge_for_lines(game, tables, ...)` takes a paytable version's
lines in `make_paytable` form and returns the same plain data, for the floor.

Per wager: the house edge (the player's expected loss) per unit of the initial wager and per
unit of the total wagered, the standard deviation of one round's net per unit of the initial
wager, the method, the strategy and, for an exact figure, the count of every outcome.

Each game computes its own wagers (its rules' `edges`, a game between players its
`rake_edge`: `tables.engine.registry`), exactly where it can, else by Monte Carlo or by
simulation on the engines. Every exact wager can also be sampled (`samples=`), so the two can
be checked against each other. The analysis is heads-up: one seat against the dealer, one deck.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from . import edge_rake, registry, strategies
from .edge_report import EdgeReport, Method, RakeEdge
from .errors import EngineError, Refusal
from .paytable_types import Paytable
from .paytables import make_paytable, named
from .progressive import MeterConfig
from .strategies import Strategy

if TYPE_CHECKING:
    HOUSE_GAMES: tuple[str, ...]  # the house-banked games, as installed
    RAKE_GAMES: tuple[str, ...]  # the games between players, as installed
    GAMES: tuple[str, ...]  # both
    DEFAULT_SAMPLES: dict[str, int]  # each game's default count of samples


def __getattr__(name: str) -> Any:
    """The games' names and default sample counts, from the registered games."""
    if name == "HOUSE_GAMES":
        return registry.banked_names()
    if name == "RAKE_GAMES":
        return registry.player_names()
    if name == "GAMES":
        return registry.banked_names() + registry.player_names()
    if name == "DEFAULT_SAMPLES":
        samples = {g: registry.banked_rules(g).default_samples for g in registry.banked_names()}
        for game in registry.player_names():
            rules = registry.players(game)
            assert rules is not None
            samples[game] = rules.default_samples
        return samples
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def refuse(message: str, field_name: str) -> EngineError:
    """The analysis's refusal of a setting, naming it."""
    return EngineError(Refusal.BAD_SETUP, message, field=field_name)


def _game(game: str) -> str:
    if registry.banked(game) is None and registry.players(game) is None:
        known = registry.banked_names() + registry.player_names()
        raise refuse(f"there is no game {game!r}: one of {', '.join(known)}", "game")
    return game


def paytable_for(game: str, name: str | None) -> Paytable | None:
    """The named paytable of a house game (its default when None); refuses an unknown one,
    and any paytable for a game between players."""
    _game(game)
    if registry.players(game) is not None:
        if name is not None:
            raise refuse(
                f"{game} has no paytable: the players play each other and the house takes a "
                "rake (set it with the rake options)",
                "paytable",
            )
        return None
    return named(game, registry.banked_rules(game).default_paytable if name is None else name)


# --- the house games -------------------------------------------------------------------------

_HEADS_UP: Final = "heads-up: one seat against the dealer, dealt from one 52-card deck"


def default_meter() -> MeterConfig:
    return MeterConfig()


def money_text(cents: int) -> str:
    """Cents as the report writes them ("1000.00")."""
    return f"{cents // 100}.{cents % 100:02d}"


def house_edge(
    game: str,
    *,
    paytable: Paytable | str | None = None,
    strategy: Strategy | str | None = None,
    exact: bool = False,
    samples: int | None = None,
    seed: int | None = None,
    meter: MeterConfig | None = None,
    rake_percent: Decimal = edge_rake.DEFAULT_RAKE_PERCENT,
    rake_cap: int | None = None,
    players: int = 2,
    monte_carlo_samples: int | None = None,
) -> EdgeReport:
    """Every wager of `game` under `paytable` (a name, a built one, or the default) with the
    player playing `strategy` (default: `optimal` in a house game, `typical` in a game between
    players, the only one those have). `exact` refuses a figure that cannot be exact; `samples`
    samples every wager (also the exact ones: to check them); `monte_carlo_samples` is the
    count of a wager that cannot be exact when `samples` is not given. Refuses (EngineError) an
    unknown game, paytable or strategy, naming it."""
    _game(game)
    player_rules = registry.players(game)
    if strategy is None:
        strategy = Strategy.TYPICAL if player_rules is not None else Strategy.OPTIMAL
    chosen = strategies.parse_strategy(strategy)
    if exact and samples is not None:
        raise refuse("give either exact or samples, not both", "samples")
    if monte_carlo_samples is not None and monte_carlo_samples < 1:
        raise refuse(f"samples must be at least 1, not {monte_carlo_samples}", "samples")
    if samples is not None and samples < 1:
        raise refuse(f"samples must be at least 1, not {samples}", "samples")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    if player_rules is not None:
        if isinstance(paytable, Paytable) or paytable is not None:
            paytable_for(game, "given")
        return _rake_report(
            player_rules, chosen, exact, samples, seed, rng, rake_percent, rake_cap, players
        )
    rules = registry.banked_rules(game)
    table = paytable if isinstance(paytable, Paytable) else paytable_for(game, paytable)
    assert table is not None
    if table.game != game:
        raise refuse(
            f"paytable {table.name!r} is a {table.game} paytable, not {game}'s", "paytable"
        )
    settings: dict[str, Any] = {}
    wagers = rules.edges(
        table,
        chosen,
        exact=exact,
        samples=samples,
        rng=rng,
        meter=meter,
        default_samples=monte_carlo_samples,
        settings=settings,
    )
    uses_rng = any(w.method is not Method.EXACT for w in wagers)
    return EdgeReport(
        game=game,
        paytable=table.name,
        strategy=chosen,
        strategy_description=rules.describe(chosen),
        wagers=wagers,
        assumptions=(_HEADS_UP,),
        omitted=rules.not_exact if exact else {},
        seed=seed if uses_rng else None,
        settings=settings,
    )


def _rake_report(
    rules: registry.PlayerRules,
    strategy: Strategy,
    exact: bool,
    samples: int | None,
    seed: int,
    rng: random.Random,
    rake_percent: Decimal,
    rake_cap: int | None,
    players: int,
) -> EdgeReport:
    game = rules.name
    if strategy is not Strategy.TYPICAL:
        raise refuse(
            f"{game} is played between players: its rake is simulated with the 'typical' "
            f"strategy only, not {strategy.value!r}",
            "strategy",
        )
    if exact:
        raise refuse(
            f"{game}'s rake depends on how the players bet: it is simulated (give --samples "
            "N or nothing), not exact",
            "exact",
        )
    n = samples or rules.default_samples
    run = rules.rake_edge(n, rng, players=players, rake_percent=rake_percent, rake_cap=rake_cap)
    terms: dict[str, Any] = {
        "rake_percent": str(rake_percent),
        "rake_cap": rake_cap,
        "players": players,
    }
    terms.update(run.terms)
    return EdgeReport(
        game=game,
        paytable=None,
        strategy=strategy,
        strategy_description=run.description,
        wagers=(RakeEdge("rake", run.figures, terms),),
        assumptions=(f"the rake per {run.unit} in chips is the house's whole take",),
        seed=seed,
    )


def edge_for_lines(
    game: str,
    tables: Mapping[str, Mapping[str, object]],
    *,
    name: str = "version",
    strategies_wanted: Sequence[Strategy | str] = (Strategy.OPTIMAL,),
    samples: int | None = None,
    seed: int | None = None,
    meter: MeterConfig | None = None,
    monte_carlo_samples: int | None = None,
) -> list[dict[str, Any]]:
    """The figures of a paytable given as its lines (`make_paytable` form, e.g. an approved
    paytable version's), one report per strategy, as plain JSON-ready data: exact where they
    can be, else by Monte Carlo over `monte_carlo_samples` (default: the engine's count), or
    every wager sampled with `samples`."""
    _game(game)
    if registry.banked(game) is None:
        raise refuse(f"{game} has no paytable", "game")
    table = make_paytable(game, name, tables)
    return [
        house_edge(
            game,
            paytable=table,
            strategy=s,
            samples=samples,
            seed=seed,
            meter=meter,
            monte_carlo_samples=monte_carlo_samples,
        ).as_data()
        for s in strategies_wanted
    ]


__all__ = [
    "GAMES",
    "edge_for_lines",
    "house_edge",
    "paytable_for",
]
