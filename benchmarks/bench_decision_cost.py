"""Benchmark one decision's cost per house game (`BankedGame.decision_cost`, the ratings').

Run from the project root, pinned to one core:

    taskset -c 0 .venv/bin/python benchmarks/bench_decision_cost.py [--markdown] [--check]

For each game, one settled round's entry (a Pyramid seat putting its lowest card alone, a 2nd
Chance seat taking a mulligan, a Lowball seat throwing away its first card) is costed: first
from cold (the games' lookup tables built, as the first decision a worker costs), then
`--repeat` times warm (a different hand each time, so no per-hand cache answers), reporting the
median, in CPU seconds of the process (and wall seconds). Aim: a warm decision under 1 s of CPU
on one core. Every game counts every deal, so a cost is the same figure on every run.

`--check` exits with status 3 when the aim is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import machine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

AIM = 1.0  # seconds per warm decision, one core

HANDS: dict[str, list[list[str]]] = {
    "pyramid": [["Qs", "Jh", "5d"], ["Ac", "Ad", "3s"], ["9s", "8h", "2d"], ["Kh", "7c", "4s"]],
    "second_chance": [
        ["3h", "3d", "9c"],
        ["Kh", "9s", "4d"],
        ["Qc", "8d", "6s"],
        ["As", "5c", "2h"],
    ],
    "lowball": [["Ah", "2s", "9d"], ["3c", "5d", "Kh"], ["2h", "7s", "7d"], ["Ac", "4h", "Jd"]],
}


def entry(game: str, cards: list[str]) -> dict[str, Any]:
    """A settled round's entry with the seat's decision (the dealer's cards do not count)."""
    seat: dict[str, Any] = {"seat": 1, "cards": cards}
    if game == "pyramid":
        seat.update(wagers={"ante": "10.00"}, one_card=cards[2])
        dealer: dict[str, Any] = {"cards": ["2c", "6d", "Th"]}
    elif game == "second_chance":
        seat.update(wagers={"ante": "10.00", "pair_plus": "5.00"})
        seat["mulligan"] = {"cards": ["Jc", "Jd", "4h"], "pair_plus": "5.00"}
        dealer = {"cards": ["Qs", "7d", "2c"], "draw": ["Ah", "Kd", "3c"]}
    else:
        seat.update(wagers={"ante": "10.00", "bonus": "10.00", "progressive": "1.00"})
        seat.update(discard=[cards[0]], draw=["5c"])
        dealer = {"cards": ["Qs", "7d", "2c"], "discard": ["Qs"], "draw": ["Ah"]}
    return {"game": game, "dealer": dealer, "seats": [seat]}


def timed(fn: Callable[[], Any]) -> tuple[tuple[float, float], Any]:
    """(wall seconds, CPU seconds of this process), and what `fn` returned."""
    start, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return (time.perf_counter() - start, time.process_time() - cpu), value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    from tables import games

    rows = []
    missed = False
    for game, hands in HANDS.items():
        definition = games.banked(game)
        table = definition.named_paytables()[definition.default_paytable]

        def cost(cards: list[str], game: str = game, table: Any = table) -> Any:
            return games.banked(game).decision_cost(entry(game, cards), 1, table)

        cold, first = timed(lambda cost=cost, hand=hands[0]: cost(hand))
        warm = []
        for cards in hands[1 : 1 + args.repeat]:
            seconds, _ = timed(lambda cost=cost, cards=cards: cost(cards))
            warm.append(seconds)
        median = (
            statistics.median(w for w, _c in warm),
            statistics.median(c for _w, c in warm),
        )
        missed |= median[1] > AIM
        rows.append((game, cold, median, first))

    info = machine()
    if args.markdown:
        print("| game | first decision, cold: CPU (wall) | its cost | warm, median: CPU (wall) |")
        print("| --- | --- | --- | --- |")
        for game, cold, median, first in rows:
            hand = " ".join(HANDS[game][0])
            print(
                f"| {game} | {cold[1]:.3f} s ({cold[0]:.3f} s), {hand} | {first} cents "
                f"| {median[1]:.3f} s ({median[0]:.3f} s) |"
            )
    else:
        for game, cold, median, first in rows:
            print(f"{game}: cold {cold}, warm median {median} (wall, CPU s), cost {first}")
    for key, value in info.items():
        print(f"{key}: {value}")
    if args.check and missed:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
