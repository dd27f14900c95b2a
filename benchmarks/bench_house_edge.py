"""Benchmark the theoretical house edge (`tables.engine.house_edge`).

Run from the project root, pinned to one core:

    taskset -c 0 .venv/bin/python benchmarks/bench_house_edge.py [--markdown] [--check]

1. Pyramid exactly over all 407,170,400 deals, for the optimal strategy and the house way,
   each from cold (the engine's cached tables cleared first). Aim: under 10 s each.
2. Pair Plus and Mulligan Pair Plus exactly (published strategy).
3. Each Monte Carlo figure to +/-0.0005 at 95%: a pilot run estimates the spread of one
   observation, the sample count for a half-width of 0.0005 (with 10% to spare) follows, and
   the full run is timed through `house_edge()` (tables included) and reports the half-width
   it reached. Aim: under 2 minutes each. 2nd Chance's Ante+Raise (published strategy) and
   Lowball's Ante+Bonus and progressive (optimal strategy, paytable 1, meter 25,000.00; one
   run gives both, so its time counts for each).
4. The rake simulations (Rhode Island 5,000 hands, Mulligan 1,000 games, 5% rake), for
   reference.

`--check` exits with status 3 when an aim is missed; `--quick` runs small sample counts (to
test the script).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from common import machine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

EXACT_AIM = 10.0  # seconds, Pyramid exact, one core
MC_AIM = 120.0  # seconds per Monte Carlo figure, one core
HALF_WIDTH = 0.0005  # the 95% interval's half-width aimed at


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def cold_pyramid() -> None:
    from tables.games.pyramid import edge as edge_pyramid

    for cached in (
        edge_pyramid.rank_classes,
        edge_pyramid.setting_counts,
        edge_pyramid._dealer_scores,
        edge_pyramid._optimal_alone,
    ):
        cached.cache_clear()


def half_width(wager: Any) -> float:
    low, high = wager.figures.ci95
    return float((high - low) / 2)


def needed(pilot_samples: int, pilot_half: float) -> int:
    """Samples for a half-width of HALF_WIDTH, with 10% to spare."""
    return int(pilot_samples * (pilot_half / HALF_WIDTH) ** 2 * 1.1) + 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--check", action="store_true", help="exit 3 when an aim is missed")
    parser.add_argument("--quick", action="store_true", help="small samples (tests the script)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    args = parser.parse_args(argv)

    from tables.engine.house_edge import house_edge

    rows: list[tuple[str, str, str, str]] = []  # (figure, method, result, time)
    missed: list[str] = []

    # 1. Pyramid exact, from cold.
    for strategy in ("optimal", "house_way"):
        cold_pyramid()
        seconds, report = timed(lambda s=strategy: house_edge("pyramid", strategy=s, exact=True))
        ante = report.wager("ante")
        counts = ", ".join(f"{o.name} {int(o.count):,}" for o in ante.outcomes)
        ok = seconds < EXACT_AIM
        missed += [] if ok else [f"pyramid {strategy}"]
        rows.append(
            (
                f"Pyramid Ante, {strategy}",
                f"exact, {ante.deals:,} deals ({counts})",
                f"edge **{float(ante.figures.edge):.6%}**, sd {ante.figures.std_dev:.4f}",
                f"{seconds:.2f} s (aim < {EXACT_AIM:.0f} s: {'met' if ok else 'MISSED'})",
            )
        )

    # 2. Pair Plus and Mulligan Pair Plus exact.
    seconds, report = timed(lambda: house_edge("second_chance", strategy="published", exact=True))
    for name in ("pair_plus", "mulligan_pair_plus"):
        w = report.wager(name)
        rows.append(
            (
                f"2nd Chance {name}, published",
                f"exact, {w.deals:,} deals",
                f"edge **{float(w.figures.edge):.6%}** ({w.figures.edge}), "
                f"sd {w.figures.std_dev:.4f}",
                f"{seconds:.2f} s (both)",
            )
        )

    # 3. Monte Carlo to +/-0.0005.
    pilots = {"second_chance": 20_000, "lowball": 20_000}
    if args.quick:
        pilots = {"second_chance": 500, "lowball": 500}
    runs = {
        "second_chance": (("ante_raise",), {"strategy": "published"}),
        "lowball": (("ante_bonus", "progressive"), {"strategy": "optimal"}),
    }
    for game, (wagers, kwargs) in runs.items():
        pilot = house_edge(game, samples=pilots[game], seed=args.seed + 100, **kwargs)
        n = max(needed(pilots[game], half_width(pilot.wager(w))) for w in wagers)
        if args.quick:
            n = pilots[game]
        seconds, report = timed(
            lambda g=game, n=n, kw=kwargs: house_edge(g, samples=n, seed=args.seed, **kw)
        )
        for name in wagers:
            w = report.wager(name)
            half = half_width(w)
            ok = seconds < MC_AIM and half <= HALF_WIDTH
            missed += [] if ok else [f"{game} {name}"]
            low, high = w.figures.ci95
            rows.append(
                (
                    f"{'2nd Chance' if game == 'second_chance' else 'Lowball'} {name}, "
                    f"{kwargs['strategy']}",
                    f"Monte Carlo, {n:,} deals = {w.figures.samples:,} rounds",
                    f"edge **{float(w.figures.edge):.4%}** (95% {low:.4%} to {high:.4%}, "
                    f"+/-{half:.5f}), per total wagered {float(w.figures.edge_per_total):.4%}, "
                    f"sd {w.figures.std_dev:.4f}",
                    f"{seconds:.1f} s (aim +/-{HALF_WIDTH} in < {MC_AIM:.0f} s: "
                    f"{'met' if ok else 'MISSED'})",
                )
            )

    # 4. Rake simulations, for reference.
    for game, n in (("rhode_island", 5_000), ("mulligan", 1_000)):
        n = 100 if args.quick else n
        seconds, report = timed(lambda g=game, n=n: house_edge(g, samples=n, seed=args.seed))
        f = report.wager("rake").figures
        rows.append(
            (
                f"{game} rake (5%, no cap), typical",
                f"simulation, {n:,} {'hands' if game == 'rhode_island' else 'games'}",
                f"mean {f.mean:.3f} chips (95% {f.ci95[0]:.3f} to {f.ci95[1]:.3f}), sd "
                f"{f.std_dev:.3f}, {f.per_pot:.2%} of the pot",
                f"{seconds:.1f} s",
            )
        )

    info = machine()
    if args.markdown:
        print("| machine | |\n| --- | --- |")
        for key, value in info.items():
            print(f"| {key} | {value} |")
        print("\n| figure | method | result | time (one core) |\n| --- | --- | --- | --- |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for key, value in info.items():
            print(f"{key:>8}: {value}")
        for row in rows:
            print(f"\n{row[0]}:\n    {row[1]}\n    {row[2]}\n    {row[3]}")
    if missed:
        print(f"\naims missed: {', '.join(missed)}", file=sys.stderr)
    return 3 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
