"""CPU of binding on a settle step, alone: the work binding adds to a settled round's events.

    .venv/bin/python benchmarks/bench_binding.py [--game lowball] [--seats 3] [--rounds 40]
        [--repeat 15]

Plays `--rounds` rounds of `--game` through the REST API (as `bench_api_round.py` does, on a
fresh SQLite database), then, for each settled round read back from the database as the
settle leaves it, times the binding work that settle did (best of `--repeat`, so that other
load on the machine does not count), its memory of JSON digests emptied before each call
(the worst case: every JSON field of the round new since the round's last step):

- the round and its settlement lines' canonical content (`audit.binding.bound_data`), as the
  `round.settled` event carries it;
- at a progressive table, the meter's and the round's meter entries' content, as the
  `meter.round` event carries it, and the meter's record check before the settle
  (`audit.binding.check_as_recorded`: its latest event read by the (object, seq) index);
- the bound content's share of each event's JSON text, which the chain's hash covers.

A before/after pair of whole rounds (`bench_api_round.py --baseline`) measures the same thing
with the machine's noise in it; this isolates binding's own cost per settle.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if str(HERE.parent) not in sys.path:
    sys.path.insert(1, str(HERE.parent))

import bench_api_round as api  # noqa: E402  (benchmarks/, beside this script)
from common import machine  # noqa: E402


def best(repeat: int, fn: Any, *args: Any) -> float:
    """The least CPU seconds of `repeat` calls, each with binding's memory of JSON digests
    emptied first (as for a round whose every JSON field changed since it was last bound)."""
    from audit import binding

    memory = getattr(binding, "_digest_of_text", None)
    times = []
    for _ in range(repeat):
        if memory is not None:
            memory.cache_clear()
        start = time.process_time()
        fn(*args)
        times.append(time.process_time() - start)
    return min(times)


def encode(parts: list[dict[str, Any]]) -> None:
    from audit.chain import json_text

    for part in parts:
        json_text({"bound": part})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="lowball")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="casino-bench-binding-"))
    api.setup(tmp / "db.sqlite3", None)
    from bench_api_load import prepare_floor, round_requests
    from django.conf import settings

    from audit.binding import bound_data, check_as_recorded
    from tables.models import MeterEntry, Round

    with open(os.devnull, "w") as quiet:
        sys.stdout, saved = quiet, sys.stdout
        try:
            plan = prepare_floor(1, only_game=args.game, seats=max(7, args.seats))[0]
        finally:
            sys.stdout = saved
    settings.DEBUG = False
    caller = api.WSGICaller(plan["token"])
    rng = random.Random(args.seed)
    for n in range(args.rounds):
        api.play(caller, round_requests(rng, plan, seats=args.seats), f"round-{n}")

    parts: dict[str, list[float]] = {"round and lines": [], "meter and entries": []}
    parts.update({"meter's record check": [], "bound content's JSON text": []})
    lines_seen = []
    rounds = Round.objects.filter(status=Round.Status.SETTLED).select_related("table__meter")
    for round_ in rounds:
        lines = list(round_.lines.all())
        lines_seen.append(len(lines))
        rows = bound_data([round_, *lines])
        parts["round and lines"].append(best(args.repeat, bound_data, [round_, *lines]))
        meter = round_.table.meter
        text_rows = [rows]
        if meter is not None:
            entries = list(MeterEntry.objects.filter(round=round_))
            meter_rows = bound_data([meter, *entries])
            text_rows.append(meter_rows)
            parts["meter and entries"].append(best(args.repeat, bound_data, [meter, *entries]))
            # The meter has moved since this round: the check reads and compares all the same.
            parts["meter's record check"].append(
                best(args.repeat, check_as_recorded, meter, "the meter")
            )
        parts["bound content's JSON text"].append(best(args.repeat, encode, text_rows))

    info = machine()
    print(
        f"{args.game}, {args.seats} seats, {len(lines_seen)} settled rounds, "
        f"{statistics.mean(lines_seen):.1f} settlement lines a round, best of {args.repeat}; "
        "machine: " + "; ".join(f"{k} {v}" for k, v in info.items())
    )
    print("| binding's work on a settle | CPU ms, mean over rounds | max |")
    print("| --- | ---: | ---: |")
    total = 0.0
    for label, values in parts.items():
        if not values:
            continue
        mean = 1000 * statistics.mean(values)
        total += mean
        print(f"| {label} | {mean:.3f} | {1000 * max(values):.3f} |")
    print(f"| **all of it** | **{total:.3f}** | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
