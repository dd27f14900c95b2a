"""Every Mulligan worked example of the `replay` contract replays exactly through
`replay_mulligan` (read from the repository's copy of the contract's examples)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tables.games.mulligan.replay import replay_mulligan

DATA = Path(__file__).resolve().parents[2] / "data" / "contract" / "replay_examples.jsonl"
# The working brief's original, compared with the copy only when it is there.
SHARED = Path(__file__).resolve().parents[4] / "shared" / "contract" / "replay_examples.jsonl"
ABBREVIATED = "..."


def mulligan_examples() -> list[dict[str, Any]]:
    lines = DATA.read_text(encoding="utf-8").splitlines()
    examples = [json.loads(line) for line in lines if line.strip()]
    return [e for e in examples if e["hand"].get("game") == "mulligan"]


EXAMPLES = mulligan_examples()


def agrees(output: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Differences, comparing as the contract does: every key the example carries, and of
    `hands` the hands it spells out (an abbreviated hand, `["..."]`, is not compared)."""
    problems = []
    for key, want in expected.items():
        got = output.get(key)
        if key == "hands" and isinstance(want, list):
            if not isinstance(got, list) or len(got) != len(want):
                problems.append(f"hands: {got!r} != {want!r}")
                continue
            for p, (g, w) in enumerate(zip(got, want, strict=True)):
                if ABBREVIATED not in w and g != w:
                    problems.append(f"player {p}'s hand: {g} != {w}")
        elif got != want:
            problems.append(f"{key}: {got!r} != {want!r}")
    return problems


def test_the_copy_holds_every_mulligan_example() -> None:
    assert len(EXAMPLES) >= 12
    variants = {v for e in EXAMPLES for v in e["hand"].get("variants", [])}
    assert variants == {"secret_offers", "high_risk", "open_hands", "chips"}
    assert {e["result"]["ended_by"] for e in EXAMPLES} == {"fold", "deck"}


def test_the_copy_is_the_contract_byte_for_byte() -> None:
    if not SHARED.exists():
        pytest.skip(f"the working brief's examples are not at {SHARED}")
    assert DATA.read_bytes() == SHARED.read_bytes()


@pytest.mark.parametrize(
    "example",
    EXAMPLES,
    ids=[
        f"line{i}-{'+'.join(e['hand'].get('variants', [])) or 'plain'}"
        for i, e in enumerate(EXAMPLES)
    ],
)
def test_worked_example_replays_exactly(example: dict[str, Any]) -> None:
    output = replay_mulligan(example["hand"])
    assert "error" not in output, output
    assert agrees(output, example["result"]) == []
    # Nothing beyond the contract's keys.
    assert set(output) == {
        "game",
        "ended_by",
        "winner",
        "hands",
        "categories",
        "discards",
        "pot",
        "rake",
        "chips",
    }


def test_abbreviated_hands_are_not_compared() -> None:
    output = {"hands": [["Ah", "Kd", "7c", "7d", "2s"], ["Qs", "Qh", "Qd", "2c", "3c"]]}
    assert agrees(output, {"hands": [["Ah", "Kd", "7c", "7d", "2s"], ["..."]]}) == []
    assert agrees(output, {"hands": [["Ah", "Kd", "7c", "7d", "3s"], ["..."]]}) != []
