"""The game registry: one package per game, registered once (as healthchecks maps each
integration's kind to its transport in one `TRANSPORTS`).

    tables/games/<game>/__init__.py   the game's class: label, wagers and their order, limits,
                                       parsing, tablet steps, advice, display, report wagers,
                                       simulation strategy, demo table
    tables/games/<game>/game.py       its rules, pure Python (the house way and settlement, or
                                       a hand's state machine), with its `paytables.py`,
                                       `edge.py` (house edge) and `replay.py` beside it
    tables/games/<game>/rules.py      its rules as the engine's drivers ask for them (`RULES`:
                                       the registry's generic `BankedGameRules` or
                                       `PlayerGameRules` filled with its functions), registered
                                       with `tables.engine.registry`
    tables/games/<game>/templates/     its templates (`games/<game>.html`: its decision forms
                                       on the tablet), and static/ its stylesheets

The rest of the site asks `get(name)` (or `get(table.game)`) and the game's hooks (decision
fields, labels, hands, used cards, required wagers, step fields, pages: `base.py`), and never
compares a game's name: a name nobody registered raises `UnknownGame` rather than being played
as another game. `GAMES` is the one mapping from name to game; `choices()` gives the model
fields' choices. `INSTALLED` lists the installed games in one place: importing this package
registers each one's class here and its rules with the engine (`install`; the engine's registry
imports this package on its first lookup, so every entry point finds them). Adding a game: its
package, its name in `INSTALLED`, and a migration for the database's list of games (see
docs/architecture.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Final

from tables import display as show
from tables.engine import registry as engine_registry

from .base import (
    CARDS,
    CHOICE,
    FLAG,
    MONEY,
    BankedGame,
    Decision,
    DecisionField,
    DemoMeter,
    DemoTable,
    GameDefinition,
    HandOutcome,
    HandStep,
    PlayerVsPlayerGame,
    ProgressiveAward,
    StepField,
    UnknownGame,
    entry_value,
)

GAMES: dict[str, GameDefinition] = {}


def register(game: GameDefinition) -> GameDefinition:
    """Add a game under its name (once: a second game of the same name is refused)."""
    if game.name in GAMES:
        raise ValueError(f"a game {game.name!r} is already registered")
    check_awards(game)
    GAMES[game.name] = game
    return game


def check_awards(game: GameDefinition) -> None:
    """A game that takes a progressive declares its awards: the jackpot once, each key once."""
    awards = game.progressive_awards
    keys = [a.key for a in awards]
    if game.takes_progressive and sum(a.is_jackpot for a in awards) != 1:
        raise ValueError(f"{game.name} takes a progressive: it declares its awards, one jackpot")
    if not game.takes_progressive and awards:
        raise ValueError(f"{game.name} declares progressive awards but takes no progressive")
    if len(set(keys)) != len(keys):
        raise ValueError(f"{game.name} declares a progressive award twice")


def check_meter_awards(game: GameDefinition, awards: object) -> dict[str, int]:
    """A meter's `awards` for a meter of `game`: exactly its fixed awards, each a whole number
    of cents, at least 0 (refused: ValueError naming the award in the game's words)."""
    if not isinstance(awards, dict):
        raise ValueError("the awards must be a JSON object of each award's amount in cents")
    fixed = game.fixed_awards()
    known = {a.key for a in fixed}
    for key in awards:
        if key not in known:
            said = ", ".join(a.label for a in fixed) or "none"
            raise ValueError(
                f"{game.label}'s progressive has no award {key!r} (its awards: {said})"
            )
    out = {}
    for a in fixed:
        if a.key not in awards:
            raise ValueError(f"the award {a.label} is not set")
        cents = awards[a.key]
        if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
            raise ValueError(f"the award {a.label} must be a whole number of cents, at least 0")
        out[a.key] = cents
    return out


def unregister(name: str) -> None:
    """Remove a game (tests that register a throw-away game take it away again)."""
    GAMES.pop(name, None)


def install(game: GameDefinition, rules: engine_registry.RuleSet) -> GameDefinition:
    """Register a game and its engine rules (a `BankedRules` for a banked game, else a
    `PlayerRules`): what `INSTALLED` does for each game it lists, and a test for a game of its
    own."""
    register(game)
    try:
        if isinstance(game, BankedGame):
            engine_registry.register_banked(rules)  # type: ignore[arg-type]
        else:
            engine_registry.register_players(rules)  # type: ignore[arg-type]
    except BaseException:
        unregister(game.name)
        raise
    return game


def uninstall(name: str) -> None:
    """Remove a game and its engine rules (a test takes its own game away again)."""
    unregister(name)
    engine_registry.unregister(name)


def get(name: object) -> GameDefinition:
    """The game registered under `name`; UnknownGame for any other name."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGame(name)
    return game


def banked(name: object) -> BankedGame:
    """The house-banked game registered under `name` (UnknownGame otherwise)."""
    game = get(name)
    if not isinstance(game, BankedGame):
        raise UnknownGame(name)
    return game


def player_vs_player(name: object) -> PlayerVsPlayerGame:
    """The player-vs-player game registered under `name` (UnknownGame otherwise)."""
    game = get(name)
    if not isinstance(game, PlayerVsPlayerGame):
        raise UnknownGame(name)
    return game


def all_games() -> Iterator[GameDefinition]:
    return iter(list(GAMES.values()))


def names() -> list[str]:
    return list(GAMES)


def choices() -> list[tuple[str, str]]:
    """The model fields' choices (a callable, so a registered game is offered at once)."""
    return [(g.name, g.label) for g in GAMES.values()]


def progressive_choices() -> list[tuple[str, str]]:
    """The games a progressive meter may serve (those that `takes_progressive`)."""
    return [(g.name, g.label) for g in GAMES.values() if g.takes_progressive]


def report_wagers() -> list[str]:
    """Every game's report wagers, in the games' own order (the hold report's columns)."""
    order: list[str] = []
    for game in GAMES.values():
        wagers: tuple[str, ...] = game.report_wagers if isinstance(game, BankedGame) else ()
        for wager in wagers:
            if wager not in order:
                order.append(wager)
    return order


def wager_label(wager: str) -> str:
    """A wager in the words of the first game that names it (the hold report's columns, which
    gather every game's wagers), else its key in words."""
    for game in GAMES.values():
        labels = game.wager_labels if isinstance(game, BankedGame) else {}
        if wager in labels:
            return labels[wager]
    return show.wager_label(wager)


def api_help(attribute: str) -> str:
    """Every banked game's words for one API field ("2nd Chance: ...; Lowball: ..."), for the
    API's schema."""
    return " ".join(
        f"{g.label}: {getattr(g, attribute)}"
        for g in GAMES.values()
        if isinstance(g, BankedGame) and getattr(g, attribute, None)
    )


# The installed games, in the floor's order: each a package here with its class
# (`DEFINITION`) and its engine rules (`rules.RULES`).
INSTALLED: Final = ("second_chance", "lowball", "pyramid", "rhode_island", "mulligan")


def _register_builtin() -> None:
    for name in INSTALLED:
        package = importlib.import_module(f"{__name__}.{name}")
        rules = importlib.import_module(f"{__name__}.{name}.rules").RULES
        install(package.DEFINITION, rules)


_register_builtin()

__all__ = [
    "CARDS",
    "CHOICE",
    "FLAG",
    "GAMES",
    "INSTALLED",
    "MONEY",
    "BankedGame",
    "Decision",
    "DecisionField",
    "DemoMeter",
    "DemoTable",
    "GameDefinition",
    "HandOutcome",
    "HandStep",
    "PlayerVsPlayerGame",
    "ProgressiveAward",
    "StepField",
    "UnknownGame",
    "all_games",
    "api_help",
    "banked",
    "check_awards",
    "check_meter_awards",
    "choices",
    "entry_value",
    "get",
    "install",
    "names",
    "player_vs_player",
    "progressive_choices",
    "register",
    "report_wagers",
    "uninstall",
    "unregister",
    "wager_label",
]
