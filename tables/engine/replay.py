"""The `replay` contract (`docs/contracts/replay.md`): a player-vs-player hand's record as JSON
in, how it ended as JSON out, for `manage.py replay`.

`GAMES` maps each game's name to the function that replays one record of it: a parsed JSON
object in, the output object out; a refused record gives `{"error": {"code", "message",
"action"?}}` (the function never raises for a bad record). `replay_hand(data)` dispatches one
parsed record; `replay_line(text)` does the same for one line of JSON Lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from .errors import EngineError, Refusal
from .mulligan_replay import replay_mulligan
from .rhode_island_replay import replay_rhode_island

JSON = dict[str, Any]
ReplayFunction = Callable[[dict[str, Any]], JSON]

GAMES: dict[str, ReplayFunction] = {
    "rhode_island": replay_rhode_island,
    "mulligan": replay_mulligan,
}


def replay_hand(data: object) -> JSON:
    """Replay one record (a parsed JSON object): its result, or `{"error": ...}`."""
    if not isinstance(data, dict):
        return EngineError(Refusal.BAD_JSON, "a hand must be a JSON object").as_dict()
    game = data.get("game")
    replay = GAMES.get(game) if isinstance(game, str) else None
    if replay is None:
        known = ", ".join(sorted(GAMES))
        return EngineError(
            Refusal.UNKNOWN_GAME, f"game {game!r} cannot be replayed: the games are {known}"
        ).as_dict()
    return replay(data)


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
