"""A dealer plays rounds while the services fail under them (run by test_faults.py in a
process of its own, with DATABASE_URL naming a database file or the PostgreSQL test database,
and CASINO_CACHE_URL naming a Redis that is down): `python fault_floor.py CACHE FAULT`.

CACHE: `refusing` (nothing listens at CASINO_CACHE_URL's port) or `hung` (this process listens
there, accepts and never answers). FAULT: `sqlite-lock` (another connection holds SQLite's
write lock, once for less than the busy timeout and once for longer) or `pg-kill` (the
server ends the connection between the steps of a round, and inside one step's transaction).

Prints one JSON object: each request's status and time, what the database holds afterwards."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DJANGO_DEBUG", "true")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

log: list[dict[str, Any]] = []


def hang_cache() -> None:
    """Accept connections at the cache's port and never answer."""
    port = urlparse(os.environ["CASINO_CACHE_URL"]).port
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", int(port or 6379)))
    server.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            conn, _ = server.accept()
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()


def call(client: APIClient, what: str, method: str, path: str, body: Any = None) -> Any:
    start = time.monotonic()
    get = method == "GET"
    response = client.get(path) if get else client.post(path, body or {}, format="json")
    log.append(
        {
            "what": what,
            "status": response.status_code,
            "seconds": round(time.monotonic() - start, 3),
            "retry_after": response.get("Retry-After"),
        }
    )
    return response


class SqliteLock:
    """Another connection holding SQLite's write lock for `seconds`."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.taken = threading.Event()
        self.thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        self.taken.set()
        time.sleep(self.seconds)
        other.execute("ROLLBACK")
        other.close()

    def __enter__(self) -> SqliteLock:
        self.thread.start()
        self.taken.wait()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.thread.join()


def kill_own_backend() -> None:
    import psycopg

    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    params.pop("server_side_binding", None)
    params["dbname"] = "postgres"
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    time.sleep(0.2)  # the FATAL message reaches the socket


def play(dealer: APIClient, boss: APIClient, table: int, n: int, fault: str) -> None:
    url = "/api/rounds/"
    body = {"table": table, "wagers": {"1": {"ante": "10"}}}
    if fault == "sqlite-lock" and n == 1:
        # A lock held for less than the busy timeout: reads answer at once, the write waits.
        # (A hold report marked stale: the dashboard's read would rebuild it, a write.)
        from reports.models import StaleReport
        from tables.gaming_day import gaming_day_of

        StaleReport.objects.get_or_create(
            gaming_day=gaming_day_of(timezone.now()), table_id=table, defaults={"full": True}
        )
        for client, page in ((dealer, f"/tablet/table/{table}/"), (boss, "/reports/dashboard/")):
            client.get(page)  # once before: the timings below are the lock's, not a first visit
        with SqliteLock(float(os.environ["CASINO_SQLITE_BUSY_TIMEOUT"]) - 1):
            call(dealer, "read the table page (lock held)", "GET", f"/tablet/table/{table}/")
            call(dealer, "read the tables (lock held)", "GET", "/api/tables/")
            call(boss, "read the dashboard (lock held)", "GET", "/reports/dashboard/")
            opened = call(dealer, "open (lock held)", "POST", url, body)
    elif fault == "pg-kill" and n == 1:
        kill_own_backend()
        call(dealer, "read the table page (backend killed)", "GET", f"/tablet/table/{table}/")
        kill_own_backend()
        opened = call(dealer, "open (backend killed)", "POST", url, body)
    else:
        opened = call(dealer, f"open round {n}", "POST", url, body)
    rid = opened.json()["id"]
    deal = {"cards": {"1": "9d 8h 2s"}, "dealer": "Ks 7d 2c"}
    if fault == "sqlite-lock" and n == 2:
        # A lock held past the busy timeout: the write answers 503, nothing of it saved. A
        # refused page's and API call's record waits briefly, then answers 503 too.
        with SqliteLock(float(os.environ["CASINO_SQLITE_BUSY_TIMEOUT"]) + 1.5):
            call(dealer, "read the round (lock held long)", "GET", f"{url}{rid}/")
            call(dealer, "a refused page (lock held long)", "GET", "/reports/dashboard/")
            call(dealer, "a refused API call (lock held long)", "GET", "/api/variance-alerts/")
            call(dealer, "deal (lock held past the timeout)", "POST", f"{url}{rid}/deal/", deal)
            call(boss, "read the rounds (lock held long)", "GET", url)
        call(dealer, "a refused page (lock free)", "GET", "/reports/dashboard/")
    if fault == "pg-kill" and n == 2:
        # The server ends the connection inside the deal's transaction (before its event is
        # appended): the step answers 503 and nothing of it is saved.
        from tables.services import rounds

        real = rounds.audit_record

        def dies_first(**kwargs: Any) -> Any:
            kill_own_backend()
            return real(**kwargs)

        rounds.audit_record = dies_first  # type: ignore[assignment]
        try:
            call(dealer, "deal (backend killed inside)", "POST", f"{url}{rid}/deal/", deal)
        finally:
            rounds.audit_record = real  # type: ignore[assignment]
    call(dealer, f"deal round {n}", "POST", f"{url}{rid}/deal/", deal)
    call(dealer, f"decide round {n}", "POST", f"{url}{rid}/decide/", {"seat": 1, "decision": {}})
    call(dealer, f"house way round {n}", "POST", f"{url}{rid}/dealer/", {})
    call(dealer, f"preview round {n}", "GET", f"{url}{rid}/preview/")
    call(
        dealer,
        f"settle round {n}",
        "POST",
        f"{url}{rid}/settle/",
        {"idempotency_key": f"fault-{n}"},
    )


def main(cache: str, fault: str) -> None:
    if cache == "hung":
        hang_cache()
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    from django.contrib.auth import get_user_model

    from accounting.services import open_table
    from audit.models import AuditEvent
    from tables.models import Round, Table
    from tables.services.sessions import dealer_sign_in

    users = {u.username: u for u in get_user_model().objects.all()}
    table = Table.objects.get(name="SC-1")
    dealer_sign_in(dealer=users["dealer"], table=table)
    # The table opens as the floor opens it (its opener counted and signed) before any round.
    open_table(table=table, dealer=users["dealer"], pit_boss=users["pitboss"])
    dealer, boss = APIClient(), APIClient()
    assert dealer.login(username="dealer", password="demo")
    assert boss.login(username="pitboss", password="demo")
    for n in (1, 2, 3):
        play(dealer, boss, table.pk, n, fault)
    print(
        json.dumps(
            {
                "log": log,
                "rounds": list(
                    Round.objects.filter(table=table)
                    .order_by("number")
                    .values_list("status", flat=True)
                ),
                "refusals_recorded": AuditEvent.objects.filter(kind="permission.refused").count(),
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:])
