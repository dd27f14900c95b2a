"""Three Card Lowball: the dealer's house way, Ante and Bonus settlement, progressive awards."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tables.engine.cards import DECK
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytables import named
from tables.engine.progressive import JACKPOT, MeterConfig
from tables.engine.settlement import Result
from tables.games.lowball import game as lowball
from tables.games.lowball.game import Round, Seat, dealer_house_way, progressive_award, settle
from tests.engine.helpers import cards

PT1 = named("lowball", "1")


def discard_of(hand: str) -> set[str]:
    return {str(c) for c in dealer_house_way(cards(hand)).proposal}


def options_of(hand: str) -> set[frozenset[str]]:
    return {frozenset(str(c) for c in o) for o in dealer_house_way(cards(hand)).options}


# Rule 1: three of a kind -- discard any two of the three.
def test_trips_discard_any_two_and_every_pair_of_them_is_accepted() -> None:
    assert options_of("7s 7d 7c") == {
        frozenset({"7s", "7d"}),
        frozenset({"7s", "7c"}),
        frozenset({"7d", "7c"}),
    }
    assert len(discard_of("7s 7d 7c")) == 2


# Rule 2: flush, straight or straight flush.
@pytest.mark.parametrize(
    ("hand", "discard"),
    [
        ("Kh Qh 2h", {"Kh", "Qh"}),  # flush, two highest both ten or higher: discard both
        ("Kh 9h 2h", {"Kh"}),  # flush, only the highest is ten or higher: discard it alone
        ("8h 5h 2h", {"8h"}),  # flush with nothing high: still discard the highest
        ("Js Qd Kc", {"Kc", "Qd"}),  # straight J-Q-K
        ("9s Td Jc", {"Jc", "Td"}),  # straight 9-T-J: J and T are both ten or higher
        ("8s 9d Tc", {"Tc"}),  # straight 8-9-T: the second highest is a 9
        ("As 2d 3c", {"3c"}),  # A-2-3 is a straight with aces low; its highest card is the 3
        ("Ts Js Qs", {"Qs", "Js"}),  # straight flush
        ("4c 5c 6c", {"6c"}),
    ],
)
def test_flush_and_straight_rule(hand: str, discard: set[str]) -> None:
    assert discard_of(hand) == discard


def test_q_k_a_is_no_straight_with_aces_low_so_the_no_pair_rule_applies() -> None:
    assert discard_of("Qs Kd Ah") == {"Qs", "Kd"}


# Rule 3: one pair.
def test_pair_discards_the_pair_card_matching_the_third_cards_suit() -> None:
    assert options_of("5s 5h 2h") == {frozenset({"5h"})}
    assert options_of("5s 5h 2s") == {frozenset({"5s"})}


def test_pair_with_no_suit_match_accepts_either_pair_card() -> None:
    assert options_of("5s 5h 2c") == {frozenset({"5s"}), frozenset({"5h"})}


def test_high_pair_discards_both_pair_cards() -> None:
    # After one queen goes, the higher card left is the other queen (ten or higher): it goes too.
    assert options_of("Qs Qh 3c") == {frozenset({"Qs", "Qh"})}
    assert options_of("Ts Th 9c") == {frozenset({"Ts", "Th"})}


def test_low_pair_with_a_high_kicker_discards_a_pair_card_and_the_kicker() -> None:
    assert options_of("4s 4h Kc") == {frozenset({"4s", "Kc"}), frozenset({"4h", "Kc"})}


def test_pair_of_aces_is_a_low_pair() -> None:
    assert options_of("As Ah 9c") == {frozenset({"As"}), frozenset({"Ah"})}
    assert options_of("As Ah Jc") == {frozenset({"As", "Jc"}), frozenset({"Ah", "Jc"})}


def test_pair_of_nines_with_a_ten_kicker() -> None:
    assert options_of("9s 9h Tc") == {frozenset({"9s", "Tc"}), frozenset({"9h", "Tc"})}


# Rule 4: no pair.
@pytest.mark.parametrize(
    ("hand", "discard"),
    [
        ("Kd 8s 3h", {"Kd"}),
        ("Kd Js 3h", {"Kd", "Js"}),
        ("Kd Js 9h", {"Kd", "Js"}),
        ("Kd Js Th", {"Kd", "Js"}),  # K-J-T: all three high (not a straight): keep the lowest
        ("8c 3d Ad", set()),  # nothing ten or higher: stand
        ("9c 7d 2s", set()),
        ("Ks Qd 9h", {"Ks", "Qd"}),
    ],
)
def test_no_pair_discards_every_card_ten_or_higher(hand: str, discard: set[str]) -> None:
    assert discard_of(hand) == discard


def test_all_three_high_keeps_the_lowest() -> None:
    assert discard_of("Kd Qs Th") == {"Kd", "Qs"}


def test_house_way_covers_every_hand_and_draws_at_most_two() -> None:
    for hand in combinations(DECK, 3):
        way = dealer_house_way(hand)
        assert len(way.proposal) <= 2
        assert way.accepts(way.proposal)
        assert all(set(o) <= set(hand) for o in way.options)


def seat(
    n: int, hand: str, *, ante: int = 1000, progressive: int = 0, discard: str = "", draw: str = ""
) -> Seat:
    return Seat(
        n,
        ante,
        ante,
        cards(hand),
        cards(discard) if discard else (),
        cards(draw) if draw else (),
        progressive,
    )


@pytest.mark.parametrize("table", ["1", "2", "3"])
@pytest.mark.parametrize(
    ("hand", "line", "odds"),
    [
        ("4h 2d Ah", "a24_one_colour", {"1": 10, "2": 12, "3": 10}),
        ("4h 2c Ah", "a24_two_colour", {"1": 6, "2": 8, "3": 6}),
        ("4h 3c Ah", "a34", {"1": 5, "2": 4, "3": 4}),
        ("5h 3c Ah", "five_high", {"1": 3, "2": 3, "3": 3}),
        ("6h 3c Ah", "six_high", {"1": 2, "2": 2, "3": 2}),
        ("7h 3c Ah", "seven_high", {"1": 1, "2": 1, "3": 1}),
    ],
)
def test_bonus_pays_every_paytable_line(
    table: str, hand: str, line: str, odds: dict[str, int]
) -> None:
    s = settle(Round(cards("Kd Qs 9c"), (seat(1, hand),), cards("8s 9s")), named("lowball", table))
    assert s.seats[0].hand == line
    ante, bonus = s.seats[0].lines
    assert (ante.result, ante.net_cents) == (Result.WIN, 1000)
    assert (bonus.result, bonus.net_cents) == (Result.WIN, 1000 * odds[table])


def test_bonus_pushes_on_a_winning_hand_off_the_paytable() -> None:
    s = settle(Round(cards("Kd Qs 9c"), (seat(1, "8h 3c Ah"),), cards("Ts 9s")), PT1)
    ante, bonus = s.seats[0].lines
    assert ante.result is Result.WIN and bonus.result is Result.PUSH and bonus.net_cents == 0


def test_ante_and_bonus_push_on_a_tie_and_lose_when_the_dealer_is_lower() -> None:
    tie = settle(Round(cards("8c 3d Ad"), (seat(1, "8h 3h As"),)), PT1)
    assert [line.result for line in tie.seats[0].lines] == [Result.PUSH, Result.PUSH]
    lose = settle(Round(cards("7c 3d Ad"), (seat(1, "8h 3h As"),)), PT1)
    assert [line.net_cents for line in lose.seats[0].lines] == [-1000, -1000]


def test_player_discards_and_draws_before_the_comparison() -> None:
    s = settle(
        Round(cards("8c 3d Ad"), (seat(2, "Kh 5s 2c", discard="Kh", draw="4d"),)),
        PT1,
    )
    assert s.seats[0].final == cards("5s 2c 4d")
    assert s.seats[0].hand == "five_high"
    assert s.seats[0].lines[0].result is Result.WIN


def test_dealer_equivalent_free_choice_is_accepted_and_recorded() -> None:
    round_ = Round(
        cards("5s 5h 2c"), (seat(1, "8h 3h As"),), cards("Kd"), dealer_discard=cards("5h")
    )
    s = settle(round_, PT1)
    assert s.dealer.discard == cards("5h")
    assert set(s.dealer.final) == set(cards("5s 2c Kd"))


@pytest.mark.parametrize(
    ("dealer", "discard", "draw", "part"),
    [
        ("5s 5h 2h", "5s", "Kd", "does not discard 5s"),  # the suit rule makes it the 5h
        ("Kd 8s 3h", "8s", "Kc", "does not discard"),
        ("Kd 8s 3h", None, "", "must draw as many"),
        ("Kd 8s 3h", None, "Kc Qc", "must draw as many"),
        ("8c 3d Ad", None, "Kc", "must draw as many"),  # stands: no draw
        ("Kd 8s 3h", "Qc", "Kc", "not one of the dealer's cards"),
    ],
)
def test_dealer_discard_or_draw_against_the_house_way_is_refused(
    dealer: str, discard: str | None, draw: str, part: str
) -> None:
    round_ = Round(
        cards(dealer),
        (seat(1, "9h 4c 6s"),),
        cards(draw) if draw else (),
        dealer_discard=cards(discard) if discard else None,
    )
    with pytest.raises(EngineError) as err:
        settle(round_, PT1)
    assert err.value.code is Refusal.HOUSE_WAY
    assert part in err.value.message


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"discard": "9h 4c 6s", "draw": "2s 3s 5s"}, Refusal.CARD_COUNT),  # never all three
        ({"discard": "9h", "draw": ""}, Refusal.CARD_COUNT),
        ({"discard": "Jh", "draw": "2s"}, Refusal.BAD_CARD),  # not the seat's card
        ({"discard": "9h", "draw": "8c"}, Refusal.DUPLICATE_CARD),  # the dealer holds the 8c
    ],
)
def test_player_draw_refusals(kwargs: dict[str, str], code: Refusal) -> None:
    with pytest.raises(EngineError) as err:
        settle(Round(cards("8c 3d Ad"), (seat(4, "9h 4c 6s", **kwargs),)), PT1)
    assert err.value.code is code
    assert "seat 4" in err.value.message


def test_bonus_must_equal_the_ante() -> None:
    with pytest.raises(EngineError) as err:
        settle(Round(cards("8c 3d Ad"), (Seat(6, 1000, 500, cards("9h 4c 6s")),)), PT1)
    assert err.value.code is Refusal.BAD_WAGER and "seat 6" in err.value.message


def test_progressive_must_be_the_configured_amount() -> None:
    with pytest.raises(EngineError) as err:
        settle(Round(cards("8c 3d Ad"), (seat(2, "9h 4c 6s", progressive=200),)), PT1)
    assert err.value.code is Refusal.BAD_WAGER and "progressive" in err.value.message


# Progressive awards.
@pytest.mark.parametrize(
    ("first", "final", "dealer_first", "wins", "award"),
    [
        ("4h 2c As", "4h 2c As", "4d 2s Ac", False, JACKPOT),  # whoever wins
        ("4h 2c As", "4h 2c As", "4d 2s Ac", True, JACKPOT),
        ("4h 2d Ah", "4h 2d Ah", "9d 8s 7c", True, lowball.ONE_COLOUR),
        ("4h 2c As", "4h 2c As", "9d 8s 7c", True, lowball.TWO_COLOUR),
        ("4h 2d Ah", "4h 2d Ah", "4c 2s 5c", False, None),  # pat 4-2-A that loses: nothing
        ("Kh 2c As", "4d 2c As", "9d 8s 7c", True, lowball.FOUR_HIGH),  # drawn 4-2-A
        ("4h 3c As", "4h 3c As", "9d 8s 7c", True, lowball.FOUR_HIGH),
        ("5h 3c As", "5h 3c As", "9d 8s 7c", True, lowball.FIVE_HIGH),
        ("Kh 3c As", "5h 3c As", "9d 8s 7c", True, lowball.FIVE_HIGH),
        ("6h 3c As", "6h 3c As", "9d 8s 7c", True, None),
        ("4h 2h Ah", "4h 2h Ah", "9d 8s 7c", False, None),  # suited A-2-4 is a flush
    ],
)
def test_progressive_highest_qualifying_award(
    first: str, final: str, dealer_first: str, wins: bool, award: str | None
) -> None:
    assert progressive_award(cards(first), cards(final), cards(dealer_first), wins) is award


def test_fixed_award_pays_the_award_less_the_collected_stake() -> None:
    s = settle(
        Round(cards("Kd Qs 9c"), (seat(1, "4h 2d Ah", progressive=100),), cards("8s 9s")), PT1
    )
    line = s.seats[0].lines[-1]
    assert (line.wager, line.result, line.award, line.net_cents) == (
        "progressive",
        Result.WIN,
        "one_colour",
        19_900,
    )
    assert s.progressive is not None
    assert s.progressive.contributions_cents == 20
    assert s.progressive.meter_after_cents == 2_500_020


def test_jackpot_seats_share_the_meter_with_leftover_cents_to_the_lowest_seats() -> None:
    meter = MeterConfig(meter_cents=1_000_001, reset_cents=500_000, rate=Fraction(1, 5))
    # The dealer's and both players' first three cards are 4-2-A: a jackpot for each player,
    # whoever wins the main game.
    seats = (seat(5, "4h 2c As", progressive=100), seat(2, "4d 2d Ac", progressive=100))
    s = settle(Round(cards("4c 2s Ah"), seats, progressive=meter), PT1)
    p = s.progressive
    assert p is not None
    pool = 1_000_001 + 40  # contributions are added before the jackpot is paid
    assert p.paid_cents == pool and p.meter_after_cents == 500_000
    shares = {st.seat: st.lines[-1].net_cents + 100 for st in s.seats}
    assert shares == {2: pool // 2 + 1, 5: pool // 2}
    assert all(st.lines[-1].award == "jackpot" for st in s.seats)
