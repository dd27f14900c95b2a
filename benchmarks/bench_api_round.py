"""CPU per round through the REST API, in process: what one dealer's round costs the server.

    .venv/bin/python benchmarks/bench_api_round.py [--rounds 300] [--warmup 30] [--seats 3]
        [--game second_chance] [--database sqlite|postgresql] [--profile FILE]
        [--baseline REV] [--markdown] [--json-out F]

1. Makes a fresh SQLite database in a temporary folder (the embedded default: WAL, immediate
   transactions), or with `--database postgresql` a fresh PostgreSQL database
   `casino_bench_round` (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432; dropped at
   the end), migrates it, runs `seed_demo`, and adds one table of `--game` with `--seats`
   seats and a dealer signed in there with an API token (as `bench_api_load.py` does).
2. Plays `--warmup` unmeasured rounds, then `--rounds` measured ones, each a random legal
   round (`tables.engine.simulate.random_round`, seeded) as the API calls that play it: open,
   deal, one decision per seat, the dealer's draw, settle (with an `Idempotency-Key`): for 3
   seats of 2nd Chance, seven requests. Each request goes through Django's WSGI handler (the
   whole middleware and DRF stack, as gunicorn calls it) with DEBUG off and Celery tasks run
   in-process (no broker: the settings' default), and every answer is checked.
3. Reports the process CPU time (`time.process_time`: Django, DRF, the engine and SQLite,
   all in this process) per round and per request kind, wall time, and the SQL statements
   per request kind (counted in a second, unmeasured pass of `--count-rounds` rounds; Django's
   own health check of a kept connection is not among them). On PostgreSQL also the CPU its
   backend process used for this connection in the measured rounds (from /proc): one dealer,
   no other load, so the server's and the database's cost of a round without the queueing
   and the machine's swings of the 20-client load.

`--baseline REV` runs this same script on commit REV (a git worktree, see
`benchmarks/baseline.py`) and on this checkout, each in a fresh process, one after the other,
and prints both side by side. `--profile FILE` writes cProfile stats of the measured rounds.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))

import baseline  # noqa: E402  (benchmarks/, beside this script)
from common import machine  # noqa: E402

KINDS = ("open", "deal", "decide", "dealer", "settle")


PG_ADMIN = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
PG_DB = os.environ.get("BENCH_PG_DB", "casino_bench_round")


def setup(db_path: Path, broker: str | None, database: str = "sqlite") -> None:
    if database == "postgresql":
        from common import admin_execute

        admin_execute(
            PG_ADMIN,
            f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)',
            f'CREATE DATABASE "{PG_DB}"',
        )
        os.environ["DATABASE_URL"] = f"{PG_ADMIN}/{PG_DB}"
        # One backend for the whole run (its CPU is read from /proc): the settings' 60 s would
        # replace it in a long run (a --warmup of a busy day's rounds).
        os.environ["DATABASE_CONN_MAX_AGE"] = "86400"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ["DJANGO_DEBUG"] = "true"  # seed_demo asks for it; switched off before measuring
    os.environ["DJANGO_SETTINGS_MODULE"] = "casino.settings"
    os.environ["CELERY_BROKER_URL"] = broker or ""
    if broker:  # a queue of the run's own, which no worker reads; emptied at the end
        os.environ["CELERY_TASK_DEFAULT_QUEUE"] = f"bench-api-round-{os.getpid()}"
    os.environ.setdefault("AUDIT_CHECKPOINT_KEY", "bench-key")
    # One dealer plays far faster here than at a table: the throttle still counts every
    # request (its cost is measured), but never refuses one, and over a one-second window its
    # state (the times of the requests in the window) stays near a real dealer's few entries.
    os.environ["CASINO_API_USER_RATE"] = os.environ.get("BENCH_USER_RATE", "1000000/s")
    import django

    django.setup()


class WSGICaller:
    """Requests straight into Django's WSGI handler, as a WSGI server would make them."""

    def __init__(self, token: str) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.app = WSGIHandler()
        self.token = token

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode()
        environ: dict[str, Any] = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(data)),
            "HTTP_ACCEPT": "application/json",
            "HTTP_AUTHORIZATION": f"Token {self.token}",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        status: list[str] = []

        def start_response(s: str, h: Any, exc_info: Any = None) -> Any:
            status.append(s)
            return lambda chunk: None

        result = self.app(environ, start_response)
        try:
            raw = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        return int(status[0].split()[0]), json.loads(raw) if raw else None


def play(caller: WSGICaller, calls: list[tuple[str, str, Any]], key: str) -> dict[str, float]:
    """One round; CPU seconds per request kind. Raises on any unexpected answer."""
    from bench_api_load import expected_step

    cpu: dict[str, float] = defaultdict(float)
    round_id = None
    for index, (kind, path, body) in enumerate(calls):
        headers = {"Idempotency-Key": key} if kind == "settle" else None
        start = time.process_time()
        status, result = caller.post(path.format(id=round_id), body, headers)
        cpu[kind] += time.process_time() - start
        if not 200 <= status < 300:
            raise SystemExit(f"{kind} {path} answered {status}: {result}")
        if kind == "open":
            round_id = result["id"]
        want = expected_step(kind, index, len(calls))
        if result.get("state", {}).get("step") != want:
            raise SystemExit(f"{kind} left the round at {result.get('state')}, expected {want}")
    return cpu


def measure(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="casino-bench-round-"))
    setup(tmp / "db.sqlite3", args.broker, args.database)
    from bench_api_load import prepare_floor, round_requests
    from django.conf import settings
    from django.db import connection

    # The demo paytables' figures are sampled (Monte Carlo) from a random seed: a fixed one
    # here, so that two runs' theoretical bands, and the outside-band events the record's
    # digest compares, are the same.
    import tables.services.figures as figures

    figures.random = SimpleNamespace(  # type: ignore[assignment]
        Random=random.Random, SystemRandom=lambda: random.Random(FIGURES_SEED)
    )

    with open(os.devnull, "w") as quiet:
        sys.stdout, saved = quiet, sys.stdout
        try:
            plan = prepare_floor(1, only_game=args.game, seats=max(7, args.seats))[0]
        finally:
            sys.stdout = saved
    settings.DEBUG = False
    caller = WSGICaller(plan["token"])
    rng = random.Random(args.seed)
    total = args.warmup + args.rounds + args.count_rounds
    rounds = [round_requests(rng, plan, seats=args.seats) for _ in range(total)]
    for n in range(args.warmup):
        play(caller, rounds[n], f"warm-{n}")

    per_round: list[float] = []
    per_kind: dict[str, list[float]] = defaultdict(list)
    profiler = cProfile.Profile() if args.profile else None
    backend = backend_cpu() if args.database == "postgresql" else None
    wall_start = time.perf_counter()
    for n in range(args.warmup, args.warmup + args.rounds):
        if profiler:
            profiler.enable()
        cpu = play(caller, rounds[n], f"round-{n}")
        if profiler:
            profiler.disable()
        per_round.append(sum(cpu.values()))
        for kind, seconds in cpu.items():
            per_kind[kind].append(seconds)
    wall = time.perf_counter() - wall_start
    backend_ms = None
    if backend is not None:
        backend_ms = 1000 * (backend_cpu(backend[0])[1] - backend[1]) / args.rounds
    if profiler:
        profiler.dump_stats(args.profile)

    queries: dict[str, list[int]] = defaultdict(list)
    current = {"kind": "", "count": 0}

    def counter(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        current["count"] += 1
        if args.show_sql and n == total - 1:
            print(f"  {sql[:160]}")
        return execute(sql, params, many, context)

    for n in range(args.warmup + args.rounds, total):
        with connection.execute_wrapper(counter):
            round_id = None
            for kind, path, body in rounds[n]:
                current["count"] = 0
                headers = {"Idempotency-Key": f"count-{n}"} if kind == "settle" else None
                status, result = caller.post(path.format(id=round_id), body, headers)
                assert 200 <= status < 300, (kind, status, result)
                if kind == "open":
                    round_id = result["id"]
                queries[kind].append(current["count"])
                if args.show_sql and n == total - 1:
                    print(f"--- {kind}: {current['count']} statements")

    digest = record_digest()
    if args.broker:
        import redis

        redis.Redis.from_url(args.broker).delete(os.environ["CELERY_TASK_DEFAULT_QUEUE"])
    requests = len(rounds[args.warmup])
    if args.database == "postgresql":
        from common import admin_execute

        connection.close()
        admin_execute(PG_ADMIN, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)')
    return {
        "database": args.database,
        "backend_cpu_ms_per_round": backend_ms,
        "tasks": "published to a broker (no worker here)" if args.broker else "in-process",
        "record_digest": digest,
        "machine": machine(),
        "game": args.game,
        "seats": args.seats,
        "rounds": args.rounds,
        "requests_per_round": requests,
        "cpu_ms_per_round_mean": 1000 * statistics.fmean(per_round),
        "cpu_ms_per_round_median": 1000 * statistics.median(per_round),
        "cpu_ms_per_round_p90": 1000 * sorted(per_round)[int(0.9 * (len(per_round) - 1))],
        "wall_ms_per_round": 1000 * wall / args.rounds,
        "cpu_ms_by_kind": {
            k: 1000 * statistics.fmean(per_kind[k]) for k in KINDS if per_kind.get(k)
        },
        "requests_by_kind": {
            k: sum(1 for call in rounds[args.warmup] if call[0] == k) for k in KINDS
        },
        "queries_by_kind": {k: statistics.fmean(queries[k]) for k in KINDS if queries.get(k)},
        "queries_per_round": sum(sum(v) for v in queries.values()) / max(1, args.count_rounds),
    }


def backend_cpu(pid: int | None = None) -> tuple[int, float]:
    """The PostgreSQL backend serving this process's connection (on this machine) and the CPU
    seconds it has used (user + system, from /proc)."""
    if pid is None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = int(cursor.fetchone()[0])
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return pid, (int(fields[11]) + int(fields[12])) / ticks


FIGURES_SEED = 20261126


def record_digest() -> dict[str, str]:
    """SHA-256 of what the run left on the record: the rounds (entries, settlements, house
    ways, amounts), their lines, the audit events (kind, who, what, data; not their times or
    hashes), and the hold reports' figures. The same seed gives the same record, whatever the
    code's speed."""
    import hashlib

    from audit.models import AuditEvent
    from reports.models import HoldSummary
    from reports.selectors import FIGURES
    from tables.models import Round, SettlementLine

    def digest(rows: Any) -> str:
        h = hashlib.sha256()
        for row in rows:
            h.update(json.dumps(row, sort_keys=True, default=str).encode())
        return h.hexdigest()[:16]

    return {
        "rounds": digest(
            Round.objects.order_by("id").values_list(
                "table__name",
                "number",
                "status",
                "entry",
                "house_way",
                "settlement",
                "handle_cents",
                "players_net_cents",
                "idempotency_key",
            )
        ),
        "lines": digest(
            SettlementLine.objects.order_by("id").values_list(
                "round__number",
                "seat",
                "wager",
                "stake_cents",
                "result",
                "net_cents",
                "breakage",
                "award",
                "odds",
            )
        ),
        # Not the demo paytables' figures (their sampling's time and seed are recorded).
        "events": digest(
            AuditEvent.objects.exclude(kind="paytable.figures")
            .order_by("seq")
            .values_list("kind", "actor_name", "object_type", "object_id", "table_name", "data")
        ),
        "hold reports": digest(
            HoldSummary.objects.order_by(
                "gaming_day", "table__name", "dealer", "shift"
            ).values_list("gaming_day", "table__name", "game", "shift", "handle_by_wager", *FIGURES)
        ),
    }


def table(results: list[tuple[str, dict[str, Any]]]) -> str:
    head = "| measure | " + " | ".join(name for name, _ in results) + " |"
    lines = [head, "| --- |" + " ---: |" * len(results)]

    def row(label: str, values: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(values) + " |")

    row("CPU ms a round, mean", [f"**{r['cpu_ms_per_round_mean']:.1f}**" for _, r in results])
    if any(r.get("backend_cpu_ms_per_round") is not None for _, r in results):
        row(
            "PostgreSQL backend's CPU ms a round",
            [f"{r.get('backend_cpu_ms_per_round') or 0:.1f}" for _, r in results],
        )
        row(
            "CPU ms a round, both",
            [
                f"**{r['cpu_ms_per_round_mean'] + (r.get('backend_cpu_ms_per_round') or 0):.1f}**"
                for _, r in results
            ],
        )
    row("CPU ms a round, median", [f"{r['cpu_ms_per_round_median']:.1f}" for _, r in results])
    row("CPU ms a round, p90", [f"{r['cpu_ms_per_round_p90']:.1f}" for _, r in results])
    row("wall ms a round", [f"{r['wall_ms_per_round']:.1f}" for _, r in results])
    row("SQL statements a round", [f"{r['queries_per_round']:.1f}" for _, r in results])
    for kind in KINDS:
        if kind in results[0][1]["cpu_ms_by_kind"]:
            n = results[0][1]["requests_by_kind"][kind]
            row(
                f"{kind} (x{n}): CPU ms / statements each",
                [
                    f"{r['cpu_ms_by_kind'][kind] / n:.2f} / {r['queries_by_kind'][kind]:.1f}"
                    for _, r in results
                ],
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--count-rounds", type=int, default=20)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--game", default="second_chance")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE")
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="publish Celery tasks (the report rebuild) to this Redis broker instead of "
        "running them in-process: the web's own cost, as deployed with a worker",
    )
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="sqlite: a fresh file (the embedded default); postgresql: a fresh database "
        f"{PG_DB} on BENCH_PG_URL ({PG_ADMIN}), dropped at the end, whose backend's CPU is "
        "reported beside this process's",
    )
    parser.add_argument("--show-sql", action="store_true", help="print the last round's SQL")
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    args = parser.parse_args()

    if args.baseline:
        passed = [a for a in sys.argv[1:] if a not in ("--markdown",)]
        i = passed.index("--baseline")
        passed = passed[:i] + passed[i + 2 :]
        before = baseline.run_against(args.baseline, "bench_api_round.py", passed)
        after = baseline.run_here("bench_api_round.py", passed)
        results = [(f"before ({args.baseline})", before), ("after (this checkout)", after)]
    else:
        results = [("this checkout", measure(args))]
    info = results[-1][1]
    print(
        f"{info['game']}, {info['seats']} seats, {info['requests_per_round']} requests a round, "
        f"Celery tasks {info['tasks']}, "
        f"{info['rounds']} rounds; machine: "
        + "; ".join(f"{k} {v}" for k, v in info["machine"].items())
    )
    print(table(results))
    if len(results) == 2:
        ratio = results[0][1]["cpu_ms_per_round_mean"] / results[1][1]["cpu_ms_per_round_mean"]
        print(f"\nCPU a round: {ratio:.2f}x less after")
        same = results[0][1]["record_digest"] == results[1][1]["record_digest"]
        print(
            "the record (rounds, lines, audit events, hold reports) before and after: "
            + ("the same" if same else "DIFFERENT")
        )
        for part in ("rounds", "lines", "events", "hold reports"):
            print(
                f"  {part}: {results[0][1]['record_digest'][part]} / "
                f"{results[1][1]['record_digest'][part]}"
            )
    if args.json_out:
        Path(args.json_out).write_text(
            json.dumps(results[-1][1] if not args.baseline else dict(results))
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
