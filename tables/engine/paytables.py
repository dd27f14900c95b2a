"""Paytables are data: for each wager a table of lines (hand name -> exact odds, N to 1).

Each game declares its paytables' form (the lines each wager's table holds) and ships its
named paytables (the defaults of `docs/rules/`) through its rules (`tables.engine.registry`);
an admin's paytable version is the same structure, built with `make_paytable` (validated) or
`override`. The structure itself, and its validation against a form, is `paytable_types`.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import registry
from .errors import EngineError, Refusal
from .paytable_types import Paytable, build_paytable


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
