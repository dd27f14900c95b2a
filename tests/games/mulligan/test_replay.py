"""`replay_mulligan` (the Mulligan half of the `replay` contract): a hand-checked record,
every refusal code in the contract's order, and records written from played games."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest

from tables.games.mulligan.game import Fold, Mulligan, Skip, Swap, apply, new_game
from tables.games.mulligan.replay import game_record, replay_mulligan, result_json

from .helpers import V, auction_round, make_setup, rake

HANDS = ["2c 3d 7h 9s Jc", "Ah Ad Kc Ks 4h", "Qs Qh Qd 5c 6d"]


def base() -> dict[str, Any]:
    """The hand-checked chips game of `test_mulligan_game`, as the contract writes it."""
    setup = make_setup(
        HANDS, deck_top="Ac 8s 8h", variants={V.CHIPS}, chips=[10, 10, 10], rake=rake("25", 5)
    )
    return {
        "game": "mulligan",
        "variants": ["chips"],
        "first": 0,
        "hands": [[str(c) for c in h] for h in setup.hands],
        "deck": [str(c) for c in setup.deck],
        "chips": [10, 10, 10],
        "rake": {"percent": "25", "cap": 5},
        "actions": [
            {
                "do": "auction",
                "card": "2c",
                "chips": 3,
                "offers": {"1": {"card": "Ks", "chips": 2}, "2": {"card": "6d"}},
                "then": {"swap": 1},
            },
            {
                "do": "auction",
                "card": "4h",
                "chips": 5,
                "offers": {"2": {"card": "6d", "chips": 0}, "0": {"card": "Jc"}},
                "then": "mulligan",
            },
            {"do": "fold"},
            {"do": "skip"},
            {"do": "fold"},
        ],
    }


def test_the_hand_checked_record_replays() -> None:
    assert replay_mulligan(base()) == {
        "game": "mulligan",
        "ended_by": "fold",
        "winner": 1,
        "hands": [
            ["Ks", "3d", "7h", "9s", "8h"],
            ["Ah", "Ad", "Kc", "2c", "Ac"],
            ["Qs", "Qh", "Qd", "5c", "8s"],
        ],
        "categories": ["high_card", "three_of_a_kind", "three_of_a_kind"],
        "discards": 3,
        "pot": 5,
        "rake": 1,
        "chips": [9, 10, 10],
    }


def test_cards_may_be_written_in_every_accepted_spelling() -> None:
    hand = base()
    hand["hands"][0] = ["2♣", "3D", "7h", "9s", "jc"]
    hand["actions"][0]["card"] = "2C"
    hand["actions"][0]["offers"]["1"]["card"] = "K♠"
    assert replay_mulligan(hand) == replay_mulligan(base())


def test_offers_may_be_keyed_by_integers_and_rake_percent_may_be_an_integer() -> None:
    hand = base()
    hand["actions"][0]["offers"] = {1: {"card": "Ks", "chips": 2}, 2: {"card": "6d"}}
    hand["rake"] = {"percent": 25, "cap": 5}
    assert replay_mulligan(hand) == replay_mulligan(base())
    hand["rake"] = {"percent": Decimal("25")}
    assert replay_mulligan(hand)["rake"] == 1


def refusal(hand: Any) -> dict[str, Any]:
    out = replay_mulligan(hand)
    assert set(out) == {"error"}, out
    error: dict[str, Any] = out["error"]
    assert isinstance(error["message"], str) and error["message"]
    return error


def edited(change: Any) -> dict[str, Any]:
    hand = base()
    change(hand)
    return hand


# --- bad_json and unknown_game ---------------------------------------------------------------


@pytest.mark.parametrize("hand", [[], "mulligan", None, 7])
def test_a_hand_that_is_not_an_object_is_bad_json(hand: Any) -> None:
    assert refusal(hand)["code"] == "bad_json"


@pytest.mark.parametrize("game", ["rhode_island", "Mulligan", None, 3])
def test_another_game_is_unknown_game(game: Any) -> None:
    error = refusal(edited(lambda h: h.__setitem__("game", game)))
    assert error["code"] == "unknown_game" and "action" not in error


# --- bad_card --------------------------------------------------------------------------------

BAD_CARDS: list[tuple[str, Any, int | None, str]] = [
    ("hand", lambda h: h["hands"][1].__setitem__(2, "Zz"), None, "'Zz' in player 1's hand"),
    ("deck", lambda h: h["deck"].__setitem__(5, "11h"), None, "'11h' in the deck"),
    ("number", lambda h: h["hands"][0].__setitem__(0, 2), None, "2 in player 0's hand"),
    ("burn", lambda h: h.update(burn=["Xx"]), None, "'Xx' in the burn"),
    ("auctioned", lambda h: h["actions"][1].__setitem__("card", "4x"), 1, "'4x' in action 1"),
    (
        "offer",
        lambda h: h["actions"][0]["offers"]["2"].__setitem__("card", "six"),
        0,
        "action 0, player 2's offer",
    ),
    (
        "in an action after an illegal one",
        lambda h: (
            h["actions"][0].__setitem__("then", "pass"),
            h["actions"][4].update(do="auction", card="??"),
        ),
        4,
        "'??'",
    ),
    (
        "before a setup error",
        lambda h: (h.update(variants=["chips", "poker"]), h["deck"].__setitem__(0, "Q")),
        None,
        "'Q' in the deck",
    ),
]


@pytest.mark.parametrize(
    ("change", "action", "message"), [b[1:] for b in BAD_CARDS], ids=[b[0] for b in BAD_CARDS]
)
def test_an_unreadable_card_is_bad_card(change: Any, action: int | None, message: str) -> None:
    error = refusal(edited(change))
    assert error["code"] == "bad_card"
    assert error.get("action") == action
    assert message in error["message"]


# --- duplicate_card --------------------------------------------------------------------------


def test_a_card_in_two_places_is_duplicate_card_naming_both() -> None:
    error = refusal(edited(lambda h: h["deck"].__setitem__(3, "Ah")))
    assert error["code"] == "duplicate_card" and "action" not in error
    assert "Ah in the deck is already in player 1's hand" in error["message"]


def test_a_missing_card_is_duplicate_card_naming_it() -> None:
    error = refusal(edited(lambda h: h["deck"].remove("Kh")))
    assert error["code"] == "duplicate_card" and "missing: Kh" in error["message"]


def test_a_duplicate_comes_before_a_setup_error() -> None:
    error = refusal(
        edited(lambda h: (h["deck"].__setitem__(3, "Ah"), h.update(first=9, variants=["x"])))
    )
    assert error["code"] == "duplicate_card"


# --- bad_setup -------------------------------------------------------------------------------


def _move_to_burn(h: dict[str, Any], count: int) -> None:
    h["burn"], h["deck"] = h["deck"][-count:], h["deck"][:-count]


def _one_player(h: dict[str, Any]) -> None:
    h["deck"] += [c for hand in h["hands"][1:] for c in hand]
    h["hands"] = h["hands"][:1]
    h["chips"] = [10]


def _nine_players(h: dict[str, Any]) -> None:
    for _ in range(6):
        h["hands"].append(h["deck"][-5:])
        h["deck"] = h["deck"][:-5]
    h["chips"] = [10] * 9


def _seven_high_risk(h: dict[str, Any]) -> None:
    for _ in range(4):
        h["hands"].append(h["deck"][-5:])
        h["deck"] = h["deck"][:-5]
    h["chips"] = [10] * 7
    h["variants"] = ["chips", "high_risk"]
    _move_to_burn(h, 13)


BAD_SETUPS: list[tuple[str, Any, str]] = [
    ("one player", _one_player, "at least 2 players"),
    ("nine players", _nine_players, "fewer than the 9 players"),
    ("seven with high risk", _seven_high_risk, "at most 6 players with High Risk"),
    (
        "secret and open",
        lambda h: h.update(variants=["secret_offers", "open_hands"]),
        "open_hands and secret_offers cannot be combined",
    ),
    ("unknown variant", lambda h: h.update(variants=["chips", "turbo"]), "'turbo' is not"),
    ("variant twice", lambda h: h.update(variants=["chips", "chips"]), "named twice"),
    ("variants not a list", lambda h: h.update(variants="chips"), "variants must be a list"),
    ("no stacks", lambda h: h.pop("chips"), "one stack for each of 3 players"),
    ("short stacks", lambda h: h.update(chips=[10, 10]), "one stack for each of 3 players"),
    ("empty stack", lambda h: h.update(chips=[10, 0, 10]), "player 1 must start with"),
    ("negative stack", lambda h: h.update(chips=[10, -4, 10]), "player 1 must start with"),
    ("stack not whole", lambda h: h.update(chips=[10, 2.5, 10]), "whole numbers of chips"),
    ("stack a string", lambda h: h.update(chips=[10, "10", 10]), "whole numbers of chips"),
    ("stacks, no chips", lambda h: h.update(variants=[], rake=None), "only with the chips"),
    ("rake, no chips", lambda h: h.update(variants=[], chips=None), "rake is taken only"),
    ("rake float", lambda h: h.update(rake={"percent": 7.5}), 'a decimal such as "7.5"'),
    ("rake text", lambda h: h.update(rake={"percent": "ten"}), "rake percent must be a decimal"),
    ("rake over 100", lambda h: h.update(rake={"percent": "101"}), "from 0 to 100"),
    ("rake negative", lambda h: h.update(rake={"percent": "-1"}), "from 0 to 100"),
    ("rake cap", lambda h: h.update(rake={"percent": "5", "cap": -1}), "cap must be 0 or more"),
    ("rake cap text", lambda h: h.update(rake={"percent": "5", "cap": "3"}), "whole number"),
    ("rake key", lambda h: h.update(rake={"percent": "5", "max": 3}), "no 'max'"),
    ("rake list", lambda h: h.update(rake=[5]), "rake must be an object"),
    ("first missing", lambda h: h.pop("first"), "first must be the index"),
    ("first too big", lambda h: h.update(first=3), "first player must be 0 to 2, not 3"),
    ("first negative", lambda h: h.update(first=-1), "first player must be 0 to 2, not -1"),
    ("first true", lambda h: h.update(first=True), "first must be the index"),
    ("unknown key", lambda h: h.update(variant=["high_risk"]), "has no 'variant'"),
    ("hands missing", lambda h: h.pop("hands"), "hands must be a list"),
    ("hand not a list", lambda h: h["hands"].__setitem__(0, "2c 3d"), "hands must be a list"),
    ("deck missing", lambda h: h.pop("deck"), "deck must be a list"),
    ("actions missing", lambda h: h.pop("actions"), "actions must be a list"),
    (
        "high risk without burn",
        lambda h: h.update(variants=["chips", "high_risk"]),
        "High Risk burns 13 cards, not 0",
    ),
    (
        "burn without high risk",
        lambda h: _move_to_burn(h, 13),
        "only High Risk burns cards",
    ),
    (
        "short burn",
        lambda h: (h.update(variants=["chips", "high_risk"]), _move_to_burn(h, 12)),
        "High Risk burns 13 cards, not 12",
    ),
    (
        "four-card hand",
        lambda h: h["deck"].append(h["hands"][2].pop()),
        "player 2 must be dealt 5 cards, not 4",
    ),
]


@pytest.mark.parametrize(
    ("change", "message"), [b[1:] for b in BAD_SETUPS], ids=[b[0] for b in BAD_SETUPS]
)
def test_a_bad_setup_is_refused(change: Any, message: str) -> None:
    error = refusal(edited(change))
    assert error["code"] == "bad_setup"
    assert "action" not in error
    assert message in error["message"]


def test_the_largest_tables_are_not_bad_setup() -> None:
    hand = base()
    for _ in range(5):
        hand["hands"].append(hand["deck"][-5:])
        hand["deck"] = hand["deck"][:-5]
    hand["chips"] = [10] * 8
    hand["actions"] = []
    assert refusal(hand)["code"] == "incomplete"  # eight players: accepted, then incomplete


# --- illegal_action --------------------------------------------------------------------------


def _action(index: int, **fields: Any) -> Any:
    return lambda h: h["actions"][index].update(fields)


def _offers(index: int, offers: dict[Any, Any]) -> Any:
    return lambda h: h["actions"][index].__setitem__("offers", offers)


def _replace(index: int, action: Any) -> Any:
    return lambda h: h["actions"].__setitem__(index, action)


ILLEGAL: list[tuple[str, Any, int, str]] = [
    ("not an object", _replace(2, "fold"), 2, "an action must be an object"),
    ("unknown do", _replace(2, {"do": "pass"}), 2, "'pass' is not an action"),
    ("skip with a card", _replace(3, {"do": "skip", "card": "Ks"}), 3, "a skip has no 'card'"),
    ("fold with chips", _replace(2, {"do": "fold", "chips": 1}), 2, "a fold has no 'chips'"),
    ("auction key", _action(0, note="x"), 0, "an auction has no 'note'"),
    ("card not held", _action(0, card="Ah"), 0, "player 0 does not hold Ah"),
    ("no card", lambda h: h["actions"][0].pop("card"), 0, "player 0's auction names no card"),
    ("no chips", lambda h: h["actions"][0].pop("chips"), 0, "player 0's auction needs chips"),
    ("zero chips", _action(0, chips=0), 0, "at least 1 chip on the auctioned 2c, not 0"),
    ("too many chips", _action(0, chips=11), 0, "player 0 holds 10 chips and cannot put 11"),
    ("chips text", _action(0, chips="3"), 0, "chips must be a whole number"),
    ("chips true", _action(0, chips=True), 0, "chips must be a whole number"),
    ("offer missing", _offers(0, {"1": {"card": "Ks"}}), 0, "no offer from player 2"),
    ("no offers", lambda h: h["actions"][0].pop("offers"), 0, "has no offers"),
    (
        "offer from the auctioneer",
        _offers(0, {"0": {"card": "3d"}, "1": {"card": "Ks"}, "2": {"card": "6d"}}),
        0,
        "player 0 is the auctioneer and makes no offer",
    ),
    (
        "offer from nobody",
        _offers(0, {"1": {"card": "Ks"}, "2": {"card": "6d"}, "7": {"card": "Kh"}}),
        0,
        "there is no player 7",
    ),
    ("offer key", _offers(0, {"one": {"card": "Ks"}}), 0, "keyed by player index, not 'one'"),
    (
        "offer twice",
        _offers(0, {"1": {"card": "Ks"}, 1: {"card": "Kc"}, "2": {"card": "6d"}}),
        0,
        "player 1 offers twice",
    ),
    (
        "offer not held",
        _offers(0, {"1": {"card": "Qs"}, "2": {"card": "6d"}}),
        0,
        "player 1 does not hold Qs",
    ),
    ("offer a string", _offers(0, {"1": "Ks", "2": {"card": "6d"}}), 0, "an object with its card"),
    (
        "offer key unknown",
        _offers(0, {"1": {"card": "Ks", "face": "up"}, "2": {"card": "6d"}}),
        0,
        "player 1's offer has no 'face'",
    ),
    (
        "offer too many chips",
        _offers(0, {"1": {"card": "Ks", "chips": 11}, "2": {"card": "6d"}}),
        0,
        "player 1 holds 10 chips and cannot put 11 on the offered Ks",
    ),
    (
        "offer negative chips",
        _offers(0, {"1": {"card": "Ks", "chips": -1}, "2": {"card": "6d"}}),
        0,
        "at least 0 chips",
    ),
    ("swap nobody", _action(0, then={"swap": 0}), 0, "player 0 made no offer to swap with"),
    ("swap text", _action(0, then={"swap": "1"}), 0, "names the player whose offer"),
    ("then missing", lambda h: h["actions"][0].pop("then"), 0, 'then must be "mulligan"'),
    ("then other", _action(0, then="keep"), 0, 'then must be "mulligan"'),
    ("then two", _action(0, then={"swap": 1, "mulligan": True}), 0, 'then must be "mulligan"'),
    (
        "offer from a folded player",
        lambda h: h["actions"][3].update(
            do="auction",
            card="Ks",
            chips=1,
            offers={"1": {"card": "Ah"}, "2": {"card": "Qs"}},
            then="mulligan",
        ),
        3,
        "player 2 has folded and makes no offer",
    ),
    ("after the end", lambda h: h["actions"].append({"do": "skip"}), 5, "already over"),
]


@pytest.mark.parametrize(
    ("change", "action", "message"), [b[1:] for b in ILLEGAL], ids=[b[0] for b in ILLEGAL]
)
def test_an_illegal_action_is_refused_with_its_index(
    change: Any, action: int, message: str
) -> None:
    error = refusal(edited(change))
    assert error["code"] == "illegal_action"
    assert error["action"] == action
    assert message in error["message"]


def _no_chips(h: dict[str, Any]) -> None:
    h["variants"] = []
    del h["chips"], h["rake"]
    for a in h["actions"]:
        a.pop("chips", None)
        for offer in a.get("offers", {}).values():
            offer.pop("chips", None)


def test_without_the_chips_variant_any_chips_key_is_illegal_action() -> None:
    hand = edited(_no_chips)
    assert replay_mulligan(hand)["chips"] is None
    for where in (
        lambda h: h["actions"][1].__setitem__("chips", 0),
        lambda h: h["actions"][1]["offers"]["0"].__setitem__("chips", 0),
        lambda h: h["actions"][3].__setitem__("chips", 1),
    ):
        broken = copy.deepcopy(hand)
        where(broken)
        error = refusal(broken)
        assert error["code"] == "illegal_action"
        assert error["action"] in (1, 3)
        assert "not played for chips" in error["message"]


def test_a_chipless_auctioneer_must_fold_in_the_record() -> None:
    hand = base()
    hand["chips"] = [3, 10, 10]  # player 0 puts all 3 on the 2c, swaps for the Ks and 0 chips
    hand["actions"][0]["offers"]["1"]["chips"] = 0
    hand["actions"][2:] = [{"do": "skip"}, {"do": "skip"}]
    error = refusal(hand)
    assert error["code"] == "illegal_action" and error["action"] == 3
    assert (
        "player 0 holds 0 chips, less than the table minimum of 1, and must fold"
        in (error["message"])
    )
    hand["actions"][3:] = [{"do": "fold"}, {"do": "skip"}, {"do": "fold"}]
    out = replay_mulligan(hand)
    assert out["ended_by"] == "fold" and out["chips"][0] == 0


def test_an_action_out_of_the_rules_at_that_moment_is_illegal() -> None:
    hand = base()
    hand["actions"].insert(1, {"do": "skip"})  # player 1 skips; player 2 now auctions the 4h
    error = refusal(hand)
    assert error["code"] == "illegal_action" and error["action"] == 2
    assert "player 2 does not hold 4h" in error["message"]


# --- incomplete ------------------------------------------------------------------------------


@pytest.mark.parametrize("kept", [0, 1, 2, 4])
def test_actions_that_stop_before_the_end_are_incomplete(kept: int) -> None:
    hand = base()
    hand["actions"] = hand["actions"][:kept]
    error = refusal(hand)
    assert error["code"] == "incomplete"
    assert error["action"] == kept
    assert "stop before the game ends" in error["message"]


def test_an_illegal_action_comes_before_incomplete() -> None:
    hand = base()
    hand["actions"] = hand["actions"][:2] + [{"do": "auction", "card": "Qs", "chips": 1}]
    error = refusal(hand)
    assert (error["code"], error["action"]) == ("illegal_action", 2)


# --- records of played games -----------------------------------------------------------------


def test_a_played_game_written_as_a_record_replays_to_the_same_result() -> None:
    setup = make_setup(
        HANDS,
        variants={V.CHIPS, V.HIGH_RISK, V.SECRET_OFFERS},
        chips=[8, 9, 10],
        rake=rake("12.5", 4),
        first=2,
    )
    game = new_game(setup)
    game = apply(auction_round(game, lot_chips=2, offer_chips=1), Swap(2, 0))
    game = apply(auction_round(game, lot_chips=3, offer_chips=2), Mulligan(0))
    game = apply(game, Skip(1))
    game = apply(game, Fold(2))
    game = apply(game, Fold(0))
    record = game_record(game)
    assert record["variants"] == ["secret_offers", "high_risk", "chips"]
    assert record["rake"] == {"percent": "12.5", "cap": 4}
    assert len(record["burn"]) == 13
    assert replay_mulligan(json.loads(json.dumps(record))) == result_json(game)


def test_a_record_of_a_game_stopped_mid_auction_leaves_the_auction_out() -> None:
    game = new_game(make_setup(HANDS))
    game = apply(auction_round(game), Mulligan(0))
    game = auction_round(game)
    record = game_record(game)
    assert len(record["actions"]) == 1
    error = refusal(record)
    assert (error["code"], error["action"]) == ("incomplete", 1)
