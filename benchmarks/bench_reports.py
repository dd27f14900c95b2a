"""Benchmark the hold reports and the dashboard over a million seeded rounds.

Run from the project root (PostgreSQL on 127.0.0.1:5432, user postgres, trust auth):

    .venv/bin/python benchmarks/bench_reports.py [--rounds 1000000] [--days 30] [--tables 24]
        [--jobs 2] [--day YYYY-MM-DD] [--requests 20] [--markdown] [--keep] [--reuse]
        [--explain] [--check]

1. Recreates the database `casino_reports_bench` (`--database`; dropped again at the end
   unless `--keep`; `--reuse` measures a database left by `--keep` as it is), migrates it,
   runs `seed_demo` and `seed_history` (`--rounds` over the last `--days` gaming days up to
   now, at `--tables` tables, `--jobs` processes), then VACUUM ANALYZE on the rounds and their
   lines, as autovacuum would have done on a live database.
2. The report jobs, in this process, for the report day (`--day`, else the busiest complete
   gaming day): `rebuild_day` (first build, then again: the idempotent re-run the closed-days
   job does), `rebuild_day` for every gaming day of the history one after the other (then
   ANALYZE of the summaries, as autovacuum would soon do on a live database), and
   `manage.py hold_report --day` with the day's reports fresh and with every table of the day
   marked stale (the report then rebuilds them first), in process and as a subprocess
   (start-up included).
3. The selectors the pages read: `hold_rows` for each grouping over the day, month to date
   and year to date ending on the report day (median of 5).
4. If the dashboard's URLs exist (`reports:dashboard`): starts gunicorn (sync workers) on
   127.0.0.1 with DEBUG off, signs in as pitboss through the login form (CSRF token and
   session cookie, stdlib `http.client`), and times each page: the dashboard, the floor
   partial, the chart JSON for each period, the reports for each grouping and period, the
   reports CSV, a table's rounds on the report day (page and CSV) and the alert rules;
   `--requests` requests each after one warm-up, median and p95 (nearest rank). Each page is
   also requested once in process to count its queries and find the slowest.
5. Prints the machine and the figures (`--markdown`: Markdown tables). Every query slower than
   `--slow` seconds (1.0) is listed; with `--explain` its EXPLAIN (ANALYZE for SELECTs) is
   printed too.

Aims: the day's report in under 30 s, each page in under 300 ms. `--check` exits 3
when one is missed. Everything runs on this machine; the server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from http.cookies import SimpleCookie
from io import StringIO
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import common  # benchmarks/common.py, beside this script
from common import machine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
DB_NAME = "casino_reports_bench"  # --database changes it
ADMIN_URL = "postgres://postgres@127.0.0.1:5432"


def admin_execute(*statements: str) -> list[Any]:
    """Statements on the `postgres` maintenance database (autocommit); the last rows."""
    return common.admin_execute(ADMIN_URL, *statements)


AIM_DAY_REPORT_S = 30.0
AIM_PAGE_MS = 300.0
START_TIMEOUT = 60.0
REQUEST_TIMEOUT = 120.0
GROUPINGS = ("table", "game", "paytable_version", "dealer", "shift", "gaming_day")


# --- the machine and the database ----------------------------------------------------------


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def recreate_database() -> None:
    admin_execute(
        f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)', f'CREATE DATABASE "{DB_NAME}"'
    )


def database_exists() -> bool:
    return bool(admin_execute(f"SELECT 1 FROM pg_database WHERE datname = '{DB_NAME}'"))


def drop_database() -> None:
    admin_execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def pg_settings() -> str:
    rows = admin_execute(
        "SELECT name, setting, unit FROM pg_settings WHERE name IN "
        "('shared_buffers', 'work_mem', 'effective_cache_size', 'jit') ORDER BY name"
    )
    out = []
    for name, setting, unit in rows:
        if unit == "8kB":
            out.append(f"{name} {int(setting) * 8 // 1024} MB")
        elif unit == "kB":
            out.append(f"{name} {int(setting) // 1024} MB")
        else:
            out.append(f"{name} {setting}")
    return ", ".join(out)


def setup_django() -> None:
    """Django in this process, on the bench database, DEBUG on (the seed commands need it)."""
    os.environ["DATABASE_URL"] = f"{ADMIN_URL}/{DB_NAME}"
    os.environ["DJANGO_DEBUG"] = "true"
    os.environ["DJANGO_SETTINGS_MODULE"] = "casino.settings"
    os.environ["CELERY_BROKER_URL"] = ""
    import django

    django.setup()


# --- timing and queries --------------------------------------------------------------------


@dataclass
class Query:
    seconds: float
    sql: str
    params: Any
    where: str


@dataclass
class Recorder:
    """Every query's time while active (Django's execute wrapper)."""

    where: str = ""
    queries: list[Query] = field(default_factory=list)

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.queries.append(Query(time.perf_counter() - start, sql, params, self.where))

    @contextlib.contextmanager
    def section(self, where: str) -> Iterator[None]:
        from django.db import connection

        self.where = where
        with connection.execute_wrapper(self):
            yield


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest rank."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


# --- 1. seeding ----------------------------------------------------------------------------


def seed(args: argparse.Namespace, results: dict[str, Any]) -> None:
    from django.core.management import call_command
    from django.db import connection

    with open(os.devnull, "w") as quiet:
        call_command("migrate", verbosity=0, stdout=quiet)
        call_command("seed_demo", stdout=quiet)
    out = StringIO()

    class Tee:
        def write(self, text: str) -> None:
            out.write(text)
            sys.stdout.write(text)
            sys.stdout.flush()

        def flush(self) -> None:
            sys.stdout.flush()

    started = time.perf_counter()
    call_command(
        "seed_history",
        f"--rounds={args.rounds}",
        f"--days={args.days}",
        f"--tables={args.tables}",
        f"--seed={args.seed}",
        f"--jobs={args.jobs}",
        stdout=Tee(),
    )
    results["seed_s"] = time.perf_counter() - started
    rate = re.search(r"([\d,]+) rounds/s\.", out.getvalue())
    results["seed_rate"] = rate.group(1) if rate else "?"
    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) tables_round")
        cursor.execute("VACUUM (ANALYZE) tables_settlementline")
    results["vacuum_s"] = time.perf_counter() - start


def database_facts(results: dict[str, Any], day: date | None) -> None:
    from django.db import connection
    from django.db.models import Count
    from django.utils import timezone

    from tables.gaming_day import gaming_day_of
    from tables.models import Round, SettlementLine, Table

    results["rounds"] = Round.objects.count()
    results["lines"] = f"{SettlementLine.objects.count():,}"
    results["tables"] = Table.objects.count()
    results["days"] = Round.objects.order_by().values("gaming_day").distinct().count()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_size_pretty(pg_total_relation_size('tables_round')),"
            " pg_size_pretty(pg_total_relation_size('tables_settlementline')),"
            " pg_size_pretty(pg_database_size(current_database()))"
        )
        results["sizes"] = cursor.fetchone()
    today = gaming_day_of(timezone.now())
    days = Round.objects.filter(gaming_day__lt=today).values("gaming_day")
    if day is not None:
        days = days.filter(gaming_day=day)
    busiest = days.annotate(n=Count("id")).order_by("-n", "-gaming_day").first()
    if busiest is None:
        raise SystemExit(f"no complete gaming day {day or ''} in the history")
    results["busy_day"] = busiest["gaming_day"]
    results["busy_rounds"] = busiest["n"]
    results["busy_how"] = "as given" if day is not None else "the busiest complete day"
    results["today"] = today


# --- 2. the report jobs --------------------------------------------------------------------


def report_jobs(results: dict[str, Any], recorder: Recorder) -> None:
    from django.core.management import call_command
    from django.db import connection

    from reports.models import StaleReport
    from reports.reporting import rebuild_day
    from tables.models import Round

    day: date = results["busy_day"]
    with recorder.section("rebuild_day (first build)"):
        results["rebuild_busy_first_s"] = timed(lambda: rebuild_day(day))
    with recorder.section("rebuild_day (again)"):
        results["rebuild_busy_again_s"] = timed(lambda: rebuild_day(day))
    days = sorted(Round.objects.order_by().values_list("gaming_day", flat=True).distinct())
    per_day = []
    with recorder.section("rebuild_day (every day)"):
        for d in days:
            per_day.append(timed(lambda d=d: rebuild_day(d)))
    with connection.cursor() as cursor:  # as autovacuum soon would after so many new rows
        cursor.execute("ANALYZE reports_holdsummary")
    results["rebuild_all_s"] = sum(per_day)
    results["rebuild_all_days"] = len(days)
    results["rebuild_day_max_s"] = max(per_day)
    results["rebuild_day_median_s"] = statistics.median(per_day)

    def hold_report() -> None:
        call_command("hold_report", "--day", day.isoformat(), stdout=StringIO())

    with recorder.section("hold_report --day (fresh)"):
        results["hold_report_fresh_s"] = timed(hold_report)
    tables = set(
        Round.objects.filter(gaming_day=day)
        .order_by()
        .values_list("table_id", flat=True)
        .distinct()
    )
    StaleReport.objects.bulk_create(
        [StaleReport(gaming_day=day, table_id=t) for t in tables], ignore_conflicts=True
    )
    with recorder.section("hold_report --day (all stale)"):
        results["hold_report_stale_s"] = timed(hold_report)
    assert not StaleReport.objects.filter(gaming_day=day).exists()
    env = server_env()
    command = [sys.executable, "manage.py", "hold_report", "--day", day.isoformat()]
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    results["hold_report_subprocess_s"] = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"hold_report failed:\n{proc.stderr}")
    results["hold_report_total_line"] = next(
        (line for line in proc.stdout.splitlines() if line.startswith("TOTAL")), ""
    )


# --- 3. the selectors ----------------------------------------------------------------------


def selectors(results: dict[str, Any], recorder: Recorder, runs: int = 5) -> None:
    from reports.selectors import hold_rows, periods

    day: date = results["busy_day"]
    figures = {}
    with recorder.section("hold_rows"):
        for period, (start, end) in periods(day).items():
            for by in GROUPINGS:
                times = []
                for _ in range(runs):
                    began = time.perf_counter()
                    rows = len(hold_rows(start=start, end=end, by=by))
                    times.append(time.perf_counter() - began)
                figures[(by, period)] = (statistics.median(times), rows)
    results["selectors"] = figures


# --- 4. the pages --------------------------------------------------------------------------


def server_env() -> dict[str, str]:
    return dict(
        os.environ,
        DATABASE_URL=f"{ADMIN_URL}/{DB_NAME}",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        AUDIT_CHECKPOINT_KEY=secrets.token_urlsafe(32),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="casino.settings",
        CELERY_BROKER_URL="",
    )


def start_server(port: int, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """gunicorn if installed, else `runserver --noreload`; DEBUG off, 127.0.0.1 only."""
    try:
        import gunicorn  # noqa: F401

        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "casino.wsgi:application",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(workers),
            "--timeout",
            "180",
            "--log-level",
            "warning",
        ]
        kind = f"gunicorn {gunicorn.__version__}, {workers} sync workers"
    except ImportError:
        command = [sys.executable, "manage.py", "runserver", "--noreload", f"{HOST}:{port}"]
        kind = "manage.py runserver --noreload (threaded)"
    with log.open("wb") as out:
        server = subprocess.Popen(
            command,
            cwd=ROOT,
            env=server_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    started = time.perf_counter()
    while time.perf_counter() - started < START_TIMEOUT:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}: see {log}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            conn.request("GET", "/accounts/login/")
            conn.getresponse().read()
            conn.close()
            return server, kind
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise SystemExit(f"the server did not answer within {START_TIMEOUT:.0f} s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server we started; SIGKILL to its own process group if it lingers."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.pid, signal.SIGKILL)
    if server.poll() is None:
        server.wait(timeout=10)


class Browser:
    """One keep-alive connection with a cookie jar: enough to sign in and read pages."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, http.client.HTTPResponse]:
        all_headers = dict(headers or {})
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            self.conn.request(method, path, body=body, headers=all_headers)
            response = self.conn.getresponse()
        except (http.client.HTTPException, OSError):  # a dropped keep-alive: once more
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT)
            self.conn.request(method, path, body=body, headers=all_headers)
            response = self.conn.getresponse()
        content = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie(header)
            for key, morsel in cookie.items():
                self.cookies[key] = morsel.value
        return response.status, content, response

    def sign_in(self, username: str, password: str) -> None:
        status, page, _ = self.request("GET", "/accounts/login/")
        match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or match is None:
            raise SystemExit(f"no login form (status {status})")
        body = urlencode(
            {
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": match.group(1).decode(),
                "next": "/reports/dashboard/",
            }
        )
        status, _, response = self.request(
            "POST",
            "/accounts/login/",
            body,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"http://{HOST}:{self.port}/accounts/login/",
            },
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"sign-in as {username} failed (status {status})")


def page_list(results: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, path) of every page timed."""
    from django.db.models import Count
    from django.urls import reverse

    from tables.models import Round, Table

    day = results["busy_day"].isoformat()
    pages = [
        ("dashboard (today)", reverse("reports:dashboard")),
        (
            "dashboard (ytd to the report day)",
            f"{reverse('reports:dashboard')}?{urlencode({'period': 'ytd', 'day': day})}",
        ),
        ("floor partial (htmx)", reverse("reports:dashboard_floor")),
    ]
    for period in ("day", "mtd", "ytd", "30d"):
        query = urlencode({"period": period, "day": day})
        pages.append((f"charts.json {period}", f"{reverse('reports:dashboard_charts')}?{query}"))
    for period in ("day", "mtd", "ytd"):
        for by in GROUPINGS:
            query = urlencode({"by": by, "period": period, "day": day})
            pages.append((f"reports by {by}, {period}", f"{reverse('reports:reports')}?{query}"))
    query = urlencode({"by": "dealer", "period": "ytd", "day": day})
    pages.append(("reports.csv by dealer, ytd", f"{reverse('reports:reports_csv')}?{query}"))
    busiest = (
        Round.objects.filter(gaming_day=results["busy_day"])
        .values("table")
        .annotate(n=Count("id"))
        .order_by("-n", "table")
        .first()
    )
    assert busiest is not None
    table = Table.objects.get(pk=busiest["table"])
    results["drill_table"] = table.name
    results["drill_rounds"] = Round.objects.filter(
        table=table, gaming_day=results["busy_day"]
    ).count()
    rounds_url = reverse("reports:table_rounds", args=[table.pk])
    csv_url = reverse("reports:table_rounds_csv", args=[table.pk])
    pages.append((f"table rounds ({table.name}, report day)", f"{rounds_url}?day={day}"))
    pages.append((f"table rounds.csv ({table.name})", f"{csv_url}?day={day}"))
    pages.append(("alert rules", reverse("reports:alerts")))
    return pages


def in_process_queries(pages: list[tuple[str, str]], recorder: Recorder) -> dict[str, Any]:
    """Each page once through the test client (DEBUG as set here): query count, slowest."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="pitboss"))
    out = {}
    for label, path in pages:
        before = len(recorder.queries)
        with recorder.section(f"page {label}"):
            response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{label}: {path} answered {response.status_code} in process")
        queries = recorder.queries[before:]
        slowest = max((q.seconds for q in queries), default=0.0)
        out[label] = (len(queries), sum(q.seconds for q in queries), slowest)
    return out


def time_pages(
    port: int, pages: list[tuple[str, str]], requests: int
) -> dict[str, dict[str, float]]:
    browser = Browser(port)
    browser.sign_in("pitboss", "demo")
    figures = {}
    for label, path in pages:
        status, body, _ = browser.request("GET", path)  # warm-up, not counted
        first = 0.0
        times = []
        for n in range(requests + 1):
            start = time.perf_counter()
            status, body, _ = browser.request("GET", path)
            elapsed = (time.perf_counter() - start) * 1000
            if status != 200:
                raise SystemExit(f"{label}: {path} answered {status}")
            if n == 0:
                first = elapsed
            else:
                times.append(elapsed)
        figures[label] = {
            "median": statistics.median(times),
            "p95": percentile(times, 95),
            "max": max(times),
            "first": first,
            "bytes": len(body),
        }
        print(
            f"  {label:<40} median {figures[label]['median']:7.1f} ms"
            f"  p95 {figures[label]['p95']:7.1f} ms  ({len(body):,} bytes)",
            flush=True,
        )
    return figures


def dashboard_exists() -> bool:
    from django.urls import NoReverseMatch, reverse

    try:
        reverse("reports:dashboard")
    except NoReverseMatch:
        return False
    return True


# --- 5. slow queries -----------------------------------------------------------------------


def slow_queries(recorder: Recorder, threshold: float, explain: bool) -> list[str]:
    from django.db import connection

    out = []
    seen: set[str] = set()
    for q in sorted(recorder.queries, key=lambda q: -q.seconds):
        if q.seconds < threshold:
            break
        key = re.sub(r"\s+", " ", q.sql)
        if key in seen:
            continue
        seen.add(key)
        out.append(f"{q.seconds:.2f} s in {q.where}: {key[:400]}")
        if explain:
            analyze = "ANALYZE, BUFFERS" if key.lstrip().upper().startswith("SELECT") else "COSTS"
            sql = key.replace(" FOR UPDATE", "")
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN ({analyze}) {sql}", q.params)
                out.extend("    " + row[0] for row in cursor.fetchall())
    return out


# --- reporting -----------------------------------------------------------------------------


def report(args: argparse.Namespace, results: dict[str, Any]) -> bool:
    """Print the figures; whether every aim was met."""
    md = args.markdown
    aims_met = True

    def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        if md:
            print("| " + " | ".join(headers) + " |")
            print("| " + " | ".join("---" for _ in headers) + " |")
            for row in rows:
                print("| " + " | ".join(str(c) for c in row) + " |")
        else:
            widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows, strict=False)]
            for row in [headers, *rows]:
                print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=False)))
        print()

    print()
    print("### Machine\n")
    table(["machine", ""], list(results["machine"].items()))
    print("### History\n")
    sizes = results["sizes"]
    history = [
        (
            "rounds",
            f"{results['rounds']:,} over {results['days']} gaming days, {results['tables']} tables",
        ),
        ("settlement lines", results.get("lines", "?")),
        (
            "report day",
            f"{results['busy_day']}, {results['busy_how']} ({results['busy_rounds']:,} rounds)",
        ),
        ("size", f"rounds {sizes[0]}, lines {sizes[1]}, database {sizes[2]}"),
    ]
    if "seed_s" in results:
        history.append(
            (
                "seed_history",
                f"{results['seed_s']:.0f} s ({results['seed_rate']} rounds/s, "
                f"--jobs {args.jobs}); VACUUM ANALYZE {results['vacuum_s']:.0f} s",
            )
        )
    table(["", ""], history)

    day_ok = results["rebuild_busy_first_s"] < AIM_DAY_REPORT_S
    stale_ok = results["hold_report_stale_s"] < AIM_DAY_REPORT_S
    aims_met &= day_ok and stale_ok
    print("### Report jobs\n")
    table(
        ["job", "wall time"],
        [
            (
                f"`rebuild_day` report day, first build (aim < {AIM_DAY_REPORT_S:.0f} s)",
                f"**{results['rebuild_busy_first_s']:.2f} s** ({'met' if day_ok else 'MISSED'})",
            ),
            ("`rebuild_day` report day, again", f"{results['rebuild_busy_again_s']:.2f} s"),
            (
                f"`rebuild_day` x {results['rebuild_all_days']} days, one after the other",
                f"{results['rebuild_all_s']:.1f} s (median {results['rebuild_day_median_s']:.2f} s,"
                f" max {results['rebuild_day_max_s']:.2f} s per day)",
            ),
            (
                "`hold_report --day`, reports fresh, in process",
                f"{results['hold_report_fresh_s'] * 1000:.0f} ms",
            ),
            (
                "`hold_report --day`, every table stale, in process",
                f"**{results['hold_report_stale_s']:.2f} s** ({'met' if stale_ok else 'MISSED'})",
            ),
            (
                "`manage.py hold_report --day`, subprocess (start-up included)",
                f"{results['hold_report_subprocess_s']:.2f} s",
            ),
        ],
    )
    print("### Selectors (`hold_rows`, median of 5, rows returned)\n")
    sel = results["selectors"]
    table(
        ["grouping", "day", "month to date", "year to date"],
        [
            [by]
            + [
                f"{sel[(by, p)][0] * 1000:.1f} ms ({sel[(by, p)][1]})"
                for p in ("day", "mtd", "ytd")
            ]
            for by in GROUPINGS
        ],
    )
    if "pages" in results:
        print(
            f"### Pages ({results['server']}; {args.requests} requests each after one warm-up; "
            f"aim < {AIM_PAGE_MS:.0f} ms)\n"
        )
        rows = []
        for label, f in results["pages"].items():
            queries, db_seconds, slowest = results["page_queries"][label]
            ok = f["p95"] < AIM_PAGE_MS
            aims_met &= ok
            rows.append(
                (
                    label,
                    f"{f['median']:.1f}",
                    f"{f['p95']:.1f}" + ("" if ok else " (MISSED)"),
                    f"{f['bytes']:,}",
                    f"{queries} / {db_seconds * 1000:.1f} / {slowest * 1000:.1f}",
                )
            )
        table(["page", "median ms", "p95 ms", "bytes", "queries / DB ms / slowest ms"], rows)
    if results.get("slow"):
        print(f"### Queries slower than {args.slow:.1f} s\n")
        print("```")
        print("\n".join(results["slow"]))
        print("```\n")
    else:
        print(f"No query took {args.slow:.1f} s or more.\n")
    print(f"Load average at the start / end: {results['load_start']} / {results['load_end']}")
    print(f"PostgreSQL settings: {results['pg_settings']}")
    return aims_met


def main(argv: Sequence[str] | None = None) -> int:
    global DB_NAME
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=min(2, cpus or 1), help="seeding processes")
    parser.add_argument("--requests", type=int, default=20, help="timed requests per page")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--day",
        type=date.fromisoformat,
        default=None,
        help="the report day, YYYY-MM-DD (the busiest complete gaming day)",
    )
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--database", default=DB_NAME, help=f"the database's name ({DB_NAME})")
    parser.add_argument("--slow", type=float, default=1.0, help="list queries slower than this")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN the slow queries")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--reuse", action="store_true", help="reuse a kept database as it is")
    parser.add_argument("--check", action="store_true", help="exit 3 when an aim is missed")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", args.database):
        parser.error("--database: lower-case letters, digits and underscores")
    DB_NAME = args.database

    results: dict[str, Any] = {"load_start": load_average(), "pg_settings": pg_settings()}
    pg_version = str(admin_execute("SHOW server_version")[0][0])
    results["machine"] = machine(postgresql=pg_version)
    setup_django()  # no connection yet: the database is made below
    if args.day is not None:
        from django.utils import timezone

        from tables.gaming_day import gaming_day_of

        today = gaming_day_of(timezone.now())
        if not today - timedelta(days=args.days - 1) <= args.day < today:
            parser.error(f"--day must be a complete gaming day of the history, before {today}")
    reuse = args.reuse and database_exists()
    if not reuse:
        recreate_database()
    server = None
    try:
        recorder = Recorder()
        if not reuse:
            print(f"Seeding {args.rounds:,} rounds over {args.days} days...", flush=True)
            seed(args, results)
        database_facts(results, args.day)
        print(f"Report jobs (report day {results['busy_day']})...", flush=True)
        report_jobs(results, recorder)
        print("Selectors...", flush=True)
        selectors(results, recorder)
        if dashboard_exists():
            pages = page_list(results)
            print("Pages in process (queries)...", flush=True)
            results["page_queries"] = in_process_queries(pages, recorder)
            log = Path(tempfile.mkdtemp(prefix="bench_reports-")) / "server.log"
            server, results["server"] = start_server(args.port, args.workers, log)
            print(f"Pages over HTTP ({results['server']})...", flush=True)
            results["pages"] = time_pages(args.port, pages, args.requests)
        else:
            print("No dashboard URLs (reports:dashboard): pages not timed.")
        results["slow"] = slow_queries(recorder, args.slow, args.explain)
        results["load_end"] = load_average()
        met = report(args, results)
    finally:
        if server is not None:
            stop_server(server)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database()
    return 3 if args.check and not met else 0


if __name__ == "__main__":
    sys.exit(main())
