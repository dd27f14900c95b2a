"""`manage.py settle`'s CPU time, start-up included, against Django's command on the same input.

    .venv/bin/python benchmarks/settle_cpu.py FILE [--runs 3] [--pairs 2]

Runs, alternating, `manage.py settle < FILE` (the engine's loop without Django) and Django's
`settle` command (`execute_from_command_line(["manage.py", "settle"])`, as `manage.py settle`
ran before) on FILE and on an empty input, and prints the best CPU time (user + system of the
child) of `--runs` runs of each, per pair, and whether both wrote the same bytes and exit
status. FILE: e.g. the rounds `bench_settle.py` generates, or `settle_corpus.py`'s.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THROUGH_DJANGO = (
    "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'casino.settings'); "
    "from django.core.management import execute_from_command_line; "
    "execute_from_command_line(['manage.py', 'settle'])"
)
COMMANDS = {
    "through Django": [sys.executable, "-c", THROUGH_DJANGO],
    "manage.py settle": [sys.executable, "manage.py", "settle"],
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
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args()
    print("| run | CPU s, the file | CPU s, empty input | output, exit |")
    print("| --- | ---: | ---: | --- |")
    seen = set()
    for pair in range(1, args.pairs + 1):
        for name, command in COMMANDS.items():
            full = [run(command, args.file) for _ in range(args.runs)]
            empty = min(run(command, "/dev/null")[0] for _ in range(args.runs))
            outputs = {(digest, status) for _, digest, status in full}
            seen |= outputs
            digest, status = sorted(outputs)[0]
            print(
                f"| {name}, pair {pair} | {min(cpu for cpu, _, _ in full):.2f} | {empty:.2f} "
                f"| {digest}, {status} |"
            )
    print("\nthe same output and exit status every run: " + ("yes" if len(seen) == 1 else "NO"))
    return 0 if len(seen) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
