"""2nd Chance's default paytable: its Ante and Pair Plus lines (`docs/rules/second_chance.md`)."""

from __future__ import annotations

from fractions import Fraction

from tables.games.second_chance.paytables import DEFAULT, NAMED


def test_second_chance_default_lines() -> None:
    p = NAMED[DEFAULT]
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
