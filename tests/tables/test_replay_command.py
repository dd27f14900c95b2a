"""`python manage.py replay` end to end: JSON Lines in, JSON Lines out in order, exit status,
and no database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "contract" / "replay_examples.jsonl"

HAND = {
    "game": "rhode_island",
    "rake": {"percent": "5", "cap": 3},
    "stacks": [200, 200],
    "first": 0,
    "hole": ["Ah", "Kd"],
    "flop": "Ac",
    "turn": "2s",
    "actions": ["bet", "raise", "call", "check", "check", "bet", "call"],
}


def run_replay(stdin: bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "manage.py", "replay"],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )


def worked_examples() -> list[dict[str, object]]:
    return [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]


def test_replays_every_example_of_both_games_in_order_and_exits_0() -> None:
    examples = worked_examples()
    games = {e["hand"]["game"] for e in examples}  # type: ignore[index]
    assert games == {"rhode_island", "mulligan"}
    stdin = "".join(json.dumps(e["hand"]) + "\n" for e in examples).encode()
    proc = run_replay(stdin)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert out == [e["result"] for e in examples]


def test_a_refused_line_answers_in_place_and_exits_2() -> None:
    lines = [
        json.dumps(HAND),
        "",  # blank lines are skipped
        "{not json",
        json.dumps({**HAND, "game": "poker"}),
        json.dumps({**HAND, "actions": ["bet", "check"]}),
        json.dumps({**HAND, "actions": ["bet"]}),
        json.dumps(HAND),
    ]
    proc = run_replay(("\n".join(lines) + "\n").encode() + b"\xff\xfe\n")
    assert proc.returncode == 2, proc.stderr
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(out) == 7
    assert out[0]["payoffs"] == [42, -45] and out[5]["payoffs"] == [42, -45]
    codes = [o["error"]["code"] for o in out[1:5]] + [out[6]["error"]["code"]]
    assert codes == ["bad_json", "unknown_game", "illegal_action", "incomplete", "bad_json"]
    assert out[3]["error"]["action"] == 1
    assert out[4]["error"]["action"] == 1


def test_empty_input_exits_0() -> None:
    proc = run_replay(b"")
    assert proc.returncode == 0 and proc.stdout == b""


def test_the_command_does_not_touch_the_database() -> None:
    # A database nobody can reach: any query would fail the command.
    unreachable = "postgres://nobody:nothing@127.0.0.1:9/no_such_database"
    proc = run_replay((json.dumps(HAND) + "\n").encode(), DATABASE_URL=unreachable)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["pot"] == 90
