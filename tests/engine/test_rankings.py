"""Three-card high (poker) and low rankings, checked over all 22,100 three-card hands."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tables.engine.cards import DECK
from tables.engine.rankings import Category, low_value, poker_value

from .helpers import cards

ALL_HANDS = list(combinations(DECK, 3))


def test_there_are_22100_three_card_hands() -> None:
    assert len(ALL_HANDS) == 22_100


def test_poker_category_counts_match_hand_rankings_md() -> None:
    counts = Counter(poker_value(h).category for h in ALL_HANDS)
    assert counts == {
        Category.STRAIGHT_FLUSH: 48,
        Category.THREE_OF_A_KIND: 52,
        Category.STRAIGHT: 720,
        Category.FLUSH: 1_096,
        Category.PAIR: 3_744,
        Category.HIGH_CARD: 16_440,
    }


def test_lowball_category_counts_with_aces_low() -> None:
    # A-2-3 becomes a straight and Q-K-A stops being one: 11 runs of three ranks.
    counts = Counter(low_value(h).category for h in ALL_HANDS)
    assert counts[Category.STRAIGHT] + counts[Category.STRAIGHT_FLUSH] == 11 * 64
    assert counts[Category.STRAIGHT_FLUSH] == 11 * 4
    assert counts[Category.THREE_OF_A_KIND] == 52
    assert counts[Category.PAIR] == 3_744
    assert sum(counts.values()) == 22_100


POKER_ORDER = [
    Category.HIGH_CARD,
    Category.PAIR,
    Category.FLUSH,
    Category.STRAIGHT,
    Category.THREE_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
]


def test_every_poker_category_beats_every_lower_one() -> None:
    best_of: dict[Category, int] = {}
    worst_of: dict[Category, int] = {}
    for h in ALL_HANDS:
        v = poker_value(h)
        best_of[v.category] = max(best_of.get(v.category, v.score), v.score)
        worst_of[v.category] = min(worst_of.get(v.category, v.score), v.score)
    for lower, higher in zip(POKER_ORDER, POKER_ORDER[1:], strict=False):
        assert best_of[lower] < worst_of[higher]


def test_lowball_best_hand_is_4_2_a_unsuited_and_worst_is_the_top_straight_flush() -> None:
    ranked = sorted(ALL_HANDS, key=lambda h: low_value(h).score)
    assert sorted(c.low_rank for c in ranked[0]) == [1, 2, 4]
    assert low_value(ranked[0]).category is Category.HIGH_CARD
    assert {c.rank for c in ranked[-1]} == {11, 12, 13}
    assert low_value(ranked[-1]).category is Category.STRAIGHT_FLUSH


def test_suits_never_break_ties() -> None:
    by_ranks: dict[tuple[int, ...], set[int]] = {}
    for h in ALL_HANDS:
        v = poker_value(h)
        if v.category in (
            Category.HIGH_CARD,
            Category.PAIR,
            Category.STRAIGHT,
            Category.THREE_OF_A_KIND,
        ):
            by_ranks.setdefault(tuple(sorted(c.rank for c in h)), set()).add(v.score)
    assert all(len(scores) == 1 for scores in by_ranks.values())


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Qh Kh Ah", "Jh Qh Kh"),  # Q-K-A is the highest straight flush
        ("Ah 2h 3h", "Ks Kd Kc"),  # the lowest straight flush still beats trips
        ("2c 2d 2h", "Qs Ks Ad"),  # trips beat the top straight
        ("Qs Kh Ad", "As 2c 3d"),  # A-2-3 is the lowest straight
        ("2s 3c 4d", "As 2c 3d"),  # 2-3-4 beats A-2-3 (its highest card is the 3)
        ("As 2c 3d", "Ah Kh 9h"),  # any straight beats any flush
        ("Ah Kh 9h", "As Ks 8s"),  # flushes compare highest card down
        ("5d 3d 2d", "As Ac Kd"),  # any flush beats any pair
        ("4s 4c 2d", "As Kc Jd"),  # any pair beats high card
        ("Ks Kc 3d", "Qs Qc Ad"),  # pairs compare the pair first
        ("Ks Kc 4d", "Kh Kd 3c"),  # then the third card
        ("Ks Jc 4d", "Ks Tc 9d"),  # high card: highest, then second
        ("Ks Jc 4d", "Kd Jh 3c"),  # then third
    ],
)
def test_poker_ordering_examples(better: str, worse: str) -> None:
    assert poker_value(cards(better)).score > poker_value(cards(worse)).score


def test_k_a_2_is_not_a_straight() -> None:
    assert poker_value(cards("Kc Ad 2h")).category is Category.HIGH_CARD


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("4s 2c Ad", "4s 3c Ad"),  # 4-2-A beats 4-3-A
        ("4s 3c Ad", "5s 2c Ad"),  # beats 5-2-A
        ("Ks Qc 9d", "2s 2c 3d"),  # any high card beats any pair
        ("As Ac 2d", "3s 2s 5s"),  # a pair beats a flush
        ("2s 2c 3d", "2h 2d 4c"),  # pairs compare the pair, then the third card
        ("Ah 5h 8h", "As 2c 3d"),  # a flush beats a straight (A-2-3 is a straight, aces low)
        ("As 2c 3d", "5c 5d 5h"),  # a straight beats trips
        ("Ac Ad Ah", "As 2s 3s"),  # trips beat a straight flush
        ("Qs Kc Ad", "Js Qc Kd"),  # Q-K-A is not a straight; J-Q-K is
    ],
)
def test_lowball_ordering_examples(better: str, worse: str) -> None:
    assert low_value(cards(better)).score < low_value(cards(worse)).score


def test_lowball_flush_compares_highest_card_down() -> None:
    assert low_value(cards("7h 4h 2h")).score < low_value(cards("7s 5s 2s")).score


def test_the_lookup_tables_agree_with_the_evaluators_on_every_hand() -> None:
    """`poker_value` and `low_value` look the value up in tables; the tables must give
    exactly what the evaluators compute, for every hand in two orders."""
    from tables.engine import rankings

    for hand in combinations(DECK, 3):
        for ordered in (hand, hand[::-1]):
            for fast, slow in (
                (rankings.poker_value, rankings._poker_value),
                (rankings.low_value, rankings._low_value),
            ):
                got, want = fast(ordered), slow(ordered)
                assert got == want and got.category is want.category
