"""A paytable's structure: for each wager a table of lines (hand name -> exact odds, N to 1),
and the form a game's paytables take (the lines each wager's table holds), with the check of a
paytable against its form. Knows no game: `paytables` looks a game's form and named paytables
up in the registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from .errors import EngineError, Refusal
from .money import parse_odds


@dataclass(frozen=True, slots=True)
class PaytableForm:
    """What a game's paytables hold: each wager's lines, in display order, and the wagers whose
    every line pays at least even money."""

    game: str
    lines: Mapping[str, tuple[str, ...]]
    at_least_even: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Paytable:
    """One game's paytable: `tables[wager][line]` is the odds (N to 1) as a Fraction."""

    game: str
    name: str
    tables: Mapping[str, Mapping[str, Fraction]]

    def odds(self, wager: str, line: str) -> Fraction | None:
        """The odds of a line, or None when the hand is not on the table (push or lose)."""
        return self.tables[wager].get(line)

    def as_data(self) -> dict[str, dict[str, str]]:
        """JSON-ready form: odds as `"3/2"` strings (exact)."""
        return {w: {k: str(v) for k, v in t.items()} for w, t in self.tables.items()}


def build_paytable(
    form: PaytableForm, name: str, tables: Mapping[str, Mapping[str, object]]
) -> Paytable:
    """Build and validate a paytable of `form`: every line present, odds positive, no extras."""
    game = form.game
    required = form.lines
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
            if wager in form.at_least_even and odds < 1:
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
