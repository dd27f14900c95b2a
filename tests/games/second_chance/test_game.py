"""Three Card 2nd Chance: the dealer's house way and every wager's settlement."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tables.engine.cards import DECK
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytables import named, override
from tables.engine.rankings import Category, poker_value
from tables.engine.settlement import Result
from tables.games.second_chance.game import Round, Seat, dealer_draws, settle
from tests.engine.helpers import cards

DEFAULT = named("second_chance", "default")


@pytest.mark.parametrize(
    ("hand", "draws"),
    [
        ("Ks 3d 2c", False),  # K-3-2 of mixed suits: the lowest hand that stands
        ("Ks Qd Jc", False),
        ("As 4d 2c", False),  # ace-high stands
        ("Qs Jd 9c", True),  # queen-high draws
        ("Qs 7d 2c", True),
        ("7s 5d 2c", True),
        ("2s 2d 3c", False),  # every pair stands
        ("7h 5h 2h", False),  # every flush stands, even a 7-high one
        ("Qs Jd Tc", False),  # ruling: a Q-J-T straight stands
        ("As 2d 3c", False),  # the A-2-3 straight stands
        ("4s 4d 4c", False),
        ("5h 6h 7h", False),
    ],
)
def test_dealer_house_way_stands_on_king_high_or_better(hand: str, draws: bool) -> None:
    assert dealer_draws(cards(hand)) is draws


def test_dealer_draws_exactly_on_high_card_queen_or_lower_over_all_hands() -> None:
    lowest_king_high = poker_value(cards("Ks 3d 2c")).score
    for hand in combinations(DECK, 3):
        value = poker_value(hand)
        assert dealer_draws(hand) is (value.score < lowest_king_high)
        if dealer_draws(hand):
            assert value.category is Category.HIGH_CARD and max(c.rank for c in hand) <= 12


def one_seat(seat: Seat, dealer: str, draw: str = "") -> Round:
    return Round(cards(dealer), (seat,), cards(draw) if draw else ())


@pytest.mark.parametrize(
    ("player", "odds"),
    [
        ("5s 6s 7s", Fraction(6)),
        ("9s 9d 9c", Fraction(4)),
        ("9s Td Jc", Fraction(3, 2)),
        ("2h 7h 9h", Fraction(1)),
        ("3s 3d 5c", Fraction(1)),
        ("As Jd 5c", Fraction(1)),
    ],
)
def test_ante_pays_by_the_players_final_hand_when_player_is_higher(
    player: str, odds: Fraction
) -> None:
    s = settle(one_seat(Seat(1, 1000, cards(player)), "Ks 4d 2c"), DEFAULT)
    (line,) = s.seats[0].lines
    assert line.result is Result.WIN
    assert line.net_cents == 1000 * odds


def test_ante_and_raise_push_on_a_tie_and_lose_to_a_higher_dealer() -> None:
    tie = settle(
        one_seat(Seat(1, 500, cards("8s 7d 2c"), mulligan=cards("Kc 5d 3h")), "Kd 5s 3c"), DEFAULT
    )
    assert [(line.wager, line.result, line.net_cents) for line in tie.seats[0].lines] == [
        ("ante", Result.PUSH, 0),
        ("raise", Result.PUSH, 0),
    ]
    lose = settle(one_seat(Seat(1, 500, cards("8s 7d 2c")), "Kd 5s 3c"), DEFAULT)
    assert lose.seats[0].lines[0].net_cents == -500


def test_raise_pays_the_same_odds_as_the_ante_on_the_mulligan_hand() -> None:
    s = settle(
        one_seat(Seat(2, 1000, cards("8s 7d 3c"), mulligan=cards("9h Tc Jd")), "Ks 4d 2c"), DEFAULT
    )
    assert [(line.wager, line.stake_cents, line.net_cents) for line in s.seats[0].lines] == [
        ("ante", 1000, 1500),
        ("raise", 1000, 1500),
    ]
    assert s.seats[0].net_cents == 3000
    assert s.seats[0].final == cards("9h Tc Jd")


@pytest.mark.parametrize(
    ("hand", "net"),
    [
        ("5s 6s 7s", 4000),
        ("9s 9d 9c", 3000),
        ("9s Td Jc", 600),
        ("2h 7h 9h", 300),
        ("3s 3d 5c", 100),
        ("As Jd 5c", -100),
    ],
)
def test_pair_plus_pays_every_line_whatever_the_dealer_holds(hand: str, net: int) -> None:
    # The dealer's trips beat every player hand but a straight flush: pair plus is unaffected.
    s = settle(one_seat(Seat(1, 100, cards(hand), pair_plus_cents=100), "Ks Kd Kc"), DEFAULT)
    pair_plus = s.seats[0].lines[-1]
    assert pair_plus.wager == "pair_plus" and pair_plus.net_cents == net


def test_first_pair_plus_is_settled_on_the_discarded_hand_and_mulligan_pair_plus_on_the_new() -> (
    None
):
    seat = Seat(
        3,
        100,
        cards("Js Jd 4c"),
        pair_plus_cents=200,
        mulligan=cards("2h 7h 9h"),
        mulligan_pair_plus_cents=300,
    )
    s = settle(one_seat(seat, "Ks 4d 2c"), DEFAULT)
    by_wager = {line.wager: line for line in s.seats[0].lines}
    assert list(by_wager) == ["ante", "raise", "pair_plus", "mulligan_pair_plus"]
    assert by_wager["pair_plus"].net_cents == 200  # the discarded pair of jacks
    assert by_wager["mulligan_pair_plus"].net_cents == 900  # the new flush at 3 to 1
    assert by_wager["ante"].result is Result.WIN  # flush beats king-high


def test_dealer_draw_is_final_and_compared() -> None:
    s = settle(one_seat(Seat(1, 100, cards("Ks 8d 2c")), "Qs 7d 2h", "Ah Kd 3c"), DEFAULT)
    assert s.dealer.action.value == "draw"
    assert s.dealer.final == cards("Ah Kd 3c")
    assert s.seats[0].lines[0].result is Result.LOSE


def test_straight_on_an_odd_stake_keeps_the_breakage() -> None:
    s = settle(one_seat(Seat(1, 5, cards("9s Td Jc")), "Ks 4d 2c"), DEFAULT)
    line = s.seats[0].lines[0]
    assert line.net_cents == 7  # 7.5 cents rounds down
    assert line.breakage == Fraction(1, 2)


@pytest.mark.parametrize(
    ("dealer", "draw", "message_part"),
    [
        ("Ks 7d 2c", "Ah Kd 3c", "stands"),
        ("Qs 7d 2c", "", "must draw exactly 3"),
        ("Qs 7d 2c", "Ah Kd", "must draw exactly 3"),
    ],
)
def test_a_draw_against_the_house_way_is_refused(dealer: str, draw: str, message_part: str) -> None:
    with pytest.raises(EngineError) as err:
        settle(one_seat(Seat(1, 100, cards("9h 8h 2s")), dealer, draw), DEFAULT)
    assert err.value.code is Refusal.HOUSE_WAY
    assert message_part in err.value.message


def test_mulligan_pair_plus_without_a_mulligan_is_refused() -> None:
    with pytest.raises(EngineError) as err:
        settle(
            one_seat(Seat(5, 100, cards("9h 8h 2s"), mulligan_pair_plus_cents=100), "Ks 7d 2c"),
            DEFAULT,
        )
    assert err.value.code is Refusal.BAD_WAGER and "seat 5" in err.value.message


def test_a_configured_paytable_changes_the_payout() -> None:
    rich = override(DEFAULT, {"ante": {"straight": "2"}, "pair_plus": {"flush": "4"}})
    s = settle(one_seat(Seat(1, 100, cards("9s Td Jc"), pair_plus_cents=100), "Ks 4d 2c"), rich)
    assert [line.net_cents for line in s.seats[0].lines] == [200, 600]
