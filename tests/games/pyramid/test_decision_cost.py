"""Pyramid's decision cost: each setting valued over every dealer hand of the 49 unseen cards,
checked against settling all 18,424 of them with the engine's `pyramid.settle`."""

from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest

from tables import games as registry
from tables.engine.cards import DECK, Card, parse_cards
from tables.engine.decision_cost import cents
from tables.games.pyramid import decisions
from tables.games.pyramid import game as pyramid
from tables.games.pyramid.paytables import NAMED

PAYTABLE = NAMED["default"]


def brute_force(cards: tuple[Card, ...], ante: int) -> dict[int, Fraction]:
    """Each legal setting's mean net in cents, settling every dealer hand of the other 49."""
    unseen = [c for c in DECK if c not in cards]
    dealers = list(combinations(unseen, 3))
    out = {}
    for card in cards:
        try:
            pyramid.split(cards, card)
        except Exception:
            continue
        seat = pyramid.Seat(1, ante, cards, one_card=card)
        total = sum(pyramid.settle(pyramid.Round(d, (seat,)), PAYTABLE).net_cents for d in dealers)
        out[card.rank] = Fraction(total, len(dealers))
    return out


def entry(cards: list[str], **decision: Any) -> dict[str, Any]:
    return {
        "game": "pyramid",
        "dealer": {"cards": ["2c", "3d", "9h"]},
        "seats": [
            {"seat": 2, "wagers": {"ante": "5.00"}, "cards": ["Ks", "Kd", "4h"]},
            {"seat": 5, "wagers": {"ante": "10.00"}, "cards": cards, **decision},
        ],
    }


def test_a_mis_set_costs_what_settling_every_dealer_hand_says() -> None:
    # Q-J-5: the strategy puts the middle card (the jack) alone; the 5 alone is a mis-set.
    cards = tuple(parse_cards(["Qs", "Jh", "5d"], where="cards"))
    exact = brute_force(cards, 1000)
    assert decisions.setting_values(cards, 1000, Fraction(1)) == exact
    best = max(exact.values())
    game = registry.banked("pyramid")
    mis = game.decision_cost(entry(["Qs", "Jh", "5d"], one_card="5d"), 5, PAYTABLE)
    assert mis == cents(best - exact[5]) and mis > 0
    assert game.decision_cost(entry(["Qs", "Jh", "5d"], one_card="Jh"), 5, PAYTABLE) == cents(
        best - exact[11]
    )


def test_the_best_setting_costs_nothing_and_the_house_way_costs_its_strategy_gap() -> None:
    game = registry.banked("pyramid")
    cards = ["Ac", "Ad", "3s"]  # split aces: the strategy keeps the pair unless the odd is 10+
    values = decisions.setting_values(parse_cards(cards, where="cards"), 1000, Fraction(1))
    best_rank = max(values, key=lambda r: values[r])
    best_card = next(c for c in cards if parse_cards([c], where="c")[0].rank == best_rank)
    assert game.decision_cost(entry(cards, one_card=best_card), 5, PAYTABLE) == Decimal("0.00")
    worst = min(values, key=lambda r: values[r])
    worst_card = next(c for c in cards if parse_cards([c], where="c")[0].rank == worst)
    assert game.decision_cost(entry(cards, one_card=worst_card), 5, PAYTABLE) > 0
    strategy = pyramid.player_setting(parse_cards(cards, where="cards")).one_card.rank
    house = game.decision_cost(entry(cards, house_way=True), 5, PAYTABLE)
    assert house == cents(max(values.values()) - values[strategy])


def test_the_odds_of_the_table_are_used() -> None:
    cards = tuple(parse_cards(["9s", "8h", "2d"], where="cards"))
    even = decisions.setting_values(cards, 1000, Fraction(1))
    richer = decisions.setting_values(cards, 1000, Fraction(2))
    # (a 2 alone never wins its hand: a copy goes to the dealer, so that setting never wins)
    assert richer[2] == even[2] and richer[8] > even[8]


@pytest.mark.parametrize("seat", [1, 9])
def test_a_seat_the_round_does_not_have_is_refused(seat: int) -> None:
    from tables.engine.errors import EngineError

    with pytest.raises(EngineError, match=f"no seat {seat}"):
        decisions.decision_cost(entry(["Qs", "Jh", "5d"], one_card="Jh"), seat, PAYTABLE)
