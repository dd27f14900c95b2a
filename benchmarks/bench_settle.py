"""Benchmark the rules engine: `settle` throughput and three-card hand evaluation.

Run from the project root, pinned to one core:

    taskset -c 0 .venv/bin/python benchmarks/bench_settle.py [--rounds N] [--seed S] [--markdown]

1. Generates random legal rounds of all three games (`tables.engine.simulate.random_rounds`)
   and writes them as JSON Lines to a temporary file.
2. Times `settle_stream` (the loop behind `manage.py settle`) over those lines into a StringIO,
   in process, start-up excluded; best of `--runs`. Target: >= 5,000 rounds/s. Every generated
   round is legal, so a refused round is a bug (generator or engine): it is printed and the
   script exits with status 1.
3. Times the whole `manage.py settle < file` as a subprocess (start-up included), for reference.
4. Times evaluating all 22,100 three-card hands with `poker_value` and `lowball_value`;
   best of `--runs`. Target: well under a second.

`--check` also exits with status 3 when a target is missed.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from common import machine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SETTLE_TARGET = 5_000  # rounds per second, one core, start-up excluded
EVAL_TARGET = 1.0  # seconds for all 22,100 hands, per evaluator


def best_of(runs: int, fn: Callable[[], object]) -> float:
    """The fastest of `runs` timed calls, in seconds."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def generate(
    seed: int, count: int, path: Path, seats: int | None
) -> tuple[float, dict[str, int], float]:
    """Write `count` random legal rounds to `path` as JSON Lines; (seconds, rounds per game,
    mean seats per round)."""
    from tables.engine.simulate import random_rounds

    start = time.perf_counter()
    rounds = random_rounds(seed, count, seats=seats)
    with path.open("w", encoding="utf-8") as f:
        for round_ in rounds:
            f.write(json.dumps(round_) + "\n")
    elapsed = time.perf_counter() - start
    per_game: dict[str, int] = {}
    for round_ in rounds:
        per_game[round_["game"]] = per_game.get(round_["game"], 0) + 1
    mean_seats = sum(len(r["seats"]) for r in rounds) / max(len(rounds), 1)
    return elapsed, per_game, mean_seats


def refusals(lines: Sequence[bytes], output: str) -> list[tuple[str, str]]:
    """The (round, error) pairs of every refused line."""
    found = []
    for raw, result in zip(lines, output.splitlines(), strict=True):
        if '"error"' in result and "error" in json.loads(result):
            found.append((raw.decode().strip(), result))
    return found


def bench_settle(lines: list[bytes], runs: int) -> tuple[float, list[tuple[str, str]]]:
    """Best time of `settle_stream` over `lines`, and any refusals."""
    import django  # type: ignore[import-untyped]

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    django.setup()
    from tables.management.commands.settle import settle_stream

    out = io.StringIO()
    refused = settle_stream(lines, out)  # warm-up, and the check that nothing is refused
    bad = refusals(lines, out.getvalue()) if refused else []
    results = out.getvalue().count("\n")
    if results != len(lines):
        bad.append(("(whole stream)", f"{results} results for {len(lines)} rounds"))

    def run() -> None:
        settle_stream(lines, io.StringIO())

    return best_of(runs, run), bad


def bench_command(path: Path) -> tuple[float, float, int]:
    """Wall-clock of `manage.py settle < path` and of start-up alone (empty input); exit code."""
    command = [sys.executable, str(ROOT / "manage.py"), "settle"]
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="casino.settings")
    quiet = subprocess.DEVNULL
    start = time.perf_counter()
    subprocess.run(command, stdin=quiet, stdout=quiet, cwd=ROOT, env=env, check=False)
    startup = time.perf_counter() - start
    with path.open("rb") as f:
        start = time.perf_counter()
        done = subprocess.run(command, stdin=f, stdout=quiet, cwd=ROOT, env=env, check=False)
        total = time.perf_counter() - start
    return total, startup, done.returncode


def bench_evaluation(runs: int) -> tuple[int, float, float]:
    """(hands, best seconds for poker_value, best seconds for lowball_value) over every hand."""
    from tables.engine.cards import DECK
    from tables.engine.rankings import lowball_value, poker_value

    hands = list(combinations(DECK, 3))

    def poker() -> None:
        for hand in hands:
            poker_value(hand)

    def lowball() -> None:
        for hand in hands:
            lowball_value(hand)

    return len(hands), best_of(runs, poker), best_of(runs, lowball)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds to generate (10000)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (1)")
    parser.add_argument("--seats", type=int, help="seats per round, 1-7 (default: random)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs; the best is reported (3)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--no-command", action="store_true", help="skip the manage.py subprocess")
    parser.add_argument("--check", action="store_true", help="exit 3 when a target is missed")
    args = parser.parse_args(argv)

    info = machine()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.jsonl"
        gen_seconds, per_game, mean_seats = generate(args.seed, args.rounds, path, args.seats)
        lines = path.read_bytes().splitlines(keepends=True)
        settle_seconds, bad = bench_settle(lines, args.runs)
        if not args.no_command:
            figures["command"] = bench_command(path)
    hands, poker_seconds, lowball_seconds = bench_evaluation(args.runs)

    rate = len(lines) / settle_seconds
    settle_ok = rate >= SETTLE_TARGET
    eval_ok = max(poker_seconds, lowball_seconds) < EVAL_TARGET
    games = ", ".join(f"{n} {g}" for g, n in sorted(per_game.items()))
    rows = [
        (
            f"rounds generated (seed {args.seed})",
            f"{len(lines):,} ({games}; {mean_seats:.2f} seats/round), {gen_seconds:.2f} s",
        ),
        (
            f"settle_stream, in process, best of {args.runs}",
            f"{settle_seconds:.3f} s = {rate:,.0f} rounds/s "
            f"(target >= {SETTLE_TARGET:,}: {'met' if settle_ok else 'MISSED'})",
        ),
    ]
    if "command" in figures:
        total, startup, code = figures["command"]
        rows.append(
            (
                "manage.py settle < file, wall-clock",
                f"{total:.2f} s incl. start-up {startup:.2f} s "
                f"= {len(lines) / total:,.0f} rounds/s (exit {code})",
            )
        )
    for name, seconds in (("poker_value", poker_seconds), ("lowball_value", lowball_seconds)):
        rows.append(
            (
                f"{name}, all {hands:,} hands, best of {args.runs}",
                f"{seconds * 1000:.1f} ms = {hands / seconds:,.0f} hands/s "
                f"(target < {EVAL_TARGET:.0f} s: {'met' if seconds < EVAL_TARGET else 'MISSED'})",
            )
        )

    if args.markdown:
        print("| machine | |\n| --- | --- |")
        for key, value in info.items():
            print(f"| {key} | {value} |")
        print("\n| measure | result |\n| --- | --- |")
        for key, value in rows:
            print(f"| {key} | {value} |")
    else:
        for key, value in info.items():
            print(f"{key:>8}: {value}")
        print()
        for key, value in rows:
            print(f"{key}:\n    {value}")

    if bad:
        print(f"\n{len(bad)} generated round(s) REFUSED (a bug):", file=sys.stderr)
        for round_, error in bad[:20]:
            print(f"  round: {round_}\n  error: {error}", file=sys.stderr)
        return 1
    if args.check and not (settle_ok and eval_ok):
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
