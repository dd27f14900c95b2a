"""Benchmark `manage.py replay` on Rhode Island Hold 'Em hands: hands per second.

Run from the project root, pinned to one core:

    taskset -c 0 .venv/bin/python benchmarks/bench_replay.py [--hands N] [--seed S] [--markdown]

1. Generates random legal hands (2 to `--max-players` players, random stacks, the default
   limits, a 5 % rake capped at 3; every action drawn from the legal ones, weighted like a
   loose table: mostly checks and calls, some bets and raises, a few folds) by playing them on
   the engine, and writes their records as JSON Lines to a temporary file.
2. Times `replay_stream` (the loop behind `manage.py replay`) over those lines into a StringIO,
   in process, with Django set up beforehand: start-up excluded; best of `--runs`.
   Aim: >= 2,000 hands/s. Every generated hand is legal, so a refused line is a bug (generator
   or engine): it is printed and the script exits with status 1.
3. Times the whole `manage.py replay < file` as a subprocess (wall-clock, start-up included),
   and start-up alone (empty input), for reference.

`--check` also exits with status 3 when the aim is missed. `--profile` prints the top of a
cProfile of one in-process run.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import machine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

AIM = 2_000  # hands per second through the command, start-up excluded
WEIGHTS = {"check": 6, "call": 6, "bet": 3, "raise": 2, "fold": 1}


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def random_hand(rng: random.Random, max_players: int) -> dict[str, Any]:
    """One random legal hand's record in the contract's form, played on the engine."""
    from decimal import Decimal

    from tables.engine.cards import DECK
    from tables.games.rhode_island.game import HandSetup, RakeRule, RhodeIslandHand, Waiting

    n = rng.randint(2, max_players)
    stacks = tuple(rng.choice((rng.randint(1, 60), rng.randint(60, 400))) for _ in range(n))
    first = rng.randrange(n)
    setup = HandSetup(stacks=stacks, first=first, rake=RakeRule(Decimal(5), 3))
    cards = rng.sample(DECK, n + 2)
    hand = RhodeIslandHand(setup, cards[:n])
    actions: list[str] = []
    while hand.waiting is not Waiting.OVER:
        if hand.waiting is Waiting.FLOP:
            hand.deal_flop(cards[n])
        elif hand.waiting is Waiting.TURN:
            hand.deal_turn(cards[n + 1])
        else:
            legal = [a.move.value for a in hand.legal_actions()]
            move = rng.choices(legal, weights=[WEIGHTS[m] for m in legal])[0]
            hand.act(move)
            actions.append(move)
    record: dict[str, Any] = {
        "game": "rhode_island",
        "rake": {"percent": "5", "cap": 3},
        "stacks": list(stacks),
        "first": first,
        "hole": [str(c) for c in cards[:n]],
        "flop": str(cards[n]),
        "turn": str(cards[n + 1]),
        "actions": actions,
    }
    return record


def generate(seed: int, count: int, max_players: int, path: Path) -> tuple[float, dict[str, Any]]:
    """Write `count` random legal hands to `path`; (seconds, a summary of what was written)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    hands = [random_hand(rng, max_players) for _ in range(count)]
    with path.open("w", encoding="utf-8") as f:
        for hand in hands:
            f.write(json.dumps(hand) + "\n")
    elapsed = time.perf_counter() - start
    summary = {
        "players": sum(len(h["stacks"]) for h in hands) / count,
        "actions": sum(len(h["actions"]) for h in hands) / count,
        "heads_up": sum(len(h["stacks"]) == 2 for h in hands),
    }
    return elapsed, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=6)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-command", action="store_true", help="skip the subprocess timing")
    parser.add_argument("--markdown", action="store_true", help="print the docs table")
    parser.add_argument("--check", action="store_true", help="exit 3 if the aim is missed")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    args = parser.parse_args(argv)

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from tables.management.commands.replay import replay_stream

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.jsonl"
        gen_seconds, summary = generate(args.seed, args.hands, args.max_players, path)
        lines = path.read_bytes().splitlines(keepends=True)

        output = io.StringIO()

        def run() -> None:
            nonlocal output
            output = io.StringIO()
            refused = replay_stream(lines, output)
            if refused:
                for raw, out in zip(lines, output.getvalue().splitlines(), strict=True):
                    if '"error"' in out:
                        print(f"refused: {raw.decode().strip()}\n  -> {out}", file=sys.stderr)
                raise SystemExit(1)

        seconds = best_of(args.runs, run)
        rate = args.hands / seconds

        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            run()
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)

        command: tuple[float, float, int] | None = None
        if not args.no_command:
            cmd = [sys.executable, "manage.py", "replay"]
            start = time.perf_counter()
            subprocess.run(cmd, input=b"", cwd=ROOT, check=True, capture_output=True)
            startup = time.perf_counter() - start
            with path.open("rb") as stdin:
                start = time.perf_counter()
                proc = subprocess.run(cmd, stdin=stdin, cwd=ROOT, capture_output=True, check=False)
                wall = time.perf_counter() - start
            command = (wall, startup, proc.returncode)

    met = rate >= AIM
    rows = [
        (
            f"hands generated (seed {args.seed})",
            f"{args.hands:,} ({summary['heads_up']:,} heads-up; {summary['players']:.2f} players "
            f"and {summary['actions']:.1f} actions per hand), {gen_seconds:.1f} s",
        ),
        (
            f"`replay_stream`, in process, best of {args.runs}",
            f"{seconds:.2f} s = **{rate:,.0f} hands/s** (aim >= {AIM:,}: "
            f"{'met' if met else 'missed'})",
        ),
    ]
    if command is not None:
        wall, startup, code = command
        rows.append(
            (
                "`manage.py replay < file`, wall-clock",
                f"{wall:.2f} s incl. start-up {startup:.2f} s = {args.hands / wall:,.0f} hands/s "
                f"(exit {code})",
            )
        )
    if args.markdown:
        print("| machine | |\n| --- | --- |")
        for key, value in machine().items():
            print(f"| {key} | {value} |")
        print("\n| measure | result |\n| --- | --- |")
        for key, value in rows:
            print(f"| {key} | {value} |")
    else:
        for key, value in machine().items():
            print(f"{key:>8}: {value}")
        for key, value in rows:
            print(f"{key}: {value.replace('**', '')}")
    if args.check and not met:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
