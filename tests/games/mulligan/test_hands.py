"""Mulligan five-card hands (`hand_rankings.md`, "Mulligan"): named examples of every category
and tricky rule, category counts over the whole deck, and an independent brute-force
classifier compared with `mulligan_value` on random and exhaustive sets of hands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise
from math import comb, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.cards import DECK, Card, parse_cards
from tables.games.mulligan.hands import (
    MulliganCategory,
    MulliganValue,
    best_of,
    compare,
    mulligan_value,
)

C = MulliganCategory


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text, where="test")


def value(text: str) -> MulliganValue:
    return mulligan_value(hand(text))


def shown(cards: Sequence[Card]) -> set[str]:
    return {str(c) for c in cards}


# --- categories and their value hands -------------------------------------------------------


def test_categories_are_listed_worst_to_best_as_in_hand_rankings_md() -> None:
    assert [c.value for c in MulliganCategory] == [
        "high_card",
        "pair",
        "two_pair",
        "low_straight",
        "three_of_a_kind",
        "high_straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
    ]


@pytest.mark.parametrize(
    ("text", "category", "value_hand", "top"),
    [
        ("Ah 9s 7d 4c 2h", C.HIGH_CARD, "Ah", "Ah"),
        ("8c 8h Kd 4s 2c", C.PAIR, "8c 8h", "8h"),
        ("8c 8h 3d 3s Ac", C.TWO_PAIR, "8c 8h 3d 3s", "8h"),
        ("6c 7h 8d 9s Kc", C.LOW_STRAIGHT, "6c 7h 8d 9s", "9s"),
        ("Jc Jh Jd 4s 2c", C.THREE_OF_A_KIND, "Jc Jh Jd", "Jh"),
        ("6c 7h 8d 9s Tc", C.HIGH_STRAIGHT, "6c 7h 8d 9s Tc", "Tc"),
        ("2d 5d 9d Jd Kd", C.FLUSH, "2d 5d 9d Jd Kd", "Kd"),
        ("4c 4h 4d 9s 9c", C.FULL_HOUSE, "4c 4h 4d 9s 9c", "9s"),
        ("7c 7h 7d 7s 2c", C.FOUR_OF_A_KIND, "7c 7h 7d 7s", "7s"),
        ("5h 6h 7h 8h 9h", C.STRAIGHT_FLUSH, "5h 6h 7h 8h 9h", "9h"),
    ],
)
def test_each_category_is_recognised_with_its_value_hand_and_top_card(
    text: str, category: MulliganCategory, value_hand: str, top: str
) -> None:
    v = value(text)
    assert v.category is category
    assert shown(v.value_hand) == set(value_hand.split())
    assert str(v.top) == top
    assert v.value_hand[0] == v.top


def test_a_better_category_beats_a_worse_one_whatever_the_cards() -> None:
    # The worst hand of each category against the best of the one below it.
    ladder = [
        ("2d 2c 4h 6d 8c", "As Kh Qh Th 8s"),  # pair of twos beats ace high
        ("3d 3c 2h 2d 4c", "As Ah Kh Qd 9c"),  # two pair beats aces
        ("Ad 2c 3h 4d 9c", "As Ah Ks Kd Qc"),  # lowest low straight beats aces up
        ("2d 2c 2h 4s 9c", "Ac Kc Qd Js Jd"),  # trips beat the highest low straight
        ("Ad 2c 3h 4d 5c", "As Ah Ac Kd Qh"),  # the wheel beats trip aces
        ("2d 3d 4d 5d 7d", "Ts Js Qh Kd Ac"),  # a low flush beats the best high straight
        ("2d 2c 2h 3s 3c", "4h 6h 8h Th Ah"),  # the worst full house beats an ace-high flush
        ("2d 2c 2h 2s 3c", "Ks Kh Kc As Ah"),  # four twos beat a full house
        ("Ad 2d 3d 4d 5d", "As Ah Ac Ad Ks"),  # the suited wheel beats four aces
    ]
    for better, worse in ladder:
        assert compare(hand(better), hand(worse)) == 1, (better, worse)
        assert compare(hand(worse), hand(better)) == -1, (better, worse)


# --- aces in straights ----------------------------------------------------------------------


def test_ace_plays_low_in_a_2_3_4_low_straight_whose_top_is_the_four() -> None:
    v = value("As 2d 3c 4h 9c")
    assert v.category is C.LOW_STRAIGHT
    assert str(v.top) == "4h"
    assert shown(v.value_hand) == {"As", "2d", "3c", "4h"}


def test_ace_low_straight_is_the_lowest_low_straight() -> None:
    assert compare(hand("As 2s 3s 4h 9c"), hand("2d 3d 4d 5c Jc")) == -1


def test_ace_plays_low_in_a_2_3_4_5_high_straight_whose_top_is_the_five() -> None:
    v = value("As 2d 3c 4h 5c")
    assert v.category is C.HIGH_STRAIGHT
    assert str(v.top) == "5c"


def test_the_wheel_is_the_lowest_high_straight() -> None:
    assert compare(hand("As 2s 3s 4s 5h"), hand("2d 3d 4d 5d 6c")) == -1


def test_ace_plays_high_in_j_q_k_a_low_straight() -> None:
    v = value("Jc Qd Kh As 3c")
    assert v.category is C.LOW_STRAIGHT
    assert str(v.top) == "As"
    assert compare(hand("Jc Qd Kh As 3c"), hand("Td Jd Qc Kc 3d")) == 1


def test_ace_plays_high_in_t_j_q_k_a_high_straight() -> None:
    v = value("Tc Jd Qh Ks Ac")
    assert v.category is C.HIGH_STRAIGHT
    assert str(v.top) == "Ac"


def test_q_k_a_2_3_is_not_a_straight_the_ace_is_not_both_high_and_low() -> None:
    v = value("Qc Kd Ah 2s 3c")
    assert v.category is C.HIGH_CARD
    assert str(v.top) == "Ah"


def test_k_a_2_3_is_not_a_straight() -> None:
    assert value("Kc Ad 2h 3s 8c").category is C.HIGH_CARD
    assert value("Kc Ad 2h 3s 3c").category is C.PAIR


def test_k_a_2_3_4_is_not_a_high_straight_but_its_a_2_3_4_is_a_low_straight() -> None:
    v = value("Kc Ad 2h 3s 4c")
    assert v.category is C.LOW_STRAIGHT
    assert str(v.top) == "4c"
    assert shown(v.value_hand) == {"Ad", "2h", "3s", "4c"}


def test_suited_wheel_is_a_straight_flush_topped_by_the_five() -> None:
    v = value("Ah 2h 3h 4h 5h")
    assert v.category is C.STRAIGHT_FLUSH
    assert str(v.top) == "5h"
    assert compare(hand("Ah 2h 3h 4h 5h"), hand("2s 3s 4s 5s 6s")) == -1


# --- suits break ties -----------------------------------------------------------------------


def test_suits_break_rank_ties_spades_over_hearts_over_clubs_over_diamonds() -> None:
    high_cards = ["As 9s 7d 4c 2h", "Ah 9h 7c 4d 2s", "Ac 9c 7s 4h 2d", "Ad 9d 7h 4s 2c"]
    for better, worse in pairwise(high_cards):
        assert compare(hand(better), hand(worse)) == 1, (better, worse)
    winner = best_of([hand(h) for h in reversed(high_cards)])
    assert winner == 3  # the ace of spades, last in the reversed list


def test_only_the_highest_card_counts_not_the_rest_of_the_hand() -> None:
    # Same top rank: the suit of the top decides, even against a better second card.
    assert compare(hand("Kh 3c 4d 6s 8c"), hand("Kd Qs Js 9h 7h")) == 1


def test_between_equal_pairs_the_pair_holding_the_better_suit_wins() -> None:
    assert compare(hand("Ks Kd 2c 3c 4h"), hand("Kh Kc Ad 9d 7s")) == 1


def test_between_equal_high_straights_the_top_card_suit_decides() -> None:
    assert compare(hand("5d 6d 7d 8d 9c"), hand("5s 6s 7s 8s 9d")) == 1


def test_between_flushes_the_highest_card_decides() -> None:
    assert compare(hand("2s 3s 4s 5s Ks"), hand("Qh Jh Th 8h 7h")) == 1


# --- full house -----------------------------------------------------------------------------


def test_full_house_value_hand_is_all_five_cards_topped_by_the_highest_of_them() -> None:
    v = value("Qs Qh Qd Ac Ad")
    assert v.category is C.FULL_HOUSE
    assert shown(v.value_hand) == {"Qs", "Qh", "Qd", "Ac", "Ad"}
    assert str(v.top) == "Ac"


def test_full_house_compared_by_its_highest_card_so_queens_full_of_aces_beat_kings_full() -> None:
    assert compare(hand("Qs Qh Qd Ac Ad"), hand("Kc Kh Ks 2c 2d")) == 1


def test_full_house_compared_literally_by_highest_card_even_against_higher_trips() -> None:
    # Per the spec's wording (the value hand is all five cards), not poker's "trips first".
    assert compare(hand("2s 2h 2d Ac Ad"), hand("Kc Kh Ks Qc Qd")) == 1


# --- low straights with a duplicated rank ---------------------------------------------------


def test_low_straight_with_a_duplicated_top_rank_uses_the_better_suited_card() -> None:
    v = value("9s Ts Jh Qc Qh")
    assert v.category is C.LOW_STRAIGHT
    assert str(v.top) == "Qh"
    assert shown(v.value_hand) == {"9s", "Ts", "Jh", "Qh"}
    assert compare(hand("9c Tc Jc Qh Qd"), hand("9h Th Jh Qc 2s")) == 1


def test_low_straight_with_a_duplicated_lower_rank_keeps_the_run_top() -> None:
    v = value("5c 5s 6h 7d 8c")
    assert v.category is C.LOW_STRAIGHT
    assert str(v.top) == "8c"
    assert len(v.value_hand) == 4
    assert {c.rank for c in v.value_hand} == {5, 6, 7, 8}


def test_a_four_card_run_plus_a_pair_is_a_low_straight_not_a_pair() -> None:
    v = value("5c 6h 7d 8s 8c")
    assert v.category is C.LOW_STRAIGHT
    assert str(v.top) == "8s"
    # So it beats two pair and loses to three of a kind.
    assert compare(hand("5c 6h 7d 8s 8c"), hand("As Ah Ks Kh Qd")) == 1
    assert compare(hand("5c 6h 7d 8s 8c"), hand("2s 2h 2d 3c 4d")) == -1


# --- flushes and straights ------------------------------------------------------------------


def test_flush_beats_high_straight_and_high_straight_beats_three_of_a_kind() -> None:
    flush = hand("2c 4c 6c 8c Tc")
    straight = hand("Ts Jh Qd Ks Ah")
    trips = hand("As Ad Ac Kc Qc")
    assert compare(flush, straight) == 1
    assert compare(straight, trips) == 1
    assert best_of([trips, straight, flush]) == 2


def test_four_suited_cards_in_a_run_plus_a_fifth_of_that_suit_is_a_flush() -> None:
    v = value("5s 6s 7s 8s Ts")
    assert v.category is C.FLUSH
    assert str(v.top) == "Ts"


def test_five_suited_cards_in_a_run_are_a_straight_flush_not_a_flush() -> None:
    assert value("9d Td Jd Qd Kd").category is C.STRAIGHT_FLUSH


# --- the other value hands ------------------------------------------------------------------


def test_two_pair_value_hand_is_the_four_pair_cards_topped_by_the_higher_pair() -> None:
    v = value("3s 3h 9c 9d As")
    assert v.category is C.TWO_PAIR
    assert shown(v.value_hand) == {"3s", "3h", "9c", "9d"}
    assert str(v.top) == "9c"
    # The kicker ace does not count: the better nine does.
    assert compare(hand("9h 9s 4c 4d 2c"), hand("3c 3d 9c 9d As")) == 1


def test_high_card_value_hand_is_the_single_highest_card() -> None:
    v = value("2c 5d 9h Js Kd")
    assert v.value_hand == (v.top,)
    assert str(v.top) == "Kd"


def test_four_of_a_kind_is_topped_by_its_spade() -> None:
    assert str(value("Ac 9h 9c 9d 9s").top) == "9s"


def test_three_of_a_kind_is_topped_by_its_best_suit() -> None:
    v = value("Tc Td Th As 2c")
    assert shown(v.value_hand) == {"Tc", "Td", "Th"}
    assert str(v.top) == "Th"


# --- the API --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards",
    [
        hand("As Ks Qs Js"),
        hand("As Ks Qs Js Ts 9s"),
        hand("As As Qs Js Ts"),
        (Card(14, "s"), Card(13, "s"), Card(12, "s"), Card(11, "s"), Card(1, "s")),
        (Card(14, "s"), Card(13, "s"), Card(12, "s"), Card(11, "s"), Card(10, "x")),
    ],
    ids=["four cards", "six cards", "a card twice", "rank 1", "suit x"],
)
def test_a_hand_that_is_not_five_distinct_cards_is_refused(cards: tuple[Card, ...]) -> None:
    with pytest.raises(ValueError):
        mulligan_value(cards)


def test_compare_says_1_when_the_first_hand_wins_and_minus_1_when_the_second_does() -> None:
    pair = hand("2c 2d 5h 7s 9c")
    ace_high = hand("As Kd Qh 8c 3d")
    assert compare(pair, ace_high) == 1
    assert compare(ace_high, pair) == -1


def test_best_of_gives_the_index_of_the_winning_hand() -> None:
    hands = [hand("As Kd Qh 8c 3d"), hand("7c 7d 7h 2s 4c"), hand("2c 2d 5h 5s 9c")]
    assert best_of(hands) == 1


def test_best_of_refuses_no_hands() -> None:
    with pytest.raises(ValueError):
        best_of([])


def test_key_orders_by_category_first_then_the_top_card() -> None:
    worst_pair = value("2d 2c 3d 4c 6d")
    best_high_card = value("As Ks Qs Ts 8h")
    assert worst_pair.key > best_high_card.key
    assert value("Ts Th 2c 3c 4d").key > value("Tc Td 2s 3s 4h").key


# --- counts over the whole deck -------------------------------------------------------------

# Derived by hand from `hand_rankings.md` (not from the code under test):
# - straight flush: 10 runs x 4 suits; four of a kind: 13 x 48; full house: 13*4 x 12*6;
# - flush: 4 * C(13,5) minus the straight flushes; high straight: 10 * 4^5 minus them;
# - three of a kind: 13 * 4 * C(12,2) * 4^2; two pair: C(13,2) * 6 * 6 * 44;
# - low straight: 11 four-rank runs (A-2-3-4 .. J-Q-K-A). With a pair: 11 runs x 4 ranks to pair
#   x C(4,2) x 4^3. With five distinct ranks: a fifth rank extending no run to five (7 choices
#   for the nine middle runs, 8 for A-2-3-4 and J-Q-K-A, no K-A-2 wrap) = 79 rank sets, each with
#   4^5 - 4 non-flush suitings;
# - pair and high card: poker's 1,098,240 and 1,302,540 less those low straights.
EXPECTED_COUNTS = {
    C.STRAIGHT_FLUSH: 40,
    C.FOUR_OF_A_KIND: 624,
    C.FULL_HOUSE: 3_744,
    C.FLUSH: 5_108,
    C.HIGH_STRAIGHT: 10_200,
    C.THREE_OF_A_KIND: 54_912,
    C.LOW_STRAIGHT: 11 * 4 * 6 * 64 + 79 * 1_020,
    C.TWO_PAIR: 123_552,
    C.PAIR: 1_098_240 - 11 * 4 * 6 * 64,
    C.HIGH_CARD: 1_302_540 - 79 * 1_020,
}


def test_expected_counts_cover_all_2598960_hands() -> None:
    assert sum(EXPECTED_COUNTS.values()) == comb(52, 5) == 2_598_960


def test_category_counts_over_all_2598960_hands_match_the_combinatorics() -> None:
    # One hand per rank pattern (and per flush / not flush), weighted by its suitings: the
    # category depends only on the ranks and on whether all five suits agree.
    counts: Counter[MulliganCategory] = Counter()
    for ranks in combinations_with_replacement(range(2, 15), 5):
        copies = Counter(ranks)
        if max(copies.values()) > 4:
            continue
        suitings = prod(comb(4, n) for n in copies.values())
        if len(copies) == 5:
            counts[mulligan_value([Card(r, "s") for r in ranks]).category] += 4
            suitings -= 4
            cards = [Card(r, "h" if i == 0 else "s") for i, r in enumerate(ranks)]
        else:
            cards = [Card(r, s) for r, n in copies.items() for s in "shdc"[:n]]
        counts[mulligan_value(cards).category] += suitings
    assert counts == EXPECTED_COUNTS


# --- an independent brute-force classifier --------------------------------------------------

SUITS_LOW_TO_HIGH = "dchs"


def strength(card: Card) -> tuple[int, int]:
    return card.rank, SUITS_LOW_TO_HIGH.index(card.suit)


def run_top(cards: Sequence[Card]) -> Card | None:
    """The top card if `cards` are consecutive ranks with every ace high, or every ace low."""
    for ace in (14, 1):
        ranked = sorted((ace if c.rank == 14 else c.rank, strength(c), c) for c in cards)
        values = [v for v, _, _ in ranked]
        if values == list(range(values[0], values[0] + len(values))):
            return ranked[-1][2]
    return None


def best_card(cards: Sequence[Card]) -> Card:
    return max(cards, key=strength)


def rank_shape(cards: Sequence[Card]) -> list[int]:
    return sorted(Counter(c.rank for c in cards).values())


def one_suit(cards: Sequence[Card]) -> bool:
    return len({c.suit for c in cards}) == 1


def best_card_if(test: bool, cards: Sequence[Card]) -> Card | None:
    return best_card(cards) if test else None


# Best category first: (category, size of the value hand, its top card if it makes it).
TopOf = Callable[[Sequence[Card]], Card | None]
REFERENCE: list[tuple[MulliganCategory, int, TopOf]] = [
    (C.STRAIGHT_FLUSH, 5, lambda cs: run_top(cs) if one_suit(cs) else None),
    (C.FOUR_OF_A_KIND, 4, lambda cs: best_card_if(rank_shape(cs) == [4], cs)),
    (C.FULL_HOUSE, 5, lambda cs: best_card_if(rank_shape(cs) == [2, 3], cs)),
    (C.FLUSH, 5, lambda cs: best_card_if(one_suit(cs), cs)),
    (C.HIGH_STRAIGHT, 5, run_top),
    (C.THREE_OF_A_KIND, 3, lambda cs: best_card_if(rank_shape(cs) == [3], cs)),
    (C.LOW_STRAIGHT, 4, run_top),
    (C.TWO_PAIR, 4, lambda cs: best_card_if(rank_shape(cs) == [2, 2], cs)),
    (C.PAIR, 2, lambda cs: best_card_if(rank_shape(cs) == [2], cs)),
    (C.HIGH_CARD, 1, best_card),
]
REFERENCE_ORDER = [c for c, _, _ in reversed(REFERENCE)]


def reference(cards: Sequence[Card]) -> tuple[MulliganCategory, Card, frozenset[Card]]:
    """Try every subset of each category's size, best category first; keep the best top."""
    for category, size, top_of in REFERENCE:
        found: list[tuple[tuple[int, int], list[tuple[int, int]], tuple[Card, ...]]] = []
        for subset in combinations(cards, size):
            top = top_of(subset)
            if top is not None:
                found.append((strength(top), sorted(map(strength, subset), reverse=True), subset))
        if found:
            _, _, subset = max(found)
            top = top_of(subset)
            assert top is not None
            return category, top, frozenset(subset)
    raise AssertionError("every hand has a high card")


def reference_key(cards: Sequence[Card]) -> tuple[int, tuple[int, int]]:
    category, top, _ = reference(cards)
    return REFERENCE_ORDER.index(category), strength(top)


def agrees_with_reference(cards: Sequence[Card]) -> None:
    v = mulligan_value(cards)
    category, top, value_hand = reference(cards)
    assert (v.category, v.top, frozenset(v.value_hand)) == (category, top, value_hand), cards
    assert len(v.value_hand) == len(value_hand)


def test_reference_classifier_sanity() -> None:
    assert reference(hand("9s Ts Jh Qc Qh"))[:2] == (C.LOW_STRAIGHT, Card(12, "h"))
    assert reference(hand("Kc Ad 2h 3s 4c"))[:2] == (C.LOW_STRAIGHT, Card(4, "c"))
    assert reference(hand("Qc Kd Ah 2s 3c"))[:2] == (C.HIGH_CARD, Card(14, "h"))


@pytest.mark.parametrize(
    ("ranks", "suits"),
    [("JQKA2345", "sh"), ("KA234", "shd"), ("89TJQ", "scd")],
    ids=["wraps and wheels in two suits", "aces low with trips", "middle runs with trips"],
)
def test_every_hand_of_a_small_deck_agrees_with_the_reference(ranks: str, suits: str) -> None:
    small_deck = [c for c in DECK if str(c)[0] in ranks and c.suit in suits]
    for cards in combinations(small_deck, 5):
        agrees_with_reference(cards)


def five_distinct(deck: Sequence[Card]) -> st.SearchStrategy[list[Card]]:
    return st.lists(st.sampled_from(deck), min_size=5, max_size=5, unique=True)


@st.composite
def dense_hands(draw: st.DrawFn) -> list[Card]:
    """Five cards from few ranks (a window, possibly around the ace) and few suits, so runs,
    flushes and sets come up far more often than in uniform deals."""
    start = draw(st.integers(0, 12))
    width = draw(st.integers(5, 7))
    ranks = {(start + i) % 13 + 2 for i in range(width)}
    suits = draw(st.sets(st.sampled_from("cdhs"), min_size=1))
    return draw(five_distinct([c for c in DECK if c.rank in ranks and c.suit in suits]))


hands = st.one_of(five_distinct(DECK), dense_hands())


@settings(max_examples=2_000, deadline=None)
@given(hands)
def test_random_hands_agree_with_the_brute_force_reference(cards: list[Card]) -> None:
    agrees_with_reference(cards)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=10, max_size=10, unique=True))
def test_two_hands_sharing_no_card_never_tie_and_compare_is_antisymmetric(
    cards: list[Card],
) -> None:
    a, b = cards[:5], cards[5:]
    result = compare(a, b)
    assert result in (1, -1)
    assert compare(b, a) == -result
    ka, kb = reference_key(a), reference_key(b)
    assert result == (1 if ka > kb else -1)
    assert best_of([a, b]) == (0 if result == 1 else 1)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=15, max_size=15, unique=True))
def test_compare_is_transitive_and_best_of_picks_the_hand_beating_the_others(
    cards: list[Card],
) -> None:
    a, b, c = cards[:5], cards[5:10], cards[10:]
    if compare(a, b) == 1 and compare(b, c) == 1:
        assert compare(a, c) == 1
    if compare(a, b) == -1 and compare(b, c) == -1:
        assert compare(a, c) == -1
    trio = [a, b, c]
    winner = best_of(trio)
    assert all(compare(trio[winner], h) == 1 for i, h in enumerate(trio) if i != winner)
