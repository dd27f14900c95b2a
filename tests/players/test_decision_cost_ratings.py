"""The decision cost a rating adds up, with the games' real counts (not patched): seated players
play known mistakes through the API, and each rating's cost is the one worked out by counting
every deal: Pyramid's mis-set against settling all 18,424 dealer hands with the engine's
`settle`, 2nd Chance's mis-mulligan against its exact value (its count agrees with settling
every deal of smaller decks: tests/games/second_chance/test_decisions_exact.py), the house
way's setting and the better choice at nothing."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from players.models import Rating
from tables.engine.cards import parse_cards
from tables.engine.decision_cost import cents
from tests.games.pyramid.test_decision_cost import brute_force
from tests.players.conftest import play, seat

pytestmark = pytest.mark.django_db


def test_a_pyramid_mis_set_costs_the_rating_what_every_dealer_hand_says(
    figures: dict[str, Any], dealer_at: Any
) -> None:
    client = dealer_at("PY-1")
    seat(client, figures["PY-1"], 1, "100001")
    seat(client, figures["PY-1"], 2, "100003")
    play(
        client,
        figures["PY-1"],
        {
            1: ({"ante": "10.00"}, "Qs Jh 5d", {"one_card": "5d"}),
            2: ({"ante": "10.00"}, "7s 7h 2d", {"house_way": True}),
        },
        "Kc 9d 5h",
        "mis-set",
    )
    cards = tuple(parse_cards(["Qs", "Jh", "5d"], where="cards"))
    values = brute_force(cards, 1000)  # each setting by the rank of the card alone
    expected = cents(max(values.values()) - values[cards[2].rank])
    assert expected == Decimal("601.66")
    assert Rating.objects.get(seat=1).decision_cost == expected
    assert Rating.objects.get(seat=2).decision_cost == 0  # 7-7-2: the pair kept, the best


def test_a_second_chance_mis_mulligan_costs_the_rating_its_exact_value(
    figures: dict[str, Any], dealer_at: Any
) -> None:
    client = dealer_at("SC-1")
    seat(client, figures["SC-1"], 1, "100001")
    seat(client, figures["SC-1"], 4, "100003")
    play(
        client,
        figures["SC-1"],
        {
            # K-T-2, the weakest hand the strategy keeps, swapped
            1: ({"ante": "10.00"}, "Kh Td 2c", {"mulligan": True, "cards": "Jc Jd 4h"}),
            4: ({"ante": "10.00"}, "8c 5h 2s", {"mulligan": True, "cards": "Kc Th 4d"}),
        },
        "Qs 7d 2d",
        "mis-mulligan",
        draw=["Ah", "Kd", "3c"],
    )
    # Each choice's expected net on a $10.00 Ante, every deal counted (the mulligan's Ante
    # and Raise): stand -3048391925/6991908 cents, mulligan -9427930276925/21571784157.
    stand = Fraction(-3048391925, 6991908)
    mulligan = Fraction(-9427930276925, 21571784157)
    assert Rating.objects.get(seat=1).decision_cost == cents(stand - mulligan) == Decimal("1.06")
    assert Rating.objects.get(seat=4).decision_cost == 0  # 8-5-2 swapped: the better choice
