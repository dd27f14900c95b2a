"""Load benchmark of the REST API: concurrent dealers settling 7-seat rounds on PostgreSQL.

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_api_load.py [--clients 20] [--rounds-per-client 25]
        [--workers N] [--threads T] [--port 8765] [--conn-max-age S] [--warmup R] [--seed S]
        [--reads table|api|django] [--markdown] [--keep] [--check]

1. Recreates the database `casino_bench` (dropped again at the end unless `--keep`), migrates
   it, runs `seed_demo` (with DEBUG on, in this process only) and adds one table per client
   (BENCH-01.., cycling the three games, with the demo's approved paytable versions; the
   lowball tables share the demo's progressive meter, as tables on one link do) and one dealer
   per table (group `dealer`, an API token, signed in with `dealer_sign_in`).
2. Starts gunicorn with the project's `gunicorn.conf.py` (sync workers, two per core; in a tree
   without one, gthread workers of 4 threads, keep-alive; `--worker-class`, `--workers`,
   `--threads` override) on 127.0.0.1 only, with DEBUG off, Celery tasks in-process (no
   broker, as the settings default; `--broker` starts a worker) and the settings'
   CONN_MAX_AGE (60 s) unless `--conn-max-age` adds `?conn_max_age=S` to the server's
   DATABASE_URL; waits until it answers.
3. Runs one thread per client, each with its own keep-alive connection and table, playing
   rounds one after the other through the API: open (7 seats of wagers within the limits),
   deal, 7 decisions, the dealer's draw by the house way, settle (a unique Idempotency-Key).
   Cards and decisions come from `tables.engine.simulate.random_round` (seeded), wagers as in
   `tables.simulation`. Each client first plays `--warmup` rounds that are not measured; the
   measured phase starts for every client at once. Every response is checked (status and the
   round's next step); any failure is printed, the run stops and the script exits 1.
4. Prints p50, p90, p99 and max latency (client side, request sent to body read) per request
   type and for all requests, throughput, the machine and the server set-up (`--markdown`:
   Markdown tables). Percentiles are nearest-rank. Then checks the database (every round
   settled, the audit chain whole) and shows where the CPU went during the measured phase
   (clients, gunicorn, PostgreSQL, other processes): other work on the machine skews the
   figures, and this says how much there was.
5. Stops the server and drops the database (unless `--keep`).

`--reads WHAT` plays no round: each client sends its rounds' number of requests (11 a round)
as one GET over and over. `table`: the API's representation of its table (GET
/api/tables/ID/; the tablet's pages do not use it). `api`: a DRF view with the project's
defaults that does no work (the token and its roles, IsAuthenticated, the user throttle), and
`django`: a plain Django view behind the project's middleware; these two are served with
`benchmarks.floor.settings` (the project's settings and URLs plus those two,
benchmarks/floor/). What the machine finishes with `api` and `django`, and the p99 that gives
20 clients, is the floor under the settle's figures: what any request costs on this stack
before its own work.

Everything runs on this machine: traffic goes to 127.0.0.1 only, and the run ends by itself.
`--check` exits 3 when the aim (settle p99 < 100 ms) is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import common  # benchmarks/common.py, beside this script
from common import machine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
DB_NAME = "casino_bench"
ADMIN_URL = "postgres://postgres@127.0.0.1:5432"


def admin_execute(*statements: str) -> list[Any]:
    """Statements on the `postgres` maintenance database (autocommit); the last rows."""
    return common.admin_execute(ADMIN_URL, *statements)


AIM_P99_MS = 100.0
SEATS = 7
KINDS = ("open", "deal", "decide", "dealer", "settle")
# --reads: one GET over and over instead of rounds (see main's --reads): its path, given the
# client's table id, and whether it needs benchmarks/floor's settings (its two URLs).
READ = "read"
READS = {
    "table": ("/api/tables/{table_id}/", False),
    "api": ("/bench/api-noop/", True),
    "django": ("/bench/django-noop/", True),
}
REQUESTS_A_ROUND = 3 + SEATS + 1  # open, deal, a decision a seat, the dealer's draw, settle
KINDS_CPU = ("client", "server", "worker", "postgres", "pg_aux", "other")
REQUEST_TIMEOUT = 60.0  # seconds; a request slower than this is a failure
START_TIMEOUT = 60.0  # seconds for the server to answer
STAKES_CENTS = (500, 1000, 2500, 5000, 10000, 100, 200)  # as tables.simulation


# --- the machine ---------------------------------------------------------------------------


def load_average() -> str:
    """The 1-minute load average (other work on the machine skews the figures)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


def code_version() -> str:
    """The commit measured, and whether the working tree had changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head or 'unknown'}{' with uncommitted changes' if dirty else ''}"


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_snapshot(server_pid: int, worker_pid: int | None = None) -> dict[str, Any]:
    """Machine-wide busy CPU seconds (/proc/stat) and each process's CPU seconds, labelled:
    `client` (this process), `server` (gunicorn), `postgres` (backends of the bench
    database), `pg_aux` (PostgreSQL's own background processes), `other` (anything else)."""
    snap: dict[str, Any] = {"busy": 0.0, "procs": {}}
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
        ticks = [int(x) for x in fields]
        idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
        snap["busy"] = (sum(ticks[:8]) - idle) / CLOCK_TICKS
    except (OSError, ValueError, IndexError):
        return snap
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            rest = stat[stat.rindex(")") + 2 :].split()
            ppid, cpu = int(rest[1]), (int(rest[11]) + int(rest[12])) / CLOCK_TICKS
            pid = int(entry.name)
            if pid == me:
                label = "client"
            elif pid == server_pid or ppid == server_pid:
                label = "server"
            elif worker_pid is not None and (pid == worker_pid or ppid == worker_pid):
                label = "worker"
            else:
                cmdline = (entry / "cmdline").read_bytes()
                if DB_NAME.encode() in cmdline:
                    label = "postgres"
                elif cmdline.startswith(b"postgres: ") and b"(" not in cmdline:
                    label = "pg_aux"  # WAL writer, checkpointer, autovacuum...: shared
                else:
                    label = "other"
        except (OSError, ValueError, IndexError):
            continue
        snap["procs"][pid] = (label, cpu)
    return snap


def cpu_use(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """CPU seconds used between two snapshots, per label; `unattributed` is what processes
    that came and went in between used (e.g. PostgreSQL backends that lived for one request)."""
    used = dict.fromkeys(KINDS_CPU, 0.0)
    for pid, (label, cpu) in after["procs"].items():
        start = before["procs"].get(pid, (label, 0.0))[1]
        used[label] += max(cpu - start, 0.0)
    used["busy"] = after["busy"] - before["busy"]
    used["unattributed"] = max(used["busy"] - sum(used[k] for k in KINDS_CPU), 0.0)
    return used


def usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# --- the database --------------------------------------------------------------------------


def recreate_database() -> str:
    """Drop and create the bench database; the server's version string."""
    admin_execute(
        f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)', f'CREATE DATABASE "{DB_NAME}"'
    )
    return str(admin_execute("SHOW server_version")[0][0])


def drop_database() -> None:
    admin_execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def setup_django(database_url: str, audit_key: str) -> None:
    """Django in this process, on the bench database, with DEBUG on (seed_demo needs it)."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["AUDIT_CHECKPOINT_KEY"] = audit_key
    os.environ["DJANGO_DEBUG"] = "true"
    os.environ["DJANGO_SETTINGS_MODULE"] = "casino.settings"
    os.environ["CELERY_BROKER_URL"] = ""
    import django

    django.setup()


def _issue_token(user: Any) -> str:
    """A new API token's key for `user` (on a `--baseline` commit whose tokens are Django REST
    framework's, its token's key)."""
    try:
        from accounts.models import ApiToken
    except ImportError:
        from rest_framework.authtoken.models import Token

        return str(Token.objects.create(user=user).key)
    return ApiToken.objects.issue(user)[1]


def prepare_floor(
    clients: int, *, only_game: str | None = None, seats: int = SEATS
) -> list[dict[str, Any]]:
    """Migrate, seed the demo floor, add a table and a signed-in dealer with a token per
    client. Returns per client: table id, name, game, limits, meter wager, token."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command

    from audit.kinds import EventKind
    from audit.services import audit_record
    from core.roles import Role
    from tables.management.commands.seed_demo import paytable_name
    from tables.models import PaytableVersion, Pit, ProgressiveMeter, Table
    from tables.services.sessions import dealer_sign_in

    with open(os.devnull, "w") as quiet:
        call_command("migrate", verbosity=0, stdout=quiet)
        call_command("seed_demo", stdout=quiet)
    pit = Pit.objects.get(name="Main pit")
    meter = ProgressiveMeter.objects.get(name="Lowball progressive")
    ProgressiveMeter.objects.filter(pk=meter.pk).update(approval_award_cents=10**12)
    meter.refresh_from_db()
    # On the record, as the admin's meter page records a change (the settle checks the meter
    # against its record before it pays from it).
    audit_record(
        actor=None,
        actor_name="benchmark",
        kind=EventKind.METER_CHANGED,
        obj=meter,
        data={"after": {"approval_award_cents": 10**12}},
    )
    dealers = Group.objects.get(name=Role.DEALER.value)
    games = ["second_chance", "lowball", "pyramid"]
    if only_game is not None:
        if only_game not in games:
            raise ValueError(f"{only_game!r} is not one of: {', '.join(games)}")
        games = [only_game]
    versions = {
        game: PaytableVersion.objects.get(game=game, name=paytable_name(game), status="approved")
        for game in games
    }
    User = get_user_model()
    width = max(2, len(str(clients)))  # BENCH-01..99 as before; BENCH-001.. for hundreds
    plan = []
    for i in range(1, clients + 1):
        game = games[(i - 1) % len(games)]
        table = Table.objects.create(
            name=f"BENCH-{i:0{width}d}",
            pit=pit,
            game=game,
            seats=seats,
            paytable_version=versions[game],
            meter=meter if game == "lowball" else None,
            # The dealer's settle is measured: no payout waits for a pit boss's sign-off here.
            approval_threshold_cents=10**12,
        )
        audit_record(
            actor=None,
            actor_name="benchmark",
            kind=EventKind.TABLE_CREATED,
            obj=table,
            table_name=table.name,
            data={"name": table.name, "game": str(game)},
        )
        user = User.objects.create(username=f"bench-dealer-{i:0{width}d}")
        user.set_unusable_password()
        user.save()
        user.groups.add(dealers)
        dealer_sign_in(dealer=user, table=table)
        key = _issue_token(user)
        plan.append(
            {
                "table_id": table.pk,
                "table": table.name,
                "game": str(game),
                "limits": versions[game].limits,
                "meter_wager_cents": meter.wager_cents if game == "lowball" else None,
                "token": key,
            }
        )
    return plan


def check_database(expected_settled: int) -> tuple[int, str]:
    """Rounds settled at the bench tables, and the audit chain's verdict."""
    from audit.verify import verify_chain
    from tables.models import Round

    settled = Round.objects.filter(table__name__startswith="BENCH-", status="settled").count()
    count, problem = verify_chain()
    verdict = f"whole ({count:,} events)" if problem is None else f"BROKEN at {problem}"
    return settled, verdict


# --- the rounds ----------------------------------------------------------------------------


def _stake(rng: random.Random, limits: dict[str, Any], wager: str) -> str:
    from tables.engine.money import format_cents

    lim = limits.get(wager, {"min_cents": 100, "max_cents": 10**9})
    options = [c for c in STAKES_CENTS if lim["min_cents"] <= c <= lim["max_cents"]]
    return format_cents(rng.choice(options or [lim["min_cents"]]))


def round_requests(
    rng: random.Random, client: dict[str, Any], seats: int = SEATS
) -> list[tuple[str, str, Any]]:
    """One random legal round (7 seats by default) as the API calls that play it: (kind,
    path, body); the round id in paths is filled in as `{id}`. Mirrors
    `tables.simulation.play_round`."""
    from tables.engine.money import format_cents
    from tables.engine.simulate import random_round

    game, limits = client["game"], client["limits"]
    data = random_round(rng, game, seats=seats)
    wagers: dict[str, dict[str, str]] = {}
    for s in data["seats"]:
        w = {"ante": _stake(rng, limits, "ante")}
        if game == "second_chance" and "pair_plus" in s["wagers"]:
            w["pair_plus"] = _stake(rng, limits, "pair_plus")
        if game == "lowball" and "progressive" in s["wagers"]:
            w["progressive"] = format_cents(client["meter_wager_cents"])
        wagers[str(s["seat"])] = w
    calls: list[tuple[str, str, Any]] = [
        ("open", "/api/rounds/", {"table": client["table_id"], "wagers": wagers}),
        (
            "deal",
            "/api/rounds/{id}/deal/",
            {
                "cards": {str(s["seat"]): s["cards"] for s in data["seats"]},
                "dealer": data["dealer"]["cards"],
            },
        ),
    ]
    for s in data["seats"]:
        decision: dict[str, Any] = {}
        if game == "second_chance" and s.get("mulligan"):
            decision = {"mulligan": True, "cards": s["mulligan"]["cards"]}
            if "pair_plus" in s["mulligan"]:
                decision["pair_plus"] = _stake(rng, limits, "pair_plus")
        elif game == "lowball":
            decision = {"discard": s.get("discard") or [], "draw": s.get("draw") or []}
        elif game == "pyramid":
            decision = {"house_way": True} if s.get("house_way") else {"one_card": s["one_card"]}
        calls.append(
            ("decide", "/api/rounds/{id}/decide/", {"seat": s["seat"], "decision": decision})
        )
    calls.append(
        (
            "dealer",
            "/api/rounds/{id}/dealer/",
            {"draw": data["dealer"].get("draw") or [], "discard": data["dealer"].get("discard")},
        )
    )
    calls.append(("settle", "/api/rounds/{id}/settle/", {}))
    return calls


def expected_step(kind: str, index: int, calls: int) -> str:
    """The round's `state.step` after call `index` of a round of `calls` calls."""
    if kind == "open":
        return "cards"
    if kind == "deal":
        return "decisions"
    if kind == "decide":
        return "dealer" if index == calls - 3 else "decisions"
    if kind == "dealer":
        return "confirm"
    return "done"


# --- the clients ---------------------------------------------------------------------------


class Failure(Exception):
    pass


class Client(threading.Thread):
    """One dealer at one table: plays its rounds one after another on one connection."""

    def __init__(
        self,
        index: int,
        port: int,
        plan: dict[str, Any],
        rounds: list[list[tuple[str, str, Any]]],
        warmup: int,
        run_id: str,
        barrier: threading.Barrier,
        stop: threading.Event,
        kinds: Sequence[str] = KINDS,
    ) -> None:
        super().__init__(name=f"client-{index:02d}", daemon=True)
        self.index, self.port, self.plan, self.rounds = index, port, plan, rounds
        self.warmup, self.run_id, self.barrier, self.stop = warmup, run_id, barrier, stop
        self.latencies: dict[str, list[float]] = {k: [] for k in kinds}
        self.failure: str | None = None
        self.reconnects = 0
        self.headers = {
            "Authorization": f"Token {plan['token']}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }

    def run(self) -> None:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        try:
            for number, calls in enumerate(self.rounds):
                if number == self.warmup:
                    self.barrier.wait()
                if self.stop.is_set():
                    return
                self.play(conn, number, calls, measured=number >= self.warmup)
        except Failure as err:
            self.failure = str(err)
        except threading.BrokenBarrierError:
            self.failure = self.failure or "another client failed before the measured phase"
        except Exception as err:  # a connection error or timeout: report it, stop everyone
            self.failure = f"{self.name} at {self.plan['table']}: {type(err).__name__}: {err}"
        finally:
            conn.close()
            if self.failure:
                self.stop.set()
                self.barrier.abort()

    def play(
        self,
        conn: http.client.HTTPConnection,
        number: int,
        calls: list[tuple[str, str, Any]],
        measured: bool,
    ) -> None:
        round_id: int | None = None
        for index, (kind, path, body) in enumerate(calls):
            if self.stop.is_set():
                return
            url = path.format(id=round_id)
            payload = json.dumps(body).encode()
            headers = self.headers
            if kind == "settle":
                key = f"bench-{self.run_id}-{self.index:02d}-{number:04d}"
                headers = {**headers, "Idempotency-Key": key}
            method = "GET" if kind == READ else "POST"
            start = time.perf_counter()
            conn.request(method, url, body=None if kind == READ else payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            elapsed = time.perf_counter() - start
            if response.will_close:  # the server closed the connection: open a new one
                conn.close()
                self.reconnects += 1
            if not 200 <= response.status < 300:
                raise Failure(
                    f"{self.name} at {self.plan['table']}, round {number}: {method} {url} "
                    f"({kind}) answered {response.status} {response.reason}: "
                    f"{raw[:2000].decode(errors='replace')}"
                )
            result = json.loads(raw)
            if kind == READ:
                if "/api/tables/" in url and result.get("id") != self.plan["table_id"]:
                    raise Failure(f"{self.name}: GET {url} answered another table: {raw[:200]!r}")
                if measured:
                    self.latencies[kind].append(elapsed)
                continue
            if kind == "open":
                round_id = result["id"]
            want = expected_step(kind, index, len(calls))
            got = result.get("state", {}).get("step")
            if got != want or (kind == "settle" and result.get("status") != "settled"):
                raise Failure(
                    f"{self.name} at {self.plan['table']}, round {number}: POST {url} ({kind}) "
                    f"left the round at step {got!r} (status {result.get('status')!r}), "
                    f"expected {want!r}"
                )
            if measured:
                self.latencies[kind].append(elapsed)


# --- the server ----------------------------------------------------------------------------


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def server_env(database_url: str, audit_key: str, broker: str | None = None) -> dict[str, str]:
    """The environment of the server (and of the worker, with a broker): DEBUG off."""
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET_KEY,
        AUDIT_CHECKPOINT_KEY=audit_key,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="casino.settings",
        CELERY_BROKER_URL=broker or "",
        # Each simulated tablet plays as fast as it can: above a real dealer's pace, so the
        # per-user API throttle (a production control) is lifted for the measurement; over a
        # one-second window its state (the times of the requests in the window) stays near a
        # real dealer's few entries instead of a minute of back-to-back requests.
        CASINO_API_USER_RATE="1000000/s",
    )
    if broker:  # the run's own queue, read by the run's own worker
        env["CELERY_TASK_DEFAULT_QUEUE"] = QUEUE
    return env


SECRET_KEY = secrets.token_urlsafe(50)
QUEUE = f"bench-api-load-{os.getpid()}"


def spawn(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A server process of the run, in this tree, its output to `log`, in its own session."""
    with log.open("wb") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def start_worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """One Celery worker (one process) reading the run's queue, as a deployment's worker."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "casino",
        "worker",
        "--pool",
        "solo",
        "-Q",
        QUEUE,
        "--loglevel",
        "WARNING",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    return spawn(command, env, log)


def drain_queue(broker: str, timeout: float = 120.0) -> bool:
    """Wait until the worker has taken every task of the run's queue (and a moment more)."""
    import redis

    client = redis.Redis.from_url(broker)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.llen(QUEUE) == 0:
            time.sleep(2.0)  # the last task taken is finishing
            if client.llen(QUEUE) == 0:
                return True
        time.sleep(0.5)
    return False


def project_server() -> dict[str, Any]:
    """The server set-up of the tree measured: its gunicorn.conf.py (worker class, workers,
    threads), or, in a tree without one, the benchmark's own default: gthread, 2 x cores + 1
    workers of 4 threads."""
    cpus = usable_cpus()
    path = ROOT / "gunicorn.conf.py"
    if not path.exists():
        return {
            "worker_class": "gthread",
            "workers": 2 * cpus + 1,
            "threads": 4,
            "source": "this benchmark's former set-up",
        }
    import runpy

    conf = runpy.run_path(str(path))
    return {
        "worker_class": conf.get("worker_class", "sync"),
        "workers": int(conf.get("workers", 1)),
        "threads": int(conf.get("threads", 1)),
        "source": "the project's gunicorn.conf.py",
    }


def start_server(
    port: int,
    workers: int,
    threads: int,
    database_url: str,
    audit_key: str,
    log: Path,
    broker: str | None = None,
    worker_class: str = "gthread",
    settings: str = "casino.settings",
) -> subprocess.Popen[bytes]:
    env = server_env(database_url, audit_key, broker)
    env["DJANGO_SETTINGS_MODULE"] = settings  # benchmarks.floor.settings for --reads api|django
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "casino.wsgi:application",
        "--bind",
        f"{HOST}:{port}",
        "--worker-class",
        worker_class,
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--keep-alive",
        "75",
        "--timeout",
        "120",
        "--graceful-timeout",
        "10",
        "--log-level",
        "warning",
    ]
    return spawn(command, env, log)


def wait_for_server(server: subprocess.Popen[bytes], port: int) -> float:
    """Seconds until the server answers an HTTP request (any status)."""
    start = time.perf_counter()
    while time.perf_counter() - start < START_TIMEOUT:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with status {server.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            conn.request("GET", "/api/tables/", headers={"Accept": "application/json"})
            conn.getresponse().read()
            conn.close()
            return time.perf_counter() - start
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {START_TIMEOUT:.0f} s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the gunicorn master we started (it stops its workers); SIGKILL to its
    process group if it does not exit in time."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.pid, signal.SIGKILL)  # leftover workers of our own session, if any
    if server.poll() is None:
        server.wait(timeout=10)


def warm_workers(port: int, plan: list[dict[str, Any]], requests: int) -> None:
    """A few reads, each on a new connection, so that every worker has loaded the URL conf and
    the views before the clients start."""
    headers = {"Authorization": f"Token {plan[0]['token']}", "Accept": "application/json"}
    for _ in range(requests):
        conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        try:
            conn.request("GET", f"/api/tables/{plan[0]['table_id']}/", headers=headers)
            response = conn.getresponse()
            response.read()
        finally:
            conn.close()
        if response.status != 200:
            raise RuntimeError(f"a warm-up read answered {response.status}")


# --- figures -------------------------------------------------------------------------------


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50": percentile(ordered, 50) * 1000,
        "p90": percentile(ordered, 90) * 1000,
        "p99": percentile(ordered, 99) * 1000,
        "max": (ordered[-1] if ordered else math.nan) * 1000,
        "mean": (sum(ordered) / len(ordered) if ordered else math.nan) * 1000,
    }


def software() -> str:
    from importlib.metadata import version

    names = ("Django", "djangorestframework", "gunicorn", "psycopg")
    return ", ".join(f"{n} {version(n)}" for n in names)


def headline(rows: dict[str, Any]) -> str:
    """The request kind a run is judged by: the settle, or with --reads the read."""
    return "settle" if "settle" in rows else READ


def report(
    args: argparse.Namespace,
    info: dict[str, str],
    rows: dict[str, dict[str, float]],
    wall: float,
    rounds: int,
    requests: int,
    notes: list[tuple[str, str]],
) -> bool:
    head = headline(rows)
    settle_p99 = rows[head]["p99"]
    met = head == "settle" and settle_p99 < AIM_P99_MS  # --reads judges nothing
    setup = [
        (
            "server",
            f"gunicorn, {args.worker_class}, {args.workers} workers x {args.threads} threads, "
            + ("keep-alive" if args.worker_class != "sync" else "a connection a request")
            + f", 127.0.0.1:{args.port}, DEBUG off",
        ),
        (
            "database",
            f"PostgreSQL `{DB_NAME}` on 127.0.0.1, CONN_MAX_AGE "
            + (str(args.conn_max_age) if args.conn_max_age is not None else "60 (the default)"),
        ),
        (
            "load",
            f"{args.clients} clients (threads, one keep-alive connection each, no think "
            f"time), {args.rounds_per_client} measured rounds each after {args.warmup} warm-up, "
            f"{SEATS} seats, seed {args.seed}"
            + (
                f"; --reads {args.reads}: each round's {REQUESTS_A_ROUND} requests are "
                f"GET {READS[args.reads][0]}, no round is played"
                if args.reads
                else ""
            ),
        ),
        ("software", software()),
        ("code", code_version()),
        ("load average", f"{args.load_before} before the run, {load_average()} after"),
    ]
    throughput = [
        ("measured phase", f"{wall:.1f} s"),
        ("rounds", f"{rounds:,} = {rounds / wall:,.1f} rounds/s"),
        ("requests", f"{requests:,} = {requests / wall:,.1f} requests/s"),
        (
            f"{head} p99 " + ("aim (< 100 ms)" if head == "settle" else "(the aim is a settle's)"),
            f"{settle_p99:.1f} ms" + ("" if head != "settle" else ": met" if met else ": MISSED"),
        ),
        *notes,
    ]
    order = [*(k for k in rows if k != "all"), "all"]
    if args.markdown:
        print("| machine | |\n| --- | --- |")
        for key, value in [*info.items(), *setup]:
            print(f"| {key} | {value} |")
        print("\n| requests | count | p50 ms | p90 ms | p99 ms | max ms | mean ms |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for kind in order:
            r = rows[kind]
            name = f"**{kind}**" if kind in (head, "all") else kind
            print(
                f"| {name} | {r['n']:,} | {r['p50']:.1f} | {r['p90']:.1f} | {r['p99']:.1f} "
                f"| {r['max']:.1f} | {r['mean']:.1f} |"
            )
        print("\n| measure | result |\n| --- | --- |")
        for key, value in throughput:
            print(f"| {key} | {value} |")
    else:
        for key, value in [*info.items(), *setup]:
            print(f"{key:>10}: {value}")
        print(
            f"\n{'requests':<8} {'count':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
            f"{'max ms':>8} {'mean ms':>8}"
        )
        for kind in order:
            r = rows[kind]
            print(
                f"{kind:<8} {r['n']:>7,} {r['p50']:>8.1f} {r['p90']:>8.1f} {r['p99']:>8.1f} "
                f"{r['max']:>8.1f} {r['mean']:>8.1f}"
            )
        print()
        for key, value in throughput:
            print(f"{key}: {value}")
    return met


# --- main ----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20, help="concurrent dealers (20)")
    parser.add_argument(
        "--rounds-per-client", type=int, default=25, help="measured rounds per client (25)"
    )
    parser.add_argument(
        "--warmup", type=int, default=1, help="unmeasured rounds per client first (1)"
    )
    conf = project_server()
    parser.add_argument(
        "--worker-class",
        choices=("sync", "gthread"),
        default=conf["worker_class"],
        help=f"gunicorn's worker class ({conf['worker_class']}: {conf['source']})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=conf["workers"],
        help=f"gunicorn workers ({conf['workers']}: {conf['source']})",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=conf["threads"],
        help=f"threads per worker ({conf['threads']}: {conf['source']})",
    )
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (8765)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the rounds (1)")
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="the server's CONN_MAX_AGE via DATABASE_URL (0: a new database connection per "
        "request; default: the settings' DATABASE_CONN_MAX_AGE, 60 s)",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="a Redis broker: the server sends the report rebuilds to one Celery worker (started "
        "here, on the same machine), as deployed; default: tasks run in the request (no broker)",
    )
    parser.add_argument(
        "--reads",
        choices=tuple(READS),
        help=f"play no rounds: each client sends as many GETs as its rounds would send requests "
        f"({REQUESTS_A_ROUND} a round): `table` its table's representation (GET /api/tables/ID/), "
        "`api` a DRF view of the project's defaults that does no work (token, permission, "
        "throttle), `django` a plain Django view behind the project's middleware; the last two "
        "are served with benchmarks.floor's settings, the project's plus those two URLs",
    )
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--keep", action="store_true", help=f"keep the {DB_NAME} database")
    parser.add_argument("--check", action="store_true", help="exit 3 when the aim is missed")
    parser.add_argument("--json-out", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="measure commit REV the same way first (a git worktree), then this checkout",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=1,
        help="with --baseline: run N pairs alternately and report each side's medians (1)",
    )
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if args.baseline:
        return compare(args, list(argv if argv is not None else sys.argv[1:]))
    if args.clients < 1 or args.rounds_per_client < 1 or args.warmup < 0:
        parser.error("--clients and --rounds-per-client must be at least 1, --warmup >= 0")
    if args.workers < 1 or args.threads < 1:
        parser.error("--workers and --threads must be at least 1")
    if not 1 <= args.clients <= 99:
        parser.error("--clients must be from 1 to 99")
    if args.workers * args.threads + 5 > 95:
        parser.error("workers x threads would exceed PostgreSQL's default 100 connections")
    if not port_is_free(args.port):
        print(f"port {args.port} on {HOST} is in use: choose another with --port", file=sys.stderr)
        return 2

    args.load_before = load_average()
    database_url = f"{ADMIN_URL}/{DB_NAME}"
    server_url = database_url + (
        f"?conn_max_age={args.conn_max_age}" if args.conn_max_age is not None else ""
    )
    audit_key = secrets.token_urlsafe(32)
    log = Path(tempfile.mkdtemp(prefix="bench_api_load-")) / "gunicorn.log"
    # The run's own anchor file (the server appends, this process verifies): never another
    # run's, signed under another key.
    os.environ["AUDIT_ANCHOR_PATH"] = str(log.parent / "audit-anchor.jsonl")
    server: subprocess.Popen[bytes] | None = None
    worker: subprocess.Popen[bytes] | None = None
    created = False
    status = 0
    try:
        t0 = time.perf_counter()
        pg_version = recreate_database()
        created = True
        setup_django(database_url, audit_key)
        plan = prepare_floor(args.clients)
        total_rounds = args.warmup + args.rounds_per_client
        kinds: tuple[str, ...] = (READ,) if args.reads else KINDS
        rounds = []
        for i, client in enumerate(plan):
            if args.reads:
                read = (READ, READS[args.reads][0].format(table_id=client["table_id"]), None)
                rounds.append([[read] * REQUESTS_A_ROUND for _ in range(total_rounds)])
                continue
            rng = random.Random(f"{args.seed}-{i}")
            rounds.append([round_requests(rng, client) for _ in range(total_rounds)])
        print(
            f"database {DB_NAME} ready: {args.clients} tables and dealers "
            f"({time.perf_counter() - t0:.1f} s)",
            file=sys.stderr,
        )
        from django.db import connections

        connections.close_all()

        if args.broker:
            worker = start_worker(
                server_env(server_url, audit_key, args.broker), log.with_name("worker.log")
            )
        floor = bool(args.reads) and READS[args.reads][1]
        settings = "benchmarks.floor.settings" if floor else "casino.settings"
        server = start_server(
            args.port,
            args.workers,
            args.threads,
            server_url,
            audit_key,
            log,
            args.broker,
            args.worker_class,
            settings,
        )
        waited = wait_for_server(server, args.port)
        warm_workers(args.port, plan, 4 * args.workers)
        print(
            f"gunicorn answering after {waited:.1f} s "
            f"({args.workers} workers x {args.threads} threads); running "
            f"{args.clients} clients x ({args.warmup} + {args.rounds_per_client}) rounds",
            file=sys.stderr,
        )

        run_id = uuid.uuid4().hex[:8]
        stop = threading.Event()
        barrier = threading.Barrier(args.clients + 1)
        clients = [
            Client(i + 1, args.port, plan[i], rounds[i], args.warmup, run_id, barrier, stop, kinds)
            for i in range(args.clients)
        ]
        for c in clients:
            c.start()
        # Every client has played its warm-up rounds (or one failed and broke the barrier).
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()
        start = time.perf_counter()
        worker_pid = worker.pid if worker is not None else None
        cpu_before = cpu_snapshot(server.pid, worker_pid)
        for c in clients:
            c.join()
        wall = time.perf_counter() - start
        cpu = cpu_use(cpu_before, cpu_snapshot(server.pid, worker_pid))
        if args.broker and not drain_queue(args.broker):
            print("the worker did not take every task within 2 minutes", file=sys.stderr)

        failures = sorted(
            (c.failure for c in clients if c.failure),
            key=lambda f: f.startswith("another client"),  # the first cause first
        )
        if failures:
            print(f"\nFAILED: {len(failures)} client(s) stopped on an error:", file=sys.stderr)
            for failure in failures:
                print(f"  {failure}", file=sys.stderr)
            status = 1
        else:
            merged: dict[str, list[float]] = {k: [] for k in kinds}
            for c in clients:
                for kind in kinds:
                    merged[kind].extend(c.latencies[kind])
            rows = {kind: summary(merged[kind]) for kind in kinds}
            everything = [x for kind in kinds for x in merged[kind]]
            rows["all"] = summary(everything)
            measured_rounds = (
                len(everything) // REQUESTS_A_ROUND if args.reads else len(merged["settle"])
            )
            expected = 0 if args.reads else args.clients * total_rounds
            settled, chain = check_database(expected)
            notes = [
                ("rounds settled in the database", f"{settled:,} of {expected:,} (warm-up incl.)"),
                ("audit chain after the run", chain),
            ]
            if cpu["busy"]:
                notes.append(
                    (
                        "CPU in the measured phase",
                        f"{cpu['busy']:.0f} s busy of {wall * usable_cpus():.0f} s "
                        f"({usable_cpus()} cpus): clients {cpu['client']:.0f} s, gunicorn "
                        f"{cpu['server']:.0f} s, Celery worker {cpu['worker']:.0f} s, "
                        f"PostgreSQL backends of {DB_NAME} "
                        f"{cpu['postgres']:.0f} s, PostgreSQL background processes "
                        f"{cpu['pg_aux']:.0f} s, short-lived processes "
                        f"{cpu['unattributed']:.0f} s (per-request PostgreSQL backends when "
                        f"CONN_MAX_AGE is 0, or other jobs), other processes "
                        f"{cpu['other']:.0f} s",
                    )
                )
            reconnects = sum(c.reconnects for c in clients)
            if reconnects:
                notes.append(("connections closed by the server", str(reconnects)))
            met = report(
                args,
                machine(postgresql=pg_version),
                rows,
                wall,
                measured_rounds,
                len(everything),
                notes,
            )
            if args.json_out:
                Path(args.json_out).write_text(
                    json.dumps(
                        {
                            "rows": rows,
                            "wall": wall,
                            "rounds_per_s": measured_rounds / wall,
                            "requests_per_s": len(everything) / wall,
                            "cpu": cpu,
                            "code": code_version(),
                            "machine": machine(postgresql=pg_version),
                            "settled": settled,
                            "expected": expected,
                            "chain": chain,
                        }
                    )
                )
            if settled != expected or not chain.startswith("whole"):
                print(
                    "\nFAILED: the database does not hold what the clients settled", file=sys.stderr
                )
                status = 1
            elif args.check and not met:
                status = 3
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        status = 130
    except Exception as err:  # set-up or server start-up failed: report, then clean up
        print(f"\nFAILED: {type(err).__name__}: {err}", file=sys.stderr)
        status = 1
    finally:
        if worker is not None:
            stop_server(worker)
        if server is not None:
            stop_server(server)
            if status == 1 or server.returncode not in (0, None):
                tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
                if tail.strip():
                    print(f"\nserver log ({log}), last lines:\n{tail}", file=sys.stderr)
        if status in (0, 3):
            shutil.rmtree(log.parent, ignore_errors=True)
        else:
            print(f"server log kept in {log}", file=sys.stderr)
        if created:
            try:
                from django.db import connections

                connections.close_all()
            except Exception:  # Django may not be set up yet
                pass
            if args.keep:
                print(f"kept database {DB_NAME}", file=sys.stderr)
            else:
                drop_database()
    return status


def compare(args: argparse.Namespace, argv: list[str]) -> int:
    """--baseline REV: the same run on REV, then on this checkout; both side by side. With
    --pairs N, N such pairs one after the other (before, after, before, after...), each figure
    the median of its side's N runs: on a machine shared with other guests a single pair can
    differ by a third between two runs of the same code."""
    import baseline

    passed = list(argv)
    for flag, takes_value in (
        ("--baseline", True),
        ("--pairs", True),
        ("--json-out", True),
        ("--markdown", False),
        ("--check", False),
    ):
        while flag in passed:
            j = passed.index(flag)
            passed = passed[:j] + passed[j + 1 + int(takes_value) :]
    befores: list[dict[str, Any]] = []
    afters: list[dict[str, Any]] = []
    for _ in range(args.pairs):
        befores.append(baseline.run_against(args.baseline, "bench_api_load.py", passed))
        afters.append(baseline.run_here("bench_api_load.py", passed))
    before, after = _median_side(befores), _median_side(afters)
    runs = f", the median of {args.pairs} pairs run alternately" if args.pairs > 1 else ""
    print(f"\nbefore: {before['code']}; after: {after['code']}{runs}")
    print("| measure | before | after |\n| --- | ---: | ---: |")
    head = headline(after["rows"])
    for kind in (head, "all"):
        for p in ("p50", "p90", "p99", "max"):
            print(
                f"| {kind} {p} ms | {before['rows'][kind][p]:.1f} | {after['rows'][kind][p]:.1f} |"
            )
    for key, label in (("requests_per_s", "requests/s"), ("rounds_per_s", "rounds/s")):
        print(f"| {label} | {before[key]:.1f} | {after[key]:.1f} |")
    for side in (before, after):
        cpu = side["cpu"]
        side["cpu_line"] = (
            f"{cpu['busy']:.0f} s busy: gunicorn {cpu['server']:.0f}, worker {cpu['worker']:.0f}, "
            f"PostgreSQL {cpu['postgres'] + cpu['pg_aux'] + cpu['unattributed']:.0f}, "
            f"clients {cpu['client']:.0f}, other {cpu['other']:.0f}"
        )
    print(f"| CPU in the measured phase | {before['cpu_line']} | {after['cpu_line']} |")
    if args.pairs > 1:
        print(f"\neach pair, in the order run: {head} p99 ms and requests/s, before -> after")
        for n, (b, a) in enumerate(zip(befores, afters, strict=True), 1):
            print(
                f"  {n}: {b['rows'][head]['p99']:.1f} -> {a['rows'][head]['p99']:.1f} ms, "
                f"{b['requests_per_s']:.1f} -> {a['requests_per_s']:.1f} requests/s"
            )
    if args.json_out:
        Path(args.json_out).write_text(
            json.dumps({"before": before, "after": after, "pairs": [befores, afters]})
        )
    met = head == "settle" and after["rows"]["settle"]["p99"] < AIM_P99_MS
    return 3 if args.check and not met else 0


def _median_side(sides: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's figures, each the median over its runs (the first run's code and labels)."""
    if len(sides) == 1:
        return sides[0]
    out = dict(sides[0])
    out["rows"] = {
        kind: {p: statistics.median(s["rows"][kind][p] for s in sides) for p in row}
        for kind, row in sides[0]["rows"].items()
    }
    for key in ("requests_per_s", "rounds_per_s"):
        out[key] = statistics.median(s[key] for s in sides)
    out["cpu"] = {k: statistics.median(s["cpu"][k] for s in sides) for k in sides[0]["cpu"]}
    return out


if __name__ == "__main__":
    sys.exit(main())
