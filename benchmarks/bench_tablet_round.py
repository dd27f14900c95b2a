"""A round through the dealer tablet's pages as a dealer's browser plays it: CPU and SQL per step.

    .venv/bin/python benchmarks/bench_tablet_round.py [--rounds 200] [--warmup 20] [--seats 2]
        [--game lowball] [--polls 8] [--database sqlite|postgresql] [--api]
        [--profile FILE] [--baseline REV] [--markdown] [--json-out F]

1. Makes a fresh database as `bench_api_round.py` does (SQLite file, or with `--database
   postgresql` the database BENCH_PG_DB, default `casino_bench_tablet`, on BENCH_PG_URL,
   dropped at the end), seeds the demo and the same table as that benchmark (`--game`, seven
   seats, a dealer), gives the dealer a password and signs in through the real sign-in page,
   then chooses the table on the tablet's first page: a session cookie and a CSRF token, as a
   browser holds them.
2. Plays `--warmup` unmeasured rounds, then `--rounds` measured ones: the same seeded random
   rounds as `bench_api_round.py --seats N` (`tables.engine.simulate.random_round`), entered
   in the tablet's forms as htmx sends them from the boosted pages (`HX-Request`,
   `HX-Boosted`, `HX-Current-URL`, `HX-Target`; the form's fields and its CSRF token): each
   step's POST, and the page the browser then shows (the 303's GET, which the browser's XHR
   follows with the same headers): the wagers page, open, deal, one decision per seat, the
   dealer's hand, settle, the round's payout page. Each answer is checked (status, where a
   POST sends the browser, the step the page shows). Static files are not requested (served
   apart, cached by the browser). Besides the round, the page's watch (`hx-trigger="every
   5s"`) polls `--polls` times a round (8: a 40-second round), counted apart.
3. Each request goes through Django's WSGI handler (the whole middleware stack, as gunicorn
   calls it) with DEBUG off and Celery tasks in-process. Reports the process CPU time
   (`time.process_time`: Django, the templates, the engine and SQLite all in this process)
   per step and per round, the SQL statements per step (counted in a second, unmeasured pass
   of `--count-rounds` rounds), how many times each step settles the round with the engine,
   and on PostgreSQL the CPU its backend used in the measured rounds (from /proc).

`--api` also runs `bench_api_round.py --game G --seats N` with the same rounds, seed and
database in a fresh process, and prints the tablet's round against the API's. `--baseline REV`
runs this script on commit REV (a git worktree, `benchmarks/baseline.py`) and on this checkout,
each in a fresh process, and prints both side by side. `--profile FILE` writes cProfile stats
of the measured rounds.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from http.cookies import SimpleCookie
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))

import baseline  # noqa: E402  (benchmarks/, beside this script)
from common import machine  # noqa: E402

PG_ADMIN = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
PG_DB = os.environ.get("BENCH_PG_DB", "casino_bench_tablet")
PASSWORD = "bench-tablet-password"


class Browser:
    """Requests straight into Django's WSGI handler with a browser's cookies, as htmx sends
    them from a boosted page; a 303 is followed with a GET as the browser's XHR follows it."""

    def __init__(self) -> None:
        from django.core.handlers.wsgi import WSGIHandler

        self.app = WSGIHandler()
        self.cookies: dict[str, str] = {}
        self.current = "/"

    def request(
        self, method: str, path: str, data: dict[str, Any] | None = None, *, htmx: bool = True
    ) -> tuple[int, dict[str, str], str]:
        query = ""
        if "?" in path:
            path, query = path.split("?", 1)
        body = b""
        if method == "POST":
            fields = dict(data or {})
            fields["csrfmiddlewaretoken"] = self.cookies.get("csrftoken", "")
            body = urlencode(fields, doseq=True).encode()
        environ: dict[str, Any] = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_ACCEPT": "text/html,application/xhtml+xml,*/*;q=0.8",
            "HTTP_USER_AGENT": "Mozilla/5.0 (bench_tablet_round)",
            "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.url_scheme": "http",
            "wsgi.version": (1, 0),
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if method == "POST":
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
            environ["CONTENT_LENGTH"] = str(len(body))
            environ["HTTP_ORIGIN"] = "http://127.0.0.1:8000"
        if htmx:
            environ["HTTP_HX_REQUEST"] = "true"
            environ["HTTP_HX_BOOSTED"] = "true"
            environ["HTTP_HX_CURRENT_URL"] = "http://127.0.0.1:8000" + self.current
            environ["HTTP_HX_TARGET"] = "tablet"
        status: list[str] = []
        headers: list[tuple[str, str]] = []

        def start_response(s: str, h: Any, exc_info: Any = None) -> Any:
            status.append(s)
            headers.extend(h)
            return lambda chunk: None

        result = self.app(environ, start_response)
        try:
            raw = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        answer: dict[str, str] = {}
        for name, value in headers:
            if name.lower() == "set-cookie":
                cookie: SimpleCookie = SimpleCookie()
                cookie.load(value)
                for key, morsel in cookie.items():
                    self.cookies[key] = morsel.value
            else:
                answer[name.lower()] = value
        return int(status[0].split()[0]), answer, raw.decode()


def setup(db_path: Path, database: str) -> None:
    if database == "postgresql":
        from common import admin_execute

        admin_execute(
            PG_ADMIN,
            f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)',
            f'CREATE DATABASE "{PG_DB}"',
        )
        os.environ["DATABASE_URL"] = f"{PG_ADMIN}/{PG_DB}"
        os.environ["DATABASE_CONN_MAX_AGE"] = "86400"  # one backend for the run (its CPU)
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ["DJANGO_DEBUG"] = "true"  # seed_demo asks for it; switched off before measuring
    os.environ["DJANGO_SETTINGS_MODULE"] = "casino.settings"
    os.environ["CELERY_BROKER_URL"] = ""
    os.environ.setdefault("AUDIT_CHECKPOINT_KEY", "bench-key")
    import django

    django.setup()


def tablet_steps(calls: list[tuple[str, str, Any]], table_id: int) -> list[dict[str, Any]]:
    """The API's calls of one round (bench_api_load.round_requests) as the tablet's forms."""
    url = f"/tablet/table/{table_id}/"
    steps: list[dict[str, Any]] = []
    for kind, _path, body in calls:
        if kind == "open":
            fields: dict[str, Any] = {}
            for seat, wagers in body["wagers"].items():
                fields[f"seat-{seat}-ante"] = wagers["ante"]
                for wager, amount in wagers.items():
                    if wager == "progressive":
                        fields[f"seat-{seat}-progressive"] = "1"
                    elif wager != "ante":
                        fields[f"seat-{seat}-{wager}"] = amount
            steps.append({"kind": "open", "path": url + "open/", "fields": fields})
        elif kind == "deal":
            fields = {f"seat-{n}-cards": " ".join(c) for n, c in body["cards"].items()}
            fields["dealer-cards"] = " ".join(body["dealer"])
            steps.append({"kind": "deal", "path": url + "deal/", "fields": fields})
        elif kind == "decide":
            n, decision = body["seat"], body["decision"]
            if "discard" in decision:  # a draw game: stand pat, or discard and draw
                fields = (
                    {"action": "draw", f"seat-{n}-discard": decision["discard"]}
                    if decision["discard"]
                    else {"action": "stand"}
                )
                if decision["discard"]:
                    fields[f"seat-{n}-draw"] = " ".join(decision["draw"])
            elif decision.get("mulligan"):  # 2nd Chance: a new hand, and its Pair Plus
                fields = {
                    "action": "mulligan",
                    f"seat-{n}-mulligan-cards": " ".join(decision["cards"]),
                    f"seat-{n}-mulligan-pair_plus": decision.get("pair_plus", ""),
                }
            elif not decision:
                fields = {"action": "stand"}
            else:
                raise SystemExit(f"the tablet benchmark enters no decision of {decision}")
            steps.append(
                {"kind": "decide", "path": url + "decide/", "fields": {"seat": n, **fields}}
            )
        elif kind == "dealer":
            fields = {"dealer-draw": " ".join(body["draw"])}
            if body.get("discard"):
                fields["dealer-discard"] = " ".join(sorted(body["discard"]))
            steps.append({"kind": "dealer", "path": url + "dealer/", "fields": fields})
        elif kind == "settle":
            steps.append({"kind": "settle", "path": url + "settle/", "fields": {}})
    return steps


# What the page after each kind of POST shows.
NEXT_STEP = {"open": "cards", "deal": "decisions", "dealer": "confirm"}
STEP_SHOWN = re.compile(r'<li class="now" aria-current="step">([^<]+)</li>')
STEP_LABEL = {
    "Wagers": "wagers",
    "Cards": "cards",
    "Players": "decisions",
    "House way": "dealer",
    "Pay and close": "confirm",
}


def play(
    browser: Browser,
    table_id: int,
    steps: list[dict[str, Any]],
    polls: int,
    record: Any,
    under_way: dict[str, str] | None = None,
) -> None:
    """One round as the dealer plays it; `record(name, seconds)` gets each request's CPU, and
    `under_way["name"]` names the request being made. Raises SystemExit on any unexpected
    answer."""
    url = f"/tablet/table/{table_id}/"

    def call(name: str, method: str, path: str, fields: dict[str, Any] | None = None) -> Any:
        if under_way is not None:
            under_way["name"] = name
        start = time.process_time()
        status, headers, body = browser.request(method, path, fields)
        record(name, time.process_time() - start)
        return status, headers, body

    def page(name: str, path: str, want: str | None) -> str:
        status, _headers, body = call(name, "GET", path)
        if status != 200:
            raise SystemExit(f"{name}: GET {path} answered {status}")
        browser.current = path
        if want is not None:
            shown = STEP_SHOWN.search(body)
            if shown is None or STEP_LABEL[shown.group(1)] != want:
                raise SystemExit(f"{name}: the page shows {shown and shown.group(1)}, not {want}")
        return body

    # The page's watch polls every 5 s while the dealer looks at it: `polls` a round, spread
    # over the table's pages (the wagers page first).
    pages = 1 + sum(1 for s in steps if s["kind"] != "settle")
    shares = [polls // pages + (1 if i < polls % pages else 0) for i in range(pages)]

    def watch(body: str) -> None:
        found = re.search(r'hx-get="([^"]+/watch/[^"]*)"', body)
        assert found is not None
        watch_url = found.group(1).replace("&amp;", "&")
        for _ in range(shares.pop(0) if shares else 0):
            status, _headers, _ = call("watch: poll (204)", "GET", watch_url)
            if status != 204:
                raise SystemExit(f"the watch answered {status}")

    body = page("wagers: page", url, "wagers")
    watch(body)
    round_id = key = None
    decided = 0
    seats = sum(1 for s in steps if s["kind"] == "decide")
    for step in steps:
        kind = step["kind"]
        fields = dict(step["fields"])
        if kind != "open":
            fields["round"] = round_id
        if kind == "settle":
            fields["idempotency_key"] = key
        label = f"{kind}: post" if kind != "decide" else f"decide: post (x{seats})"
        status, headers, answer = call(label, "POST", step["path"], fields)
        # The browser's XHR follows a 303 with a GET of the page; a page in the answer itself
        # (HX-Push-Url, its address) is shown as it is.
        location = headers.get("location", "") if status == 303 else headers.get("hx-push-url")
        if status not in (200, 303) or location is None:
            raise SystemExit(f"{kind}: POST answered {status}")
        if kind != "settle" and location != url:
            raise SystemExit(f"{kind}: POST sent the browser to {location}")
        if kind == "decide":
            decided += 1
            want = "decisions" if decided < seats else "dealer"
            name = f"decide: page (x{seats})"
        elif kind == "settle":
            if not re.fullmatch(r"/tablet/round/\d+/", location):
                raise SystemExit(f"settle sent the browser to {location}")
            if status == 303:
                page("settle: round page", location, None)
            elif 'id="pay-list"' not in answer:
                raise SystemExit("the settle's answer shows no payout")
            break
        else:
            want, name = NEXT_STEP[kind], f"{kind}: page"
        if status == 303:
            body = page(name, location, want)
        else:
            body = answer
            browser.current = location
            shown = STEP_SHOWN.search(body)
            if shown is None or STEP_LABEL[shown.group(1)] != want:
                raise SystemExit(f"{kind}: the answer shows {shown and shown.group(1)}, not {want}")
        watch(body)
        if kind == "open":
            found = re.search(r'name="round" value="(\d+)"', body)
            assert found is not None
            round_id = found.group(1)
        if want == "confirm":
            found = re.search(r'name="idempotency_key" value="(\w+)"', body)
            assert found is not None
            key = found.group(1)


def record_digest() -> dict[str, str]:
    """The record the run left (bench_api_round.record_digest), without the rounds'
    idempotency keys (the confirm page makes a new one each time)."""
    import hashlib

    from bench_api_round import record_digest as api_digest

    from tables.models import Round

    out = api_digest()
    h = hashlib.sha256()
    for row in Round.objects.order_by("id").values_list(
        "table__name",
        "number",
        "status",
        "entry",
        "house_way",
        "settlement",
        "handle_cents",
        "players_net_cents",
    ):
        h.update(json.dumps(row, sort_keys=True, default=str).encode())
    out["rounds"] = h.hexdigest()[:16]
    # The events bind the rows as stored: each round's key is read as its round's id, and
    # what differs from run to run whatever the code (times, salted password hashes, the API
    # token's random digest) is masked.
    from audit.models import AuditEvent

    masks = (
        (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?"), "<time>"),
        (re.compile(r"(pbkdf2_sha256|md5|sha256)[:$][^\"]+"), "<password>"),
        (re.compile(r'"digest": "[0-9a-f]{64}"'), '"digest": "<digest>"'),
    )

    keys = dict(Round.objects.exclude(idempotency_key=None).values_list("idempotency_key", "pk"))
    h = hashlib.sha256()
    for row in (
        AuditEvent.objects.exclude(kind="paytable.figures")
        .order_by("seq")
        .values_list("kind", "actor_name", "object_type", "object_id", "table_name", "data")
    ):
        text = json.dumps(row, sort_keys=True, default=str)
        for key, pk in keys.items():
            if key in text:
                text = text.replace(key, f"key-of-round-{pk}")
        for pattern, mask in masks:
            text = pattern.sub(mask, text)
        h.update(text.encode())
    out["events"] = h.hexdigest()[:16]
    return out


def measure(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="casino-bench-tablet-"))
    setup(tmp / "db.sqlite3", args.database)
    from bench_api_load import prepare_floor, round_requests
    from bench_api_round import FIGURES_SEED, backend_cpu
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    import tables.services.figures as figures
    from tables.engine import contract

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
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    dealer = get_user_model().objects.get(username__startswith="bench-dealer-")
    dealer.set_password(PASSWORD)
    dealer.save()

    browser = Browser()
    status, _, _ = browser.request("GET", "/accounts/login/", htmx=False)
    assert status == 200, status
    status, headers, _ = browser.request(
        "POST",
        "/accounts/login/",
        {"username": dealer.get_username(), "password": PASSWORD},
        htmx=False,
    )
    assert status == 302, (status, headers)
    status, headers, _ = browser.request("POST", "/tablet/", {"table": plan["table_id"]})
    assert status == 303 and headers["location"] == f"/tablet/table/{plan['table_id']}/", status

    rng = random.Random(args.seed)
    total = args.warmup + args.rounds + args.count_rounds
    rounds = [
        tablet_steps(round_requests(rng, plan, seats=args.seats), plan["table_id"])
        for _ in range(total)
    ]

    def ignore(name: str, seconds: float) -> None:
        pass

    for n in range(args.warmup):
        play(browser, plan["table_id"], rounds[n], args.polls, ignore)

    cpu: dict[str, list[float]] = defaultdict(list)
    current: dict[str, float] = defaultdict(float)

    made = {"requests": 0}

    def keep(name: str, seconds: float) -> None:
        current[name] += seconds
        made["requests"] += not name.startswith("watch")

    per_round: list[float] = []
    per_round_polls: list[float] = []
    settles: dict[str, int] = defaultdict(int)
    real = contract.settle
    spy_current = {"name": ""}

    profiler = cProfile.Profile() if args.profile else None
    backend = backend_cpu() if args.database == "postgresql" else None
    wall_start = time.perf_counter()
    for n in range(args.warmup, args.warmup + args.rounds):
        current.clear()
        if profiler:
            profiler.enable()
        play(browser, plan["table_id"], rounds[n], args.polls, keep)
        if profiler:
            profiler.disable()
        polls = sum(v for k, v in current.items() if k.startswith("watch"))
        per_round.append(sum(current.values()) - polls)
        per_round_polls.append(polls)
        for name, seconds in current.items():
            cpu[name].append(seconds)
    wall = time.perf_counter() - wall_start
    backend_ms = None
    if backend is not None:
        backend_ms = 1000 * (backend_cpu(backend[0])[1] - backend[1]) / args.rounds
    if profiler:
        profiler.dump_stats(args.profile)

    # Statements and the engine's settlements per step, in unmeasured rounds.
    queries: dict[str, list[int]] = defaultdict(list)
    counted = {"n": 0}

    def counter(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        counted["n"] += 1
        if args.show_sql and n == total - 1:
            print(f"  [{spy_current['name']}] {sql[:200]}")
        return execute(sql, params, many, context)

    def spy(*a: Any, **k: Any) -> Any:
        settles[spy_current["name"]] += 1
        return real(*a, **k)

    statements: dict[str, int] = defaultdict(int)

    def count(name: str, seconds: float) -> None:
        statements[name] += counted["n"]
        counted["n"] = 0

    original_request = browser.request

    def tracked(method: str, path: str, data: Any = None, *, htmx: bool = True) -> Any:
        counted["n"] = 0
        return original_request(method, path, data, htmx=htmx)

    browser.request = tracked  # type: ignore[method-assign]
    with connection.execute_wrapper(counter), mock.patch.object(contract, "settle", spy):
        for n in range(args.warmup + args.rounds, total):
            statements.clear()
            play(browser, plan["table_id"], rounds[n], args.polls, count, spy_current)
            for name, value in statements.items():
                queries[name].append(value)
    browser.request = original_request  # type: ignore[method-assign]

    digest = record_digest()
    if args.database == "postgresql":
        from common import admin_execute

        connection.close()
        admin_execute(PG_ADMIN, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)')
    names = sorted(cpu, key=lambda name: name.startswith("watch"))  # the polls last
    return {
        "database": args.database,
        "machine": machine(database=args.database),
        "game": args.game,
        "seats": args.seats,
        "rounds": args.rounds,
        "polls": args.polls,
        "requests_per_round": made["requests"] / args.rounds,
        "cpu_ms_per_round_mean": 1000 * statistics.fmean(per_round),
        "cpu_ms_per_round_median": 1000 * statistics.median(per_round),
        "cpu_ms_polls_per_round": 1000 * statistics.fmean(per_round_polls),
        "backend_cpu_ms_per_round": backend_ms,
        "wall_ms_per_round": 1000 * wall / args.rounds,
        "steps": {
            name: {
                "cpu_ms": 1000 * statistics.fmean(cpu[name]),
                "statements": statistics.fmean(queries[name]) if queries.get(name) else 0,
                "settlements": settles.get(name, 0) / max(1, args.count_rounds),
            }
            for name in names
        },
        "statements_per_round": sum(
            statistics.fmean(v) for k, v in queries.items() if not k.startswith("watch")
        ),
        "settlements_per_round": sum(v for k, v in settles.items() if not k.startswith("watch"))
        / max(1, args.count_rounds),
        "record_digest": digest,
    }


def table(results: list[tuple[str, dict[str, Any]]], api: dict[str, Any] | None) -> str:
    head = "| measure | " + " | ".join(name for name, _ in results) + " |"
    lines = [head, "| --- |" + " ---: |" * len(results)]

    def row(label: str, values: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(values) + " |")

    row(
        "**the round** (its pages and posts): CPU ms",
        [f"**{r['cpu_ms_per_round_mean']:.1f}**" for _, r in results],
    )
    if any(r.get("backend_cpu_ms_per_round") is not None for _, r in results):
        row(
            "PostgreSQL backend's CPU ms a round (polls included)",
            [f"{r.get('backend_cpu_ms_per_round') or 0:.1f}" for _, r in results],
        )
    row("the round: SQL statements", [f"{r['statements_per_round']:.1f}" for _, r in results])
    row("the round: engine settlements", [f"{r['settlements_per_round']:g}" for _, r in results])
    row(
        "the watch's polls a round: CPU ms",
        [f"{r['cpu_ms_polls_per_round']:.1f} ({r['polls']})" for _, r in results],
    )
    for name in results[0][1]["steps"]:
        row(
            f"{name}: CPU ms / statements",
            [
                f"{r['steps'][name]['cpu_ms']:.2f} / {r['steps'][name]['statements']:.1f}"
                if name in r["steps"]
                else "-"
                for _, r in results
            ],
        )
    if api is not None:
        row(
            f"the API's round ({api['requests_per_round']} requests): CPU ms / statements",
            [f"{api['cpu_ms_per_round_mean']:.1f} / {api['queries_per_round']:.1f}"]
            + [""] * (len(results) - 1),
        )
        row(
            "the tablet's round / the API's, CPU",
            [
                f"{r['cpu_ms_per_round_mean'] / api['cpu_ms_per_round_mean']:.2f}x"
                for _, r in results
            ],
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--count-rounds", type=int, default=10)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--game", default="lowball", choices=("lowball", "second_chance"))
    parser.add_argument("--polls", type=int, default=8, help="watch polls a round (every 5 s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--api", action="store_true", help="also the API's round, same rounds")
    parser.add_argument("--profile", metavar="FILE")
    parser.add_argument("--show-sql", action="store_true", help="print the last round's SQL")
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json-out", metavar="FILE")
    args = parser.parse_args()

    passed = [a for a in sys.argv[1:] if a not in ("--markdown", "--api")]
    if args.baseline:
        i = passed.index("--baseline")
        passed = passed[:i] + passed[i + 2 :]
        before = baseline.run_against(args.baseline, "bench_tablet_round.py", passed)
        after = baseline.run_here("bench_tablet_round.py", passed)
        results = [(f"before ({args.baseline})", before), ("after (this checkout)", after)]
    else:
        results = [("this checkout", measure(args))]
    api = None
    if args.api:
        api_args = [
            "--game",
            args.game,
            "--seats",
            str(args.seats),
            "--rounds",
            str(args.rounds),
            "--warmup",
            str(args.warmup),
            "--count-rounds",
            str(args.count_rounds),
            "--seed",
            str(args.seed),
            "--database",
            args.database,
        ]
        if args.database == "postgresql":
            os.environ.setdefault("BENCH_PG_DB", PG_DB)
        api = baseline.run_here("bench_api_round.py", api_args)
    info = results[-1][1]
    print(
        f"{info['game']}, {info['seats']} seats, {info['requests_per_round']:g} requests a round "
        f"and {info['polls']} polls, {info['rounds']} rounds, {info['database']}; machine: "
        + "; ".join(f"{k} {v}" for k, v in info["machine"].items())
    )
    print(table(results, api))
    if len(results) == 2:
        same = results[0][1]["record_digest"] == results[1][1]["record_digest"]
        print(
            "\nthe record (rounds, lines, audit events, hold reports) before and after: "
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
