"""2nd Chance's house-edge tables against brute counts and its own settlement: the Mulligan
Pair Plus counts, and the sampled Ante/Raise rounds settled as the rules settle them."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from math import comb

from tables.engine import strategies
from tables.engine.edge_fast import HANDS, card_numbers, cards_of
from tables.engine.edge_report import Method
from tables.engine.house_edge import house_edge
from tables.engine.rankings import poker_value
from tables.engine.strategies import Strategy
from tables.games.second_chance import edge as edge_second_chance
from tables.games.second_chance import rules as second_chance_rules
from tables.games.second_chance.paytables import NAMED
from tests.engine.helpers import cards

SECOND_CHANCE = NAMED["default"]


def test_mulligan_pair_plus_counts_agree_with_counting_every_new_hand() -> None:
    """Inclusion and exclusion against a brute count of the 18,424 hands left, for swapped
    hands of several kinds."""
    mpp = house_edge("second_chance", exact=True).wager("mulligan_pair_plus")
    assert mpp.method is Method.EXACT
    swapped = sum(
        1 for h in HANDS if second_chance_rules.mulligan_published(cards_of(h))
    )  # the published strategy's swaps
    assert mpp.deals == swapped * comb(49, 3)
    assert sum(o.count for o in mpp.outcomes) == mpp.deals
    for text in ("2c 3d 7h", "Qs Jh 9d", "2h 3h 9h", "Kd 9c 8s"):
        hand = card_numbers(cards(text))
        rest = [c for c in range(52) if c not in hand]
        brute: dict[str, int] = {}
        for new in combinations(rest, 3):
            cat = poker_value(cards_of(new)).category.value
            brute[cat] = brute.get(cat, 0) + 1
        target = tuple(sorted(hand))
        one = strategies.Mix(
            "just this hand",
            ((Fraction(1), lambda c, t=target: tuple(sorted(card_numbers(c))) == t),),
        )
        counted = edge_second_chance.mulligan_pair_plus(SECOND_CHANCE, one)
        assert {o.name: o.count for o in counted if o.count} == brute


def test_second_chance_sampled_rounds_settle_as_the_engine_settles_them() -> None:
    rng = random.Random(3)
    for strategy in (Strategy.PUBLISHED, Strategy.HOUSE_WAY):
        t = edge_second_chance.ante_raise_tables(
            SECOND_CHANCE, second_chance_rules.STRATEGIES[strategy]
        )
        for _ in range(300):
            deal = rng.sample(range(52), 12)
            roles = rng.choice(edge_second_chance.ROLES)
            for mulligan in (False, True):
                net, units = edge_second_chance.play_deal(deal, roles, t, mulligan)
                cents = edge_second_chance.settle_sampled(deal, roles, mulligan, SECOND_CHANCE)
                assert units == (2.0 if mulligan else 1.0)
                assert cents == int(net * 100)
