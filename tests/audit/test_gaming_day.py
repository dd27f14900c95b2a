"""A gaming day as the floor plays it (`reports.seeded_day`: misdeals, undone steps, sign-offs at
the tablet and from the dashboard, voids that wait and voids that do not, corrections, one into a
jackpot, voided poker hands, every kind of slip and a voided one, rated players and a comp, a
display key, API tokens, a paytable approved mid-day, the broker down and the database
connection lost), then every check of the night and of the auditor: each clean, and agreeing
with the others; every page each role opens and every export answering on it. Then, for every
kind of row that holds money or a control, one insider's edit straight in the database with the
guards dropped: `verify_audit` names each one.

The day is played once for the module, committed, outside any test transaction (its connection
is cut in the middle), on the database the suite runs on: CI runs this module on SQLite and on
PostgreSQL. Each test reads it; a tampering test undoes its edit; the module flushes the
database at its end."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client, override_settings

from accounting.models import Slip, SlipSignature
from accounts.models import ApiToken
from audit.verify import verify_record
from compliance.models import CashTransaction, PatronDay
from players.models import Rating, Redemption
from reports.models import HoldSummary
from reports.night_checks import run_checks
from reports.seeded_day import play_day
from tables.models import (
    DisplayKey,
    Hand,
    MeterEntry,
    ProgressiveMeter,
    Round,
    SettlementLine,
)

from .tamper import raw, run_verify

SEED = 3


@pytest.fixture(scope="module")
def anchor(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("day") / "audit-anchor.jsonl")


@pytest.fixture(scope="module")
def day(django_db_setup: Any, django_db_blocker: Any, anchor: str) -> Iterator[dict[str, Any]]:
    from casino.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    quick = {  # as the suite's own fixtures set them for each test
        "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],
        "CASINO_EDGE_SAMPLES": 300,
        "CASINO_EDGE_SEAT_ROUNDS": 300,
    }
    settings = override_settings(DEBUG=True, AUDIT_ANCHOR_PATH=anchor, **quick)
    with django_db_blocker.unblock(), settings:
        try:
            call_command("seed_demo", stdout=io.StringIO())
            yield play_day(seed=SEED, rounds=4, outages=True).as_data()
        finally:
            app.conf.task_always_eager = eager
            call_command("flush", interactive=False, verbosity=0)
            Path(anchor).unlink(missing_ok=True)


@pytest.fixture
def on_the_day(
    day: dict[str, Any], django_db_blocker: Any, anchor: str, settings: Any
) -> Iterator[dict[str, Any]]:
    """The day's database open to the test, with the day's anchor file."""
    settings.AUDIT_ANCHOR_PATH = anchor
    settings.DEBUG = True
    with django_db_blocker.unblock():
        yield day


# One edit per kind of row: (what, model, SQL run as an insider, what verify_audit must name).
def _first(model: Any, **where: Any) -> int:
    pk = model.objects.filter(**where).order_by("pk").values_list("pk", flat=True).first()
    assert pk is not None, f"the day has no {model._meta.verbose_name} {where}"
    return int(pk)


def tampering() -> list[tuple[str, Any, str, dict[str, Any]]]:
    return [
        (
            "a settled round's win",
            Round,
            "players_net_cents = players_net_cents - 100",
            {"status": "settled"},
        ),
        (
            "a line's net",
            SettlementLine,
            "net_cents = net_cents + 10000",
            {"round__status": "settled"},
        ),
        ("the meter", ProgressiveMeter, "value_cents = value_cents + 500", {}),
        ("a meter entry", MeterEntry, "amount_cents = amount_cents - 500", {}),
        ("a slip's amount", Slip, "amount_cents = amount_cents * 10", {"kind": "buy_in"}),
        (
            "a slip's signer",
            SlipSignature,
            "by_id = (SELECT MAX(u.id) FROM auth_user u WHERE u.id <> by_id)",
            {},
        ),
        ("a rating's points", Rating, "points = points + 1000", {}),
        ("a comp's points", Redemption, "points = points + 1000", {}),
        (
            "a token's owner",
            ApiToken,
            "user_id = (SELECT MAX(u.id) FROM auth_user u WHERE u.id <> user_id)",
            {},
        ),
        (
            "a display key put back",
            DisplayKey,
            "revoked_at = NULL, revoked_by_id = NULL",
            {"revoked_at__isnull": False},
        ),
        ("a hold summary's win", HoldSummary, "win_cents = win_cents - 100000", {}),
        ("a patron's day of cash", PatronDay, "cash_in_cents = cash_in_cents - 100000", {}),
        ("a cash transaction", CashTransaction, "amount_cents = amount_cents * 10", {}),
    ]


EVENTS = (
    "misdeal",
    "undone step",
    "poker misdeal",
    "poker step undone",
    "poker hand voided",
    "jackpot signed off at the tablet",
    "large payout signed off from the dashboard",
    "void waiting for a second pit boss",
    "void approved by a second pit boss",
    "void at once",
    "correction",
    "correction into a jackpot",
    "opener",
    "buy-in or fill",
    "credit",
    "closer",
    "drop",
    "count sheet signed",
    "slip voided",
    "rated player seated",
    "rated player unseated",
    "comp redeemed",
    "display key issued and revoked",
    "API token revoked",
    "paytable version approved and put in force",
    "rounds played with the broker down",
    "cash buy-in logged on the MTL",
    "cash buy-in opening a CTR",
    "cash buy-in refused until the patron is identified",
    "patron identified at the cage",
    "cash buy-in after the identification",
    "CTR filed by the compliance officer",
    "credit line set and approved",
    "marker issued at a table",
    "marker partly repaid in cash at the cage",
    "voided buy-in taken off its patron's day",
    "described patron merged into an identified one",
    "structuring alert raised",
    "chip walking alert raised",
    "compliance case opened and decided",
)


def test_the_day_holds_what_a_floor_s_day_holds(on_the_day: dict[str, Any]) -> None:
    events = on_the_day["events"]
    assert [kind for kind in EVENTS if not events.get(kind)] == [], events
    # An in-memory SQLite database lives in its one connection: there is none to lose.
    if not (connection.vendor == "sqlite" and connection.is_in_memory_db()):
        assert events.get("database connection lost mid-step"), events


def test_every_check_of_the_night_is_clean_and_they_agree(on_the_day: dict[str, Any]) -> None:
    checks = run_checks()
    assert {c.name: c.problems for c in checks if not c.ok} == {}
    # Each kept run counted what verify_audit counted, and its own events and row.
    audit, command, nightly = checks[0].figures, checks[1].figures, checks[2].figures
    assert command["events"] == audit["events"] + 1  # its own start
    assert nightly["events"] == command["events"] + 2  # the command's finish, its own start
    assert command["bound_rows"] == audit["bound_rows"] + 1  # its own run
    assert nightly["bound_rows"] == command["bound_rows"] + 1
    assert run_verify()[0] == 0
    auditor = Client()
    assert auditor.login(username="auditor", password="demo")
    page = auditor.post("/audit/record/verify/", follow=True)
    assert page.status_code == 200 and "The record is whole" in page.content.decode()


def _day_and_table(rounds: dict[str, int]) -> tuple[Any, int]:
    jackpot = Round.objects.get(pk=rounds["jackpot"])
    return jackpot.gaming_day, jackpot.table_id


def test_every_export_answers_with_the_day(on_the_day: dict[str, Any]) -> None:
    day, table = _day_and_table(on_the_day["rounds"])
    auditor = Client()
    assert auditor.login(username="auditor", password="demo")
    for url in (
        "/audit/events.csv",
        "/audit/events-readable.csv",
        "/reports/hold.csv",
        f"/reports/tables/{table}/rounds.csv?day={day}",
        f"/players/day.csv?day={day}",
    ):
        response = auditor.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/csv"), url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert len(body.splitlines()) > 1, f"{url} exports no row"


def test_every_page_of_the_day_answers_each_role(on_the_day: dict[str, Any]) -> None:
    rounds, hands = on_the_day["rounds"], on_the_day["hands"]
    day, table = _day_and_table(rounds)
    pages = {
        "pitboss": [
            "/reports/dashboard/",
            "/reports/",
            f"/reports/tables/{table}/rounds/?day={day}",
            "/accounting/",
            "/accounting/reconciliation/",
            f"/accounting/count/?day={day}",
            "/audit/",
            "/audit/?q=misdeal",
            "/audit/record/",
            *(f"/audit/rounds/{pk}/" for pk in rounds.values()),
            *(f"/audit/hands/{pk}/" for pk in hands.values()),
            "/players/",
            "/players/floor/",
            f"/players/day/?day={day}",
            "/tablet/displays/",
        ],
        "auditor": ["/audit/", "/audit/record/", "/reports/dashboard/", "/accounting/"],
        "host": ["/players/", f"/players/day/?day={day}"],
        "cage": ["/accounting/"],
        "compliance": ["/compliance/", f"/compliance/?day={day}", "/compliance/credit/"],
        "credit": ["/compliance/credit/"],
        "count": ["/accounting/", f"/accounting/count/?day={day}"],
    }
    for user, urls in pages.items():
        c = Client()
        assert c.login(username=user, password="demo")
        for url in urls:
            assert c.get(url).status_code == 200, f"{user} {url}"
    c = Client()
    assert c.login(username="auditor", password="demo")
    jackpot = c.get(f"/audit/rounds/{rounds['jackpot']}/").content.decode()
    assert re.search("jackpot", jackpot, re.IGNORECASE)
    assert Hand.objects.filter(status="voided").count() >= 2


@pytest.mark.parametrize("what, model, change, where", tampering(), ids=[t[0] for t in tampering()])
def test_an_insider_s_edit_is_named(
    on_the_day: dict[str, Any], what: str, model: Any, change: str, where: dict[str, Any]
) -> None:
    pk = _first(model, **where)
    table = model._meta.db_table
    with transaction.atomic():
        raw(f"UPDATE {table} SET {change} WHERE {model._meta.pk.column} = %s", [pk])
        found = "\n".join(verify_record().problems)
        transaction.set_rollback(True)
    assert found, f"{what}: verify_audit found nothing"
    assert table in found or model._meta.model_name in found.lower(), found[:800]
    assert verify_record().ok  # the edit undone, the record whole again


@pytest.mark.django_db
def test_the_command_refuses_without_the_demo_floor_and_changes_nothing(settings: Any) -> None:
    """(Marked for the database, this test also has the test database set up for the module's
    day when the module runs alone.)"""
    from django.core.management.base import CommandError

    from audit.models import AuditEvent

    settings.DEBUG = True
    before = AuditEvent.objects.count()
    with pytest.raises(CommandError, match="no demo floor: run `manage.py seed_demo` first"):
        call_command("play_day", "--seed", "1", stdout=io.StringIO())
    with pytest.raises(CommandError, match="--rounds must be from 4"):
        call_command("play_day", "--rounds", "2", stdout=io.StringIO())
    settings.DEBUG = False
    with pytest.raises(CommandError, match="only runs with DEBUG on"):
        call_command("play_day", stdout=io.StringIO())
    assert AuditEvent.objects.count() == before
