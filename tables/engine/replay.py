"""The `replay` contract (`shared/contract/replay.md`): a player-vs-player hand's record as JSON
in, how it ended as JSON out, for `manage.py replay`.

`GAMES` maps each game's name to the function that replays one hand of it (a parsed JSON object
in, the output object out, `EngineError` when refused; `ActionRefused` carries the index of the
refused action). `replay_hand(data)` dispatches one parsed hand; `replay_line(text)` does the
same for one line of JSON Lines and never raises.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from .errors import EngineError, Refusal
from .rhode_island_replay import replay_rhode_island

JSON = dict[str, Any]
ReplayFunction = Callable[[Mapping[str, Any]], JSON]

GAMES: dict[str, ReplayFunction] = {
    "rhode_island": replay_rhode_island,
}


def replay_hand(data: object) -> JSON:
    """Replay one hand (a parsed JSON object); raises `EngineError` when it is refused."""
    if not isinstance(data, Mapping):
        raise EngineError(Refusal.BAD_JSON, "a hand must be a JSON object")
    game = data.get("game")
    replay = GAMES.get(game) if isinstance(game, str) else None
    if replay is None:
        known = ", ".join(sorted(GAMES))
        raise EngineError(
            Refusal.UNKNOWN_GAME,
            f"game {game!r} cannot be replayed: the games are {known}",
            field="game",
        )
    return replay(data)


def replay_line(text: str) -> tuple[JSON, bool]:
    """Replay one JSON Lines line: (output object, whether it was refused).

    Numbers with a fraction are read as exact decimals (a rake percent of 7.5), never floats.
    """
    try:
        data = json.loads(text, parse_float=Decimal)
    except (ValueError, RecursionError):
        return EngineError(Refusal.BAD_JSON, "the line is not valid JSON").as_dict(), True
    try:
        return replay_hand(data), False
    except EngineError as err:
        return err.as_dict(), True
