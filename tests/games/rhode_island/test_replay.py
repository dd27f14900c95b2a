"""The `replay` contract for Rhode Island Hold 'Em: the worked examples replay exactly, and
every refusal code in the contract's order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tables.engine.replay import GAMES, replay_hand, replay_line

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "tests" / "data" / "contract" / "replay_examples.jsonl"
SHARED = ROOT.parent / "shared" / "contract" / "replay_examples.jsonl"


def rhode_island_examples() -> list[dict[str, Any]]:
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    examples = [json.loads(line) for line in lines if line.strip()]
    return [e for e in examples if e["hand"]["game"] == "rhode_island"]


EXAMPLE_COUNT = len(rhode_island_examples())

HAND: dict[str, Any] = {
    "game": "rhode_island",
    "ante": 5,
    "bets": [10, 20, 20],
    "raise_cap": 3,
    "rake": {"percent": "5", "cap": 3},
    "stacks": [200, 200],
    "first": 0,
    "hole": ["Ah", "Kd"],
    "flop": "Ac",
    "turn": "2s",
    "actions": ["bet", "raise", "call", "check", "check", "bet", "call"],
}


def hand(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(HAND))
    for key, value in changes.items():
        if value is ...:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def error(data: object) -> dict[str, Any]:
    out, refused = replay_line(json.dumps(data))
    assert refused, out
    assert set(out) == {"error"}
    err: dict[str, Any] = out["error"]
    assert err["message"]
    return err


# -- worked examples -----------------------------------------------------------------------


def test_the_repository_copy_of_the_examples_is_the_contracts() -> None:
    if not SHARED.exists():
        pytest.skip(f"the shared contract is not at {SHARED}")
    assert EXAMPLES.read_bytes() == SHARED.read_bytes()


def test_there_are_rhode_island_examples() -> None:
    assert EXAMPLE_COUNT >= 14


@pytest.mark.parametrize("index", range(EXAMPLE_COUNT))
def test_each_worked_example_replays_exactly(index: int) -> None:
    example = rhode_island_examples()[index]
    out, refused = replay_line(json.dumps(example["hand"]))
    assert not refused
    assert out == example["result"]
    assert list(out) == ["game", "pot", "rake", "showdown", "hands", "winners", "payoffs"]


def test_the_contract_example_from_the_text() -> None:
    assert replay_hand(HAND) == {
        "game": "rhode_island",
        "pot": 90,
        "rake": 3,
        "showdown": True,
        "hands": ["pair", "high_card"],
        "winners": [0],
        "payoffs": [42, -45],
    }


def test_defaults_and_exact_decimal_percent() -> None:
    data = hand(ante=..., bets=..., raise_cap=..., rake=...)
    assert replay_hand(data)["rake"] == 0
    assert replay_hand(hand(rake=None))["rake"] == 0
    assert replay_hand(hand(rake={"percent": "5", "cap": None}))["rake"] == 4
    text = json.dumps(hand(rake={"percent": "X"})).replace('"X"', "2.5")  # a JSON number
    out, refused = replay_line(text)
    assert not refused and out["rake"] == 2  # 2.5 % of 90 = 2.25
    assert replay_hand(hand(rake={"percent": 10}))["rake"] == 9


def test_cards_in_any_accepted_spelling() -> None:
    out = replay_hand(hand(hole=["a♥", "KD"], flop="ac", turn="2♠"))
    assert out["hands"] == ["pair", "high_card"]


def test_flop_and_turn_may_be_absent_when_the_hand_ends_before_them() -> None:
    out = replay_hand(hand(flop=..., turn=..., actions=["bet", "fold"]))
    assert out == {
        "game": "rhode_island",
        "pot": 10,
        "rake": 0,
        "showdown": False,
        "hands": [None, None],
        "winners": [0],
        "payoffs": [5, -5],
    }
    out = replay_hand(hand(turn=..., actions=["check", "check", "bet", "fold"]))
    assert out["rake"] == 0 and out["pot"] == 10  # 5% of 10 rounds down to 0


def test_a_hand_all_in_from_the_ante_needs_no_actions() -> None:
    out = replay_hand(hand(stacks=[4, 200], actions=[]))
    assert out["pot"] == 8 and out["showdown"] and out["payoffs"] == [4, -4]


def test_both_player_vs_player_games_are_registered() -> None:
    assert set(GAMES) == {"rhode_island", "mulligan"}


# -- refusals, one per code ----------------------------------------------------------------


@pytest.mark.parametrize("text", ["{", "not json", '{"game": "rhode_island",}', "[1, 2]", "3"])
def test_bad_json(text: str) -> None:
    out, refused = replay_line(text)
    assert refused and out["error"]["code"] == "bad_json"
    assert "action" not in out["error"]


@pytest.mark.parametrize("game", [..., "poker", 7, None, "Rhode_Island"])
def test_unknown_game(game: Any) -> None:
    err = error(hand(game=game))
    assert err["code"] == "unknown_game"
    assert "rhode_island" in err["message"]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"hole": ["Ah", "Zz"]}, "'Zz' in player 1's hole card"),
        ({"hole": ["Ah", None]}, "player 1's hole card"),
        ({"flop": "1c"}, "the flop"),
        ({"turn": 5}, "the turn"),
        ({"flop": ["Ac"]}, "the flop"),
    ],
)
def test_bad_card_names_the_card(changes: dict[str, Any], named: str) -> None:
    err = error(hand(**changes))
    assert err["code"] == "bad_card"
    assert named in err["message"]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"hole": ["Ah", "ah"]}, "Ah in player 1's hole card is already in the round"),
        ({"flop": "Kd"}, "Kd in the flop is already in the round (player 1's hole card)"),
        ({"turn": "Ac"}, "Ac in the turn is already in the round (the flop)"),
    ],
)
def test_duplicate_card_names_where_it_already_is(changes: dict[str, Any], named: str) -> None:
    err = error(hand(**changes))
    assert err["code"] == "duplicate_card"
    assert named in err["message"]


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"stacks": [200]}, "2 to 10 players"),
        ({"stacks": [200] * 11, "hole": [r + "c" for r in "23456789TJQ"]}, "2 to 10 players"),
        ({"stacks": [200, 0]}, "player 1's stack"),
        ({"stacks": [200, "200"]}, "player 1's stack"),
        ({"stacks": [200, True]}, "player 1's stack"),
        ({"stacks": [200, 2.5]}, "player 1's stack"),
        ({"stacks": ...}, "stacks"),
        ({"hole": ["Ah"]}, "2 players need 2 hole cards"),
        ({"hole": "Ah Kd"}, "hole"),
        ({"first": ...}, "first"),
        ({"first": 2}, "first"),
        ({"first": -1}, "first"),
        ({"ante": -1}, "ante"),
        ({"ante": "5"}, "ante"),
        ({"bets": [10, 20]}, "bets"),
        ({"bets": [10, 0, 20]}, "bets[1]"),
        ({"raise_cap": -1}, "raise_cap"),
        ({"rake": {"percent": "101"}}, "rake.percent"),
        ({"rake": {"percent": "-1"}}, "rake.percent"),
        ({"rake": {"percent": "abc"}}, "rake.percent"),
        ({"rake": {"percent": "NaN"}}, "rake.percent"),
        ({"rake": {}}, "rake.percent"),
        ({"rake": {"percent": "5", "cap": -1}}, "rake.cap"),
        ({"rake": {"percent": "5", "limit": 3}}, "'limit'"),
        ({"rake": "5%"}, "rake"),
        ({"seats": 2}, "'seats'"),
        ({"actions": "bet call"}, "actions"),
        ({"actions": ...}, "actions"),
    ],
)
def test_bad_setup_names_the_field(changes: dict[str, Any], named: str) -> None:
    err = error(hand(**changes))
    assert err["code"] == "bad_setup", err
    assert named in err["message"]
    assert "action" not in err


def test_the_checks_run_in_the_contracts_order() -> None:
    bad_everything = hand(stacks=[0], hole=["Ah", "Ah", "Zz"], actions=["dance"])
    assert error(bad_everything)["code"] == "bad_card"
    assert error(hand(stacks=[0], hole=["Ah", "Ah"]))["code"] == "duplicate_card"
    assert error(hand(stacks=[0], actions=["dance"]))["code"] == "bad_setup"
    assert error(hand(actions=["dance", "check"]))["code"] == "illegal_action"
    assert error(hand(actions=["bet", "check"], flop=...))["code"] == "illegal_action"


@pytest.mark.parametrize(
    ("actions", "index", "named"),
    [
        (["bet", "check"], 1, "player 1 cannot check facing a bet"),
        (["fold"], 0, "player 0 cannot fold: there is no bet to face"),
        (["call"], 0, "player 0 cannot call"),
        (["raise"], 0, "player 0 cannot raise: there is no bet yet"),
        (["bet", "bet"], 1, "player 1 cannot bet: there is already a bet"),
        (["bet", "raise", "raise", "raise", "raise"], 4, "raise cap is reached"),
        (["check", "allin"], 1, "'allin' is not an action"),
        (["check", 3], 1, "action 1 must be check, bet, call, raise or fold, not 3"),
        (["bet", "fold", "check"], 2, "the hand is already over"),
        (["check", "check", "check", "check", "check", "check", "check"], 6, "already over"),
    ],
)
def test_illegal_action_gives_the_index_of_the_first_refused(
    actions: list[Any], index: int, named: str
) -> None:
    err = error(hand(actions=actions))
    assert err["code"] == "illegal_action"
    assert err["action"] == index
    assert named in err["message"]


def test_a_raise_past_a_smaller_cap_is_illegal() -> None:
    err = error(hand(raise_cap=1, actions=["bet", "raise", "raise"]))
    assert (err["code"], err["action"]) == ("illegal_action", 2)
    assert "a bet and 1 raise" in err["message"]


@pytest.mark.parametrize(
    ("changes", "index", "named"),
    [
        ({"actions": []}, 0, "player 0 is to act first"),
        ({"actions": ["bet", "raise"]}, 2, "player 0 is to act after action 1"),
        ({"actions": ["bet", "call", "check"]}, 3, "player 1 is to act"),
        ({"flop": ..., "turn": ..., "actions": ["check", "check"]}, 2, "no flop card"),
        ({"flop": ..., "actions": ["check", "check", "check"]}, 2, "no flop card"),
        ({"turn": ..., "actions": ["check"] * 4}, 4, "no turn card"),
        ({"turn": ..., "actions": ["check"] * 6}, 4, "no turn card"),
        ({"stacks": [3, 100], "flop": ..., "actions": []}, 0, "no flop card"),
    ],
)
def test_incomplete_when_the_actions_or_cards_run_out(
    changes: dict[str, Any], index: int, named: str
) -> None:
    err = error(hand(**changes))
    assert err["code"] == "incomplete"
    assert err["action"] == index
    assert named in err["message"]


def test_a_refused_line_does_not_stop_the_next() -> None:
    bad, refused = replay_line(json.dumps(hand(actions=["check", "bet", "check"])))
    assert refused and bad["error"]["action"] == 2
    good, refused = replay_line(json.dumps(HAND))
    assert not refused and good["pot"] == 90
