"""Paytables are data: for each wager a table of lines (hand name -> exact odds, N to 1).

Named paytables ship with the engine (the defaults of `docs/rules/`); an admin's paytable
version is the same structure, built with `make_paytable` (validated) or `override`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from .errors import EngineError, Refusal
from .money import parse_odds


class Game(StrEnum):
    SECOND_CHANCE = "second_chance"
    LOWBALL = "lowball"
    PYRAMID = "pyramid"


F = Fraction

# Every line each game's tables must have, in display order.
REQUIRED_LINES: Final[Mapping[Game, Mapping[str, tuple[str, ...]]]] = {
    Game.SECOND_CHANCE: {
        "ante": ("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"),
        "pair_plus": ("straight_flush", "three_of_a_kind", "straight", "flush", "pair"),
    },
    Game.LOWBALL: {
        "bonus": (
            "a24_one_colour",
            "a24_two_colour",
            "a34",
            "five_high",
            "six_high",
            "seven_high",
        ),
    },
    Game.PYRAMID: {"ante": ("win",)},
}

# Lines whose odds may not be below even money ("every win pays at least even money").
_MIN_EVEN_MONEY: Final = {(Game.SECOND_CHANCE, "ante")}


@dataclass(frozen=True, slots=True)
class Paytable:
    """One game's paytable: `tables[wager][line]` is the odds (N to 1) as a Fraction."""

    game: Game
    name: str
    tables: Mapping[str, Mapping[str, Fraction]]

    def odds(self, wager: str, line: str) -> Fraction | None:
        """The odds of a line, or None when the hand is not on the table (push or lose)."""
        return self.tables[wager].get(line)

    def as_data(self) -> dict[str, dict[str, str]]:
        """JSON-ready form: odds as `"3/2"` strings (exact)."""
        return {w: {k: str(v) for k, v in t.items()} for w, t in self.tables.items()}


def make_paytable(game: Game, name: str, tables: Mapping[str, Mapping[str, object]]) -> Paytable:
    """Build and validate a paytable: every required line present, odds positive, no extras."""
    required = REQUIRED_LINES[game]
    built: dict[str, Mapping[str, Fraction]] = {}
    for wager, lines in required.items():
        given = tables.get(wager)
        if not isinstance(given, Mapping):
            raise EngineError(
                Refusal.BAD_PAYTABLE, f"paytable {name!r} has no {wager} table", field=wager
            )
        unknown = set(given) - set(lines)
        if unknown:
            raise EngineError(
                Refusal.BAD_PAYTABLE,
                f"paytable {name!r}: {wager} has no line {sorted(unknown)[0]!r}",
                field=f"{wager}.{sorted(unknown)[0]}",
            )
        table: dict[str, Fraction] = {}
        for line in lines:
            if line not in given:
                raise EngineError(
                    Refusal.BAD_PAYTABLE,
                    f"paytable {name!r}: {wager} line {line!r} is missing",
                    field=f"{wager}.{line}",
                )
            odds = parse_odds(given[line], where=f"{wager} line {line}")
            if (game, wager) in _MIN_EVEN_MONEY and odds < 1:
                raise EngineError(
                    Refusal.BAD_PAYTABLE,
                    f"{wager} line {line} must pay at least 1 to 1 (every win pays even money)",
                    field=f"{wager}.{line}",
                )
            table[line] = odds
        built[wager] = MappingProxyType(table)
    extra = set(tables) - set(required)
    if extra:
        raise EngineError(
            Refusal.BAD_PAYTABLE, f"paytable {name!r}: {game} has no wager {sorted(extra)[0]!r}"
        )
    return Paytable(game, name, MappingProxyType(built))


def _lowball(one_colour: int, two_colour: int, a34: int) -> dict[str, dict[str, object]]:
    return {
        "bonus": {
            "a24_one_colour": one_colour,
            "a24_two_colour": two_colour,
            "a34": a34,
            "five_high": 3,
            "six_high": 2,
            "seven_high": 1,
        }
    }


NAMED: Final[Mapping[Game, Mapping[str, Paytable]]] = {
    Game.SECOND_CHANCE: {
        "default": make_paytable(
            Game.SECOND_CHANCE,
            "default",
            {
                "ante": {
                    "straight_flush": 6,
                    "three_of_a_kind": 4,
                    "straight": "3/2",
                    "flush": 1,
                    "pair": 1,
                    "high_card": 1,
                },
                "pair_plus": {
                    "straight_flush": 40,
                    "three_of_a_kind": 30,
                    "straight": 6,
                    "flush": 3,
                    "pair": 1,
                },
            },
        )
    },
    Game.LOWBALL: {
        "1": make_paytable(Game.LOWBALL, "1", _lowball(10, 6, 5)),
        "2": make_paytable(Game.LOWBALL, "2", _lowball(12, 8, 4)),
        "3": make_paytable(Game.LOWBALL, "3", _lowball(10, 6, 4)),
    },
    Game.PYRAMID: {"default": make_paytable(Game.PYRAMID, "default", {"ante": {"win": 1}})},
}

DEFAULT_NAME: Final = {Game.SECOND_CHANCE: "default", Game.LOWBALL: "1", Game.PYRAMID: "default"}


def named(game: Game, name: object) -> Paytable:
    """A named paytable of the game; refuses an unknown name."""
    key = str(name) if isinstance(name, str | int) and not isinstance(name, bool) else None
    table = NAMED[game].get(key) if key is not None else None
    if table is None:
        known = ", ".join(repr(n) for n in NAMED[game])
        raise EngineError(
            Refusal.BAD_PAYTABLE,
            f"{game} has no paytable {name!r} (known: {known})",
            field="paytable",
        )
    return table


def override(base: Paytable, lines: Mapping[str, object]) -> Paytable:
    """A copy of `base` with some lines' odds replaced.

    `lines` maps line names (the contract's `hand` values) to odds; a line name found in two
    of the game's tables is ambiguous and must be nested under its wager:
    `{"pair_plus": {"straight": "5"}}`.
    """
    tables: dict[str, dict[str, object]] = {w: dict(t) for w, t in base.tables.items()}
    for key, value in lines.items():
        if key in tables and isinstance(value, Mapping):
            for line, odds in value.items():
                if line not in tables[key]:
                    raise EngineError(
                        Refusal.BAD_PAYTABLE,
                        f"{key} has no paytable line {line!r}",
                        field="paytable",
                    )
                tables[key][line] = odds
            continue
        holders = [w for w, t in tables.items() if key in t]
        if not holders:
            raise EngineError(
                Refusal.BAD_PAYTABLE, f"{base.game} has no paytable line {key!r}", field="paytable"
            )
        if len(holders) > 1:
            raise EngineError(
                Refusal.BAD_PAYTABLE,
                f"paytable line {key!r} is in both {' and '.join(holders)}: "
                f'nest it under its wager, e.g. {{"{holders[-1]}": {{"{key}": ...}}}}',
                field="paytable",
            )
        tables[holders[0]][key] = value
    return make_paytable(base.game, f"{base.name}+override", tables)


def resolve(game: Game, spec: object) -> Paytable:
    """The contract's `paytable` field: absent, a name, or `{"base": NAME, "lines": {...}}`."""
    if spec is None:
        return NAMED[game][DEFAULT_NAME[game]]
    if isinstance(spec, Mapping):
        base = named(game, spec.get("base", DEFAULT_NAME[game]))
        lines = spec.get("lines", {})
        if not isinstance(lines, Mapping):
            raise EngineError(
                Refusal.BAD_PAYTABLE, "paytable lines must be an object", field="paytable"
            )
        return override(base, lines)
    return named(game, spec)
