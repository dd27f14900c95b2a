"""The money controls around a round: a pit boss's sign-off for a large payout (refused to a
dealer), a misdeal's cancel, going back a step to fix the cards, all on the audit chain."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import MeterEntry, Round, SettlementLine
from tables.services import ServiceError, controls
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db

# The confirm page's field: its second press approves and pays (reports.dashboard).
CONFIRM = {"confirm": "approve"}


def kinds(r: Round) -> list[str]:
    return list(
        AuditEvent.objects.filter(object_id=str(r.pk), object_type="tables.round")
        .order_by("id")
        .values_list("kind", flat=True)
    )


@pytest.fixture
def jackpot(floor: dict[str, Any]) -> dict[str, Any]:
    """LB-1, seat 1 on the progressive with A-2-4 against the dealer's A-2-4: the jackpot."""
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    d = floor["dealer2"]
    r = svc.round_open(
        table=floor["LB-1"], dealer=d, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "Ah 2c 4d"}, dealer_cards="As 2d 4c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={"discard": [], "draw": []})
    r = svc.round_dealer(round=r, dealer=d)
    return {**floor, "round": r}


def test_a_jackpot_waits_for_a_pit_boss_nothing_paid_meter_unmoved(jackpot: dict[str, Any]) -> None:
    f, r = jackpot, jackpot["round"]
    meter = f["LB-1"].meter
    meter.refresh_from_db()
    before = meter.value_cents
    entries = MeterEntry.objects.count()
    with pytest.raises(ServiceError) as refused:
        svc.round_settle(round=r, dealer=f["dealer2"], idempotency_key="k-1")
    assert refused.value.code == "approval_required" and refused.value.status == 409
    assert "seat 1 wins the progressive jackpot" in refused.value.message
    r.refresh_from_db()
    assert r.status == Round.Status.OPEN and r.awaiting_approval
    assert not SettlementLine.objects.filter(round=r).exists()
    meter.refresh_from_db()
    assert meter.value_cents == before and MeterEntry.objects.count() == entries
    # settling again asks again, and records the request once
    with pytest.raises(ServiceError):
        svc.round_settle(round=r, dealer=f["dealer2"])
    assert kinds(r).count("round.approval_requested") == 1
    # a dealer cannot approve
    with pytest.raises(PermissionDenied):
        controls.round_approve(round=r, by=f["dealer2"])
    r = controls.round_approve(round=r, by=f["pitboss"])
    assert r.status == Round.Status.SETTLED and r.approved_by == f["pitboss"]
    jackpot_line = r.lines.get(seat=1, wager="progressive")
    assert jackpot_line.award == "jackpot" and jackpot_line.net_cents == before + 20 - 100
    meter.refresh_from_db()
    assert meter.value_cents == meter.reset_cents
    assert kinds(r)[-3:] == ["round.approval_requested", "round.approved", "round.settled"]
    with pytest.raises(ServiceError) as again:
        controls.round_approve(round=r, by=f["pitboss"])
    assert again.value.code == "not_open"


def test_a_large_seat_payout_waits_and_the_threshold_is_the_tables(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    table = floor["SC-1"]
    d = floor["dealer"]

    def round_paying_ante(ante: str) -> Round:
        r = svc.round_open(table=table, dealer=d, wagers={1: {"ante": ante}})
        r = svc.round_deal(round=r, dealer=d, seat_cards={1: "Ac Ad As"}, dealer_cards="Ks 7d 2c")
        r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
        return svc.round_dealer(round=r, dealer=d)

    small = svc.round_settle(round=round_paying_ante("10.00"), dealer=d)
    assert small.status == Round.Status.SETTLED and small.approved_by is None
    table.approval_threshold_cents = 2000
    table.save()
    big = round_paying_ante("10.00")
    with pytest.raises(ServiceError) as refused:
        svc.round_settle(round=big, dealer=d)
    assert refused.value.code == "approval_required"
    assert "seat 1 is paid" in refused.value.message
    assert controls.round_approve(round=big, by=floor["pitboss"]).status == "settled"


def test_approve_over_the_api_pit_boss_only(jackpot: dict[str, Any]) -> None:
    f, r = jackpot, jackpot["round"]
    dealer = APIClient()
    dealer.force_authenticate(f["dealer2"])
    settle = dealer.post(f"/api/rounds/{r.pk}/settle/", {}, format="json", HTTP_IDEMPOTENCY_KEY="x")
    assert settle.status_code == 409 and settle.json()["error"]["code"] == "approval_required"
    shown = dealer.get(f"/api/rounds/{r.pk}/").json()
    assert shown["status"] == "open" and shown["awaiting_approval"] is True
    refused = dealer.post(f"/api/rounds/{r.pk}/approve/", {}, format="json")
    assert refused.status_code == 403
    assert AuditEvent.objects.filter(kind="permission.refused").exists()
    boss = APIClient()
    boss.force_authenticate(f["pitboss"])
    ok = boss.post(f"/api/rounds/{r.pk}/approve/", {}, format="json")
    assert ok.status_code == 200, ok.json()
    assert ok.json()["status"] == "settled" and ok.json()["approved_by"] == "pitboss"


def test_a_misdeal_is_cancelled_with_a_reason_and_the_table_is_free(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    d, table = floor["dealer"], floor["SC-1"]
    r = svc.round_open(table=table, dealer=d, wagers={1: {"ante": "10.00"}})
    with pytest.raises(ServiceError) as no_reason:
        controls.round_cancel(round=r, by=d, reason="  ")
    assert no_reason.value.field == "reason"
    with pytest.raises(PermissionDenied):
        controls.round_cancel(round=r, by=floor["auditor"], reason="misdeal")
    with pytest.raises(PermissionDenied):  # a dealer not signed in at the table
        controls.round_cancel(round=r, by=floor["dealer2"], reason="misdeal")
    r = controls.round_cancel(round=r, by=d, reason="misdeal: seat 1 got four cards")
    assert r.status == Round.Status.CANCELLED and r.cancelled_by == d
    assert kinds(r)[-1] == "round.cancelled"
    with pytest.raises(ServiceError) as twice:
        controls.round_cancel(round=r, by=floor["pitboss"], reason="again")
    assert twice.value.code == "not_open"
    nxt = svc.round_open(table=table, dealer=d, wagers={1: {"ante": "10.00"}})
    assert nxt.number == r.number + 1
    # a pit boss cancels too, over the API; a dealer elsewhere is refused
    boss = APIClient()
    boss.force_authenticate(floor["pitboss"])
    none = boss.post(f"/api/rounds/{nxt.pk}/cancel/", {}, format="json")
    assert none.status_code == 400 and none.json()["error"]["field"] == "reason"
    ok = boss.post(f"/api/rounds/{nxt.pk}/cancel/", {"reason": "misdeal"}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "cancelled"


def test_a_cancelled_round_is_never_changed_by_the_database(floor: dict[str, Any]) -> None:
    from django.db import IntegrityError, connection, transaction
    from django.db.utils import DatabaseError

    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    r = svc.round_open(table=floor["SC-1"], dealer=floor["dealer"], wagers={1: {"ante": "10.00"}})
    r = controls.round_cancel(round=r, by=floor["dealer"], reason="misdeal")
    for sql in (
        "UPDATE tables_round SET cancel_reason = 'edited' WHERE id = %s",
        "UPDATE tables_round SET status = 'open' WHERE id = %s",
        "DELETE FROM tables_round WHERE id = %s",
    ):
        with (
            pytest.raises((IntegrityError, DatabaseError)),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [r.pk])


def test_going_back_to_fix_the_cards_before_confirm(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    d = floor["dealer"]
    r = svc.round_open(table=floor["SC-1"], dealer=d, wagers={1: {"ante": "10.00"}})
    with pytest.raises(ServiceError) as early:
        controls.round_step_back(round=r, dealer=d, to="cards")
    assert early.value.code == "not_back"
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=d)
    with pytest.raises(PermissionDenied):
        controls.round_step_back(round=r, dealer=floor["pitboss"], to="cards")
    r = controls.round_step_back(round=r, dealer=d, to="cards")
    assert "cards" not in r.entry["seats"][0] and r.entry["decided"] == []
    assert not r.entry["dealer"].get("cards") and not r.entry.get("dealer_done")
    from tables.selectors import round_state

    assert round_state(r)["step"] == "cards"
    event = AuditEvent.objects.filter(kind="round.step_back").get()
    assert event.data["before"]["seats"][0]["cards"] == ["9d", "8h", "2s"]
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "9d 8h 3s"}, dealer_cards="Ks 7d 2c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=d)
    r = controls.round_step_back(round=r, dealer=d, to="decisions")
    assert round_state(r)["step"] == "decisions" and r.entry["seats"][0]["cards"][2] == "3s"
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=d)
    settled = svc.round_settle(round=r, dealer=d)
    assert settled.entry["seats"][0]["cards"] == ["9d", "8h", "3s"]
    with pytest.raises(ServiceError):
        controls.round_step_back(round=settled, dealer=d, to="cards")


def test_pending_approvals_show_on_the_dashboard_and_a_pit_boss_approves_there(
    jackpot: dict[str, Any],
) -> None:
    from django.test import Client

    f, r = jackpot, jackpot["round"]
    with pytest.raises(ServiceError):
        svc.round_settle(round=r, dealer=f["dealer2"])
    boss = Client()
    boss.force_login(f["pitboss"])
    floor = boss.get("/reports/dashboard/floor/").content.decode()
    assert f'data-round="{r.pk}"' in floor and "Approve and pay" in floor
    assert "seat 1 wins the progressive jackpot" in floor.lower()
    auditor = Client()
    auditor.force_login(f["auditor"])
    assert "Approve and pay" not in auditor.get("/reports/dashboard/").content.decode()
    assert auditor.post(f"/audit/rounds/{r.pk}/approve/", CONFIRM).status_code == 403
    r.refresh_from_db()
    assert r.status == "open"
    done = boss.post(f"/audit/rounds/{r.pk}/approve/", CONFIRM)
    assert done.status_code == 303
    r.refresh_from_db()
    assert r.status == "settled" and r.approved_by == f["pitboss"]
    assert f'data-round="{r.pk}"' not in boss.get("/reports/dashboard/floor/").content.decode()


def test_a_paid_jackpot_is_a_dashboard_alert_and_the_hold_reads_both_ways(
    jackpot: dict[str, Any],
) -> None:
    from decimal import Decimal

    from django.test import Client

    from reports.reporting import hold_percent

    f, r = jackpot, jackpot["round"]
    with pytest.raises(ServiceError):
        svc.round_settle(round=r, dealer=f["dealer2"])
    r = controls.round_approve(round=r, by=f["pitboss"])
    boss = Client()
    boss.force_login(f["pitboss"])
    floor = boss.get("/reports/dashboard/floor/").content.decode()
    assert 'id="large-payouts"' in floor and "seat 1 wins the progressive jackpot" in floor.lower()
    day = r.gaming_day.isoformat()
    csv = boss.get(f"/reports/hold.csv?by=table&period=day&day={day}&table=LB-1")
    rows = [line.split(",") for line in csv.content.decode().splitlines()]
    header, row = rows[0], dict(zip(rows[0], rows[1], strict=True))
    assert "hold_percent_without_jackpots" in header
    jackpot_paid = r.lines.get(wager="progressive").net_cents + 100
    win = -r.players_net_cents
    assert Decimal(row["hold_percent"]) == hold_percent(win, r.handle_cents)
    assert Decimal(row["hold_percent_without_jackpots"]) == hold_percent(
        win + jackpot_paid, r.handle_cents
    )
    page = boss.get(f"/reports/?by=table&period=day&day={day}").content.decode()
    assert "Hold % without jackpots" in page and "Gaming day: gaming day" not in page


def test_the_simulation_has_its_large_payouts_signed_off_by_a_pit_boss(
    floor: dict[str, Any],
) -> None:
    from tables.simulation import simulate

    table = floor["SC-1"]
    table.approval_threshold_cents = 1  # every win waits for a sign-off
    table.save()
    summary = simulate([table], 5, seed=3)
    assert summary["rounds"] == 5
    approved = Round.objects.filter(table=table, approved_by__username="sim-pitboss")
    assert approved.exists() and not Round.objects.filter(table=table, status="open").exists()
