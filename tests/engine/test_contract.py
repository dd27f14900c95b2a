"""The `settle` contract: every worked example, every refusal code, the output's shape."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tables.engine.contract import settle_line, settle_round
from tables.engine.errors import EngineError

# The worked examples of `docs/contracts/settle.md`, kept with the tests.
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "contract" / "examples.jsonl"


def load_examples() -> list[dict[str, Any]]:
    text = EXAMPLES.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def canonical(result: dict[str, Any]) -> dict[str, Any]:
    """Card lists may come in any order (settle.md, Notes): sort them for comparison."""
    result = json.loads(json.dumps(result))
    for part in [result.get("dealer", {}), *result.get("seats", [])]:
        for key in ("final", "discard", "two_card"):
            if key in part:
                part[key] = sorted(part[key])
    return result


def test_there_are_worked_examples() -> None:
    assert len(load_examples()) >= 15


@pytest.mark.parametrize("index", range(len(load_examples())))
def test_worked_example_settles_as_expected(index: int) -> None:
    example = load_examples()[index]
    output, refused = settle_line(json.dumps(example["round"]))
    expected = example["expected"]
    if "error" in expected:
        assert refused
        assert output["error"]["code"] == expected["error"]["code"]
        assert output["error"]["message"]
    else:
        assert not refused, output
        assert canonical(output) == canonical(expected)


SC_SEAT = {"seat": 1, "wagers": {"ante": "10.00"}, "cards": ["9h", "8h", "2s"]}
SC = {"game": "second_chance", "dealer": {"cards": ["Ks", "7d", "2c"]}, "seats": [SC_SEAT]}
LB = {
    "game": "lowball",
    "dealer": {"cards": ["Kd", "8s", "3h"], "draw": ["6c"]},
    "seats": [
        {"seat": 1, "wagers": {"ante": "10.00", "bonus": "10.00"}, "cards": ["5d", "3c", "Jh"]}
    ],
}
PY = {
    "game": "pyramid",
    "dealer": {"cards": ["Kc", "9d", "5h"]},
    "seats": [
        {"seat": 1, "wagers": {"ante": "10.00"}, "cards": ["Ah", "Qd", "3c"], "one_card": "Qd"}
    ],
}


def with_(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy of `base` with the value at a dotted path (numbers index lists) replaced."""
    data = json.loads(json.dumps(base))
    *parents, last = path.split(".")
    node: Any = data
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is DELETE:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("round_", "code", "named"),
    [
        ("[1, 2]", "bad_json", ""),
        ("{not json", "bad_json", ""),
        (with_(SC, "game", "baccarat"), "unknown_game", "baccarat"),
        (with_(SC, "game", DELETE), "unknown_game", "None"),
        (with_(SC, "seats.0.cards.1", "1h"), "bad_card", "1h"),
        (with_(SC, "dealer.cards.0", "Kx"), "bad_card", "Kx"),
        (with_(SC, "seats.0.cards.1", "7d"), "duplicate_card", "7d"),
        (with_(SC, "seats.0.cards", ["9h", "8h"]), "card_count", "seat 1"),
        (with_(SC, "dealer.cards", ["Ks", "7d", "2c", "3c"]), "card_count", "dealer"),
        (with_(SC, "seats.0.wagers.ante", "-5.00"), "bad_wager", "seat 1"),
        (with_(SC, "seats.0.wagers.ante", "0.00"), "bad_wager", "seat 1"),
        (with_(SC, "seats.0.wagers.ante", "ten"), "bad_wager", "seat 1"),
        (with_(SC, "seats.0.wagers.ante", 10.5), "bad_wager", "seat 1"),
        (with_(SC, "seats.0.wagers.ante", "10.001"), "bad_wager", "seat 1"),
        (with_(SC, "seats.0.wagers", {"pair_plus": "5.00"}), "bad_wager", "ante"),
        (with_(SC, "seats.0.wagers.raise", "10.00"), "bad_wager", "raise"),
        (with_(SC, "seats.0.wagers.mulligan_pair_plus", "5.00"), "bad_wager", "mulligan"),
        (with_(LB, "seats.0.wagers.bonus", "5.00"), "bad_wager", "bonus"),
        (with_(LB, "seats.0.wagers.progressive", "2.00"), "bad_wager", "progressive"),
        (with_(SC, "dealer.draw", ["Ah", "Kd", "3c"]), "house_way", "stands"),
        (with_(LB, "dealer.draw", []), "house_way", "draw"),
        (with_(LB, "dealer.discard", ["8s"]), "house_way", "8s"),
        (with_(PY, "seats.0.one_card", "Ah"), "foul", "seat 1"),
        (with_(PY, "seats.0.one_card", "Kd"), "foul", "Kd"),
        (with_(PY, "seats.0.one_card", DELETE), "foul", "seat 1"),
        (with_(SC, "seats", []), "bad_seat", ""),
        (
            with_(SC, "seats", [SC_SEAT, {**SC_SEAT, "cards": ["3h", "4h", "5s"]}]),
            "bad_seat",
            "seat 1",
        ),
        (with_(SC, "seats.0.seat", 8), "bad_seat", "seat 8"),
        (with_(SC, "seats.0.seat", DELETE), "bad_seat", "seat"),
        (with_(SC, "paytable", "generous"), "bad_paytable", "generous"),
        (with_(LB, "paytable", "4"), "bad_paytable", "4"),
        (with_(LB, "paytable", {"base": "1", "lines": {"royal": "9"}}), "bad_paytable", "royal"),
    ],
)
def test_every_refusal_code_with_a_message_naming_what_is_wrong(
    round_: Any, code: str, named: str
) -> None:
    text = round_ if isinstance(round_, str) else json.dumps(round_)
    output, refused = settle_line(text)
    assert refused
    assert output["error"]["code"] == code
    assert named in output["error"]["message"]


def test_amounts_are_decimal_strings_and_nets_sum() -> None:
    out = settle_round(
        {
            "game": "second_chance",
            "dealer": {"cards": ["Ks", "4d", "2c"]},
            "seats": [
                {
                    "seat": 3,
                    "wagers": {"ante": "0.05", "pair_plus": "1"},
                    "cards": ["9s", "Td", "Jc"],
                }
            ],
        }
    )
    (seat,) = out["seats"]
    assert seat["lines"][0] == {
        "wager": "ante",
        "stake": "0.05",
        "result": "win",
        "net": "0.07",
        "breakage": "0.005",
    }
    assert seat["lines"][1]["net"] == "6.00"
    assert Decimal(seat["net"]) == sum(Decimal(line["net"]) for line in seat["lines"])


def test_lowball_override_and_progressive_settings_are_applied() -> None:
    out = settle_round(
        {
            "game": "lowball",
            "paytable": {"base": "2", "lines": {"five_high": "4"}},
            "dealer": {"cards": ["Kd", "8s", "3h"], "draw": ["6c"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "10.00", "bonus": "10.00", "progressive": "5.00"},
                    "cards": ["5d", "3c", "Jh"],
                    "discard": ["Jh"],
                    "draw": ["Ac"],
                }
            ],
            "progressive": {
                "meter": "100.00",
                "reset": "50.00",
                "rate": "0.10",
                "wager": "5.00",
                "awards": {"five_high": "20.00"},
                "cap": "100.25",
            },
        }
    )
    lines = out["seats"][0]["lines"]
    assert lines[1]["net"] == "40.00"
    assert lines[2] == {
        "wager": "progressive",
        "stake": "5.00",
        "result": "win",
        "net": "15.00",
        "award": "five_high",
    }
    assert out["progressive"] == {
        "meter_before": "100.00",
        "contributions": "0.25",
        "paid": "0.00",
        "meter_after": "100.25",
        "overflow": "0.25",
    }


def test_a_refused_round_raises_from_settle_round() -> None:
    with pytest.raises(EngineError):
        settle_round(with_(SC, "seats", []))
