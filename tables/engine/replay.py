"""The `replay` contract (`docs/contracts/replay.md`): a player-vs-player hand's record as JSON
in, how it ended as JSON out, for `manage.py replay`.

Each game between players replays its own records (its rules' `replay`,
`tables.engine.registry`; `GAMES` maps each one's name to that function): a parsed JSON object
in, the output object out; a refused record gives `{"error": {"code", "message",
"action"?}}` (the function never raises for a bad record). `replay_hand(data)` dispatches one
parsed record; `replay_line(text)` does the same for one line of JSON Lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from . import registry
from .errors import EngineError, Refusal

JSON = dict[str, Any]
ReplayFunction = Callable[[dict[str, Any]], JSON]

if TYPE_CHECKING:
    GAMES: dict[str, ReplayFunction]  # each game between players: its replay


def __getattr__(name: str) -> Any:
    """`GAMES`, from the registered games (read when asked for)."""
    if name == "GAMES":
        games: dict[str, ReplayFunction] = {}
        for game in registry.player_names():
            rules = registry.players(game)
            assert rules is not None
            games[game] = rules.replay
        return games
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def replay_hand(data: object) -> JSON:
    """Replay one record (a parsed JSON object): its result, or `{"error": ...}`."""
    if not isinstance(data, dict):
        return EngineError(Refusal.BAD_JSON, "a hand must be a JSON object").as_dict()
    game = data.get("game")
    rules = registry.players(game)
    if rules is None:
        known = ", ".join(sorted(registry.player_names()))
        return EngineError(
            Refusal.UNKNOWN_GAME, f"game {game!r} cannot be replayed: the games are {known}"
        ).as_dict()
    return rules.replay(data)


def replay_line(text: str) -> tuple[JSON, bool]:
    """Replay one JSON Lines line: (output object, whether it was refused).

    Numbers with a fraction are read as exact decimals (a rake percent of 7.5), never floats.
    """
    try:
        data = json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError):
        return EngineError(Refusal.BAD_JSON, "the line is not valid JSON").as_dict(), True
    out = replay_hand(data)
    return out, "error" in out
