"""`manage.py settle`'s CPU time, start-up included, against another settler of the same input.

    .venv/bin/python benchmarks/settle_cpu.py FILE [--against plain|django] [--runs 3] [--pairs 2]

Runs, alternating, `manage.py settle < FILE` (the engine's loop without Django) and the other
side on FILE and on an empty input, and prints the machine, the best CPU time (user + system of
the child) of `--runs` runs of each, per pair, the ratio of the two on FILE (the other side's
CPU over `manage.py settle`'s: above 1 when `manage.py settle` takes less), and whether every
run of both wrote the same bytes and exit status. Exit status 1 when they did not.

`--against plain` (the default): `python benchmarks/plain_settler.py`, the independent
plain-Python settler of the contract (standard library only). `--against django`: Django's
`settle` command (`execute_from_command_line(["manage.py", "settle"])`, as `manage.py settle`
ran before it skipped Django's set-up).

Start-up includes compiling the project's modules a run imports when they have no bytecode
cache (`__pycache__`: Python writes none while `PYTHONDONTWRITEBYTECODE` is set); the header
says which.

FILE: e.g. the default mix, 20,000 rounds of seed 1 (`bench_settle.generate`, as
`docs/benchmarks.md` shows), or `settle_corpus.py`'s (with `--against django` only: the plain
settler covers the default mix's forms, not the corpus's refusals and rarer forms).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import resource
import subprocess
import sys
from pathlib import Path

from common import machine

ROOT = Path(__file__).resolve().parent.parent
THROUGH_DJANGO = (
    "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'casino.settings'); "
    "from django.core.management import execute_from_command_line; "
    "execute_from_command_line(['manage.py', 'settle'])"
)
ENGINE = ("manage.py settle", [sys.executable, "manage.py", "settle"])
OTHERS = {
    "plain": ("plain settler", [sys.executable, "benchmarks/plain_settler.py"]),
    "django": ("through Django", [sys.executable, "-c", THROUGH_DJANGO]),
}


def run(command: list[str], path: str) -> tuple[float, str, int]:
    """CPU seconds of one run, the SHA-256 of its output and its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(path, "rb") as stdin:
        done = subprocess.run(command, stdin=stdin, capture_output=True, cwd=ROOT, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, hashlib.sha256(done.stdout).hexdigest()[:16], done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--against", choices=sorted(OTHERS), default="plain")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args()
    cache = Path(importlib.util.cache_from_source(str(ROOT / "tables" / "engine" / "contract.py")))
    cached = "yes" if cache.exists() else "no"
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        cached += " (PYTHONDONTWRITEBYTECODE is set)"
    for key, value in machine(bytecode=f"project modules cached: {cached}").items():
        print(f"{key:>8}: {value}")
    print()
    print("| run | CPU s, the file | CPU s, empty input | output, exit |")
    print("| --- | ---: | ---: | --- |")
    seen = set()
    ratios = []
    for pair in range(1, args.pairs + 1):
        best = {}
        for name, command in (OTHERS[args.against], ENGINE):
            full = [run(command, args.file) for _ in range(args.runs)]
            empty = min(run(command, "/dev/null")[0] for _ in range(args.runs))
            outputs = {(digest, status) for _, digest, status in full}
            seen |= outputs
            digest, status = sorted(outputs)[0]
            best[name] = min(cpu for cpu, _, _ in full)
            print(f"| {name}, pair {pair} | {best[name]:.2f} | {empty:.2f} | {digest}, {status} |")
        ratios.append(best[OTHERS[args.against][0]] / best[ENGINE[0]])
    print(
        f"\n{OTHERS[args.against][0]} CPU / manage.py settle CPU, the file, per pair: "
        + " / ".join(f"{ratio:.2f}" for ratio in ratios)
        + " (above 1: manage.py settle takes less)"
    )
    print("the same output and exit status every run: " + ("yes" if len(seen) == 1 else "NO"))
    return 0 if len(seen) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
