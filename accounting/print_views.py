"""The accounting forms as printed (core.printing): each slip on a page of its own, and the
gaming day's reconciliation (the count against the hands). Each answers its print page, its
PDF and its CSV; each is read by the roles that read the page it prints (a slip: the slip
desk's roles, each the slips the desk shows them; the reconciliation: its readers)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.bad_request import bad_query
from core.money import dollars
from core.printing import respond, signature_lines
from tables.engine.money import format_cents
from tables.gaming_day import gaming_day_of

from . import rules, selectors
from .models import Slip, SlipSignature, SlipVoid, VarianceAlert
from .views import DESK_ROLES, RECONCILIATION_ROLES, reconciliation_tables, roles_only

SLIP_COLUMNS = (
    "slip",
    "table",
    "kind",
    "gaming_day",
    "shift",
    "status",
    "amount",
    "cash",
    "markers",
    "chips",
    "entered_by",
    "entered_at",
    "signatures",
    "voids",
    "replaces",
    "note",
)
DAY_COLUMNS = (
    "table",
    "shift",
    "opener",
    "closer",
    "fills",
    "credits",
    "drop",
    "expected_drop",
    "count_win",
    "hold_percent_drop",
    "hands_win",
    "variance",
    "pending_slips",
)
# The reconciliation's sign-off lines: the pit boss who prepared it, the auditor who reviewed it.
DAY_SIGNATURES = ("prepared by the pit boss", "reviewed by the auditor")


def _when(at: datetime | None) -> str:
    return timezone.localtime(at).strftime("%Y-%m-%d %H:%M:%S %Z") if at else ""


def _chips(slip: Slip) -> list[dict[str, Any]]:
    return [
        {
            "value": f"${format_cents(int(cents))}",
            "count": count,
            "total": dollars(int(cents) * count),
        }
        for cents, count in sorted(slip.chips.items(), key=lambda kv: -int(kv[0]))
    ]


def _slip_signatures(slip: Slip, signatures: list[SlipSignature]) -> list[Any]:
    """The slip's lines: who entered it, then each step's signature given, then a blank line
    for each step still to sign (a voided slip takes no more signatures)."""
    steps = rules.STEP_NAMES[slip.kind]
    given = [("entered", slip.created_by.get_username(), slip.created_at)]
    given += [
        (f"{steps[s.step - 1]} ({s.role.replace('_', ' ')})", s.by.get_username(), s.at)
        for s in signatures
    ]
    wanted = ["entered", *steps] if slip.status == Slip.Status.PENDING else []
    return signature_lines(given, wanted)


def _slip_stamp(slip: Slip, signatures: list[SlipSignature], voids: list[SlipVoid]) -> datetime:
    """The slip's latest moment on the record: the PDF's date."""
    return max(
        [slip.created_at, *(s.at for s in signatures), *(v.at for v in voids)]
        + [t for t in (slip.signed_at, slip.voided_at) if t]
    )


@roles_only(*DESK_ROLES, what="The slip desk")
@never_cache
@require_GET
def slip_print(request: HttpRequest, slip_id: int, fmt: str) -> HttpResponse:
    slip = get_object_or_404(selectors.slips_visible_to(request.user), pk=slip_id)
    signatures = list(slip.signatures.all())
    voids = list(slip.voids.all())
    lines = _slip_signatures(slip, signatures)
    row = [
        slip.number,
        slip.table.name,
        slip.get_kind_display(),
        slip.gaming_day.isoformat(),
        slip.shift,
        slip.get_status_display(),
        dollars(slip.amount_cents),
        dollars(slip.cash_cents),
        dollars(slip.markers_cents),
        "; ".join(f"{c['count']} × {c['value']}" for c in _chips(slip)),
        slip.created_by.get_username(),
        _when(slip.created_at),
        "; ".join(f"{line.meaning}: {line.by} {_when(line.at)}" for line in lines[1:] if line.by),
        "; ".join(
            f"{'asked' if v.step == 1 else 'confirmed'} by {v.by.get_username()}"
            f" {_when(v.at)}: {v.reason}"
            for v in voids
        ),
        slip.replaces.number if slip.replaces else "",
        slip.note,
    ]
    return respond(
        request,
        fmt=fmt,
        template="print/slip.html",
        context={
            "form_title": f"{slip.get_kind_display()} slip {slip.number}",
            "gaming_day": slip.gaming_day,
            "shift": slip.shift,
            "slip": slip,
            "chips": _chips(slip),
            "amount": dollars(slip.amount_cents),
            "cash": dollars(slip.cash_cents),
            "markers": dollars(slip.markers_cents),
            "voids": voids,
            "signatures": lines,
        },
        filename=f"slip-{slip.number}",
        stamp=_slip_stamp(slip, signatures, voids),
        columns=SLIP_COLUMNS,
        rows=[row],
    )


def _percent(value: Any) -> str:
    return f"{value}%" if value is not None else "—"


def _day_rows(tables: list[dict[str, Any]]) -> list[list[Any]]:
    rows = []
    for t in tables:
        for s in [*t["shifts"], {"shift": "day", **t["day"]}]:
            rows.append(
                [
                    t["name"],
                    s["shift"],
                    dollars(s.get("opener_cents")) if s["shift"] != "day" else "",
                    dollars(s.get("closer_cents")) if s["shift"] != "day" else "",
                    dollars(s["fills_cents"]),
                    dollars(s["credits_cents"]),
                    dollars(s["drop_cents"]),
                    dollars(s["expected_drop_cents"]),
                    dollars(s["count_win_cents"]),
                    _percent(s["hold_percent_drop"]),
                    dollars(s["win_cents"]),
                    dollars(s["variance_cents"]),
                    s["pending_slips"],
                ]
            )
    return rows


def _day_stamp(day: date) -> datetime | date:
    """The day's latest moment on the record (its slips, their signatures, its alerts): the
    PDF's date; a day with none has the day itself."""
    slips = Slip.objects.filter(gaming_day=day)
    moments = [
        *slips.values_list("created_at", flat=True),
        *slips.exclude(signed_at=None).values_list("signed_at", flat=True),
        *slips.exclude(voided_at=None).values_list("voided_at", flat=True),
        *SlipSignature.objects.filter(slip__gaming_day=day).values_list("at", flat=True),
        *SlipVoid.objects.filter(slip__gaming_day=day).values_list("at", flat=True),
        *VarianceAlert.objects.filter(gaming_day=day).values_list("raised_at", flat=True),
        *VarianceAlert.objects.filter(gaming_day=day)
        .exclude(acknowledged_at=None)
        .values_list("acknowledged_at", flat=True),
    ]
    return max(moments) if moments else day


@roles_only(*RECONCILIATION_ROLES, what="The reconciliation")
@never_cache
@require_GET
def reconciliation_print(request: HttpRequest, fmt: str) -> HttpResponse:
    day = gaming_day_of(timezone.now())
    if request.GET.get("day"):
        try:
            day = date.fromisoformat(request.GET["day"])
        except ValueError:
            return bad_query(
                request,
                field="day",
                message=f"{request.GET['day']!r} is not a gaming day written like 2026-11-21",
            )
    tables = reconciliation_tables(day)
    alerts = list(
        VarianceAlert.objects.filter(gaming_day=day)
        .select_related("table", "acknowledged_by")
        .order_by("table__name", "shift")
    )
    return respond(
        request,
        fmt=fmt,
        template="print/reconciliation.html",
        context={
            "form_title": "Reconciliation: the count against the hands",
            "gaming_day": day,
            "tables": tables,
            "alerts": alerts,
            "signatures": signature_lines([], DAY_SIGNATURES),
        },
        filename=f"reconciliation-{day.isoformat()}",
        stamp=_day_stamp(day),
        columns=DAY_COLUMNS,
        rows=_day_rows(tables),
    )
