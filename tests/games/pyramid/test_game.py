"""Pyramid Poker: fouls, the dealer's house way, the player's "set it for me", settlement."""

from __future__ import annotations

from itertools import combinations

import pytest

from tables.engine.cards import DECK
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytables import named
from tables.engine.settlement import Result
from tables.games.pyramid.game import Round, Seat, dealer_setting, player_setting, settle, split
from tests.engine.helpers import card, cards

DEFAULT = named("pyramid", "default")


# Dealer house way, one example per rule (and both sides of every threshold).
@pytest.mark.parametrize(
    ("hand", "one_card", "rule"),
    [
        ("Kc 9d 5h", "9d", "three singletons: the middle card alone"),
        ("2c 3d 4h", "3d", "three singletons"),
        ("8c 8d Ah", "Ah", "pair of 2s-8s together"),
        ("2c 2d 3h", "3h", "pair of 2s together"),
        ("9c 9d 6h", "6h", "nines together with a 6 or higher"),
        ("9c 9d 5h", "9c", "nines split with a 5"),
        ("Tc Td 7h", "7h", "tens together with a 7 or higher"),
        ("Tc Td 6h", "Tc", "tens split with a 6"),
        ("Jc Jd 8h", "8h", "jacks together with an 8 or higher"),
        ("Jc Jd 7h", "Jc", "jacks split with a 7"),
        ("Qc Qd 9h", "9h", "queens together with a 9 or higher"),
        ("Qc Qd 8h", "Qc", "queens split with an 8"),
        ("Kc Kd Th", "Th", "kings together with a ten or higher"),
        ("Kc Kd 9h", "Kc", "kings split with a 9"),
        ("Ac Ad Jh", "Jh", "aces together with a jack or higher"),
        ("Ac Ad Th", "Ac", "aces split with a ten"),
        ("7c 7d 7h", "7h", "trips: the pair together, the third alone"),
    ],
)
def test_dealer_house_way(hand: str, one_card: str, rule: str) -> None:
    setting = dealer_setting(cards(hand))
    assert setting.one_card.rank == card(one_card).rank, rule
    assert setting.is_pair is ("together" in rule or "trips" in rule), rule


# Player strategy ("set it for me").
@pytest.mark.parametrize(
    ("hand", "alone_rank"),
    [
        ("Ks 9d 5h", 9),  # middle card alone
        ("2s 3d 5h", 2),  # 2-3 and a 5 or higher: the lowest alone
        ("2s 3d Ah", 2),
        ("2s 3d 4h", 3),  # 2-3-4: middle
        ("2s 4d Qh", 2),  # 2-4 and a queen or higher: the lowest alone
        ("2s 4d Jh", 4),  # 2-4-J: middle
        ("3s 4d Kh", 4),
        ("Jc Js 4c", 11),  # 2-4 single with jacks or higher: split
        ("Tc Ts 4c", 4),  # ... but tens stay together
        ("Qc Qs 7c", 12),  # 5-7 single with queens or higher: split
        ("Jc Js 7c", 7),
        ("Kc Ks 9c", 13),  # 8-9 single with kings or higher: split
        ("Qc Qs 9c", 9),
        ("Ac As Jc", 14),  # ten or jack single with aces: split
        ("Kc Ks Jc", 11),
        ("Ac As Qc", 12),  # aces with a queen: together
        ("3c 3s Ac", 14),  # a single above the pair: together
        ("5c 5s 5h", 5),  # trips: pair together, one alone
    ],
)
def test_player_set_it_for_me(hand: str, alone_rank: int) -> None:
    assert player_setting(cards(hand)).one_card.rank == alone_rank


def test_both_house_ways_always_give_a_legal_setting() -> None:
    for hand in combinations(DECK, 3):
        for setting in (dealer_setting(hand), player_setting(hand)):
            assert setting.is_pair or setting.one_card.rank <= setting.two_card[0].rank
            assert {setting.one_card, *setting.two_card} == set(hand)


def test_single_above_the_two_card_hand_is_a_foul() -> None:
    with pytest.raises(EngineError) as err:
        split(cards("Ah Qd 3c"), card("Ah"))
    assert err.value.code is Refusal.FOUL and "Ah" in err.value.message


def test_single_equal_to_the_top_of_the_two_card_hand_is_legal() -> None:
    assert split(cards("Ah Ad 3c"), card("Ad")).two_card == (card("Ah"), card("3c"))


def test_pair_in_the_two_card_hand_is_always_above_the_single() -> None:
    assert split(cards("2h 2d Ac"), card("Ac")).is_pair


def test_a_single_not_among_the_cards_is_a_foul() -> None:
    with pytest.raises(EngineError) as err:
        split(cards("Ah Qd 3c"), card("Kd"))
    assert err.value.code is Refusal.FOUL


def round_of(dealer: str, hand: str, one: str | None) -> Round:
    return Round(cards(dealer), (Seat(1, 1000, cards(hand), card(one) if one else None),))


@pytest.mark.parametrize(
    ("dealer", "hand", "one", "result"),
    [
        ("Kc 9d 5h", "Ah Qd 3c", "Qd", Result.WIN),  # A-3 beats K-5 and Q beats 9
        ("Kc 9d 5h", "Ah 8d 3c", "8d", Result.PUSH),  # two-card wins, single loses
        ("Kc 9d 5h", "Qh 8d 3c", "8d", Result.LOSE),
        ("Kc 9d 5h", "Kh 5c 9c", "9c", Result.LOSE),  # copies go to the dealer
        ("Kc 9d 5h", "Kh 6c 9c", "9c", Result.PUSH),  # K-6 beats K-5; the 9s copy
        ("Kc 9d 5h", "2h 2c Td", "Td", Result.WIN),  # any pair beats two singletons
        ("Jc Jd 8h", "Qh Qs 9c", "9c", Result.WIN),  # pairs by rank
    ],
)
def test_settlement_one_card_against_one_card_two_against_two(
    dealer: str, hand: str, one: str, result: Result
) -> None:
    line = settle(round_of(dealer, hand, one), DEFAULT).seats[0].lines[0]
    assert line.result is result
    assert line.net_cents == {Result.WIN: 1000, Result.PUSH: 0, Result.LOSE: -1000}[result]


def test_settle_refuses_a_foul_naming_the_seat() -> None:
    with pytest.raises(EngineError) as err:
        settle(round_of("Kc 9d 5h", "Ah Qd 3c", "Ah"), DEFAULT)
    assert err.value.code is Refusal.FOUL and "seat 1" in err.value.message


def test_house_way_seat_is_set_by_the_player_strategy() -> None:
    s = settle(round_of("Kc 9d 5h", "2s 3d 7h", None), DEFAULT)
    assert s.seats[0].one_card == card("2s")  # the dealer's own way would put the 3 alone
    assert dealer_setting(cards("2s 3d 7h")).one_card == card("3d")
