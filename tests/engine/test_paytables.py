"""Paytables are data: named defaults, validation, overrides."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.engine.errors import EngineError, Refusal
from tables.engine.paytables import REQUIRED_LINES, Game, make_paytable, named, resolve


def test_second_chance_default_lines() -> None:
    p = named(Game.SECOND_CHANCE, "default")
    assert p.tables["ante"]["straight_flush"] == 6
    assert p.tables["ante"]["three_of_a_kind"] == 4
    assert p.tables["ante"]["straight"] == Fraction(3, 2)
    assert {p.tables["ante"][k] for k in ("flush", "pair", "high_card")} == {1}
    assert dict(p.tables["pair_plus"]) == {
        "straight_flush": 40,
        "three_of_a_kind": 30,
        "straight": 6,
        "flush": 3,
        "pair": 1,
    }
    assert p.odds("pair_plus", "high_card") is None  # anything else loses


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("1", [10, 6, 5, 3, 2, 1]),
        ("2", [12, 8, 4, 3, 2, 1]),
        ("3", [10, 6, 4, 3, 2, 1]),
    ],
)
def test_lowball_named_paytables(name: str, expected: list[int]) -> None:
    table = named(Game.LOWBALL, name).tables["bonus"]
    assert [table[line] for line in REQUIRED_LINES[Game.LOWBALL]["bonus"]] == expected


def test_absent_paytable_means_the_default() -> None:
    assert resolve(Game.LOWBALL, None).name == "1"
    assert resolve(Game.SECOND_CHANCE, None).name == "default"
    assert resolve(Game.LOWBALL, 2).name == "2"


def test_override_replaces_only_the_given_lines() -> None:
    p = resolve(Game.LOWBALL, {"base": "2", "lines": {"a34": "5", "seven_high": "3/2"}})
    assert p.tables["bonus"]["a34"] == 5
    assert p.tables["bonus"]["seven_high"] == Fraction(3, 2)
    assert p.tables["bonus"]["a24_one_colour"] == 12


@pytest.mark.parametrize(
    "spec",
    [
        "4",
        "default",
        {"base": "9"},
        {"base": "1", "lines": {"royal": "100"}},
        {"base": "1", "lines": {"a34": "-1"}},
        {"base": "1", "lines": {"a34": "zero"}},
        {"base": "1", "lines": {"a34": 0}},
        {"base": "1", "lines": ["a34"]},
    ],
)
def test_unknown_paytables_and_lines_are_refused(spec: object) -> None:
    with pytest.raises(EngineError) as err:
        resolve(Game.LOWBALL, spec)
    assert err.value.code is Refusal.BAD_PAYTABLE


def test_a_line_in_two_tables_must_name_its_wager() -> None:
    with pytest.raises(EngineError) as err:
        resolve(Game.SECOND_CHANCE, {"lines": {"straight": "2"}})
    assert "pair_plus" in err.value.message
    p = resolve(Game.SECOND_CHANCE, {"lines": {"pair_plus": {"straight": "5"}}})
    assert p.tables["pair_plus"]["straight"] == 5 and p.tables["ante"]["straight"] == Fraction(3, 2)


def test_every_required_line_must_be_present_and_ante_pays_at_least_even_money() -> None:
    with pytest.raises(EngineError, match="missing"):
        make_paytable(Game.LOWBALL, "x", {"bonus": {"a34": 4}})
    ante = dict.fromkeys(REQUIRED_LINES[Game.SECOND_CHANCE]["ante"], 1)
    pair_plus = dict.fromkeys(REQUIRED_LINES[Game.SECOND_CHANCE]["pair_plus"], 1)
    make_paytable(Game.SECOND_CHANCE, "ok", {"ante": ante, "pair_plus": pair_plus})
    with pytest.raises(EngineError, match="at least 1 to 1"):
        make_paytable(
            Game.SECOND_CHANCE, "x", {"ante": {**ante, "pair": "1/2"}, "pair_plus": pair_plus}
        )
