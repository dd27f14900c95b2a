"""`settle` answers byte for byte as before the throughput work of issue 16.

`tests/data/settle/rounds.jsonl` holds 241 lines picked from the seeded corpus of
`benchmarks/settle_corpus.py`: legal rounds of the three games (every seat count, named and
overridden paytables, breakage, progressive awards, shared jackpots, a capped meter) and lines
refused with every code (bad cards, duplicates, bad wagers and paytables, not JSON, not UTF-8),
blank lines and CRLF endings. `expected.jsonl` is what `manage.py settle` wrote for them on the
commit issue 16 started from (5dfa846), before any change: its exit status was 2.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from tables.engine.contract import settle, settlement_to_json, settlement_to_text
from tables.engine.errors import EngineError
from tables.engine.simulate import random_rounds
from tables.management.commands.settle import settle_stream

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "settle"
ROUNDS = (DATA / "rounds.jsonl").read_bytes()
EXPECTED = (DATA / "expected.jsonl").read_text(encoding="ascii")


def test_the_stream_answers_exactly_as_before() -> None:
    out = io.StringIO()
    refused = settle_stream(ROUNDS.splitlines(keepends=True), out)
    assert out.getvalue() == EXPECTED
    assert refused == EXPECTED.count('{"error": ')


def test_the_command_writes_exactly_as_before_and_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "manage.py", "settle"],
        input=ROUNDS,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.stdout == EXPECTED.encode("ascii")
    assert proc.returncode == 2, proc.stderr


def test_through_django_the_command_writes_the_same() -> None:
    """`manage.py settle` alone runs the engine's loop without setting Django up; with an
    option it is Django's command (tables/management/commands/settle.py): the same bytes and
    exit status."""
    proc = subprocess.run(
        [sys.executable, "manage.py", "settle", "--no-color"],
        input=ROUNDS,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.stdout == EXPECTED.encode("ascii")
    assert proc.returncode == 2, proc.stderr


def test_the_text_writer_matches_the_json_form() -> None:
    """`settlement_to_text` (the command's) is `json.dumps` of `settlement_to_json` (the
    site's), for the golden rounds and a few hundred fresh ones."""
    rounds: list[object] = []
    for line in ROUNDS.splitlines():
        try:
            rounds.append(json.loads(line))
        except ValueError:
            continue
    rounds += random_rounds(16, 300)
    settled = 0
    for round_ in rounds:
        try:
            settlement = settle(round_)
        except EngineError:
            continue
        assert settlement_to_text(settlement) == json.dumps(settlement_to_json(settlement))
        settled += 1
    assert settled > 450
