"""Lowball's named hands: the contract's `hand` of a low hand, and the 4-2-A of the jackpot."""

from __future__ import annotations

import pytest

from tables.games.lowball.hands import is_a24, lowball_hand_name
from tests.engine.helpers import cards


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("4h 2d Ah", "a24_one_colour"),
        ("4c 2s As", "a24_one_colour"),
        ("4h 2c As", "a24_two_colour"),
        ("4h 2h Ah", "flush"),  # "an A-2-4 of one suit is a flush"
        ("4h 3c As", "a34"),
        ("5h 3c As", "five_high"),
        ("5h 4c 2s", "five_high"),
        ("5h 4c 3s", "straight"),
        ("6h 4c 2s", "six_high"),
        ("7h 4c 2s", "seven_high"),
        ("8h 4c 2s", "high_card"),
        ("2h 2c 4s", "pair"),
    ],
)
def test_lowball_named_hands(hand: str, name: str) -> None:
    assert lowball_hand_name(cards(hand)) == name


def test_is_a24_means_the_unsuited_hand_only() -> None:
    assert is_a24(cards("Ah 2c 4d"))
    assert not is_a24(cards("Ah 2h 4h"))
    assert not is_a24(cards("Ah 3c 4d"))
