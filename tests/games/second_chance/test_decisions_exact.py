"""2nd Chance's mulligan value, exact where the dealer's first hand draws.

Reduced decks (11 to 13 unseen cards, the seat's cards drawn at random, the dealer standing on
some first hands and drawing on others): the values equal a brute force over every deal (D, N,
X) judged with the engine's evaluator, as Fractions. The full deck: a known mis-mulligan's
cost to the cent, its exact value, and a sampled estimate from the engine's evaluator agreeing
with it.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

import pytest

from tables import games
from tables.engine.cards import DECK, Card, parse_cards
from tables.engine.paytable_types import Paytable, build_paytable
from tables.engine.rankings import poker_value
from tables.games.second_chance import decisions
from tables.games.second_chance import game as second_chance
from tables.games.second_chance.paytables import FORM, NAMED

from .test_decision_cost import entry

DEFAULT = NAMED["default"]
PAIR_PLUS = {"straight_flush": 40, "three_of_a_kind": 30, "straight": 6, "flush": 3, "pair": 1}
ODD = build_paytable(  # fractional odds, and a line too large for 64-bit sums
    FORM,
    "odd",
    {
        "ante": {
            "straight_flush": 10**15,
            "three_of_a_kind": "7/3",
            "straight": "5/4",
            "flush": 2,
            "pair": "11/10",
            "high_card": 1,
        },
        "pair_plus": PAIR_PLUS,
    },
)


def ante_result(mine: Sequence[Card], dealer: Sequence[Card], paytable: Paytable) -> Fraction:
    """The Ante's net per unit of `mine` against the dealer's final hand."""
    a, b = poker_value(mine), poker_value(dealer)
    if a.score > b.score:
        return paytable.tables["ante"][a.category.value]
    return Fraction(0) if a.score == b.score else Fraction(-1)


def brute_force(
    cards: Sequence[Card], unseen: list[Card], paytable: Paytable
) -> tuple[Fraction, Fraction]:
    """(stand, mulligan) Ante values per unit over every deal (D, N, X) of the unseen cards,
    the dealer's final hand X when D draws, else D."""
    value = {h: poker_value(h) for h in combinations(unseen, 3)}
    own = poker_value(cards)
    stand: dict[Any, int] = {}
    mulligan: dict[Any, int] = {}
    for dealer in combinations(unseen, 3):
        draws = second_chance.dealer_draws(dealer)
        left = [c for c in unseen if c not in dealer]
        for new in combinations(left, 3):
            mine = value[new]
            rest = [c for c in left if c not in new]
            for x in combinations(rest, 3):
                theirs = value[x] if draws else value[dealer]
                for counts, hand in ((stand, own), (mulligan, mine)):
                    key = (
                        hand.category.value,
                        (hand.score > theirs.score) - (hand.score < theirs.score),
                    )
                    counts[key] = counts.get(key, 0) + 1

    def mean(counts: dict[Any, int]) -> Fraction:
        odds = paytable.tables["ante"]
        net = sum(k * (odds[cat] if won == 1 else won) for (cat, won), k in counts.items())
        return Fraction(net) / sum(counts.values())

    return mean(stand), mean(mulligan)


def reduced(seed: int, size: int) -> tuple[tuple[Card, ...], list[Card]]:
    """The seat's three cards and `size` unseen cards, at random, on which the dealer stands
    on some first hands and draws on others."""
    rng = random.Random(seed)
    while True:
        deck = rng.sample(DECK, size + 3)
        cards, unseen = tuple(deck[:3]), sorted(deck[3:], key=DECK.index)
        firsts = {second_chance.dealer_draws(d) for d in combinations(unseen, 3)}
        if firsts == {True, False}:
            return cards, unseen


@pytest.mark.parametrize(
    ("seed", "size", "paytable"),
    [
        (1, 11, DEFAULT),
        (2, 11, DEFAULT),
        (3, 12, DEFAULT),
        (4, 12, DEFAULT),
        (5, 12, DEFAULT),
        (6, 13, DEFAULT),
        (7, 11, ODD),
        (8, 12, ODD),
    ],
)
def test_on_a_reduced_deck_the_values_are_every_deal_counted(
    seed: int, size: int, paytable: Paytable
) -> None:
    cards, unseen = reduced(seed, size)
    odds = decisions.ante_odds(paytable)
    stand, mulligan = brute_force(cards, unseen, paytable)
    assert decisions.mulligan_ante_value(unseen, odds) == mulligan
    assert decisions.stand_value(cards, unseen, odds) == stand


def test_a_deck_of_straight_flushes_and_low_cards_counts_both() -> None:
    # the clubs make straight flushes (6 to 1); the low cards of other suits, dealer hands
    # that draw
    cards = tuple(parse_cards(["As", "Ah", "Ad"], where="cards"))
    unseen = parse_cards(
        ["Kc", "Qc", "Jc", "Tc", "9c", "8c", "2h", "3d", "5s", "6h", "7d", "9s"], where="deck"
    )
    assert {second_chance.dealer_draws(d) for d in combinations(unseen, 3)} == {True, False}
    odds = decisions.ante_odds(DEFAULT)
    stand, mulligan = brute_force(cards, unseen, DEFAULT)
    assert decisions.mulligan_ante_value(unseen, odds) == mulligan
    assert decisions.stand_value(cards, unseen, odds) == stand


KING_TEN_TWO = ["Kh", "Td", "2c"]  # the weakest hand the published strategy keeps


def test_on_the_full_deck_a_mulligan_of_king_ten_two_costs_a_cent_exactly() -> None:
    # 1.06 cents on a $10.00 Ante (the first hand's Pair Plus is settled either way).
    game = games.banked("second_chance")
    swapped = entry(KING_TEN_TWO, {"cards": ["Jc", "Jd", "4h"]})
    assert game.decision_cost(swapped, 3, DEFAULT) == Decimal("1.06")
    assert game.decision_cost(swapped, 3, DEFAULT) == Decimal("1.06")
    assert game.decision_cost(entry(KING_TEN_TWO, None), 3, DEFAULT) == Decimal("0.00")
    cards = parse_cards(KING_TEN_TWO, where="cards")
    unseen = [c for c in DECK if c not in cards]
    values = decisions.choice_values(cards, unseen, DEFAULT, 1000, 0)
    assert values == {
        "stand": Fraction(-3048391925, 6991908),  # -435.99 cents on a $10.00 Ante
        "mulligan": Fraction(-9427930276925, 21571784157),  # -437.05 cents, Ante and Raise
    }
    # king-nine-eight, the strongest hand the strategy swaps: standing costs
    assert game.decision_cost(entry(["Kh", "9d", "8c"], None), 3, DEFAULT) == Decimal("11.40")


def test_on_the_full_deck_a_sampled_estimate_agrees_with_the_exact_value() -> None:
    # 4,000 deals of nine unseen cards, each read in the six ways of giving its hands the
    # roles D, N and X, judged with the engine's evaluator; the deals' means are independent
    cards = parse_cards(KING_TEN_TWO, where="cards")
    unseen = [c for c in DECK if c not in cards]
    exact = decisions.mulligan_ante_value(unseen, decisions.ante_odds(DEFAULT))
    assert exact == Fraction(-377117211077, 1725742732560)  # -0.21852 per unit
    rng = random.Random("second chance, king-ten-two")
    means = []
    for _ in range(4000):
        nine = rng.sample(unseen, 9)
        hands = (nine[0:3], nine[3:6], nine[6:9])
        net = Fraction(0)
        for d, n, x in permutations(hands):
            net += ante_result(n, x if second_chance.dealer_draws(d) else d, DEFAULT)
        means.append(float(net / 6))
    estimate = statistics.fmean(means)
    error = statistics.stdev(means) / len(means) ** 0.5
    assert abs(estimate - float(exact)) < 3 * error  # -0.22210, error 0.00353: 1.0 off
