"""A gunicorn worker's resident memory over 10,000 rounds: does it grow?

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_memory.py [--rounds 10000] [--clients 4] [--threads 4]
        [--every 250] [--warm-rounds 500] [--max-minutes 40] [--port 8767] [--seed 1]
        [--markdown] [--json-out FILE] [--baseline REV]

1. Recreates the database `casino_mem_bench`, migrates it, seeds the demo and adds a 7-seat
   Three Card 2nd Chance table with a signed-in dealer per client
   (`bench_api_load.prepare_floor`).
2. Starts gunicorn with ONE gthread worker (`--threads` threads), DEBUG off, no broker, on
   127.0.0.1 from this tree (`bench_floor.serving`), and finds the worker: the master's child.
3. `--clients` closed-loop clients (threads, a keep-alive connection each, no think time)
   play `--rounds` 3-seat rounds in total, seven requests each (open, deal, three decisions,
   the dealer's hand, settle with an `Idempotency-Key`), every answer checked
   (`bench_api_load.Client.play`).
4. Samples the worker's VmRSS, RssAnon, RssFile and VmHWM (/proc/<pid>/status) before the
   first round and every `--every` rounds, and checks that the worker is still the same
   process. Reports the RSS after `--warm-rounds`, at the end, the growth between them, the
   slope per 1,000 rounds (least squares over the second half's samples) and a table of
   samples every 1,000 rounds, with latency, throughput and where the CPU went.
5. Checks the database (every round settled, the audit chain whole), stops the server and
   drops the database.

`--baseline REV` runs the same on commit REV, then on this checkout, and prints both. The run
is bounded by `--max-minutes` (the clients stop there; the samples so far are reported).
Everything runs on this machine: traffic goes to 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import secrets
import shutil
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))

import bench_floor as floor  # noqa: E402  (benchmarks/, beside this script)
from bench_api_load import (  # noqa: E402
    ADMIN_URL,
    HOST,
    KINDS,
    REQUEST_TIMEOUT,
    Client,
    Failure,
    check_database,
    code_version,
    cpu_snapshot,
    cpu_use,
    drop_database,
    load_average,
    port_is_free,
    prepare_floor,
    recreate_database,
    round_requests,
    setup_django,
    software,
    summary,
)
from common import machine  # noqa: E402

# BENCH_MEMORY_DB: another name, to measure two trees at once (memory is not a timing).
DB_NAME = os.environ.get("BENCH_MEMORY_DB", "casino_mem_bench")
MB = 1024  # /proc reports kB


def memory_status(pid: int) -> dict[str, int]:
    """VmRSS, RssAnon, RssFile, VmHWM of a process, in kB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


class Progress:
    """The rounds handed out and finished, shared by the clients; samples the worker's
    memory every `every` rounds finished (by the client that finished that round)."""

    def __init__(self, total: int, every: int, master: int, worker: int) -> None:
        self.total, self.every, self.master, self.worker = total, every, master, worker
        self.lock = threading.Lock()
        self.handed = self.done = 0
        self.start = time.perf_counter()
        self.samples: list[dict[str, Any]] = []
        self.sample()

    def take(self) -> int | None:
        with self.lock:
            if self.handed >= self.total:
                return None
            self.handed += 1
            return self.handed - 1

    def finished(self) -> None:
        with self.lock:
            self.done += 1
            if self.done % self.every == 0 or self.done == self.total:
                self.sample()

    def sample(self) -> None:
        workers = floor.children(self.master)
        entry: dict[str, Any] = {
            "rounds": self.done,
            "seconds": round(time.perf_counter() - self.start, 1),
            "worker": workers,
        }
        if workers == [self.worker]:
            entry.update(memory_status(self.worker))
        self.samples.append(entry)


class Player(Client):
    """A closed-loop client (bench_api_load's `Client`: one keep-alive connection, every
    answer checked) playing the next round number handed out until all are played."""

    def __init__(
        self,
        index: int,
        port: int,
        plan: dict[str, Any],
        progress: Progress,
        seed: int,
        run_id: str,
        stop: threading.Event,
    ) -> None:
        super().__init__(index, port, plan, [], 0, run_id, threading.Barrier(1), stop)
        self.progress = progress
        self.rng = random.Random(f"{seed}-{index}")

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            while not self.stop.is_set():
                number = self.progress.take()
                if number is None:
                    return
                calls = round_requests(self.rng, self.plan, seats=floor.SEATS)
                self.play(conn, number, calls, measured=True)
                if not self.stop.is_set():
                    self.progress.finished()
        except Failure as err:
            self.failure = str(err)
        except Exception as err:  # a connection error or timeout: report it, stop everyone
            self.failure = f"{self.name} at {self.plan['table']}: {type(err).__name__}: {err}"
        finally:
            conn.close()
            if self.failure:
                self.stop.set()


def slope_per_1000(samples: list[dict[str, Any]], key: str = "VmRSS") -> float:
    """Least-squares slope of `key` (kB) against rounds, in MB per 1,000 rounds."""
    points = [(s["rounds"], s[key]) for s in samples if key in s]
    if len(points) < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if not sxx:
        return float("nan")
    sxy = sum((x - mx) * (y - my) for x, y in points)
    return sxy / sxx * 1000 / MB


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from django.db import connections

    anchor_folder = floor.use_database(DB_NAME)
    audit_key = secrets.token_urlsafe(32)
    stop = threading.Event()
    try:
        pg_version = recreate_database()
        setup_django(f"{ADMIN_URL}/{DB_NAME}", audit_key)
        plan = prepare_floor(args.clients, only_game=floor.GAME, seats=floor.TABLE_SEATS)
        connections.close_all()
        print(f"database {DB_NAME} ready: {args.clients} tables", file=sys.stderr)
        with floor.serving(args.port, 1, args.threads, plan, audit_key) as server:
            workers = floor.children(server.pid)
            if len(workers) != 1:
                raise RuntimeError(f"expected one gunicorn worker, found {workers}")
            progress = Progress(args.rounds, args.every, server.pid, workers[0])
            run_id = uuid.uuid4().hex[:8]
            players = [
                Player(i + 1, args.port, plan[i], progress, args.seed, run_id, stop)
                for i in range(args.clients)
            ]
            print(
                f"gunicorn worker {workers[0]} (1 worker x {args.threads} threads); "
                f"{args.clients} clients playing {args.rounds:,} rounds",
                file=sys.stderr,
            )
            deadline = time.perf_counter() + 60 * args.max_minutes
            cpu_before = cpu_snapshot(server.pid)
            for p in players:
                p.start()
            try:
                reported = 0
                while any(p.is_alive() for p in players):
                    if time.perf_counter() > deadline:
                        print(f"--max-minutes {args.max_minutes:g} reached", file=sys.stderr)
                        stop.set()
                    for p in players:
                        p.join(1)
                    if progress.done >= reported + 1000:
                        reported = progress.done - progress.done % 1000
                        last = progress.samples[-1]
                        print(
                            f"  {progress.done:,} rounds, {last['seconds']:.0f} s, RSS "
                            f"{last.get('VmRSS', 0) / MB:.1f} MB",
                            file=sys.stderr,
                        )
            finally:
                stop.set()
                for p in players:
                    p.join(REQUEST_TIMEOUT + 5)
            wall = time.perf_counter() - progress.start
            cpu = cpu_use(cpu_before, cpu_snapshot(server.pid))
        settled, chain = check_database(0)
        connections.close_all()
    finally:
        stop.set()
        with contextlib.suppress(Exception):  # Django may not be set up yet
            connections.close_all()
        drop_database()
        shutil.rmtree(anchor_folder, ignore_errors=True)

    failures = [p.failure for p in players if p.failure]
    merged = {k: [x for p in players for x in p.latencies[k]] for k in KINDS}
    everything = [x for k in KINDS for x in merged[k]]
    samples = progress.samples
    memory = [s for s in samples if "VmRSS" in s]
    warm = next((s for s in memory if s["rounds"] >= args.warm_rounds), memory[-1])
    end = memory[-1]
    second_half = [s for s in memory if s["rounds"] >= progress.done / 2]
    return {
        "machine": machine(postgresql=pg_version),
        "software": software(),
        "code": f"{code_version()} ({ROOT})",
        "setup": (
            f"gunicorn gthread, 1 worker x {args.threads} threads, keep-alive, DEBUG off, no "
            f"broker; {args.clients} closed-loop clients (no think time), 3-seat "
            f"{floor.GAME} rounds at 7-seat tables, seed {args.seed}"
        ),
        "rounds": progress.done,
        "rounds_asked": args.rounds,
        "wall_seconds": round(wall, 1),
        "requests_per_s": len(everything) / wall,
        "latency_ms": {
            "all": summary(everything),
            "settle": summary(merged["settle"]),
        },
        "failures": failures,
        "settled_in_database": settled,
        "audit_chain": chain,
        "worker_restarted": any(s["worker"] != samples[0]["worker"] for s in samples),
        "cpu_seconds": {k: round(v, 1) for k, v in cpu.items()},
        "load_average": load_average(),
        "warm_rounds": warm["rounds"],
        "rss_warm_mb": warm["VmRSS"] / MB,
        "rss_end_mb": end["VmRSS"] / MB,
        "growth_mb": (end["VmRSS"] - warm["VmRSS"]) / MB,
        "slope_mb_per_1000": slope_per_1000(second_half),
        "anon_slope_mb_per_1000": slope_per_1000(second_half, "RssAnon"),
        "hwm_end_mb": end["VmHWM"] / MB,
        "samples": samples,
    }


def report(r: dict[str, Any], markdown: bool, title: str = "") -> None:
    if title:
        print(f"\n{'### ' if markdown else '== '}{title}\n")
    lines = [
        *r["machine"].items(),
        ("software", r["software"]),
        ("code", r["code"]),
        ("set-up", r["setup"]),
        (
            "run",
            f"{r['rounds']:,} rounds ({r['rounds'] * 7:,} requests) in {r['wall_seconds']:.0f} s"
            f" = {r['requests_per_s']:.0f} requests/s; all p50 "
            f"{r['latency_ms']['all']['p50']:.1f} ms, p99 {r['latency_ms']['all']['p99']:.1f} "
            f"ms, settle p99 {r['latency_ms']['settle']['p99']:.1f} ms",
        ),
        (
            "database",
            f"{r['settled_in_database']:,} rounds settled of {r['rounds']:,}; audit chain "
            f"{r['audit_chain']}",
        ),
        (
            "CPU",
            ", ".join(
                f"{k} {r['cpu_seconds'][k]:.0f} s"
                for k in ("busy", "server", "postgres", "client", "other", "unattributed")
            )
            + f" (gunicorn = server, this process = client); load average {r['load_average']}",
        ),
    ]
    print(floor.table(["machine", ""], lines, True) if markdown else "")
    if not markdown:
        for key, value in lines:
            print(f"{key:>12}: {value}")
    print()
    rows = [
        [f"{s['rounds']:,}", f"{s['seconds']:.0f}"]
        + [f"{s[k] / MB:.1f}" for k in ("VmRSS", "RssAnon", "RssFile", "VmHWM")]
        for s in r["samples"]
        if "VmRSS" in s
        and (s["rounds"] % 1000 == 0 or s["rounds"] in (r["warm_rounds"], r["rounds"]))
    ]
    headers = ["rounds", "seconds", "RSS MB", "anon MB", "file MB", "peak MB"]
    print(floor.table(headers, rows, markdown))
    print()
    summary_rows = [
        ("RSS after warm-up", f"{r['rss_warm_mb']:.1f} MB at {r['warm_rounds']:,} rounds"),
        ("RSS at the end", f"{r['rss_end_mb']:.1f} MB at {r['rounds']:,} rounds"),
        ("growth", f"{r['growth_mb']:+.1f} MB"),
        (
            "slope (least squares, second half)",
            f"{r['slope_mb_per_1000']:+.2f} MB per 1,000 rounds "
            f"(anonymous memory {r['anon_slope_mb_per_1000']:+.2f})",
        ),
        ("worker restarted", "YES" if r["worker_restarted"] else "no"),
    ]
    for key, value in summary_rows:
        print(f"- {key}: {value}" if markdown else f"{key}: {value}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10000, help="rounds in all (10000)")
    parser.add_argument("--clients", type=int, default=4, help="closed-loop clients (4)")
    parser.add_argument("--threads", type=int, default=4, help="threads of the worker (4)")
    parser.add_argument("--every", type=int, default=250, help="rounds between samples (250)")
    parser.add_argument("--warm-rounds", type=int, default=500, help="warm-up reference (500)")
    parser.add_argument("--max-minutes", type=float, default=40, help="time bound (40)")
    parser.add_argument("--port", type=int, default=8767, help="port on 127.0.0.1 (8767)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    parser.add_argument("--baseline", metavar="REV", help="also measure commit REV first")
    args = parser.parse_args(argv)
    if min(args.rounds, args.clients, args.threads, args.every) < 1:
        parser.error("--rounds, --clients, --threads and --every must be at least 1")
    floor.interrupt_on_sigterm()
    if args.baseline:
        before, after = floor.run_baseline("bench_memory.py", args, argv)
        report(before, args.markdown, f"before: {args.baseline}")
        report(after, args.markdown, "after: this checkout")
        rows = [
            [label, f"{before[key]:+.2f}" if sign else f"{before[key]:.1f}"]
            + [f"{after[key]:+.2f}" if sign else f"{after[key]:.1f}"]
            for label, key, sign in (
                ("RSS after warm-up, MB", "rss_warm_mb", False),
                ("RSS at the end, MB", "rss_end_mb", False),
                ("growth, MB", "growth_mb", True),
                ("slope, MB per 1,000 rounds", "slope_mb_per_1000", True),
                ("requests/s", "requests_per_s", False),
            )
        ]
        print(f"\n{'### ' if args.markdown else '== '}Before and after\n")
        print(floor.table(["measure", f"before ({args.baseline})", "after"], rows, args.markdown))
        if args.json_out:
            Path(args.json_out).write_text(json.dumps({"before": before, "after": after}))
        return 0
    if not port_is_free(args.port):
        print(f"port {args.port} on {HOST} is in use: choose another with --port", file=sys.stderr)
        return 2
    try:
        result = measure(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    report(result, args.markdown)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result))
    status = 0
    for failure in result["failures"]:
        print(f"FAILED: {failure}", file=sys.stderr)
        status = 1
    if result["settled_in_database"] != result["rounds"] or not result["audit_chain"].startswith(
        "whole"
    ):
        print("FAILED: the database does not hold what the clients settled", file=sys.stderr)
        status = 1
    if result["worker_restarted"]:
        print("FAILED: the worker was restarted during the run", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
