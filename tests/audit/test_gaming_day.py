"""A gaming day as the floor plays it (`reports.seeded_day`: misdeals, undone steps, sign-offs at
the tablet and from the dashboard, voids that wait and voids that do not, corrections, one into a
jackpot, voided poker hands, every kind of slip and a voided one, rated players and a comp, a
display key, API tokens, a paytable approved mid-day, the broker down and the database
connection lost), then every check of the night and of the auditor: each clean, and agreeing
with the others. Then, for every kind of row that holds money or a control, one insider's edit
straight in the database with the guards dropped: `verify_audit` names each one.

Played outside a test transaction (its connection is cut in the middle) on the database the
suite runs on: CI runs this module on SQLite and on PostgreSQL."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client, override_settings

from accounting.models import Slip, SlipSignature
from accounts.models import ApiToken
from audit.verify import verify_record
from players.models import Rating, Redemption
from reports.models import HoldSummary
from reports.night_checks import run_checks
from reports.seeded_day import play_day
from tables.models import DisplayKey, MeterEntry, ProgressiveMeter, Round, SettlementLine

from .tamper import raw, run_verify

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 3


@pytest.fixture
def day(settings: Any) -> dict[str, Any]:
    settings.DEBUG = True
    with override_settings(DEBUG=True), io.StringIO() as quiet:
        call_command("seed_demo", stdout=quiet)
    report = play_day(seed=SEED, rounds=4, outages=True)
    return report.as_data()


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
        ("a slip's signer", SlipSignature, "by_id = (SELECT MIN(id) FROM auth_user)", {}),
        ("a rating's points", Rating, "points = points + 1000", {}),
        ("a comp's points", Redemption, "points = points + 1000", {}),
        ("a token's owner", ApiToken, "user_id = (SELECT MAX(id) FROM auth_user)", {}),
        ("a display key put back", DisplayKey, "revoked_at = NULL, revoked_by_id = NULL", {}),
        ("a hold summary's win", HoldSummary, "win_cents = win_cents - 100000", {}),
    ]


def test_the_day_played_and_every_check_clean_agreeing_and_every_tampering_named(
    day: dict[str, Any], eager_celery: Any
) -> None:
    events = day["events"]
    for kind in (
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
        "slip voided",
        "rated player seated",
        "rated player unseated",
        "comp redeemed",
        "display key issued and revoked",
        "API token revoked",
        "paytable version approved and put in force",
        "rounds played with the broker down",
    ):
        assert events.get(kind), f"the day played no {kind}: {events}"
    # An in-memory SQLite database lives in its one connection: there is none to lose.
    if not (connection.vendor == "sqlite" and connection.is_in_memory_db()):
        assert events.get("database connection lost mid-step"), events

    # Every check of the night clean, each on its own.
    checks = run_checks()
    assert {c.name: c.problems for c in checks if not c.ok} == {}
    # ... and agreeing: each kept run counted what verify_audit counted, and its own events.
    audit, command, nightly = checks[0].figures, checks[1].figures, checks[2].figures
    assert command["events"] == audit["events"] + 1  # its own start
    assert nightly["events"] == command["events"] + 2  # the command's finish, its own start
    assert audit["bound_rows"] < command["bound_rows"] < nightly["bound_rows"]
    assert run_verify()[0] == 0

    # The page's button, and every export, as the auditor reads them.
    auditor = Client()
    assert auditor.login(username="auditor", password="demo")
    page = auditor.post("/audit/record/verify/", follow=True)
    assert page.status_code == 200 and "The record is whole" in page.content.decode()
    day_text = Round.objects.exclude(gaming_day=None).values_list("gaming_day", flat=True)[0]
    table = Round.objects.exclude(gaming_day=None).values_list("table_id", flat=True)[0]
    for url in (
        "/audit/events.csv",
        "/audit/events-readable.csv",
        "/reports/hold.csv",
        f"/reports/tables/{table}/rounds.csv?day={day_text}",
        f"/players/day.csv?day={day_text}",
    ):
        response = auditor.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/csv"), url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert len(body.splitlines()) > 1, f"{url} exports no row"

    # One insider's edit per kind of row: each named, each undone before the next.
    for what, model, change, where in tampering():
        pk = _first(model, **where)
        with transaction.atomic():
            raw(
                f"UPDATE {model._meta.db_table} SET {change} WHERE {model._meta.pk.column} = %s",
                [pk],
            )
            found = "\n".join(verify_record().problems)
            transaction.set_rollback(True)
        assert found, f"{what}: verify_audit found nothing"
        assert model._meta.db_table in found or model._meta.model_name in found.lower(), (
            f"{what}: not named: {found[:500]}"
        )
    assert verify_record().ok
