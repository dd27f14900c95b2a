"""Benchmark the rules engine: `settle` throughput and three-card hand evaluation.

Run from the project root, pinned to one core:

    taskset -c 1 .venv/bin/python benchmarks/bench_settle.py [--rounds N] [--seed S] [--markdown]
    taskset -c 1 .venv/bin/python benchmarks/bench_settle.py --full-tables --baseline REV

1. Generates random legal rounds of all three games (`tables.engine.simulate.random_rounds`)
   and writes them as JSON Lines to a temporary file.
2. Times `settle_stream` (the loop behind `manage.py settle`) over those lines into a StringIO,
   in process, start-up excluded; best of `--runs`. Target: >= 5,000 rounds/s. Every generated
   round is legal, so a refused round is a bug (generator or engine): it is printed and the
   script exits with status 1.
3. Times the whole `manage.py settle < file` as a subprocess, and start-up alone (the same
   command on empty input), each the best of `--runs` fresh processes: rounds / (command -
   start-up) is the rate through the command with start-up excluded. Target: >= 10,000
   rounds/s.
4. Times evaluating all 22,100 three-card hands with `poker_value` and `low_value`;
   best of `--runs`. Target: well under a second.

`--full-tables` also measures rounds with all 7 seats filled (steps 1-3). `--json-out FILE`
writes the figures as JSON. `--baseline REV` runs this very script (the same options) on
commit REV (`benchmarks/baseline.py`: a worktree of REV with the current scripts) and on this
checkout, each in a fresh process, and prints both side by side with the ratio.

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
COMMAND_TARGET = 10_000  # rounds per second through `manage.py settle`, start-up excluded
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


def bench_command(path: Path, runs: int) -> tuple[float, float, int]:
    """Best wall-clock of `manage.py settle < path` and best of start-up alone (empty input),
    each over `runs` fresh processes; the exit code."""
    command = [sys.executable, str(ROOT / "manage.py"), "settle"]
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="casino.settings")
    quiet = subprocess.DEVNULL
    startup = total = float("inf")
    code = -1
    for _ in range(max(runs, 1)):
        start = time.perf_counter()
        subprocess.run(command, stdin=quiet, stdout=quiet, cwd=ROOT, env=env, check=False)
        startup = min(startup, time.perf_counter() - start)
        with path.open("rb") as f:
            start = time.perf_counter()
            done = subprocess.run(command, stdin=f, stdout=quiet, cwd=ROOT, env=env, check=False)
            total = min(total, time.perf_counter() - start)
        code = done.returncode
    return total, startup, code


def bench_evaluation(runs: int) -> tuple[int, float, float]:
    """(hands, best seconds for poker_value, best seconds for low_value) over every hand."""
    from tables.engine.cards import DECK
    from tables.engine.rankings import low_value, poker_value

    hands = list(combinations(DECK, 3))

    def poker() -> None:
        for hand in hands:
            poker_value(hand)

    def lowball() -> None:
        for hand in hands:
            low_value(hand)

    return len(hands), best_of(runs, poker), best_of(runs, lowball)


def measure_mix(
    seed: int, count: int, seats: int | None, runs: int, command: bool
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Generate one mix of rounds and time it in process and (unless not `command`) through
    `manage.py settle`; (figures, refused rounds)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rounds.jsonl"
        gen_seconds, per_game, mean_seats = generate(seed, count, path, seats)
        lines = path.read_bytes().splitlines(keepends=True)
        settle_seconds, bad = bench_settle(lines, runs)
        figures: dict[str, Any] = {
            "rounds": len(lines),
            "seats": seats,
            "per_game": per_game,
            "mean_seats": mean_seats,
            "generate_seconds": gen_seconds,
            "in_process_seconds": settle_seconds,
            "in_process_rate": len(lines) / settle_seconds,
        }
        if command:
            total, startup, code = bench_command(path, runs)
            work = total - startup
            figures.update(
                command_seconds=total,
                startup_seconds=startup,
                command_exit=code,
                command_rate_incl_startup=len(lines) / total,
                command_rate=len(lines) / work if work > 0 else float("inf"),
            )
    return figures, bad


def git_revision() -> str:
    """This checkout's commit (with `+dirty` when it has uncommitted changes)."""
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+dirty" if dirty else "")


MIX_NAMES = {"mix": "default mix", "seats7": "7 seats"}
COMPARED = (
    ("in_process_rate", "in process (settle_stream), rounds/s"),
    ("command_rate", "manage.py settle, start-up excluded, rounds/s"),
    ("command_rate_incl_startup", "manage.py settle, start-up included, rounds/s"),
    ("startup_seconds", "manage.py settle, start-up alone (empty input), s"),
)


def print_comparison(rev: str, before: dict[str, Any], after: dict[str, Any], md: bool) -> None:
    """Both runs side by side: baseline, this checkout, ratio (this / baseline)."""
    head = (
        f"baseline {rev} ({before.get('revision', '?')[:12]})",
        f"this checkout ({after.get('revision', '?')[:12]})",
    )
    rows: list[tuple[str, str, str, str]] = []
    for key, mix in after["mixes"].items():
        old = before.get("mixes", {}).get(key, {})
        label = MIX_NAMES.get(key, key)
        per_round = f"{mix['rounds']:,} rounds, {mix['mean_seats']:.2f} seats/round"
        for field, name in COMPARED:
            if field not in mix or field not in old:
                continue
            a, b = old[field], mix[field]
            fmt = "{:,.2f}" if field.endswith("seconds") else "{:,.0f}"
            ratio = f"{b / a:.2f}x" if a else "-"
            rows.append((f"{label} ({per_round}): {name}", fmt.format(a), fmt.format(b), ratio))
    if md:
        print(f"| measure | {head[0]} | {head[1]} | ratio |\n| --- | --- | --- | --- |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        print(f"{'':>62} {head[0]:>24} {head[1]:>24} ratio")
        for name, a, b, ratio in rows:
            print(f"{name:>62} {a:>24} {b:>24} {ratio}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds to generate (10000)")
    parser.add_argument("--seed", type=int, default=1, help="generator seed (1)")
    parser.add_argument("--seats", type=int, help="seats per round, 1-7 (default: random)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs; the best is reported (3)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--no-command", action="store_true", help="skip the manage.py subprocess")
    parser.add_argument(
        "--full-tables", action="store_true", help="also measure rounds with all 7 seats filled"
    )
    parser.add_argument("--check", action="store_true", help="exit 3 when a target is missed")
    parser.add_argument("--json-out", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="measure the same on commit REV and on this checkout (fresh processes) and compare",
    )
    args = parser.parse_args(argv)

    if args.baseline:
        from baseline import run_against, run_here

        forwarded: list[str] = []
        skip = False
        for arg in (
            argv if argv is not None else sys.argv[1:]
        ):  # everything but --baseline REV, --json-out FILE and --markdown
            if skip:
                skip = False
                continue
            if arg in ("--baseline", "--json-out"):
                skip = True
                continue
            if arg.startswith(("--baseline=", "--json-out=")) or arg == "--markdown":
                continue
            forwarded.append(arg)
        before = run_against(args.baseline, "bench_settle.py", forwarded)
        after = run_here("bench_settle.py", forwarded)
        print()
        print_comparison(args.baseline, before, after, args.markdown)
        if args.json_out:
            args.json_out.write_text(
                json.dumps({"baseline": before, "this": after}, indent=2) + "\n"
            )
        return 0

    info = machine()
    figures: dict[str, Any] = {
        "script": "bench_settle.py",
        "revision": git_revision(),
        "machine": info,
        "seed": args.seed,
        "runs": args.runs,
        "mixes": {},
    }
    mixes: list[tuple[str, int | None]] = [("mix" if args.seats is None else "seats", args.seats)]
    if args.full_tables and args.seats != 7:
        mixes.append(("seats7", 7))
    bad: list[tuple[str, str]] = []
    for key, seats in mixes:
        mix, refused = measure_mix(args.seed, args.rounds, seats, args.runs, not args.no_command)
        figures["mixes"][key] = mix
        bad += refused
    hands, poker_seconds, lowball_seconds = bench_evaluation(args.runs)
    figures["evaluation"] = {
        "hands": hands,
        "poker_value_seconds": poker_seconds,
        "low_value_seconds": lowball_seconds,
    }

    first = figures["mixes"][mixes[0][0]]
    rate = first["in_process_rate"]
    settle_ok = rate >= SETTLE_TARGET
    eval_ok = max(poker_seconds, lowball_seconds) < EVAL_TARGET
    rows = []
    command_ok = True  # the first mix's rate through the command (the default mix)
    for key, _ in mixes:
        mix = figures["mixes"][key]
        label = MIX_NAMES.get(key, f"{mix['seats']} seats")
        games = ", ".join(f"{n} {g}" for g, n in sorted(mix["per_game"].items()))
        rows.append(
            (
                f"{label}: rounds generated (seed {args.seed})",
                f"{mix['rounds']:,} ({games}; {mix['mean_seats']:.2f} seats/round), "
                f"{mix['generate_seconds']:.2f} s",
            )
        )
        ok = mix["in_process_rate"] >= SETTLE_TARGET
        rows.append(
            (
                f"{label}: settle_stream, in process, best of {args.runs}",
                f"{mix['in_process_seconds']:.3f} s = {mix['in_process_rate']:,.0f} rounds/s "
                f"(target >= {SETTLE_TARGET:,}: {'met' if ok else 'MISSED'})",
            )
        )
        if "command_seconds" in mix:
            met = mix["command_rate"] >= COMMAND_TARGET
            command_ok = command_ok and (met or key != mixes[0][0])
            rows.append(
                (
                    f"{label}: manage.py settle < file, wall-clock, best of {args.runs}",
                    f"{mix['command_seconds']:.2f} s incl. start-up {mix['startup_seconds']:.2f} s "
                    f"(best of {args.runs} empty runs) = {mix['command_rate']:,.0f} rounds/s "
                    f"start-up excluded (target >= {COMMAND_TARGET:,}: "
                    f"{'met' if met else 'MISSED'}), {mix['command_rate_incl_startup']:,.0f} "
                    f"rounds/s included (exit {mix['command_exit']})",
                )
            )
    for name, seconds in (("poker_value", poker_seconds), ("low_value", lowball_seconds)):
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
    if args.json_out:
        args.json_out.write_text(json.dumps(figures, indent=2) + "\n")

    if bad:
        print(f"\n{len(bad)} generated round(s) REFUSED (a bug):", file=sys.stderr)
        for round_, error in bad[:20]:
            print(f"  round: {round_}\n  error: {error}", file=sys.stderr)
        return 1
    if args.check and not (settle_ok and eval_ok and command_ok):
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
