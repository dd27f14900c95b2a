"""Three Card 2nd Chance's paytables: the lines of its Ante and Pair Plus tables, and its
default paytable (`docs/rules/second_chance.md`). Every Ante win pays at least even money."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tables.engine.paytable_types import Paytable, PaytableForm, build_paytable

from .game import NAME

FORM: Final = PaytableForm(
    NAME,
    {
        "ante": ("straight_flush", "three_of_a_kind", "straight", "flush", "pair", "high_card"),
        "pair_plus": ("straight_flush", "three_of_a_kind", "straight", "flush", "pair"),
    },
    at_least_even=frozenset({"ante"}),
)

NAMED: Final[Mapping[str, Paytable]] = {
    "default": build_paytable(
        FORM,
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
}

DEFAULT: Final = "default"
