"""2nd Chance's decision cost: stand or mulligan, valued over the unseen cards.

A modest case is checked exactly against settling every deal with the engine's
`second_chance.settle`: ten unseen cards (every dealer hand, every mulligan hand, every dealer
draw: 16,800 deals). The full deck's values are exact by the same code, checked here for their
direction and figure (`test_decisions_exact.py` checks the counting on larger reduced decks).
"""

from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from typing import Any

from tables import games
from tables.engine.cards import Card, parse_cards
from tables.engine.decision_cost import cost
from tables.engine.rankings import poker_value
from tables.games.second_chance import decisions
from tables.games.second_chance import game as second_chance
from tables.games.second_chance.paytables import NAMED

PAYTABLE = NAMED["default"]


def brute_force(
    cards: tuple[Card, ...], unseen: list[Card], ante: int, mulligan_pp: int
) -> dict[str, Fraction]:
    """Each choice's mean net in cents over every (dealer hand, new hand, dealer draw)."""
    totals = {"stand": 0, "mulligan": 0}
    deals = 0
    for dealer in combinations(unseen, 3):
        left = [c for c in unseen if c not in dealer]
        for new in combinations(left, 3):
            rest = [c for c in left if c not in new]
            for draw in combinations(rest, 3):
                drawn = draw if second_chance.dealer_draws(dealer) else ()
                stand = second_chance.Seat(1, ante, cards)
                swap = second_chance.Seat(
                    1, ante, cards, mulligan=new, mulligan_pair_plus_cents=mulligan_pp
                )
                for name, seat in (("stand", stand), ("mulligan", swap)):
                    round_ = second_chance.Round(dealer, (seat,), dealer_draw=drawn)
                    totals[name] += second_chance.settle(round_, PAYTABLE).net_cents
                deals += 1
    return {k: Fraction(v, deals) for k, v in totals.items()}


UNSEEN = parse_cards(["Ks", "Qh", "Jd", "9c", "8s", "7h", "5d", "4c", "3s", "2h"], where="deck")


def test_a_mis_mulligan_costs_what_settling_every_deal_says() -> None:
    cards = tuple(parse_cards(["Ah", "Ad", "6c"], where="cards"))  # a pair of aces: stand
    exact = brute_force(cards, UNSEEN, 1000, 500)
    values = decisions.choice_values(cards, UNSEEN, PAYTABLE, 1000, 500)
    assert values == exact
    assert cost(values, "mulligan") == cost(exact, "mulligan") > 0
    assert cost(values, "stand") == Decimal("0.00")


def test_a_weak_hand_kept_costs_what_settling_every_deal_says() -> None:
    cards = tuple(parse_cards(["6h", "4d", "2c"], where="cards"))
    exact = brute_force(cards, UNSEEN, 1000, 0)
    values = decisions.choice_values(cards, UNSEEN, PAYTABLE, 1000, 0)
    assert values == exact
    assert cost(values, "stand") > 0 and cost(values, "mulligan") == Decimal("0.00")


def entry(cards: list[str], mulligan: dict[str, Any] | None) -> dict[str, Any]:
    seat: dict[str, Any] = {"seat": 3, "wagers": {"ante": "10.00", "pair_plus": "5.00"}}
    seat["cards"] = cards
    if mulligan is not None:
        seat["mulligan"] = mulligan
    return {
        "game": "second_chance",
        "dealer": {"cards": ["Qs", "7d", "2c"], "draw": ["Ah", "Kd", "3c"]},
        "seats": [seat],
    }


def test_on_the_full_deck_trips_stand_for_nothing_and_a_mulligan_costs() -> None:
    game = games.banked("second_chance")
    trips = ["7c", "7d", "7h"]
    assert game.decision_cost(entry(trips, None), 3, PAYTABLE) == Decimal("0.00")
    swapped = entry(trips, {"cards": ["Jc", "Jd", "4h"], "pair_plus": "5.00"})
    # trips pay 4 to 1 when they win
    assert game.decision_cost(swapped, 3, PAYTABLE) == Decimal("4432.47")


def test_on_the_full_deck_a_weak_hand_kept_costs_and_its_mulligan_does_not() -> None:
    game = games.banked("second_chance")
    weak = ["8c", "5d", "2h"]
    kept = game.decision_cost(entry(weak, None), 3, PAYTABLE)
    assert kept is not None and kept > 0
    assert game.decision_cost(entry(weak, {"cards": ["Jc", "Jd", "4h"]}), 3, PAYTABLE) == 0


def test_the_stand_value_counts_the_dealer_draw_exactly_on_a_larger_deck() -> None:
    # Sixteen unseen cards: every dealer hand and, below king-high, every draw (160,160 pairs),
    # judged with the engine's evaluator rather than the lookup tables and inclusion-exclusion.
    cards = tuple(parse_cards(["Kh", "9s", "4d"], where="cards"))
    deck = parse_cards(
        ["As", "Ad", "Kc", "Qh", "Qs", "Jd", "Tc", "9h", "8s", "7d", "6c", "5h", "4s", "3d"]
        + ["2c", "2h"],
        where="deck",
    )
    own = poker_value(cards)
    odds = PAYTABLE.tables["ante"][own.category.value]
    total = Fraction(0)
    deals = 0
    for dealer in combinations(deck, 3):
        rest = [c for c in deck if c not in dealer]
        draws = list(combinations(rest, 3))
        finals = draws if second_chance.dealer_draws(dealer) else [dealer] * len(draws)
        for final in finals:
            theirs = poker_value(final).score
            total += odds if own.score > theirs else (0 if own.score == theirs else -1)
            deals += 1
    assert decisions.stand_value(cards, deck, decisions.ante_odds(PAYTABLE)) == total / deals
