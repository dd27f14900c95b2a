"""Paytables are data: for each wager a table of lines (hand name -> exact odds, N to 1).

Each game declares its paytables' form (the lines each wager's table holds) and ships its
named paytables (the defaults of `docs/rules/`) through its rules (`tables.engine.registry`);
an admin's paytable version is the same structure, built with `make_paytable` (validated) or
`override`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from . import registry
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


def make_paytable(game: str, name: str, tables: Mapping[str, Mapping[str, object]]) -> Paytable:
    """Build and validate a paytable of the registered game `game` (`build_paytable`)."""
    return build_paytable(registry.banked_rules(game).paytable_form, name, tables)


def named(game: str, name: object) -> Paytable:
    """A named paytable of the game; refuses an unknown name."""
    tables = registry.banked_rules(game).named_paytables
    key = str(name) if isinstance(name, str | int) and not isinstance(name, bool) else None
    table = tables.get(key) if key is not None else None
    if table is None:
        known = ", ".join(repr(n) for n in tables)
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


def resolve(game: str, spec: object) -> Paytable:
    """The contract's `paytable` field: absent, a name, or `{"base": NAME, "lines": {...}}`."""
    rules = registry.banked_rules(game)
    if spec is None:
        return rules.named_paytables[rules.default_paytable]
    if isinstance(spec, Mapping):
        base = named(game, spec.get("base", rules.default_paytable))
        lines = spec.get("lines", {})
        if not isinstance(lines, Mapping):
            raise EngineError(
                Refusal.BAD_PAYTABLE, "paytable lines must be an object", field="paytable"
            )
        return override(base, lines)
    return named(game, spec)
