"""Pyramid's exact house-edge tables: every hand in its rank class, the optimal setting against
the rules' strategy, and the class counts against settling every dealer hand."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest

from tables.engine.cards import DECK
from tables.games.pyramid import edge as edge_pyramid
from tables.games.pyramid import game as pyramid
from tables.games.pyramid.paytables import NAMED
from tests.engine.helpers import cards

PYRAMID = NAMED["default"]


def test_the_rank_classes_hold_every_hand_and_every_dealer_hand_is_counted() -> None:
    classes = edge_pyramid.rank_classes()
    assert len(classes) == 455
    assert sum(c.hands for c in classes) == 22100
    for counts in edge_pyramid.setting_counts().values():
        for setting in counts:
            assert setting.win + setting.push + setting.lose == comb(49, 3)


def test_the_optimal_setting_differs_from_the_rules_strategy_on_two_hands_only() -> None:
    differ = [
        c.ranks
        for c in edge_pyramid.rank_classes()
        if edge_pyramid.optimal_one_card(c.cards).rank
        != pyramid.player_setting(c.cards).one_card.rank
    ]
    assert differ == [(2, 3, 5), (2, 4, 12)]


@pytest.mark.parametrize("text", ["2c 3d 5h", "Kc Kd 4h", "7s 7h 7d", "Ah Qd Jc"])
def test_pyramid_setting_counts_agree_with_settling_every_dealer_hand(text: str) -> None:
    """The class tables against `pyramid.settle` over all 18,424 dealer hands."""
    hand = cards(text)
    rest = [c for c in DECK if c not in hand]
    counted = {s.alone: s for s in edge_pyramid.setting_counts()[edge_pyramid._key(hand)]}
    for alone, _setting in edge_pyramid.legal_settings(hand).items():
        one = next(c for c in hand if c.rank == alone)
        tally = {"win": 0, "push": 0, "lose": 0}
        for dealer in combinations(rest, 3):
            seat = pyramid.Seat(1, 100, hand, one_card=one)
            net = pyramid.settle(pyramid.Round(dealer, (seat,)), PYRAMID).seats[0].net_cents
            tally["win" if net > 0 else "push" if net == 0 else "lose"] += 1
        got = counted[alone]
        assert (got.win, got.push, got.lose) == (tally["win"], tally["push"], tally["lose"])
