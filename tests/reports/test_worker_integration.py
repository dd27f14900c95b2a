"""Reports through a real Redis broker and a real Celery worker (on PostgreSQL): rounds settled
at the tables are summarised by the worker; a duplicate delivery changes nothing; a worker
killed in the middle of a job leaves the report stale, and it is rebuilt by the next worker."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.models import Sum
from django.test import override_settings

from reports.models import HoldSummary, StaleReport
from reports.reporting import lock_table_rebuild
from tables.models import SettlementLine, Table
from tables.simulation import dealer_for, play_round

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("CELERY_BROKER_URL", "")

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _redis_up() -> bool:
    if not REDIS.startswith("redis://"):
        return False
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture
def worker_env() -> Iterator[dict[str, str]]:
    if connection.vendor != "postgresql":
        pytest.skip("the worker shares the test database: needs PostgreSQL (DATABASE_URL)")
    if not _redis_up():
        pytest.skip("needs Redis at 127.0.0.1:6379 (CELERY_BROKER_URL=redis://...)")
    from casino.celery import app

    queue = f"test-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": REDIS,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "DJANGO_DEBUG": "true",
        # seed_demo's approvals send the figures' jobs: few samples, as in-process tests use
        "CASINO_EDGE_SAMPLES": "300",
        "CASINO_EDGE_SEAT_ROUNDS": "300",
    }
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.broker_url = REDIS
    app.conf.task_default_queue = queue
    app._pool = None  # connect afresh to the broker named above
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        yield env
    app.conf.task_always_eager, app.conf.broker_url, app.conf.task_default_queue = saved
    app._pool = None


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino",
            "worker",
            "--pool=solo",
            "-Q",
            env["CELERY_TASK_DEFAULT_QUEUE"],
            "--loglevel=WARNING",
            "-n",
            f"{uuid.uuid4().hex[:6]}@test",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc


def wait_until(check: Any, timeout: float = 40.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.3)
    return False


def seed_and_play(n: int) -> tuple[Any, Table]:
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    table = Table.objects.get(name="SC-1")
    dealer = dealer_for(table)
    rng = random.Random(11)
    rounds = [play_round(table, dealer, rng) for _ in range(n)]
    return rounds[0].gaming_day, table


def test_a_real_worker_builds_the_report_and_a_duplicate_delivery_changes_nothing(
    worker_env: dict[str, str],
) -> None:
    worker = start_worker(worker_env)
    try:
        day, table = seed_and_play(6)
        assert wait_until(lambda: not StaleReport.objects.exists() and HoldSummary.objects.exists())
        lines = SettlementLine.objects.filter(round__table=table)
        row = HoldSummary.objects.get(table=table)
        assert row.rounds == 6 and row.handle_cents == lines.aggregate(s=Sum("stake_cents"))["s"]
        before = list(HoldSummary.objects.values("rounds", "handle_cents", "win_cents"))
        from reports.tasks import refresh_hold_report

        for _ in range(2):  # the same job delivered twice
            refresh_hold_report.delay(day.isoformat(), table.pk)
        time.sleep(3)
        assert list(HoldSummary.objects.values("rounds", "handle_cents", "win_cents")) == before
    finally:
        worker.terminate()
        worker.wait(timeout=20)


def test_a_worker_killed_mid_job_leaves_the_report_stale_and_the_next_worker_rebuilds_it(
    worker_env: dict[str, str],
) -> None:
    day, table = seed_and_play(4)
    assert StaleReport.objects.filter(table=table).exists()  # no worker yet: the mark waits
    worker = start_worker(worker_env)
    # Hold the table's rebuild lock so the worker's rebuild blocks in the middle of its job.
    with transaction.atomic():
        lock_table_rebuild(table.pk)
        time.sleep(6)  # the worker picks the job up and waits on the lock
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=20)
    assert StaleReport.objects.filter(table=table).exists()
    assert not HoldSummary.objects.filter(table=table).exists()
    worker = start_worker(worker_env)
    try:
        from reports.tasks import refresh_stale_reports

        refresh_stale_reports.delay()
        assert wait_until(
            lambda: (
                not StaleReport.objects.exists()
                and HoldSummary.objects.filter(table=table).exists()
            )
        )
        assert HoldSummary.objects.get(table=table).rounds == 4
    finally:
        worker.terminate()
        worker.wait(timeout=20)
