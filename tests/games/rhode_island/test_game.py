"""Rhode Island Hold 'Em: scripted hands for every betting path, PokerKit configured to the
contract (raise cap, rake, odd chips), and the state machine the tablet drives."""

from __future__ import annotations

import functools
from decimal import Decimal
from itertools import combinations

import pytest
from pokerkit import Deck, RhodeIslandHoldem, RhodeIslandHoldemHand
from pokerkit.utilities import rake as pokerkit_rake

from tables.engine.cards import DECK
from tables.engine.errors import EngineError, Refusal
from tables.engine.rankings import poker_value
from tables.games.rhode_island.game import (
    BettingRound,
    HandSetup,
    LegalAction,
    Move,
    PotView,
    RakeRule,
    RhodeIslandHand,
    Waiting,
)
from tables.games.rhode_island.replay import hand_record, replay_record, replay_rhode_island
from tests.engine.helpers import card, cards

from .helpers import new_hand, play, pokerkit_payoffs


def moves(hand: RhodeIslandHand) -> dict[str, int]:
    """The legal actions now, with the chips each puts in."""
    return {a.move.value: a.amount for a in hand.legal_actions()}


def refused(hand: RhodeIslandHand, action: str, **kw: int) -> EngineError:
    """Apply an action that must be refused; check the hand did not change."""
    before = (hand.to_act, hand.stacks, hand.bets, hand.legal_actions(), len(hand.history))
    with pytest.raises(EngineError) as info:
        hand.act(action, **kw)
    after = (hand.to_act, hand.stacks, hand.bets, hand.legal_actions(), len(hand.history))
    assert after == before
    return info.value


# -- every betting path ------------------------------------------------------------------


def test_checks_through_to_a_showdown() -> None:
    hand = play([100, 100], "Ah Kd", ["check"] * 6, flop="2c", turn="7d")
    result = hand.result()
    assert (result.pot, result.rake, result.showdown) == (10, 0, True)
    assert result.hands == ("high_card", "high_card")
    assert result.winners == (0,)
    assert result.payoffs == (5, -5)
    assert result.stacks == (105, 95)
    assert [r.move for r in hand.history] == [Move.CHECK] * 6
    assert [r.betting_round for r in hand.history] == [BettingRound.HOLE] * 2 + [
        BettingRound.FLOP
    ] * 2 + [BettingRound.TURN] * 2


def test_bet_raise_call_the_contract_example() -> None:
    hand = new_hand(
        [200, 200], "Ah Kd", rake=RakeRule(Decimal("5"), 3), bets=(10, 20, 20), raise_cap=3
    )
    assert hand.to_act == 0
    assert moves(hand) == {"check": 0, "bet": 10}
    hand.act("bet")
    assert moves(hand) == {"fold": 0, "call": 10, "raise": 20}
    hand.act("raise")
    assert moves(hand) == {"fold": 0, "call": 10, "raise": 20}
    hand.act("call")
    assert hand.waiting is Waiting.FLOP
    assert hand.pot_total == 50 and hand.stacks == (175, 175)
    hand.deal_flop(card("Ac"))
    hand.act("check")
    hand.act("check")
    hand.deal_turn(card("2s"))
    hand.act("bet")
    assert moves(hand) == {"fold": 0, "call": 20, "raise": 40}
    record = hand.act("call")
    assert record.amount == 20 and record.pot_after == 90
    result = hand.result()
    assert (result.pot, result.rake, result.showdown) == (90, 3, True)
    assert result.hands == ("pair", "high_card")
    assert result.winners == (0,)
    assert result.payoffs == (42, -45)


def test_the_raise_cap_allows_a_bet_and_cap_raises_then_only_call_or_fold() -> None:
    # PokerKit's ready-made variant allows a bet and two raises; ours is configured to the cap.
    assert RhodeIslandHoldem.max_completion_betting_or_raising_count == 3
    hand = play([500, 500], "Ah Kd", ["bet", "raise", "raise", "raise"], raise_cap=3)
    assert hand.to_act == 0
    assert moves(hand) == {"fold": 0, "call": 10}
    err = refused(hand, "raise")
    assert err.code is Refusal.ILLEGAL_ACTION
    assert "player 0 cannot raise" in err.message and "raise cap" in err.message
    hand.act("call")
    assert hand.pot_total == 10 + 2 * 40


@pytest.mark.parametrize("cap", [0, 1, 2, 4, 6])
def test_every_raise_cap_is_applied_in_every_betting_round(cap: int) -> None:
    each_round = ["bet"] + ["raise"] * cap + ["call"]
    hand = play([10_000] * 2, "Ah Kd", each_round * 3, flop="2c", turn="7d", raise_cap=cap)
    assert hand.waiting is Waiting.OVER
    per_player = 5 + (cap + 1) * (10 + 20 + 20)
    assert hand.result().pot == 2 * per_player


def test_a_fold_before_the_flop_ends_the_hand_without_rake() -> None:
    hand = play([100, 100], "Ah Kd", ["bet", "fold"], rake=RakeRule(Decimal(10)))
    result = hand.result()
    assert hand.waiting is Waiting.OVER
    # The unmatched bet of 10 goes back to player 0; the pot is the antes.
    assert (result.pot, result.rake, result.showdown) == (10, 0, False)
    assert result.hands == (None, None) and result.winners == (0,)
    assert result.payoffs == (5, -5)


def test_a_fold_on_the_flop_is_raked() -> None:
    hand = play(
        [100, 100],
        "Ah Kd",
        ["check", "check", "bet", "fold"],
        flop="2c",
        rake=RakeRule(Decimal(10)),
    )
    result = hand.result()
    assert (result.pot, result.rake, result.showdown) == (10, 1, False)
    assert result.payoffs == (4, -5)


def test_a_fold_on_the_turn_after_a_raise_keeps_the_matched_part_in_the_pot() -> None:
    hand = play(
        [100, 100],
        "Ah Kd",
        ["bet", "call", "check", "check", "bet", "raise", "fold"],
        flop="2c",
        turn="7d",
        rake=RakeRule(Decimal(10)),
    )
    result = hand.result()
    # 5 + 10 + 20 each in the pot; player 1's raise over player 0's bet goes back.
    assert (result.pot, result.rake) == (70, 7)
    assert result.winners == (1,)
    assert result.payoffs == (-35, 28)
    assert result.in_pot == (35, 35)
    assert hand.history[-1].pot_after == 70
    assert hand.history[-2].pot_after == 30 + 20 + 40  # the raise, before part came back


def test_all_in_with_a_side_pot() -> None:
    hand = play(
        [30, 100, 100],
        "As Kd Qc",
        ["bet", "raise", "call", "call", "check", "bet", "call", "call", "bet", "call"],
        flop="2h",
        turn="7s",
    )
    assert hand.history[7].all_in and hand.history[7].amount == 5
    assert hand.pots() == [PotView(90, (0, 1, 2)), PotView(70, (1, 2))]
    result = hand.result()
    assert result.pot == 160
    assert [(p.amount, p.winners) for p in result.pots] == [(90, (0,)), (70, (1,))]
    assert result.winners == (0, 1)
    assert result.payoffs == (60, 5, -65)


def test_an_all_in_player_is_skipped_and_the_others_bet_on() -> None:
    hand = play(
        [30, 100, 100],
        "As Kd Qc",
        ["bet", "raise", "call", "call", "check", "bet", "call", "call"],
        flop="2h",
    )
    assert hand.waiting is Waiting.TURN
    hand.deal_turn(card("7s"))
    assert hand.to_act == 1  # player 0, first to act, is all-in


def test_the_rake_comes_from_the_main_pot_first() -> None:
    hand = play(
        [30, 100, 100],
        "As Kd Qc",
        ["bet", "raise", "call", "call", "check", "bet", "call", "call", "bet", "call"],
        flop="2h",
        turn="7s",
        rake=RakeRule(Decimal(10)),
    )
    result = hand.result()
    assert result.rake == 16
    assert [(p.amount, p.rake) for p in result.pots] == [(90, 16), (70, 0)]
    assert result.payoffs == (44, 5, -65)  # the main pot's winner pays the rake


def test_a_rake_larger_than_the_main_pot_continues_into_the_side_pot() -> None:
    hand = play(
        [1, 100, 100],
        "As Kd Qc",
        ["bet", "call", "check", "check", "check", "check"],
        flop="2h",
        turn="7s",
        rake=RakeRule(Decimal(50)),
    )
    result = hand.result()
    # Main pot 3 (player 0's one chip from each), side pot 4 + 4 + 10 + 10 = 28; rake 15.
    assert [(p.amount, p.rake) for p in result.pots] == [(3, 3), (28, 12)]
    assert result.rake == 15 and result.pot == 31
    assert result.payoffs == (-1, 1, -15)


@pytest.mark.parametrize(
    ("percent", "cap", "rake"),
    [
        ("5", None, 4),
        ("5", 3, 3),
        ("4.9", None, 4),
        ("4.99", 100, 4),
        ("0", None, 0),
        ("100", None, 90),
        ("7.5", 0, 0),
        ("1", None, 0),
    ],
)
def test_the_rake_is_percent_of_the_pot_rounded_down_at_most_the_cap(
    percent: str, cap: int | None, rake: int
) -> None:
    hand = play(
        [200, 200],
        "Ah Kd",
        ["bet", "raise", "call", "check", "check", "bet", "call"],
        flop="Ac",
        turn="2s",
        rake=RakeRule(Decimal(percent), cap),
    )
    result = hand.result()
    assert result.pot == 90 and result.rake == rake
    assert result.payoffs == (45 - rake, -45)


def test_a_split_pot_gives_the_odd_chip_to_the_first_player_to_act() -> None:
    # Pot 10, rake 1: 9 between two equal hands. Player 1 acts first and gets the odd chip.
    hand = play(
        [100, 100],
        "9c 9d",
        ["check"] * 6,
        flop="Ks",
        turn="2h",
        first=1,
        rake=RakeRule(Decimal(10)),
    )
    result = hand.result()
    assert result.winners == (0, 1)
    assert result.awards == (4, 5)
    assert result.payoffs == (-1, 0)


def test_odd_chips_go_one_at_a_time_in_seat_order_from_first() -> None:
    # Pot 15, rake 1: 14 among three equal hands = 4 each and 2 odd chips. Seat order from
    # player 1: players 1 and 2 get one each (PokerKit's own split would give both to one).
    hand = play(
        [100, 100, 100],
        "9c 9d 9h",
        ["check"] * 9,
        flop="Ks",
        turn="2d",
        first=1,
        rake=RakeRule(Decimal(10)),
    )
    result = hand.result()
    assert result.winners == (0, 1, 2)
    assert result.awards == (4, 5, 5)
    assert sum(result.payoffs) == -1


def test_pokerkits_own_split_would_give_all_odd_chips_to_one_player() -> None:
    # Pot 20 among three equal hands: 6 each and 2 odd chips; seat order from player 1.
    hand = play([100] * 4, "9c 9d 9h 3s", ["check"] * 12, flop="Ks", turn="2d", first=1)
    result = hand.result()
    assert result.winners == (0, 1, 2)
    assert result.payoffs == (1, 2, 2, -5)  # one odd chip each to players 1 and 2
    # PokerKit's own push (divmod, remainder to the first winner) cannot be told otherwise:
    assert pokerkit_payoffs(hand.setup, hand) == (1, 3, 1, -5)


def test_pokerkits_rake_hook_rakes_each_pot_and_rounds_to_nearest() -> None:
    actions = ["bet", "raise", "call", "call", "check", "bet", "call", "call", "bet", "call"]
    hand = play(
        [30, 100, 100], "As Kd Qc", actions, flop="2h", turn="7s", rake=RakeRule(Decimal(5), 3)
    )
    assert hand.result().rake == 3  # one figure for the hand: min(3, floor(5 % of 160))
    per_pot = functools.partial(pokerkit_rake, percentage=0.05, cap=3)
    by_pokerkit = pokerkit_payoffs(hand.setup, hand, rake=per_pot)
    assert -sum(by_pokerkit) == 6  # 3 from the main pot (90) and 3 from the side pot (70)
    assert pokerkit_rake(70, percentage=0.05) == (4, 66)  # 3.5 rounded to nearest, not down


def test_pots_won_by_the_same_players_are_split_as_one() -> None:
    # Main pot 9 and side pot 5, both shared by players 1 and 2: 14 splits 7 and 7 (pot by pot
    # it would be 5 + 3 to one and 4 + 2 to the other).
    hand = play(
        [2, 50, 50, 50, 50],
        "2c Kd Kh 3s 4s",
        ["bet", "call", "call", "fold", "call", "bet", "call", "call", "bet", "call", "fold"],
        flop="9c",
        turn="7d",
        ante=1,
        bets=(1, 1, 1),
    )
    result = hand.result()
    assert [(p.amount, p.winners) for p in result.pots] == [(9, (1, 2)), (5, (1, 2))]
    assert result.awards == (0, 7, 7, 0, 0)
    assert result.payoffs == (-2, 3, 3, -1, -3)
    assert result.hands == ("high_card", "high_card", "high_card", None, None)


def test_a_short_stack_is_all_in_from_the_ante() -> None:
    hand = new_hand([3, 100], "Ah Kd")
    # Player 0 posts 3 and is all-in; the 2 of player 1's ante nobody matched go back.
    assert hand.waiting is Waiting.FLOP and hand.to_act is None
    assert hand.legal_actions() == []
    assert hand.stacks == (0, 97)
    hand.deal_flop(card("2c"))
    hand.deal_turn(card("7s"))
    result = hand.result()
    assert (result.pot, result.showdown, result.winners) == (6, True, (0,))
    assert result.payoffs == (3, -3)


def test_a_stack_equal_to_the_ante_is_all_in_and_the_others_still_bet() -> None:
    actions = ["bet", "call", "check", "check", "bet", "fold"]
    hand = play([5, 100, 100], "Ah Kd Qc", actions, flop="2c", turn="7s")
    assert hand.history[0].player == 1  # player 0 (first) is all-in from the ante
    result = hand.result()
    assert result.pots[0].amount == 15 and result.pots[1].amount == 20
    assert result.winners == (0, 1)
    assert result.payoffs == (10, 5, -15)  # player 1 takes the side pot back with profit


def test_no_ante_game() -> None:
    hand = play([50, 50], "Ah Kd", ["bet", "fold"], ante=0)
    result = hand.result()
    assert (result.pot, result.winners, result.payoffs) == (0, (0,), (0, 0))
    hand = play([50, 50], "Ah Kd", ["check"] * 6, ante=0, flop="2c", turn="3d")
    assert hand.result().payoffs == (0, 0) and hand.result().showdown


def test_a_short_all_in_raise_lets_players_who_acted_only_call_or_fold() -> None:
    hand = play([100, 100, 17], "2c Kd Kh", ["bet", "call", "raise"])
    assert hand.history[-1].all_in and hand.history[-1].amount == 12
    assert hand.to_act == 0
    assert moves(hand) == {"fold": 0, "call": 2}
    err = refused(hand, "raise")
    assert "may only call or fold" in err.message


def test_nobody_bets_when_every_other_player_is_all_in() -> None:
    hand = play([100, 20], "Ah Kd", ["bet", "raise"])  # player 1 raises all-in: 15
    assert hand.history[-1].all_in
    assert moves(hand) == {"fold": 0, "call": 5}


def test_a_player_short_of_the_call_calls_all_in() -> None:
    hand = play([100, 12], "Ah Kd", ["bet"])
    assert moves(hand) == {"fold": 0, "call": 7}
    hand.act("call")
    assert hand.history[-1].all_in
    assert hand.waiting is Waiting.FLOP


def test_first_opens_every_betting_round_and_moves_with_the_setup() -> None:
    hand = play([100, 100, 100], "Ah Kd Qc", ["check", "check", "check"], first=2, flop="2c")
    assert [r.player for r in hand.history] == [2, 0, 1]
    assert hand.to_act == 2


# -- refusals ------------------------------------------------------------------------------


def test_a_check_facing_a_bet_is_refused_naming_the_player() -> None:
    hand = play([100, 100], "Ah Kd", ["bet"])
    err = refused(hand, "check")
    assert err.code is Refusal.ILLEGAL_ACTION
    assert err.message.startswith("player 1 cannot check facing a bet")
    assert "call (10 chips)" in err.message


@pytest.mark.parametrize("action", ["fold", "call", "raise"])
def test_without_a_bet_only_check_or_bet(action: str) -> None:
    hand = new_hand([100, 100], "Ah Kd")
    err = refused(hand, action)
    assert err.code is Refusal.ILLEGAL_ACTION and "player 0" in err.message


def test_a_bet_facing_a_bet_is_refused() -> None:
    hand = play([100, 100], "Ah Kd", ["bet"])
    assert "already a bet" in refused(hand, "bet").message


def test_out_of_turn_is_refused() -> None:
    hand = new_hand([100, 100, 100], "Ah Kd Qc")
    err = refused(hand, "check", player=2)
    assert err.message == "player 2 cannot check out of turn: player 0 is to act"
    hand.act("check", player=0)
    assert hand.to_act == 1


def test_an_unknown_action_is_refused() -> None:
    hand = new_hand([100, 100], "Ah Kd")
    assert "'shove' is not an action" in refused(hand, "shove").message


def test_actions_are_refused_while_a_card_is_due_or_the_hand_is_over() -> None:
    hand = play([100, 100], "Ah Kd", ["check", "check"])
    assert hand.waiting is Waiting.FLOP
    with pytest.raises(EngineError, match="the flop is to be dealt"):
        hand.act("check")
    with pytest.raises(EngineError, match="turn .* cannot be dealt now"):
        hand.deal_turn(card("2c"))
    hand = play([100, 100], "Ah Kd", ["bet", "fold"])
    with pytest.raises(EngineError, match="the hand is over"):
        hand.act("check")


def test_a_board_card_already_in_play_is_refused() -> None:
    hand = play([100, 100], "Ah Kd", ["check", "check"])
    with pytest.raises(EngineError) as info:
        hand.deal_flop(card("Kd"))
    assert info.value.code is Refusal.DUPLICATE_CARD
    assert "Kd in the flop is already in the round (player 1's hole card)" in info.value.message
    assert hand.waiting is Waiting.FLOP and hand.board == []
    hand.deal_flop(card("2c"))
    hand.act("check")
    hand.act("check")
    with pytest.raises(EngineError) as info:
        hand.deal_turn(card("2c"))
    assert info.value.code is Refusal.DUPLICATE_CARD


def test_the_result_is_refused_until_the_hand_is_over() -> None:
    hand = new_hand([100, 100], "Ah Kd")
    with pytest.raises(EngineError) as info:
        hand.result()
    assert info.value.code is Refusal.INCOMPLETE


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"stacks": (100,)}, "stacks"),
        ({"stacks": (100,) * 11}, "stacks"),
        ({"stacks": (100, 0)}, "stacks"),
        ({"stacks": (100, 100), "first": 2}, "first"),
        ({"stacks": (100, 100), "ante": -1}, "ante"),
        ({"stacks": (100, 100), "bets": (10, 0, 20)}, "bets"),
        ({"stacks": (100, 100), "raise_cap": -1}, "raise_cap"),
        ({"stacks": (100, 100), "rake": RakeRule(Decimal(101))}, "rake"),
        ({"stacks": (100, 100), "rake": RakeRule(Decimal(5), -1)}, "rake"),
    ],
)
def test_a_bad_setup_is_refused_naming_the_field(setup: dict[str, object], field: str) -> None:
    with pytest.raises(EngineError) as info:
        HandSetup(**setup).check()  # type: ignore[arg-type]
    assert info.value.code is Refusal.BAD_SETUP and info.value.field == field


def test_hole_cards_must_be_one_per_player_and_distinct() -> None:
    with pytest.raises(EngineError) as info:
        RhodeIslandHand(HandSetup(stacks=(100, 100)), cards("Ah"))
    assert info.value.code is Refusal.BAD_SETUP
    with pytest.raises(EngineError) as info:
        RhodeIslandHand(HandSetup(stacks=(100, 100)), cards("Ah ah"))
    assert info.value.code is Refusal.DUPLICATE_CARD


# -- the table at any point ----------------------------------------------------------------


def test_stacks_bets_and_pots_during_a_hand() -> None:
    hand = new_hand([100, 100, 100], "Ah Kd Qc")
    assert hand.stacks == (95, 95, 95) and hand.bets == (0, 0, 0)
    assert hand.pots() == [PotView(15, (0, 1, 2))] and hand.pot_total == 15
    hand.act("bet")
    hand.act("raise")
    assert hand.stacks == (85, 75, 95) and hand.bets == (10, 20, 0)
    assert hand.pot_total == 45
    assert hand.legal_actions() == [
        LegalAction(Move.FOLD, 0, False),
        LegalAction(Move.CALL, 20, False),
        LegalAction(Move.RAISE, 30, False),
    ]
    hand.act("fold")
    hand.act("call")
    assert hand.waiting is Waiting.FLOP and hand.bets == (0, 0, 0)
    assert hand.pots() == [PotView(55, (0, 1))]
    assert hand.folded == (False, False, True)


# -- a hand's record -----------------------------------------------------------------------


def test_a_hand_played_on_the_tablet_is_saved_as_its_record_and_replays() -> None:
    hand = play(
        [30, 100, 100],
        "As Kd Qc",
        ["bet", "raise", "call", "call", "check", "bet"],
        flop="2h",
        rake=RakeRule(Decimal("7.5"), 4),
        ante=2,
    )
    record = hand_record(hand)
    assert record == {
        "game": "rhode_island",
        "ante": 2,
        "bets": [10, 20, 20],
        "raise_cap": 3,
        "rake": {"percent": "7.5", "cap": 4},
        "stacks": [30, 100, 100],
        "first": 0,
        "hole": ["As", "Kd", "Qc"],
        "flop": "2h",
        "actions": ["bet", "raise", "call", "call", "check", "bet"],
    }
    assert replay_rhode_island(record)["error"]["code"] == "incomplete"  # not over yet
    hand.act("call")
    hand.act("call")
    hand.deal_turn(card("7s"))
    hand.act("check")
    hand.act("check")
    assert replay_record(hand_record(hand)) == hand.result()


# -- the showdown ranking agrees with PokerKit's -------------------------------------------


def test_poker_value_orders_all_22100_hands_as_pokerkit_does() -> None:
    pk = {repr(c): c for c in Deck.STANDARD}
    ranked = sorted(
        (poker_value(hand).score, RhodeIslandHoldemHand([pk[str(c)] for c in hand]))
        for hand in combinations(DECK, 3)
    )
    assert len(ranked) == 22_100
    for (score_a, hand_a), (score_b, hand_b) in zip(ranked, ranked[1:], strict=False):
        if score_a == score_b:
            assert hand_a == hand_b
        else:
            assert hand_a < hand_b
