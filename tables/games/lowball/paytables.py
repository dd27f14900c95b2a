"""Three Card Lowball's paytables: the lines of its Bonus table, and its three named paytables
(`docs/rules/lowball.md`), "1" the default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tables.engine.paytable_types import Paytable, PaytableForm, build_paytable

from .game import NAME

FORM: Final = PaytableForm(
    NAME,
    {
        "bonus": (
            "a24_one_colour",
            "a24_two_colour",
            "a34",
            "five_high",
            "six_high",
            "seven_high",
        ),
    },
)


def _bonus(one_colour: int, two_colour: int, a34: int) -> dict[str, dict[str, object]]:
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


NAMED: Final[Mapping[str, Paytable]] = {
    "1": build_paytable(FORM, "1", _bonus(10, 6, 5)),
    "2": build_paytable(FORM, "2", _bonus(12, 8, 4)),
    "3": build_paytable(FORM, "3", _bonus(10, 6, 4)),
}

DEFAULT: Final = "1"
