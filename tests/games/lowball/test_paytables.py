"""Lowball's three named paytables: their Bonus lines (`docs/rules/lowball.md`)."""

from __future__ import annotations

import pytest

from tables.games.lowball.paytables import FORM, NAMED


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("1", [10, 6, 5, 3, 2, 1]),
        ("2", [12, 8, 4, 3, 2, 1]),
        ("3", [10, 6, 4, 3, 2, 1]),
    ],
)
def test_lowball_named_paytables(name: str, expected: list[int]) -> None:
    table = NAMED[name].tables["bonus"]
    assert [table[line] for line in FORM.lines["bonus"]] == expected
