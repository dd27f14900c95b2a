"""Paytables are data: a game's named defaults by name, validation, overrides."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.engine import registry
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytables import make_paytable, resolve


def test_absent_paytable_means_the_default() -> None:
    assert resolve("lowball", None).name == "1"
    assert resolve("second_chance", None).name == "default"
    assert resolve("lowball", 2).name == "2"


def test_override_replaces_only_the_given_lines() -> None:
    p = resolve("lowball", {"base": "2", "lines": {"a34": "5", "seven_high": "3/2"}})
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
        resolve("lowball", spec)
    assert err.value.code is Refusal.BAD_PAYTABLE


def test_a_line_in_two_tables_must_name_its_wager() -> None:
    with pytest.raises(EngineError) as err:
        resolve("second_chance", {"lines": {"straight": "2"}})
    assert "pair_plus" in err.value.message
    p = resolve("second_chance", {"lines": {"pair_plus": {"straight": "5"}}})
    assert p.tables["pair_plus"]["straight"] == 5 and p.tables["ante"]["straight"] == Fraction(3, 2)


def test_every_required_line_must_be_present_and_ante_pays_at_least_even_money() -> None:
    with pytest.raises(EngineError, match="missing"):
        make_paytable("lowball", "x", {"bonus": {"a34": 4}})
    ante = dict.fromkeys(registry.banked_rules("second_chance").paytable_form.lines["ante"], 1)
    pair_plus = dict.fromkeys(
        registry.banked_rules("second_chance").paytable_form.lines["pair_plus"], 1
    )
    make_paytable("second_chance", "ok", {"ante": ante, "pair_plus": pair_plus})
    with pytest.raises(EngineError, match="at least 1 to 1"):
        make_paytable(
            "second_chance", "x", {"ante": {**ante, "pair": "1/2"}, "pair_plus": pair_plus}
        )
