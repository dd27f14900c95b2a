"""The game registry: one package per game, registered once (as healthchecks maps each
integration's kind to its transport in one `TRANSPORTS`).

    tables/games/<game>/__init__.py   the game's class: label, wagers and their order, limits,
                                       parsing, tablet steps, advice, display, report wagers,
                                       simulation strategy, demo table
    templates/games/<game>.html        its decision forms on the tablet

The rest of the site asks `get(name)` (or `get(table.game)`) and never compares a game's
name: a name nobody registered raises `UnknownGame` rather than being played as another game.
`GAMES` is the one mapping from name to game; `choices()` gives the model fields' choices.
Adding a game: its package, one `register` line below, and a migration for the database's
list of games (see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from .base import (
    BankedGame,
    Decision,
    DemoTable,
    GameDefinition,
    HandOutcome,
    PlayerVsPlayerGame,
    UnknownGame,
)

GAMES: dict[str, GameDefinition] = {}


def register(game: GameDefinition) -> GameDefinition:
    """Add a game under its name (once: a second game of the same name is refused)."""
    if game.name in GAMES:
        raise ValueError(f"a game {game.name!r} is already registered")
    GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game (tests that register a throw-away game take it away again)."""
    GAMES.pop(name, None)


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


def report_wagers() -> list[str]:
    """Every game's report wagers, in the games' own order (the hold report's columns)."""
    order: list[str] = []
    for game in GAMES.values():
        wagers: tuple[str, ...] = game.report_wagers if isinstance(game, BankedGame) else ()
        for wager in wagers:
            if wager not in order:
                order.append(wager)
    return order


def api_help(attribute: str) -> str:
    """Every banked game's words for one API field ("2nd Chance: ...; Lowball: ..."), for the
    API's schema."""
    return " ".join(
        f"{g.label}: {getattr(g, attribute)}"
        for g in GAMES.values()
        if isinstance(g, BankedGame) and getattr(g, attribute, None)
    )


def _register_builtin() -> None:
    from .lowball import Lowball
    from .pyramid import Pyramid
    from .rhode_island import RhodeIsland
    from .second_chance import SecondChance

    for game in (SecondChance(), Lowball(), Pyramid(), RhodeIsland()):
        register(game)


_register_builtin()

__all__ = [
    "GAMES",
    "BankedGame",
    "Decision",
    "DemoTable",
    "GameDefinition",
    "HandOutcome",
    "PlayerVsPlayerGame",
    "UnknownGame",
    "all_games",
    "api_help",
    "banked",
    "choices",
    "get",
    "names",
    "player_vs_player",
    "register",
    "report_wagers",
    "unregister",
]
