"""The reads of suspicious activity: the open alerts, the case queue with each case's SAR due
date, and a case's evidence (the patron's cash transactions over the case's gaming days and the
rounds played at those tables then, with the patron's seats' stakes)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from core.money import dollars
from tables.models import Round, SettlementLine

from . import selectors
from .cases import due_on, sar_threshold
from .models import Alert, Case, CaseAlert, CaseNote

ROUNDS_SHOWN = 300  # the evidence's rounds listed, newest first


def alert_view(alert: Alert) -> dict[str, Any]:
    return {
        "id": alert.pk,
        "kind": alert.get_kind_display(),
        "patron": alert.patron.number,
        "first_day": alert.first_day,
        "day": alert.gaming_day,
        "amount": dollars(alert.amount_cents),
        "wagered": dollars(alert.wagered_cents) if alert.wagered_cents is not None else "",
        "detail": alert.detail,
        "raised_at": alert.raised_at,
        "by_night": alert.raised_by_night,
    }


def _state(case: Case, today: date) -> dict[str, Any]:
    decision = getattr(case, "decision", None)  # None until decided
    due = due_on(case)
    return {
        "decision": decision,
        "due": due,
        "overdue": decision is None and today > due,
        "days_left": (due - today).days,
    }


def case_rows() -> list[dict[str, Any]]:
    """Every case, undecided first (soonest due first), then decided ones, newest first."""
    today = timezone.localdate()
    cases = Case.objects.select_related("patron", "opened_by", "decision").prefetch_related(
        Prefetch("case_alerts", queryset=CaseAlert.objects.select_related("alert"))
    )
    rows = []
    for case in cases:
        alerts = [ca.alert for ca in case.case_alerts.all()]
        rows.append(
            {
                "case": case,
                **_state(case, today),
                "kinds": sorted({a.get_kind_display() for a in alerts}),
                "amount": dollars(max((a.amount_cents for a in alerts), default=0) or None),
            }
        )
    rows.sort(key=lambda r: (r["decision"] is not None, date.max if r["decision"] else r["due"]))
    return rows


def case_detail(case: Case) -> dict[str, Any]:
    """A case with its alerts, notes, decision, due date and evidence."""
    today = timezone.localdate()
    alerts = [
        alert_view(ca.alert)
        for ca in CaseAlert.objects.filter(case=case).select_related("alert__patron")
    ]
    txs = list(
        selectors.transactions()
        .filter(
            patron_id=case.patron_id,
            gaming_day__gte=case.first_day,
            gaming_day__lte=case.last_day,
        )
        .order_by("at", "id")
    )
    seats: dict[int, set[int]] = {}
    for tx in txs:
        if tx.table_id is not None:
            seats.setdefault(tx.table_id, set())
            if tx.seat:
                seats[tx.table_id].add(tx.seat)
    rounds = list(
        Round.objects.filter(
            table_id__in=list(seats),
            gaming_day__gte=case.first_day,
            gaming_day__lte=case.last_day,
            status=Round.Status.SETTLED,
        )
        .select_related("table")
        .order_by("-opened_at", "-id")[:ROUNDS_SHOWN]
    )
    stakes: dict[int, int] = {}
    for round_id, table_id, seat, stake in SettlementLine.objects.filter(
        round__in=[r.pk for r in rounds]
    ).values_list("round_id", "round__table_id", "seat", "stake_cents"):
        if seat in seats.get(table_id, ()):
            stakes[round_id] = stakes.get(round_id, 0) + stake
    cash_in = sum(t.amount_cents for t in txs if t.direction == "in")
    cash_out = sum(t.amount_cents for t in txs if t.direction == "out")
    return {
        "case": case,
        **_state(case, today),
        "alerts": alerts,
        "notes": list(CaseNote.objects.filter(case=case).select_related("by")),
        "transactions": txs,
        "cash_in": dollars(cash_in),
        "cash_out": dollars(cash_out),
        "sar_threshold": dollars(sar_threshold()),
        "meets_sar_threshold": max(cash_in, cash_out) >= sar_threshold(),
        "rounds": [
            {
                "round": r,
                "table": r.table.name,
                "seats": ", ".join(str(s) for s in sorted(seats.get(r.table_id, ()))),
                "stake": dollars(stakes[r.pk]) if r.pk in stakes else "",
            }
            for r in rounds
        ],
        "seated_wagered": dollars(sum(stakes.values())),
    }
