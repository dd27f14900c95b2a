"""The floor model: how many tables, each dealing a round every 40 s, one machine serves.

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_floor.py [--tables N | --start 50] [--max-minutes 15]
        [--workers W | --workers-list 1,2,4] [--threads 4] [--duration 120] [--warmup 40]
        [--round-seconds 40] [--pin-db] [--seed 1] [--port 8766] [--markdown]
        [--json-out FILE] [--baseline REV] [--check] [--tablet] [--database NAME]

A point of the floor model is N tables, each with its dealer's tablet (its own API token)
playing one 3-seat Three Card 2nd Chance round every `--round-seconds` (40): seven requests
(open, deal, three decisions, the dealer's hand, settle with an `Idempotency-Key`) spread
over 25-35 s of dealing by think times drawn per round; the next round starts 40 s after the
previous one started, or at once if that one ran late. Tables start at random phases. For
each point the script:

1. Recreates the database `casino_floor_bench`, migrates it, seeds the demo and adds tables
   BENCH-01.. with a signed-in dealer each (`bench_api_load.prepare_floor`).
2. Starts gunicorn (gthread, `--workers` x `--threads`, DEBUG off, no broker) on 127.0.0.1
   from this tree (cwd and PYTHONPATH), as `bench_api_load` does.
3. Runs one thread per table. Each request opens its own connection (`Connection: close`:
   a tablet idles for seconds between requests, longer than a keep-alive would be kept) and
   is never retried. Latency is client side, from connecting and sending to reading the whole
   body. Requests sent in the `--duration` window after `--warmup` are measured; then no new
   round starts and the rounds under way finish at four times the pace (not measured).
4. Checks every answer (2xx and the round's next step; any failure is printed and fails the
   point), then the database: every round opened was settled, the audit chain verifies.
5. Reports latency per request kind, throughput and where the CPU went (this process, the
   load generator; gunicorn; PostgreSQL; other processes).

Without `--tables`, it searches for the largest N whose all-request p99 and settle p99 stay
under 100 ms with no errors: N grows x2 from `--start` until a point fails, then bisects to
within 10%, each search bounded by `--max-minutes`. `--workers-list` runs a search (or the
`--tables` point) per worker count. `--pin-db` pins PostgreSQL (the postmaster and its
processes) to CPU 1 and gunicorn and the load generator to CPU 0 for the run, restoring
PostgreSQL's affinity at the end. `--baseline REV` runs the same on commit REV and then on
this checkout (`benchmarks/baseline.py`). `--check` exits 3 when the aim is missed at
`--tables N`, or when no N passed in a search.

`--tablet` plays the same rounds through the dealer tablet's pages instead of the API (a
browser session and CSRF token per table, written as the sign-in page writes them): the wagers
page, each step's boosted POST (its answer is the next page; a 303 is followed with a GET, as
the browser's XHR does), the payout page, and the page's watch polled every 5 s while a page
is shown; latency per request kind adds `page` and `watch`. `--database NAME` names the
database recreated and dropped (`casino_floor_bench`).

Everything runs on this machine: traffic goes to 127.0.0.1 only, and the run ends by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))

import baseline  # noqa: E402  (benchmarks/, beside this script)
import bench_api_load as load  # noqa: E402
from bench_api_load import (  # noqa: E402
    ADMIN_URL,
    HOST,
    KINDS,
    REQUEST_TIMEOUT,
    Failure,
    check_database,
    code_version,
    cpu_snapshot,
    cpu_use,
    drop_database,
    expected_step,
    load_average,
    port_is_free,
    prepare_floor,
    recreate_database,
    round_requests,
    setup_django,
    software,
    start_server,
    stop_server,
    summary,
    usable_cpus,
    wait_for_server,
    warm_workers,
)
from common import machine  # noqa: E402

DB_NAME = "casino_floor_bench"
GAME = "second_chance"
SEATS = 3  # players a round...
TABLE_SEATS = 7  # ...at a 7-seat table (`random_round` picks which seats are occupied)
AIM_P99_MS = 100.0
DEALING = (0.625, 0.875)  # of the round period spent dealing: 25-35 s of 40
# Relative think time before each request after the open: deal, three decisions, the
# dealer's hand, settle (each drawn x0.5 to x1.5, then scaled to the round's dealing time).
GAP_WEIGHTS = (1.5, 1.0, 1.0, 1.0, 1.0, 1.5)
DRAIN_SPEEDUP = 4.0  # rounds under way at the end of the window finish at 4x the pace
DRAIN_LIMIT = 120.0  # seconds the rounds under way may take to finish after the window
PRINTED_FAILURES = 20
# --tablet: the requests of the tablet's pages (a post's answer is the next page; a page
# fetched on its own, the wagers page and, from a tree whose steps answer 303, the page after
# each post; the page's watch, polled every 5 s while the page is shown).
TABLET_KINDS = (*KINDS, "page", "watch")
POLL_SECONDS = 5.0
SPLIT = 1.1  # the search stops when the failing N is within 10% of the passing N


def use_database(name: str) -> Path:
    """Point bench_api_load's database helpers (recreate, drop, the CPU labels) at `name`
    (they read its module-level DB_NAME when called), and the audit anchor file (settings'
    AUDIT_ANCHOR_PATH, by default in the project root) at a temporary file of this run: both
    this process and the server it starts append the new database's checkpoints there.
    Returns the anchor file's folder, to remove at the end."""
    load.DB_NAME = name
    folder = Path(tempfile.mkdtemp(prefix=f"{name}-anchor-"))
    os.environ["AUDIT_ANCHOR_PATH"] = str(folder / "audit-anchor.jsonl")
    return folder


# --- the machine ---------------------------------------------------------------------------


def cpu_ticks() -> list[tuple[float, float]]:
    """Per CPU (cpu0, cpu1, ...): (busy, total) seconds since boot, from /proc/stat."""
    out = []
    for line in Path("/proc/stat").read_text().splitlines():
        name, *fields = line.split()
        if name.startswith("cpu") and name != "cpu":
            ticks = [int(x) for x in fields[:8]]
            idle = ticks[3] + ticks[4]
            out.append(((sum(ticks) - idle) / load.CLOCK_TICKS, sum(ticks) / load.CLOCK_TICKS))
    return out


def per_cpu_busy(before: list[tuple[float, float]], after: list[tuple[float, float]]) -> list:
    """Busy % of each CPU between two `cpu_ticks()`."""
    return [
        round(100 * (b1 - b0) / (t1 - t0), 1) if t1 > t0 else math.nan
        for (b0, t0), (b1, t1) in zip(before, after, strict=True)
    ]


def children(pid: int) -> list[int]:
    """Processes whose parent is `pid`."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = (entry / "stat").read_text()
                if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                    out.append(int(entry.name))
    return out


def postmaster_pid() -> int:
    """The PostgreSQL postmaster: the parent of our own backend."""
    backend = int(load.admin_execute("SELECT pg_backend_pid()")[0][0])
    stat = Path(f"/proc/{backend}/stat").read_text()
    parent = int(stat[stat.rindex(")") + 2 :].split()[1])
    if Path(f"/proc/{parent}/comm").read_text().strip() not in ("postgres", "postmaster"):
        raise RuntimeError(f"the parent of backend {backend} ({parent}) is not PostgreSQL's")
    return parent


class Pinning:
    """`--pin-db`: PostgreSQL (postmaster and its processes; new backends inherit) on CPU 1,
    this process (and so the gunicorn it starts and the table threads) on CPU 0. `restore()`
    puts PostgreSQL back on the CPUs the postmaster had, and this process too."""

    def __init__(self) -> None:
        if (os.cpu_count() or 1) < 2:
            raise RuntimeError("--pin-db needs two CPUs")
        self.postmaster = postmaster_pid()
        self.pg_cpus = os.sched_getaffinity(self.postmaster)
        self.own_cpus = os.sched_getaffinity(0)
        self.pinned = 0

    def pin(self) -> None:
        for pid in [self.postmaster, *children(self.postmaster)]:
            with contextlib.suppress(ProcessLookupError):
                os.sched_setaffinity(pid, {1})
                self.pinned += 1
        os.sched_setaffinity(0, {0})  # this thread; threads and children started later inherit

    def restore(self) -> None:
        os.sched_setaffinity(0, self.own_cpus)
        for pid in [self.postmaster, *children(self.postmaster)]:
            with contextlib.suppress(ProcessLookupError):
                os.sched_setaffinity(pid, self.pg_cpus)

    def describe(self) -> str:
        return (
            f"PostgreSQL (postmaster {self.postmaster} and {self.pinned - 1} processes; new "
            f"backends inherit) on CPU 1; gunicorn and the load generator on CPU 0; restored "
            f"to CPUs {sorted(self.pg_cpus)} at the end"
        )


# --- the server ----------------------------------------------------------------------------


@contextlib.contextmanager
def serving(
    port: int, workers: int, threads: int, plan: list[dict[str, Any]], audit_key: str
) -> Iterator[subprocess.Popen[bytes]]:
    """gunicorn on this tree's code (cwd ROOT, ROOT first on PYTHONPATH), answering and warmed;
    stopped on the way out, with the log's tail printed if it failed."""
    path = os.environ.get("PYTHONPATH", "")
    if path.split(os.pathsep)[0] != str(ROOT):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), path) if p)
    log = Path(tempfile.mkdtemp(prefix="bench_floor-")) / "gunicorn.log"
    server = start_server(port, workers, threads, f"{ADMIN_URL}/{load.DB_NAME}", audit_key, log)
    ok = False
    try:
        wait_for_server(server, port)
        warm_workers(port, plan, 4 * workers)
        yield server
        ok = True
    finally:
        stop_server(server)
        if not ok or server.returncode not in (0, None):
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            print(f"\nserver log ({log}), last lines:\n{tail}", file=sys.stderr)
        else:
            shutil.rmtree(log.parent, ignore_errors=True)


# --- the tables ----------------------------------------------------------------------------


class Clock:
    """The run's times (perf_counter): start, measured window, end of new rounds."""

    def __init__(self, warmup: float, duration: float, round_seconds: float) -> None:
        self.t0 = time.perf_counter() + 0.5
        self.measure_from = self.t0 + warmup
        self.measure_to = self.measure_from + duration
        self.round_seconds = round_seconds


def think_times(rng: random.Random, round_seconds: float) -> list[float]:
    """The six pauses of one round (before deal, the three decisions, dealer, settle)."""
    dealing = rng.uniform(*DEALING) * round_seconds
    weights = [w * rng.uniform(0.5, 1.5) for w in GAP_WEIGHTS]
    return [dealing * w / sum(weights) for w in weights]


class Dealer(threading.Thread):
    """One table's tablet: a round every `round_seconds` from its phase, think times between
    requests, a new connection per request, no retries. Stops on its first failure (the
    round under way stays open and is counted as abandoned)."""

    def __init__(
        self,
        index: int,
        port: int,
        plan: dict[str, Any],
        rounds: list[list[tuple[str, str, Any]]],
        gaps: list[list[float]],
        phase: float,
        clock: Clock,
        stop: threading.Event,
        run_id: str,
    ) -> None:
        super().__init__(name=f"table-{index}", daemon=True)
        self.index, self.port, self.plan, self.rounds, self.gaps = index, port, plan, rounds, gaps
        self.phase, self.clock, self.stop, self.run_id = phase, clock, stop, run_id
        self.latencies: dict[str, list[float]] = {k: [] for k in TABLET_KINDS}
        self.failure: str | None = None
        self.opened = self.settled = self.requests = 0
        self.late_rounds = 0
        self.headers = {
            "Authorization": f"Token {plan['token']}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Connection": "close",
        }

    def wait_until(self, moment: float) -> bool:
        """Sleep until `moment`; False when told to stop."""
        delay = moment - time.perf_counter()
        return not self.stop.wait(delay) if delay > 0 else not self.stop.is_set()

    def run(self) -> None:
        start = self.clock.t0 + self.phase
        try:
            for number, calls in enumerate(self.rounds):
                if start >= self.clock.measure_to or not self.wait_until(start):
                    return
                self.play(number, calls, self.gaps[number])
                now = time.perf_counter()
                if now > start + self.clock.round_seconds:
                    self.late_rounds += 1
                start = max(start + self.clock.round_seconds, now)
            raise Failure(f"{self.name}: ran out of prepared rounds (a bug of the benchmark)")
        except Failure as err:
            self.failure = str(err)
        except Exception as err:  # connection refused, reset, timed out...: never retried
            self.failure = f"{self.plan['table']}: {type(err).__name__}: {err}"

    def phase_name(self, moment: float) -> str:
        if moment < self.clock.measure_from:
            return "warm-up"
        return "measured" if moment < self.clock.measure_to else "drain"

    def play(self, number: int, calls: list[tuple[str, str, Any]], gaps: list[float]) -> None:
        round_id: int | None = None
        for index, (kind, path, body) in enumerate(calls):
            if index:
                pause = gaps[index - 1]
                if time.perf_counter() >= self.clock.measure_to:
                    pause /= DRAIN_SPEEDUP
                if not self.wait_until(time.perf_counter() + pause):
                    return
            url = path.format(id=round_id)
            headers = self.headers
            if kind == "settle":
                key = f"floor-{self.run_id}-{self.index}-{number}"
                headers = {**headers, "Idempotency-Key": key}
            payload = json.dumps(body).encode()
            conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            sent = time.perf_counter()
            try:
                conn.request("POST", url, body=payload, headers=headers)
                response = conn.getresponse()
                raw = response.read()
            except Exception as err:
                raise Failure(
                    f"{self.plan['table']}, round {number} ({self.phase_name(sent)}): POST "
                    f"{url} ({kind}) after {time.perf_counter() - sent:.1f} s: "
                    f"{type(err).__name__}: {err}"
                ) from None
            finally:
                conn.close()
            elapsed = time.perf_counter() - sent
            self.requests += 1
            where = f"{self.plan['table']}, round {number} ({self.phase_name(sent)})"
            if not 200 <= response.status < 300:
                raise Failure(
                    f"{where}: POST {url} ({kind}) answered {response.status} "
                    f"{response.reason} in {elapsed * 1000:.0f} ms: "
                    f"{raw[:1000].decode(errors='replace')}"
                )
            result = json.loads(raw)
            if kind == "open":
                round_id = result["id"]
                self.opened += 1
            want = expected_step(kind, index, len(calls))
            got = result.get("state", {}).get("step")
            if got != want or (kind == "settle" and result.get("status") != "settled"):
                raise Failure(
                    f"{where}: POST {url} ({kind}) left the round at step {got!r} "
                    f"(status {result.get('status')!r}), expected {want!r}"
                )
            if kind == "settle":
                self.settled += 1
            if self.clock.measure_from <= sent < self.clock.measure_to:
                self.latencies[kind].append(elapsed)


class TabletDealer(Dealer):
    """One table's tablet through its pages, as its browser plays a round with htmx: the
    session's cookie and CSRF token, each step's boosted POST (its answer is the next page;
    a 303 is followed with a GET, as the browser's XHR does), the wagers page at the start
    of a round, and the watch polled every 5 s while a page is shown. The same rounds, think
    times and checks as the API's tablets (`Dealer`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cookie = f"sessionid={self.plan['session']}; csrftoken={self.plan['csrf']}"
        self.url = f"/tablet/table/{self.plan['table_id']}/"
        self.watch_url: str | None = None
        self.next_poll = 0.0

    def request(self, kind: str, method: str, path: str, fields: dict[str, Any] | None) -> Any:
        headers = {
            "Cookie": self.cookie,
            "Connection": "close",
            "Accept": "text/html",
            "HX-Request": "true",
            "HX-Current-URL": f"http://{HOST}:{self.port}{self.url}",
        }
        body = None
        if method == "POST":
            data = {**(fields or {}), "csrfmiddlewaretoken": self.plan["csrf"]}
            body = urlencode(data, doseq=True).encode()
            headers.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": f"http://{HOST}:{self.port}",
                    "HX-Boosted": "true",
                    "HX-Target": "tablet",
                }
            )
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
        sent = time.perf_counter()
        where = f"{self.plan['table']} ({self.phase_name(sent)}): {method} {path} ({kind})"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        except Exception as err:
            raise Failure(f"{where}: {type(err).__name__}: {err}") from None
        finally:
            conn.close()
        elapsed = time.perf_counter() - sent
        self.requests += 1
        if response.status not in (200, 204, 303):
            raise Failure(
                f"{where} answered {response.status} in {elapsed * 1000:.0f} ms: "
                f"{raw[:500].decode(errors='replace')}"
            )
        if self.clock.measure_from <= sent < self.clock.measure_to:
            self.latencies[kind].append(elapsed)
        return response, raw.decode(errors="replace")

    def shown(self, page: str) -> None:
        """A page is shown: its watch polls 5 s from now, and every 5 s after."""
        found = re.search(r'hx-get="([^"]+/watch/[^"]*)"', page)
        self.watch_url = found.group(1).replace("&amp;", "&") if found else None
        self.next_poll = time.perf_counter() + POLL_SECONDS

    def wait_polling(self, moment: float) -> bool:
        """Wait until `moment`, polling the page's watch when it is due; False when told to
        stop."""
        while self.watch_url is not None and self.next_poll < moment:
            if not self.wait_until(self.next_poll):
                return False
            response, _ = self.request("watch", "GET", self.watch_url, None)
            if response.status != 204:
                raise Failure(f"{self.plan['table']}: the watch answered {response.status}")
            self.next_poll += POLL_SECONDS
        return self.wait_until(moment)

    def run(self) -> None:
        start = self.clock.t0 + self.phase
        try:
            for number, calls in enumerate(self.rounds):
                if start >= self.clock.measure_to or not self.wait_polling(start):
                    return
                self.play(number, calls, self.gaps[number])
                now = time.perf_counter()
                if now > start + self.clock.round_seconds:
                    self.late_rounds += 1
                start = max(start + self.clock.round_seconds, now)
            raise Failure(f"{self.name}: ran out of prepared rounds (a bug of the benchmark)")
        except Failure as err:
            self.failure = str(err)
        except Exception as err:
            self.failure = f"{self.plan['table']}: {type(err).__name__}: {err}"

    def play(self, number: int, calls: list[tuple[str, str, Any]], gaps: list[float]) -> None:
        from bench_tablet_round import tablet_steps

        _, page = self.request("page", "GET", self.url, None)
        self.shown(page)
        round_id = key = None
        for index, step in enumerate(tablet_steps(calls, self.plan["table_id"])):
            kind = step["kind"]
            if index:
                pause = gaps[index - 1]
                if time.perf_counter() >= self.clock.measure_to:
                    pause /= DRAIN_SPEEDUP
                if not self.wait_polling(time.perf_counter() + pause):
                    return
            fields = dict(step["fields"])
            if kind != "open":
                fields["round"] = round_id
            if kind == "settle":
                fields["idempotency_key"] = key
            response, page = self.request(kind, "POST", step["path"], fields)
            if response.status == 303:
                _, page = self.request("page", "GET", response.getheader("Location"), None)
            where = f"{self.plan['table']}, round {number}: {kind}"
            if kind == "open":
                found = re.search(r'name="round" value="(\d+)"', page)
                if found is None:
                    raise Failure(f"{where}: the page shows no round")
                round_id = found.group(1)
                self.opened += 1
            if kind == "settle":
                if 'id="pay-list"' not in page:
                    raise Failure(f"{where}: no payout shown")
                self.settled += 1
                self.watch_url = None  # the payout page has no watch
                return
            self.shown(page)
            found = re.search(r'name="idempotency_key" value="(\w+)"', page)
            key = found.group(1) if found else key


def tablet_sessions(plan: list[dict[str, Any]]) -> None:
    """A signed-in browser session for each table's dealer (as the sign-in page makes it:
    the session row and its cookie) and a CSRF token for its forms."""
    import secrets as random_secrets
    import string

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.utils.module_loading import import_string

    # signed with the server's key (the session's content and the user's hash in it)
    settings.SECRET_KEY = load.SECRET_KEY
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    users = {u.pk: u for u in get_user_model().objects.filter(username__startswith="bench-dealer-")}
    from tables.models import DealerSession

    dealer_at = dict(
        DealerSession.objects.filter(ended_at__isnull=True).values_list("table_id", "dealer_id")
    )
    for entry in plan:
        user = users[dealer_at[entry["table_id"]]]
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        session.save()
        entry["session"] = session.session_key
        alphabet = string.ascii_letters + string.digits
        entry["csrf"] = "".join(random_secrets.choice(alphabet) for _ in range(32))


# --- one point -----------------------------------------------------------------------------


def measure_point(args: argparse.Namespace, tables: int, workers: int) -> dict[str, Any]:
    """N tables for `args.warmup` + `args.duration` seconds on a fresh database and server."""
    from django.conf import settings
    from django.db import connections

    began = time.perf_counter()
    connections.close_all()
    recreate_database()
    anchor = Path(os.environ["AUDIT_ANCHOR_PATH"])
    anchor.unlink(missing_ok=True)  # the new database's audit chain starts a new anchor file
    plan = prepare_floor(tables, only_game=GAME, seats=TABLE_SEATS)
    if args.tablet:
        tablet_sessions(plan)
    per_table = math.ceil((args.warmup + args.duration) / args.round_seconds) + 1
    rounds, gaps, phases = [], [], []
    for i, table in enumerate(plan):
        rng = random.Random(f"{args.seed}-{tables}-{i}")
        rounds.append([round_requests(rng, table, seats=SEATS) for _ in range(per_table)])
        gaps.append([think_times(rng, args.round_seconds) for _ in range(per_table)])
        phases.append(rng.uniform(0, args.round_seconds))
    connections.close_all()
    setup_seconds = time.perf_counter() - began
    result: dict[str, Any] = {
        "tables": tables,
        "workers": workers,
        "threads": args.threads,
        "conn_max_age": settings.DATABASES["default"].get("CONN_MAX_AGE"),
        "setup_seconds": round(setup_seconds, 1),
        "load_before": load_average(),
    }
    print(
        f"  {tables} tables, {workers} workers x {args.threads} threads: database ready in "
        f"{setup_seconds:.0f} s; {args.warmup:.0f} s warm-up + {args.duration:.0f} s measured",
        file=sys.stderr,
    )
    stop = threading.Event()
    dealers: list[Dealer] = []
    with serving(args.port, workers, args.threads, plan, args.audit_key) as server:
        result["worker_pids"] = children(server.pid)
        clock = Clock(args.warmup, args.duration, args.round_seconds)
        run_id = uuid.uuid4().hex[:8]
        kind = TabletDealer if args.tablet else Dealer
        dealers = [
            kind(i + 1, args.port, plan[i], rounds[i], gaps[i], phases[i], clock, stop, run_id)
            for i in range(tables)
        ]
        try:
            for d in dealers:
                d.start()
            time.sleep(max(0.0, clock.measure_from - time.perf_counter()))
            cpu_before, ticks_before = cpu_snapshot(server.pid), cpu_ticks()
            time.sleep(max(0.0, clock.measure_to - time.perf_counter()))
            cpu, busy = cpu_use(cpu_before, cpu_snapshot(server.pid)), cpu_ticks()
            result["cpu_per_cpu_busy_pct"] = per_cpu_busy(ticks_before, busy)
            deadline = clock.measure_to + DRAIN_LIMIT
            for d in dealers:
                d.join(max(0.0, deadline - time.perf_counter()))
            stragglers = sum(d.is_alive() for d in dealers)
        finally:
            stop.set()  # on Ctrl-C or after the drain limit: the tables stop where they are
            for d in dealers:
                d.join(REQUEST_TIMEOUT + 5)
    settled_db, chain = check_database(0)
    from tables.models import Round

    rounds_db = Round.objects.filter(table__name__startswith="BENCH-").count()
    connections.close_all()
    drop_database()

    kinds = TABLET_KINDS if args.tablet else KINDS
    merged: dict[str, list[float]] = {k: [] for k in kinds}
    for d in dealers:
        for kind in kinds:
            merged[kind].extend(d.latencies[kind])
    rows = {kind: summary(merged[kind]) for kind in kinds}
    rows["all"] = summary([x for kind in kinds for x in merged[kind]])
    failures = [d.failure for d in dealers if d.failure]
    opened, settled = sum(d.opened for d in dealers), sum(d.settled for d in dealers)
    database_ok = rounds_db == opened and settled_db == settled and chain.startswith("whole")
    cpus = os.cpu_count() or 1
    result.update(
        {
            "requests_per_s": rows["all"]["n"] / args.duration,
            "rounds_per_s": rows["settle"]["n"] / args.duration,
            "offered_requests_per_s": (
                rows["all"]["n"] / args.duration if args.tablet else tables * 7 / args.round_seconds
            ),
            "latency_ms": rows,
            "errors": len(failures),
            "failures": failures[:PRINTED_FAILURES],
            "stragglers": stragglers,
            "late_rounds": sum(d.late_rounds for d in dealers),
            "rounds_opened": opened,
            "rounds_settled": settled,
            "rounds_in_database": rounds_db,
            "settled_in_database": settled_db,
            "left_open": rounds_db - settled_db,
            "audit_chain": chain,
            "database_ok": database_ok,
            "cpu_seconds": {k: round(v, 1) for k, v in cpu.items()},
            "cpu_busy_pct": round(100 * cpu["busy"] / (args.duration * cpus), 1),
            "load_after": load_average(),
            "elapsed_seconds": round(time.perf_counter() - began, 1),
        }
    )
    reasons = []
    if failures or stragglers:
        reasons.append(f"{len(failures)} errors" + (f", {stragglers} stuck" if stragglers else ""))
    if not database_ok or rounds_db != settled_db:
        reasons.append("database")
    for key in ("all", "settle"):
        if not rows[key]["n"]:
            reasons.append(f"no {key} request measured")
        elif not rows[key]["p99"] < AIM_P99_MS:
            reasons.append(f"{key} p99")
    result["fail_reasons"] = reasons
    result["passed"] = not reasons
    print("  " + point_line(result), file=sys.stderr)
    for failure in failures[:PRINTED_FAILURES]:
        print(f"    FAILED: {failure}", file=sys.stderr)
    if len(failures) > PRINTED_FAILURES:
        print(f"    ... and {len(failures) - PRINTED_FAILURES} more", file=sys.stderr)
    if not database_ok:
        print(
            f"    DATABASE: {rounds_db} rounds ({settled_db} settled) against {opened} opened "
            f"({settled} settled) by the tables; audit chain {chain}",
            file=sys.stderr,
        )
    return result


# --- the search ----------------------------------------------------------------------------


def search(args: argparse.Namespace, workers: int) -> dict[str, Any]:
    """The largest N passing (see the module's docstring), within `args.max_minutes`."""
    deadline = time.perf_counter() + 60 * args.max_minutes
    estimate = 30 + args.warmup + args.duration + 15  # the first point's cost, a guess
    points: list[dict[str, Any]] = []
    passed: int | None = None
    failed: int | None = None
    n = args.start
    stopped = ""
    while not stopped:
        if n > args.max_tables:
            stopped = f"--max-tables {args.max_tables} reached"
            break
        if time.perf_counter() + estimate > deadline:
            stopped = f"--max-minutes {args.max_minutes:g} reached"
            break
        point = measure_point(args, n, workers)
        points.append(point)
        estimate = max(estimate * 0.5, point["elapsed_seconds"] * 1.1)
        if not point["database_ok"]:
            stopped = "the database check failed"
        elif point["passed"]:
            passed = n
        else:
            failed = n
        if stopped:
            break
        if failed is None:
            n = min(n * 2, args.max_tables) if n < args.max_tables else n + 1
        elif passed is None:
            n //= 2
            if n < 1:
                stopped = "even one table misses the aim"
        elif failed <= passed * SPLIT or failed - passed <= 1:
            stopped = "bracketed within 10%"
        else:
            n = (passed + failed) // 2
    return {
        "workers": workers,
        "largest_passing": passed,
        "smallest_failing": failed,
        "stopped": stopped,
        "points": points,
    }


# --- output --------------------------------------------------------------------------------


def verdict(p: dict[str, Any]) -> str:
    return "pass" if p["passed"] else "FAIL: " + ", ".join(p["fail_reasons"])


def point_line(p: dict[str, Any]) -> str:
    lat = p["latency_ms"]
    return (
        f"{p['tables']} tables: {p['requests_per_s']:.1f} req/s, p50 {lat['all']['p50']:.1f} ms, "
        f"p99 {lat['all']['p99']:.1f} ms, settle p99 {lat['settle']['p99']:.1f} ms, "
        f"max {lat['all']['max']:.0f} ms, {p['errors']} errors, CPU {p['cpu_busy_pct']:.0f}% "
        f"busy: {verdict(p)}"
    )


def table(headers: Sequence[str], rows: list[Sequence[Any]], markdown: bool) -> str:
    cells = [[str(c) for c in row] for row in rows]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
        lines += ["| " + " | ".join(row) + " |" for row in cells]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    return "\n".join(lines)


def points_table(searches: list[dict[str, Any]], markdown: bool) -> str:
    rows = []
    for s in searches:
        for p in s["points"]:
            lat, cpu = p["latency_ms"], p["cpu_seconds"]
            rows.append(
                [
                    p["workers"],
                    p["tables"],
                    f"{p['requests_per_s']:.1f}",
                    f"{lat['all']['p50']:.1f}",
                    f"{lat['all']['p99']:.1f}",
                    f"{lat['settle']['p99']:.1f}",
                    f"{lat['all']['max']:.0f}",
                    p["errors"],
                    f"{p['cpu_busy_pct']:.0f}",
                    "/".join(f"{x:.0f}" for x in p["cpu_per_cpu_busy_pct"]),
                    f"{cpu['server']:.0f}/{cpu['postgres'] + cpu['pg_aux']:.0f}/"
                    f"{cpu['client']:.0f}/{cpu['other'] + cpu['unattributed']:.0f}",
                    verdict(p),
                ]
            )
    headers = [
        "workers",
        "tables",
        "req/s",
        "p50 ms",
        "p99 ms",
        "settle p99",
        "max ms",
        "errors",
        "busy %",
        "busy % per cpu",
        "CPU s gunicorn/pg/client/other",
        "aim",
    ]
    return table(headers, rows, markdown)


def kinds_table(p: dict[str, Any], markdown: bool) -> str:
    rows = []
    for kind in [*(k for k in TABLET_KINDS if k in p["latency_ms"]), "all"]:
        r = p["latency_ms"][kind]
        rows.append(
            [kind, f"{r['n']:,}"] + [f"{r[k]:.1f}" for k in ("p50", "p90", "p99", "max", "mean")]
        )
    headers = ["requests", "count", "p50 ms", "p90 ms", "p99 ms", "max ms", "mean ms"]
    return table(headers, rows, markdown)


def point_notes(p: dict[str, Any], duration: float) -> list[tuple[str, str]]:
    cpu = p["cpu_seconds"]
    return [
        (
            "load",
            f"{p['tables']} tables: {p['offered_requests_per_s']:.1f} requests/s offered, "
            f"{p['requests_per_s']:.1f} measured ({p['rounds_per_s']:.2f} rounds/s); "
            f"{p['late_rounds']} rounds ran past the period",
        ),
        (
            "database",
            f"{p['rounds_in_database']:,} rounds, {p['settled_in_database']:,} settled, "
            f"{p['left_open']} left open; audit chain {p['audit_chain']}",
        ),
        (
            "CPU in the measured window",
            f"{cpu['busy']:.0f} s busy of {duration * (os.cpu_count() or 1):.0f} s "
            f"({p['cpu_busy_pct']:.0f}%; per CPU {p['cpu_per_cpu_busy_pct']}): gunicorn "
            f"{cpu['server']:.1f} s, PostgreSQL backends {cpu['postgres']:.1f} s, PostgreSQL "
            f"background {cpu['pg_aux']:.1f} s, load generator (this process) "
            f"{cpu['client']:.1f} s, short-lived processes {cpu['unattributed']:.1f} s, "
            f"other processes {cpu['other']:.1f} s",
        ),
        ("load average", f"{p['load_before']} before, {p['load_after']} after"),
    ]


def report(result: dict[str, Any], markdown: bool, title: str = "") -> None:
    if title:
        print(f"\n{'### ' if markdown else '== '}{title}\n")
    setup = [
        *result["machine"].items(),
        ("software", result["software"]),
        ("code", result["code"]),
        ("server", result["server"]),
        (
            "load",
            f"3-seat {GAME} rounds every {result['round_seconds']:g} s per table, "
            + (
                "through the tablet's pages (each step's post, the wagers page, the watch "
                "every 5 s)"
                if result.get("tablet")
                else "7 requests"
            )
            + f" a round over 25-35 s, a new connection per request, {result['warmup']:g} s "
            f"warm-up + {result['duration']:g} s measured per point, seed {result['seed']}",
        ),
    ]
    if result.get("pinning"):
        setup.append(("pinning", result["pinning"]))
    if markdown:
        print(table(["machine", ""], setup, True))
    else:
        for key, value in setup:
            print(f"{key:>12}: {value}")
    print()
    print(points_table(result["searches"], markdown))
    for s in result["searches"]:
        best = [p for p in s["points"] if p["tables"] == s["largest_passing"]]
        if result["mode"] == "search":
            line = (
                f"\n{s['workers']} workers: largest N meeting the aim (all and settle p99 < "
                f"100 ms, no errors): {s['largest_passing']}"
            )
            if s["smallest_failing"] is not None:
                line += f" (fails at {s['smallest_failing']})"
            print(f"{line}; stopped: {s['stopped']}")
        shown = best or s["points"][-1:]
        for p in shown:
            print(f"\n{p['tables']} tables, {p['workers']} workers, per request kind:\n")
            print(kinds_table(p, markdown))
            print()
            for key, value in point_notes(p, result["duration"]):
                print(f"- {key}: {value}" if markdown else f"{key}: {value}")


def compare(before: dict[str, Any], after: dict[str, Any], rev: str, markdown: bool) -> None:
    print(f"\n{'### ' if markdown else '== '}Before ({rev}) and after (this checkout)\n")
    rows = []
    for b, a in zip(before["searches"], after["searches"], strict=True):
        if before["mode"] == "search":
            rows.append([b["workers"], "largest N", b["largest_passing"], a["largest_passing"]])
        for pb in b["points"]:
            for pa in a["points"]:
                if pa["tables"] == pb["tables"]:
                    for key in ("all", "settle"):
                        rows.append(
                            [
                                b["workers"],
                                f"{pb['tables']} tables: {key} p99 ms",
                                f"{pb['latency_ms'][key]['p99']:.1f}",
                                f"{pa['latency_ms'][key]['p99']:.1f}",
                            ]
                        )
    print(table(["workers", "measure", f"before ({rev})", "after"], rows, markdown))


# --- main ----------------------------------------------------------------------------------


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    cpus = usable_cpus()
    parser.add_argument("--tables", type=int, help="measure this N only (default: search)")
    parser.add_argument("--start", type=int, default=50, help="the search's first N (50)")
    parser.add_argument("--max-tables", type=int, default=4000, help="the search's cap (4000)")
    parser.add_argument(
        "--max-minutes", type=float, default=15, help="time bound of each search (15)"
    )
    parser.add_argument(
        "--workers", type=int, default=2 * cpus + 1, help=f"gunicorn workers ({2 * cpus + 1})"
    )
    parser.add_argument("--workers-list", help="comma-separated worker counts, e.g. 1,2,4")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker (4)")
    parser.add_argument("--duration", type=float, default=120, help="measured seconds (120)")
    parser.add_argument(
        "--warmup",
        type=float,
        default=40,
        help="seconds before measuring (40: the request mix is steady once the longest "
        "round has played from the start)",
    )
    parser.add_argument("--round-seconds", type=float, default=40, help="round period (40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", type=int, default=8766, help="port on 127.0.0.1 (8766)")
    parser.add_argument("--pin-db", action="store_true", help="PostgreSQL on CPU 1, rest CPU 0")
    parser.add_argument(
        "--tablet",
        action="store_true",
        help="the tables play through the tablet's pages (session, CSRF, htmx), not the API",
    )
    parser.add_argument(
        "--database", default=DB_NAME, help=f"the database to recreate and drop ({DB_NAME})"
    )
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    parser.add_argument("--baseline", metavar="REV", help="also measure commit REV first")
    parser.add_argument("--check", action="store_true", help="exit 3 when the aim is missed")
    args = parser.parse_args(argv)
    args.workers_counts = (
        [int(w) for w in args.workers_list.split(",")] if args.workers_list else [args.workers]
    )
    if min(args.workers_counts) < 1 or args.threads < 1:
        parser.error("workers and threads must be at least 1")
    if max(args.workers_counts) * args.threads + 10 > 95:
        parser.error("workers x threads would exceed PostgreSQL's default 100 connections")
    if (args.tables or args.start) < 1 or args.duration <= 0 or args.warmup < 0:
        parser.error("--tables/--start must be at least 1, --duration > 0, --warmup >= 0")
    if args.round_seconds < 5:
        parser.error("--round-seconds must be at least 5")
    return args


def passed_on(argv: Sequence[str]) -> list[str]:
    """The command line without --baseline REV, --json-out FILE and --markdown."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--baseline", "--json-out"):
            skip = True
        elif arg.split("=")[0] in ("--baseline", "--json-out") or arg == "--markdown":
            continue
        else:
            out.append(arg)
    return out


def run_baseline(script: str, args: argparse.Namespace, argv: Sequence[str]) -> tuple:
    """The same script, run on `args.baseline` and then on this checkout."""
    passed = passed_on(argv)
    print(f"== before: {script} on {args.baseline}", file=sys.stderr)
    before = baseline.run_against(args.baseline, script, passed)
    print(f"== after: {script} on this checkout", file=sys.stderr)
    after = baseline.run_here(script, passed)
    return before, after


def interrupt_on_sigterm() -> None:
    """SIGTERM ends the run like Ctrl-C: the finally blocks restore PostgreSQL's affinity."""

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    interrupt_on_sigterm()
    if args.baseline:
        before, after = run_baseline("bench_floor.py", args, argv)
        report(before, args.markdown, f"before: {args.baseline}")
        report(after, args.markdown, "after: this checkout")
        compare(before, after, args.baseline, args.markdown)
        if args.json_out:
            Path(args.json_out).write_text(json.dumps({"before": before, "after": after}))
        return 0
    if not port_is_free(args.port):
        print(f"port {args.port} on {HOST} is in use: choose another with --port", file=sys.stderr)
        return 2

    anchor_folder = use_database(args.database)
    args.audit_key = secrets.token_urlsafe(32)
    pinning: Pinning | None = None
    status = 0
    result: dict[str, Any] = {}
    try:
        pg_version = recreate_database()
        setup_django(f"{ADMIN_URL}/{args.database}", args.audit_key)
        if args.pin_db:
            pinning = Pinning()
            pinning.pin()
        result = {
            "mode": "point" if args.tables else "search",
            "machine": machine(postgresql=pg_version),
            "software": software(),
            "code": f"{code_version()} ({ROOT})",
            "server": f"gunicorn gthread, workers {args.workers_counts} x {args.threads} "
            f"threads, 127.0.0.1:{args.port}, DEBUG off, no broker, new connection per request",
            "round_seconds": args.round_seconds,
            "warmup": args.warmup,
            "duration": args.duration,
            "seed": args.seed,
            "tablet": args.tablet,
            "pinning": pinning.describe() if pinning else None,
            "searches": [],
        }
        for workers in args.workers_counts:
            print(f"{workers} gunicorn workers:", file=sys.stderr)
            if args.tables:
                point = measure_point(args, args.tables, workers)
                found = {
                    "workers": workers,
                    "largest_passing": args.tables if point["passed"] else None,
                    "smallest_failing": None if point["passed"] else args.tables,
                    "stopped": "one point",
                    "points": [point],
                }
            else:
                found = search(args, workers)
            result["searches"].append(found)
            if any(not p["database_ok"] for p in found["points"]):
                status = 1
                break
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        status = 130
    except Exception as err:
        print(f"\nFAILED: {type(err).__name__}: {err}", file=sys.stderr)
        status = 1
    finally:
        if pinning is not None:
            pinning.restore()
            print("PostgreSQL's CPU affinity restored", file=sys.stderr)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        with contextlib.suppress(Exception):
            drop_database()
        shutil.rmtree(anchor_folder, ignore_errors=True)
    if result.get("searches"):
        report(result, args.markdown)
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(result))
        if (
            status == 0
            and args.check
            and any(s["largest_passing"] is None for s in result["searches"])
        ):
            status = 3
    return status


if __name__ == "__main__":
    sys.exit(main())
