"""`python manage.py settle` end to end: JSON Lines in, JSON Lines out, exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

GOOD = {
    "game": "pyramid",
    "dealer": {"cards": ["Kc", "9d", "5h"]},
    "seats": [
        {"seat": 1, "wagers": {"ante": "10.00"}, "cards": ["A♥", "qd", "3c"], "one_card": "Qd"}
    ],
}


def run_settle(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "settle"],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_settles_each_line_in_order_and_exits_0() -> None:
    proc = run_settle(json.dumps(GOOD, ensure_ascii=False) + "\n\n" + json.dumps(GOOD) + "\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2  # the blank line is skipped
    out = json.loads(lines[0])
    assert out["seats"][0]["final"] == ["Ah", "Qd", "3c"]  # canonical spelling
    assert out["seats"][0]["net"] == "10.00"


def test_a_refused_line_gets_an_error_line_processing_goes_on_and_exit_is_2() -> None:
    proc = run_settle("not json\n" + json.dumps(GOOD) + "\n" + json.dumps({"game": "craps"}) + "\n")
    assert proc.returncode == 2
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [next(iter(line)) for line in lines] == ["error", "game", "error"]
    assert lines[0]["error"]["code"] == "bad_json"
    assert lines[2]["error"]["code"] == "unknown_game"


def test_empty_input_prints_nothing_and_exits_0() -> None:
    proc = run_settle("")
    assert proc.returncode == 0 and proc.stdout == ""
