"""Mulligan on the floor, the pure layer: the table's terms, the deal as the dealer enters it,
one posted action at a time (the draws after a mulligan in draw order), games played to both
ends under every allowed combination of variants, and refusals that change nothing."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from core.errors import ServiceError
from tables.engine.cards import DECK
from tables.games.mulligan import Mulligan
from tables.games.mulligan.game import EndedBy, Phase, Variant
from tables.games.mulligan.play import Played, Posted, deal, draw_order, play, rebuild
from tables.games.mulligan.replay import game_record, replay_mulligan
from tables.games.mulligan.terms import MulliganTerms, allowed_combinations

from .script import BURN, HANDS_4, to_a_fold, to_the_deck

V = Variant


def terms_for(variants: frozenset[Variant], **extra: object) -> MulliganTerms:
    data: dict[str, object] = {"variants": [v.value for v in variants], **extra}
    if V.CHIPS in variants:
        data.setdefault("table_minimum_cents", 2)
        data.setdefault("rake_percent", "10")
        data.setdefault("rake_cap_cents", 5)
    return MulliganTerms.from_json(data)


def start(terms: MulliganTerms, players: int = 4, chips: int = 40):
    hands = HANDS_4[:players]
    burn = BURN if V.HIGH_RISK in terms.variants else ""
    stacks = [chips] * players if terms.plays_for_chips else None
    return deal(terms, hands=hands, first=1, burn=burn, chips=stacks)


def play_out(played: Played, game, policy):
    steps = 0
    while not game.is_over:
        played, game = play(played, game, policy(game))
        assert rebuild(played) == game  # the record rebuilds the same snapshot
        steps += 1
        assert steps < 500
    return played, game


# --- terms -----------------------------------------------------------------------------------


def test_the_allowed_combinations_are_every_one_but_secret_offers_with_open_hands():
    combos = allowed_combinations()
    assert len(combos) == 12
    assert frozenset() in combos
    assert all(not {V.SECRET_OFFERS, V.OPEN_HANDS} <= c for c in combos)


def test_terms_refuse_secret_offers_with_open_hands_naming_the_field():
    with pytest.raises(ServiceError) as err:
        MulliganTerms.from_json({"variants": ["secret_offers", "open_hands"]})
    assert err.value.field == "variants"
    assert "Secret Offers cannot be combined with Open Hands" in err.value.message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"variants": ["wild"]}, "variants"),
        ({"variants": ["chips"], "table_minimum_cents": 0}, "table_minimum_cents"),
        ({"variants": ["chips"], "rake_percent": "101"}, "rake_percent"),
        ({"variants": ["chips"], "rake_percent": "x"}, "rake_percent"),
        ({"variants": ["chips"], "rake_cap_cents": -1}, "rake_cap_cents"),
        ({"variants": [], "rake_percent": "5"}, "rake_percent"),
        ({"variants": [], "table_minimum_cents": 5}, "table_minimum_cents"),
        ({"variants": ["chips"], "table_minimum_cents": "x"}, "table_minimum_cents"),
        ({"variant": ["chips"]}, "variant"),
    ],
)
def test_bad_terms_are_refused_naming_the_field(data, field):
    with pytest.raises(ServiceError) as err:
        MulliganTerms.from_json(data)
    assert err.value.field == field


def test_terms_round_trip_through_json():
    t = MulliganTerms.from_json(
        {
            "variants": ["chips", "high_risk"],
            "table_minimum_cents": 5,
            "rake_percent": "2.5",
            "rake_cap_cents": 20,
        }
    )
    assert MulliganTerms.from_json(t.as_json()) == t
    assert t.rake() is not None and t.rake().of(1000) == 20 and t.rake().of(100) == 2
    assert t.label == "High Risk, Playing for chips"
    assert t.rake_percent == Decimal("2.5")


# --- the deal --------------------------------------------------------------------------------


def test_a_deal_with_a_card_twice_is_refused_naming_the_card_and_where_it_is():
    with pytest.raises(ServiceError) as err:
        deal(MulliganTerms(), hands=["Ah Kh Qh Jh 2c", "Ah 4d 5d 6d 8s"], first=0)
    assert err.value.field == "hand_1"
    assert err.value.message == "Ah in player 1's hand is already in player 0's hand"


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"hands": ["Ah Kh Qh Jh", "3d 4d 5d 6d 8s"]}, "hand_0", "5 cards, not 4"),
        ({"hands": ["Ah Kh Qh Jh Zz", "3d 4d 5d 6d 8s"]}, "hand_0", "'Zz'"),
        ({"hands": ["Ah Kh Qh Jh 2c"]}, "players", "2 to 8 players"),
        ({"first": 2}, "first", "0 to 1"),
        ({"burn": "2h"}, "burn", "only High Risk"),
    ],
)
def test_a_bad_deal_is_refused_naming_the_field(kwargs, field, words):
    args = {"hands": HANDS_4[:2], "first": 0, **kwargs}
    with pytest.raises(ServiceError) as err:
        deal(MulliganTerms(), **args)
    assert err.value.field == field
    assert words in err.value.message


def test_high_risk_needs_its_13_burnt_cards_and_at_most_6_players():
    terms = terms_for(frozenset({V.HIGH_RISK}))
    with pytest.raises(ServiceError) as err:
        deal(terms, hands=HANDS_4, first=0, burn="2h 3h")
    assert err.value.field == "burn" and "13" in err.value.message
    played, game = deal(terms, hands=HANDS_4, first=0, burn=BURN)
    assert len(game.burn) == 13 and len(game.deck) == 52 - 20 - 13
    seven = [" ".join(str(c) for c in DECK[i * 5 : i * 5 + 5]) for i in range(7)]
    with pytest.raises(ServiceError) as err:
        deal(terms, hands=seven, first=0, burn=BURN)
    assert err.value.field == "players"


def test_chips_below_the_table_minimum_are_refused():
    terms = terms_for(frozenset({V.CHIPS}), table_minimum_cents=5)
    with pytest.raises(ServiceError) as err:
        deal(terms, hands=HANDS_4[:2], first=0, chips=[5, 4])
    assert err.value.field == "chips_1"


# --- playing ---------------------------------------------------------------------------------


def test_the_draws_after_a_mulligan_go_clockwise_from_the_auctioneer_in_the_order_entered():
    played, game = start(MulliganTerms(), players=4)
    assert game.auctioneer == 1
    played, game = play(played, game, Posted("auction", 1, "8s"))
    for p, card in ((2, "7c"), (3, "3s"), (0, "2c")):
        played, game = play(played, game, Posted("offer", p, card))
    assert game.phase is Phase.DECISION
    assert draw_order(game) == [1, 2, 3, 0]
    played, game = play(played, game, Posted("mulligan", 1, draws=["Tc", "Jc", "Qc", "Kc"]))
    assert [str(game.hands[p][-1]) for p in (1, 2, 3, 0)] == ["Tc", "Jc", "Qc", "Kc"]
    assert [str(c) for c in played.draws] == ["Tc", "Jc", "Qc", "Kc"]
    assert [str(c) for c in game.discard] == ["8s", "7c", "3s", "2c"]
    assert game.auctioneer == 2 and game.phase is Phase.TURN


def test_a_drawn_card_already_in_play_is_refused_naming_it_and_nothing_changes():
    played, game = start(MulliganTerms(), players=3)
    played, game = play(played, game, Posted("auction", 1, "8s"))
    played, game = play(played, game, Posted("offer", 2, "7c"))
    played, game = play(played, game, Posted("offer", 0, "2c"))
    for draws, field, words in (
        (["Tc", "Ah", "Qc"], "draw_2", "Ah drawn by player 2 is already in player 0's hand"),
        (["Tc", "Tc", "Qc"], "draw_2", "Tc drawn by player 2 is already in player 1's draw"),
        (["Tc", "8s", "Qc"], "draw_2", "8s drawn by player 2 is already in the trade ring"),
        (["Tc", "Qc"], "draws", "3 cards are drawn (players 1, 2, 0, in that order), not 2"),
        (["Tc", "Xx", "Qc"], "draw_2", "'Xx'"),
    ):
        with pytest.raises(ServiceError) as err:
            play(played, game, Posted("mulligan", 1, draws=draws))
        assert err.value.field == field
        assert words in err.value.message
    assert rebuild(played) == game and game.phase is Phase.DECISION


def test_an_illegal_action_is_refused_in_the_engines_words():
    played, game = start(MulliganTerms(), players=3)
    with pytest.raises(ServiceError) as err:
        play(played, game, Posted("skip", 0))
    assert err.value.message == "it is player 1's turn, not player 0's"
    assert err.value.code == "illegal_action"
    with pytest.raises(ServiceError) as err:
        play(played, game, Posted("auction", 1, "Ah"))
    assert err.value.message == "player 1 does not hold Ah" and err.value.field == "card"
    with pytest.raises(ServiceError) as err:
        play(played, game, Posted("auction", 1, "8s", chips=3))
    assert err.value.field == "chips"
    with pytest.raises(ServiceError) as err:
        play(played, game, Posted("dance", 1))
    assert err.value.field == "do"


@pytest.mark.parametrize(
    "variants", allowed_combinations(), ids=lambda v: "+".join(sorted(v)) or "plain"
)
@pytest.mark.parametrize("policy", [to_the_deck, to_a_fold], ids=["deck", "fold"])
def test_scripted_games_end_both_ways_in_every_combination(variants, policy):
    terms = terms_for(variants)
    played, game = start(terms, players=4)
    played, game = play_out(played, game, policy)
    assert game.ended_by is (EndedBy.DECK if policy is to_the_deck else EndedBy.FOLD)
    assert game.winner is not None
    # The record replays to the same result through the contract's `replay`.
    replayed = replay_mulligan(game_record(game))
    assert replayed["winner"] == game.winner
    assert replayed["ended_by"] == game.ended_by.value
    if terms.plays_for_chips:
        assert game.stacks is not None
        assert sum(game.stacks) + game.rake == 4 * 40
        assert game.rake == terms.rake().of(game.pot)
    else:
        assert game.stacks is None and game.rake == 0
    # The stored record round-trips.
    assert rebuild(Played.from_json(played.as_json())) == game


def test_a_chipless_auctioneer_must_fold():
    terms = terms_for(
        frozenset({V.CHIPS}), table_minimum_cents=2, rake_percent="0", rake_cap_cents=None
    )
    played, game = deal(terms, hands=HANDS_4[:3], first=0, chips=[2, 10, 10])
    played, game = play(played, game, Posted("auction", 0, "2c", chips=2))
    played, game = play(played, game, Posted("offer", 1, "8s"))
    played, game = play(played, game, Posted("offer", 2, "7c", chips=1))
    played, game = play(played, game, Posted("mulligan", 0, draws=["2d", "3c", "4c"]))
    assert game.stacks == (0, 10, 9) and game.pot == 3
    played, game = play(played, game, Posted("skip", 1))
    played, game = play(played, game, Posted("skip", 2))
    assert game.auctioneer == 0 and game.must_fold(0)
    for posted in (Posted("skip", 0), Posted("auction", 0, "Ah", chips=0)):
        with pytest.raises(ServiceError) as err:
            play(played, game, posted)
        assert "must fold" in err.value.message
    played, game = play(played, game, Posted("fold", 0))
    assert not game.active[0] and game.auctioneer == 1


def test_random_games_under_every_combination_account_for_every_card():
    rng = random.Random(12)
    for variants in allowed_combinations():
        terms = terms_for(variants)
        players = rng.randint(2, 6)
        played = Mulligan().random_game(rng, terms, players, stack=25)
        game = rebuild(played)
        assert game.is_over
        assert replay_mulligan(game_record(game))["winner"] == game.winner
