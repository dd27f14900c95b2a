"""Fault tests: the shared cache (Redis) down, refusing connections or hung, while the database
fails under a dealer playing rounds, in a process of its own (fault_floor.py), as on the floor:

- SQLite: another connection holds the write lock, once for less than the busy timeout (reads
  answer at once, a dashboard with a hold report to rebuild among them; the write waits for
  the lock and goes through) and once past it (reads still answer; the write answers 503 with
  Retry-After, nothing of it saved, and goes through when sent again; a refused page's and API
  call's record waits briefly, then answers 503, nothing written);
- PostgreSQL: the server ends the connection between requests (reads and writes go on, on a
  fresh connection) and inside a step's transaction (503 with Retry-After, nothing saved).

Every round is played to the end and settled; no request answers 500."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("fault_floor.py")
BUSY_TIMEOUT = 3  # seconds: the lock is held for 2 s, then for 4.5 s
READ_SECONDS = 1.5  # a read answers within this, whatever the writer holds


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(
        {
            "DJANGO_DEBUG": "true",
            "DATABASE_URL": database_url,
            "CASINO_CACHE_URL": f"redis://127.0.0.1:{_free_port()}/7",
            "CASINO_SQLITE_BUSY_TIMEOUT": str(BUSY_TIMEOUT),
            "CASINO_SESSION_RENEW_SECONDS": "0",  # every request renews its session
            "CELERY_BROKER_URL": "",
            "CELERY_TASK_ALWAYS_EAGER": "true",
        }
    )
    return env


@pytest.fixture(scope="module")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("faults") / "migrated.sqlite3"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=_env(f"sqlite:///{path}"),
        check=True,
        capture_output=True,
        timeout=600,
    )
    return path


def _run(env: dict[str, str], cache: str, fault: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), cache, fault],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _by_what(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["what"]: entry for entry in result["log"]}


def _no_server_error(result: dict[str, Any]) -> None:
    assert [e for e in result["log"] if e["status"] >= 500 and e["status"] != 503] == []
    assert result["rounds"] == ["settled", "settled", "settled"]


@pytest.mark.parametrize("cache", ["refusing", "hung"])
def test_sqlite_lock_held_while_a_dealer_plays_with_redis_down(
    cache: str, migrated_sqlite: Path, tmp_path: Path
) -> None:
    database = tmp_path / "floor.sqlite3"
    shutil.copy(migrated_sqlite, database)
    result = _run(_env(f"sqlite:///{database}"), cache, "sqlite-lock")
    _no_server_error(result)
    seen = _by_what(result)
    for read in (
        "read the table page (lock held)",
        "read the tables (lock held)",
        "read the dashboard (lock held)",
        "read the round (lock held long)",
        "read the rounds (lock held long)",
    ):
        assert seen[read]["status"] == 200, (read, seen[read])
        assert seen[read]["seconds"] < READ_SECONDS, (read, seen[read])
    held = [
        "read the table page (lock held)",
        "read the tables (lock held)",
        "read the dashboard (lock held)",
        "open (lock held)",
    ]
    assert seen[held[-1]]["status"] == 201  # the write waited for the lock, then went through
    assert BUSY_TIMEOUT - 1.1 < sum(seen[what]["seconds"] for what in held) < BUSY_TIMEOUT + 1
    busy = seen["deal (lock held past the timeout)"]
    assert busy["status"] == 503 and busy["retry_after"] == "1"
    assert seen["deal round 2"]["status"] == 200  # sent again: nothing of the first was saved
    # A refusal's record waits for the lock briefly, then the refusal answers 503 (nothing
    # written); once the lock is free it is answered 403, on the record.
    for refused in ("a refused page (lock held long)", "a refused API call (lock held long)"):
        assert seen[refused]["status"] == 503, (refused, seen[refused])
        assert seen[refused]["retry_after"] == "1"
        assert seen[refused]["seconds"] < READ_SECONDS, (refused, seen[refused])
    assert seen["a refused page (lock free)"]["status"] == 403
    assert result["refusals_recorded"] == 1


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("cache", ["refusing", "hung"])
def test_postgresql_backend_killed_while_a_dealer_plays_with_redis_down(cache: str) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL is not configured (DATABASE_URL)")
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    url = (
        f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/"
        f"{s['NAME']}"
    )
    result = _run(_env(url), cache, "pg-kill")
    _no_server_error(result)
    seen = _by_what(result)
    assert seen["read the table page (backend killed)"]["status"] == 200
    assert seen["open (backend killed)"]["status"] == 201
    inside = seen["deal (backend killed inside)"]
    assert inside["status"] == 503 and inside["retry_after"] == "1"
    assert seen["deal round 2"]["status"] == 200  # nothing of the first was saved
