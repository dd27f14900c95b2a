"""Slips take the current gaming day, or the previous one with a reason (on the chain; the
morning count of yesterday's drop boxes too), and amounts within the limits an admin sets per kind
(in the admin, on the chain, bound to the record). Each refusal names the field (the limit in
dollars) and saves nothing; the API, the slip desk and the tablet refuse alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from accounting.models import Slip
from accounting.rules import MORNING_COUNT_REASON
from accounting.services import slip_create
from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import ServiceError
from tables.models import AmountLimit
from tables.services.limits import limit_cents, limit_set
from tests.audit.tamper import raw, run_verify
from tests.helpers import client_for

from .conftest import Clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def morning(pit: dict[str, Any], clock: Clock) -> dict[str, Any]:
    """15:00 on 2026-11-21 (the 06:00 and 14:00 shifts have begun; the previous gaming day is
    the 20th)."""
    clock.set(15, 0, next_day=True)
    return pit


def refused(response: Any, field: str, *words: str) -> dict[str, Any]:
    assert response.status_code == 400, (response.status_code, response.content)
    error = response.json()["error"]
    assert error["field"] == field, error
    for word in words:
        assert word in error["message"], error
    return error  # type: ignore[no-any-return]


def post(who: Any, body: dict[str, Any]) -> Any:
    return client_for(who).post("/api/slips/", body, format="json")


def nothing_saved() -> None:
    assert not Slip.objects.exists()
    assert not AuditEvent.objects.filter(kind__startswith="slip.").exists()


# --- the gaming day ---------------------------------------------------------------------------


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "2026-11-19", "2026-11-22"])
def test_a_drop_dated_outside_today_and_yesterday_is_refused(
    morning: dict[str, Any], day: str
) -> None:
    body = {"table": morning["SC-1"].pk, "kind": "drop", "amount": "100.00", "gaming_day": day}
    error = refused(post(morning["count"], body), "gaming_day", "2026-11-21", "2026-11-20", day)
    assert error["code"] == "bad_gaming_day"
    nothing_saved()


def test_a_fill_dated_2020_and_a_buy_in_a_year_back_are_refused(morning: dict[str, Any]) -> None:
    table = morning["SC-1"].pk
    fill = {"table": table, "kind": "fill", "chips": {"25.00": 4}, "gaming_day": "2020-01-01"}
    refused(post(morning["pitboss"], fill), "gaming_day", "2020-01-01")
    buy_in = {"table": table, "kind": "buy_in", "amount": "100.00", "gaming_day": "2025-11-21"}
    refused(post(morning["dealer"], buy_in), "gaming_day", "2025-11-21")
    nothing_saved()


def test_yesterday_takes_a_reason_recorded_on_the_chain(morning: dict[str, Any]) -> None:
    table = morning["SC-1"].pk
    fill = {"table": table, "kind": "fill", "chips": {"25.00": 4}, "gaming_day": "2026-11-20"}
    error = refused(post(morning["pitboss"], fill), "reason", "previous gaming day", "reason")
    assert error["code"] == "reason_required"
    assert not Slip.objects.exists()
    late = {**fill, "shift": "22:00", "reason": "the cage's copy came up after the close"}
    slip = post(morning["pitboss"], late)
    assert slip.status_code == 201, slip.content
    assert (slip.json()["gaming_day"], slip.json()["shift"]) == ("2026-11-20", "22:00")
    event = AuditEvent.objects.get(kind="slip.created")
    assert event.data["late_reason"] == "the cage's copy came up after the close"
    assert event.data["gaming_day"] == "2026-11-20"


def test_a_drop_of_yesterday_gives_the_morning_counts_reason_but_today_takes_none(
    morning: dict[str, Any],
) -> None:
    """The count team counts yesterday's boxes every morning: a drop of the previous gaming day
    gives its reason as every other slip does (the refusal offers the morning count's), and it
    is on the chain. A reason on a slip of today is refused rather than recorded for nothing."""
    table = morning["SC-1"].pk
    drop = {"table": table, "kind": "drop", "amount": "100.00", "gaming_day": "2026-11-20"}
    error = refused(
        post(morning["count"], {**drop, "shift": "22:00"}),
        "reason",
        "drop slip for the previous gaming day (2026-11-20) needs a reason",
        MORNING_COUNT_REASON,
    )
    assert error["code"] == "reason_required"
    nothing_saved()
    given = {**drop, "shift": "22:00", "reason": MORNING_COUNT_REASON}
    assert post(morning["count"], given).status_code == 201
    assert AuditEvent.objects.get(kind="slip.created").data["late_reason"] == MORNING_COUNT_REASON
    today = {**drop, "gaming_day": "2026-11-21", "shift": "06:00", "reason": "late"}
    refused(post(morning["count"], today), "reason", "only a slip for the previous gaming day")


def test_a_shift_that_has_not_begun_is_refused(morning: dict[str, Any]) -> None:
    body = {
        "table": morning["SC-1"].pk,
        "kind": "drop",
        "amount": "100.00",
        "gaming_day": "2026-11-21",
        "shift": "22:00",
    }
    error = refused(post(morning["count"], body), "shift", "22:00", "has not begun")
    assert error["code"] == "bad_shift"


def test_the_slip_desk_asks_the_reason_and_refuses_an_old_day(morning: dict[str, Any]) -> None:
    boss = Client()
    boss.force_login(morning["pitboss"])
    form = {
        "kind": "fill",
        "table": str(morning["SC-1"].pk),
        "gaming_day": "2026-11-20",
        "shift": "22:00",
        "chip_2500": "4",
    }
    page = boss.post(reverse("accounting:create"), form)
    assert page.status_code == 400 and "needs a reason" in page.content.decode()
    assert 'name="reason"' in page.content.decode()
    page = boss.post(reverse("accounting:create"), {**form, "gaming_day": "0001-01-01"})
    assert page.status_code == 400 and "not 0001-01-01" in page.content.decode()
    assert not Slip.objects.exists()
    # The morning count's ready reason is a drop's: a fill (or a made-up choice) is refused.
    for ready in (MORNING_COUNT_REASON, "because"):
        page = boss.post(reverse("accounting:create"), {**form, "ready_reason": ready})
        assert page.status_code == 400 and "is not one offered for a fill slip" in (
            page.content.decode().replace("&#x27;", "'")
        )
    assert not Slip.objects.exists()
    done = boss.post(reverse("accounting:create"), {**form, "reason": "entered at the close"})
    assert done.status_code == 303
    assert AuditEvent.objects.get(kind="slip.created").data["late_reason"] == (
        "entered at the close"
    )


def test_the_morning_count_picks_its_reason_and_may_add_words(morning: dict[str, Any]) -> None:
    count = Client()
    count.force_login(morning["count"])
    form = {
        "kind": "drop",
        "table": str(morning["SC-1"].pk),
        "gaming_day": "2026-11-20",
        "shift": "22:00",
        "amount": "100.00",
        "ready_reason": MORNING_COUNT_REASON,
        "reason": "box 7's lock jammed",
    }
    assert count.post(reverse("accounting:create"), form).status_code == 303
    assert AuditEvent.objects.get(kind="slip.created").data["late_reason"] == (
        f"{MORNING_COUNT_REASON}: box 7's lock jammed"
    )
    today = {**form, "gaming_day": "2026-11-21", "shift": "06:00", "reason": ""}
    page = count.post(reverse("accounting:create"), today)
    assert page.status_code == 400 and "only a slip for the previous gaming day" in (
        page.content.decode()
    )
    assert Slip.objects.count() == 1


# --- the amounts ------------------------------------------------------------------------------


def test_a_drop_of_a_trillion_is_refused_naming_the_limit(morning: dict[str, Any]) -> None:
    body = {
        "table": morning["SC-1"].pk,
        "kind": "drop",
        "amount": "999999999999.99",
        "reason": MORNING_COUNT_REASON,
    }
    error = refused(
        post(morning["count"], {**body, "gaming_day": "2026-11-20"}),
        "amount",
        "at most $1,000,000.00",
        "not $999,999,999,999.99",
    )
    assert error["code"] == "over_limit"
    markers = {**body, "amount": "10.00", "markers": "2000000", "gaming_day": "2026-11-20"}
    refused(post(morning["count"], markers), "markers", "at most $1,000,000.00")
    both = {**body, "amount": "600000", "markers": "600000", "gaming_day": "2026-11-20"}
    refused(post(morning["count"], both), "amount", "total", "not $1,200,000.00")
    nothing_saved()


@pytest.mark.parametrize(
    ("kind", "who", "given", "field"),
    [
        ("fill", "pitboss", {"chips": {"1000.00": 251}}, "chips"),
        ("credit", "pitboss", {"chips": {"1000.00": 251}}, "chips"),
        ("opener", "pitboss", {"chips": {"1000.00": 1001}}, "chips"),
        ("buy_in", "dealer", {"amount": "50000.01"}, "amount"),
    ],
)
def test_every_kind_has_its_limit(
    morning: dict[str, Any], kind: str, who: str, given: dict[str, Any], field: str
) -> None:
    body = {"table": morning["SC-1"].pk, "kind": kind, **given}
    error = refused(post(morning[who], body), field, "the limit an admin sets")
    assert error["code"] == "over_limit"
    assert not Slip.objects.exists()


def test_an_admin_sets_a_limit_in_the_admin_on_the_chain(morning: dict[str, Any]) -> None:
    admin = Client()
    admin.force_login(morning["admin"])
    listing = admin.get(reverse("admin:tables_amountlimit_changelist")).content.decode()
    assert "Limits in force" in listing and "$250,000.00" in listing and "the default" in listing
    response = admin.post(
        reverse("admin:tables_amountlimit_add"), {"kind": "buy_in", "max_cents": "10,000.00"}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    row = AmountLimit.objects.get(kind="buy_in")
    assert (row.max_cents, row.changed_by) == (10_000_00, morning["admin"])
    event = AuditEvent.objects.get(kind="amount_limit.set")
    assert event.data["max_cents"] == 10_000_00 and event.data["before_cents"] == 50_000_00
    assert event.data["bound"]["tables.amountlimit"][str(row.pk)]["max_cents"] == 10_000_00
    body = {"table": morning["SC-1"].pk, "kind": "buy_in", "amount": "10000.01"}
    refused(post(morning["dealer"], body), "amount", "at most $10,000.00", "not $10,000.01")
    # from the MTL threshold a cash buy-in names its patron (docs/compliance.md)
    patron = {"description": {"sex": "female", "clothing": "blue coat"}}
    big = {**body, "amount": "10000.00", "seat": 1, "patron": patron}
    assert post(morning["dealer"], big).status_code == 201
    change = reverse("admin:tables_amountlimit_change", args=[row.pk])
    assert admin.post(change, {"max_cents": "20000"}).status_code == 302
    assert limit_cents("buy_in") == 20_000_00
    assert AuditEvent.objects.filter(kind="amount_limit.set").count() == 2
    assert verify_record().problems == ()


def test_only_an_admin_sets_a_limit_and_pit_bosses_read_them(morning: dict[str, Any]) -> None:
    with pytest.raises(PermissionDenied, match="may set an amount limit"):
        limit_set(kind="drop", max_cents=100, by=morning["pitboss"])
    boss = Client()
    boss.force_login(morning["pitboss"])
    assert boss.get(reverse("admin:tables_amountlimit_changelist")).status_code == 200
    assert boss.get(reverse("admin:tables_amountlimit_add")).status_code == 403
    with pytest.raises(ServiceError, match="max_cents must be a whole number"):
        limit_set(kind="drop", max_cents="100", by=morning["admin"])
    with pytest.raises(ServiceError, match="max_cents must be at least 1"):
        limit_set(kind="drop", max_cents=0, by=morning["admin"])
    assert not AmountLimit.objects.exists()


def test_a_limit_raised_with_sql_is_caught_by_verify(morning: dict[str, Any]) -> None:
    row = limit_set(kind="drop", max_cents=5_000_00, by=morning["admin"])
    assert run_verify()[0] == 0
    raw("UPDATE tables_amountlimit SET max_cents = %s WHERE id = %s", [10**15, row.pk])
    code, out = run_verify()
    assert code == 1 and "tables_amountlimit" in out and "max_cents" in out


# --- strict input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"chips": {"25.00": "4"}}, "chips.25.00", "whole number"),
        ({"chips": {"25.00": 4.0}}, "chips.25.00", "whole number"),
        ({"chips": {"25.00": True}}, "chips.25.00", "whole number"),
        ({"table": "1"}, "table", "whole number"),
        ({"table": 1.5}, "table", "whole number"),
        ({"table": True}, "table", "whole number"),
        ({"colour": "green"}, "colour", "is not a field"),
        ({"note": 5}, "note", "must be text"),
    ],
)
def test_a_slips_fields_have_their_types(
    morning: dict[str, Any], change: dict[str, Any], field: str, words: str
) -> None:
    body = {"table": morning["SC-1"].pk, "kind": "fill", "chips": {"25.00": 4}, **change}
    refused(post(morning["pitboss"], body), field, words)
    assert not Slip.objects.exists()


def test_an_amount_is_a_decimal_string(morning: dict[str, Any]) -> None:
    body = {"table": morning["SC-1"].pk, "kind": "buy_in", "amount": 100}
    refused(post(morning["dealer"], body), "amount", "must be text")
    assert not Slip.objects.exists()


def test_signing_takes_no_input(morning: dict[str, Any]) -> None:
    fill = slip_create(
        table=morning["SC-1"], kind="fill", by=morning["pitboss"], chips={"25.00": 4}
    )
    response = client_for(morning["cage"]).post(
        f"/api/slips/{fill.pk}/sign/", {"step": 2}, format="json"
    )
    refused(response, "step", "is not a field")
    assert not fill.signatures.exists()


def test_the_tray_grid_takes_digits(morning: dict[str, Any]) -> None:
    dealer = Client()
    dealer.force_login(morning["dealer"])
    url = reverse("accounting:tray", args=[morning["SC-1"].pk])
    page = dealer.post(url, {"kind": "opener", "chip_2500": "4.5"})
    assert page.status_code == 400 and "a count of chips in digits" in page.content.decode()
    assert not Slip.objects.exists()
    assert dealer.post(url, {"kind": "opener", "chip_2500": " 4 "}).status_code == 303
    assert Slip.objects.get().chips == {"2500": 4}


def test_the_slip_desk_takes_a_table_in_ascii_digits(morning: dict[str, Any]) -> None:
    boss = Client()
    boss.force_login(morning["pitboss"])
    form = {"kind": "fill", "table": "١", "chip_2500": "4"}
    page = boss.post(reverse("accounting:create"), form)
    assert (
        page.status_code == 400 and "table must be a table&#x27;s number" in page.content.decode()
    )
    assert not Slip.objects.exists()
