"""Suite-wide test settings.

With CASINO_REQUIRE_SERVICES=1 (CI sets it) a test skipped for a missing service or browser
fails instead: CI must really exercise PostgreSQL, Redis, the worker and Chromium.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

REQUIRE_SERVICES = os.environ.get("CASINO_REQUIRE_SERVICES", "") not in ("", "0", "false")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_SERVICES and report.skipped and item.get_closest_marker("services") is not None:
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped, but CASINO_REQUIRE_SERVICES is set: {reason}"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Tests create many users; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _quick_paytable_figures(settings):  # type: ignore[no-untyped-def]
    """An approval computes the version's figures: few Monte Carlo deals in tests (a test of
    the figures themselves asks for more)."""
    settings.CASINO_EDGE_SAMPLES = 300
    settings.CASINO_EDGE_SEAT_ROUNDS = 300


@pytest.fixture(autouse=True)
def _fresh_counters(request: pytest.FixtureRequest) -> Any:
    """Throttle and sign-in counters live in the shared cache, which a test's rollback does not
    always undo (Redis; the database cache after a transactional test): each test starts with
    none, and with the enqueue's broker-down pause forgotten."""
    from django.core.cache import cache

    from audit.checkpoints import forget_seen
    from casino.enqueue import resume
    from core.cache import resume as resume_cache
    from reports.theory import forget_figures

    resume()
    resume_cache()
    forget_seen()
    forget_figures()
    if request.node.get_closest_marker("django_db") is None:
        # A browser test's live server reaches the database through `transactional_db`.
        if "transactional_db" in request.fixturenames:
            request.getfixturevalue("transactional_db")
        elif "db" in request.fixturenames:
            request.getfixturevalue("db")
        else:
            yield
            return
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _opener_required(request, settings):  # type: ignore[no-untyped-def]
    """Most of the suite's fixtures play rounds at tables no opener opened: the rule that a
    table is open for play only by its signed opener (accounting.opening) is off for them, and
    on for a test marked `opener_required` (and wherever the settings are not the tests')."""
    settings.CASINO_OPENER_REQUIRED = request.node.get_closest_marker("opener_required") is not None


@pytest.fixture(autouse=True)
def _audit_anchor(settings, tmp_path):  # type: ignore[no-untyped-def]
    """Each test its own anchor file (the chain it anchors lives only as long as the test)."""
    settings.AUDIT_ANCHOR_PATH = str(tmp_path / "audit-anchor.jsonl")
    return settings.AUDIT_ANCHOR_PATH


@pytest.fixture(autouse=True)
def _deferred_checks_before_rollback(request):  # type: ignore[no-untyped-def]
    """A test's transaction is rolled back, never committed, so PostgreSQL's deferred checks
    (a closed round's sums) would never run: run them at the end of every database test."""
    marker = request.node.get_closest_marker("django_db")
    transactional = "transactional_db" in request.fixturenames or (
        marker is not None and marker.kwargs.get("transaction")
    )
    if transactional or ("db" not in request.fixturenames and marker is None):
        yield
        return
    request.getfixturevalue("db")
    yield
    from django.db import connection

    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pytest.fixture
def floor(db: Any) -> dict[str, Any]:
    """The demo floor: tables SC-1, LB-1, PY-1 and users dealer, dealer2, pitboss, admin,
    admin2, auditor (password "demo")."""
    from tables.models import Table

    from .replay_writes import replayed

    def seed() -> None:
        with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
            call_command("seed_demo", stdout=quiet)

    replayed("floor", seed)

    User = get_user_model()
    users = {u.username: u for u in User.objects.all()}
    tables = {t.name: t for t in Table.objects.select_related("paytable_version", "meter")}
    return {"users": users, "tables": tables, **users, **tables}


@pytest.fixture
def eager_celery():  # type: ignore[no-untyped-def]
    """Run Celery tasks in-process for this test, as the embedded default does."""
    from casino.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = saved


@pytest.fixture
def settled(floor: dict[str, Any]) -> Any:
    """A settled 2nd Chance round at SC-1 (seat 1 antes $10), played through the services."""
    from tables.services import rounds as svc
    from tables.services.sessions import dealer_sign_in

    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    r = svc.round_open(table=floor["SC-1"], dealer=floor["dealer"], wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(
        round=r, dealer=floor["dealer"], seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c"
    )
    r = svc.round_decide(round=r, dealer=floor["dealer"], seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=floor["dealer"])
    return svc.round_settle(round=r, dealer=floor["dealer"])
