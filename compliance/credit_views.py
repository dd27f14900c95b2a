"""The credit pages (markers, docs/compliance.md).

- `/compliance/credit/`: the credit lines (in force, a change waiting), the approvals waiting
  and the outstanding markers with their age, per patron and in total. Credit managers set and
  approve lines here; the cage, the compliance role and auditors read it.
- `/compliance/credit/markers/new/?table=SC-1`: the pit boss issues a marker at a table seat
  (linked from the table's day on the dashboard).
- `/compliance/credit/repay/`: the cage takes a marker's repayment (linked from the cage's
  window).
Views parse, call one service or selector and render; a refusal re-shows the form with its
message naming the field and the typed values kept, and saves nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from audit.services import audit_refused_duties
from core.errors import SeparationOfDuties, ServiceError
from core.money import dollars, typed_dollars
from core.roles import (
    CREDIT_MANAGERS,
    CREDIT_READERS,
    MARKER_ISSUERS,
    MARKER_REPAYERS,
    Role,
    has_any_role,
    require,
    role_names,
)
from tables.gaming_day import gaming_day_of
from tables.models import Table

from . import credit
from .models import CreditLine, Marker, MarkerRepayment


def _require(request: HttpRequest, roles: tuple[Role, ...], what: str) -> None:
    require(request.user, roles, what, message=f"{what} is for the {role_names(roles)}.")


def _refused(request: HttpRequest, err: ServiceError) -> ServiceError:
    """A separation-of-duties refusal is recorded as a refused permission (outside the write)."""
    if isinstance(err, SeparationOfDuties):
        audit_refused_duties(request, err)
    return err


def _marker_row(row: dict[str, Any], user: Any) -> dict[str, Any]:
    marker: Marker = row["marker"]
    return {
        "number": marker.number,
        "patron": credit.patron_name_for(marker.patron, user),
        "patron_number": marker.patron.number,
        "where": f"{marker.table.name} seat {marker.seat}" if marker.seat else marker.table.name,
        "day": marker.gaming_day,
        "amount": dollars(marker.amount_cents),
        "outstanding": dollars(row["outstanding_cents"]),
        "age": row["age"],
        "bucket": row["bucket"],
        "by": marker.issued_by.get_username(),
    }


def _credit_context(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    today = gaming_day_of(timezone.now())
    owed = credit.outstanding(today)
    return {
        "day": today,
        "can_manage": has_any_role(user, CREDIT_MANAGERS)
        and not has_any_role(user, (Role.COMPLIANCE,)),
        "lines": [
            {
                "patron": credit.patron_name_for(r["patron"], user),
                "patron_number": r["patron"].number,
                "line": dollars(r["line"].amount_cents) if r["line"] else "not approved yet",
                "pending": dollars(r["pending"].amount_cents) if r["pending"] else "",
                "outstanding": dollars(r["outstanding_cents"]),
                "available": dollars(r["available_cents"])
                if r["available_cents"] is not None
                else dollars(0),
            }
            for r in credit.lines()
        ],
        "pending": [
            {
                "id": line.pk,
                "patron": credit.patron_name_for(line.patron, user),
                "amount": dollars(line.amount_cents),
                "was": dollars(line.replaces.amount_cents) if line.replaces else "",
                "by": line.set_by.get_username(),
                "at": line.set_at,
                "mine": line.set_by_id == user.pk,
            }
            for line in credit.pending_lines()
        ],
        "buckets": owed["buckets"],
        "markers": [_marker_row(r, user) for r in owed["markers"]],
        "patrons": [
            {
                "patron": credit.patron_name_for(p["patron"], user),
                "buckets": [dollars(p["buckets"][b]) for b in owed["buckets"]],
                "total": dollars(p["total_cents"]),
            }
            for p in owed["patrons"]
        ],
        "total": [dollars(owed["total"][b]) for b in owed["buckets"]],
        "total_all": dollars(owed["total_cents"]),
    }


def _credit_page(
    request: HttpRequest, *, error: str = "", status: int = 200, posted: Any = None
) -> HttpResponse:
    context = _credit_context(request)
    context.update({"error": error, "posted": posted or {}})
    return render(request, "compliance/credit.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET"])
def credit_page(request: HttpRequest) -> HttpResponse:
    _require(request, CREDIT_READERS, "The credit page")
    return _credit_page(request)


@never_cache
@login_required
@require_POST
def line_set_page(request: HttpRequest) -> HttpResponse:
    _require(request, CREDIT_MANAGERS, "Setting a credit line")
    try:
        credit.line_set(
            patron=request.POST.get("patron", ""),
            amount=typed_dollars(request.POST.get("amount", "")),
            by=request.user,
        )
    except ServiceError as err:
        _refused(request, err)
        return _credit_page(request, error=err.message, status=err.status, posted=request.POST)
    return HttpResponseRedirect(reverse("compliance:credit") + "?set=1", status=303)


@never_cache
@login_required
@require_POST
def line_approve_page(request: HttpRequest, line_id: int) -> HttpResponse:
    _require(request, CREDIT_MANAGERS, "Approving a credit line")
    line = get_object_or_404(CreditLine, pk=line_id)
    try:
        credit.line_approve(line=line, by=request.user)
    except ServiceError as err:
        _refused(request, err)
        return _credit_page(request, error=err.message, status=err.status)
    return HttpResponseRedirect(reverse("compliance:credit") + "?approved=1", status=303)


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def marker_new_page(request: HttpRequest) -> HttpResponse:
    """The pit boss's marker form at a table (`?table=SC-1`)."""
    _require(request, MARKER_ISSUERS, "Issuing a marker")
    source = request.POST if request.method == "POST" else request.GET
    name = source.get("table", "").strip()
    table = Table.objects.filter(name=name).first() if name else None
    error, status = "", 200
    if request.method == "POST":
        try:
            if table is None:
                raise ServiceError(
                    f"table: there is no table {name!r}" if name else "table: choose the table",
                    field="table",
                )
            marker = credit.marker_issue(
                table=table,
                seat=request.POST.get("seat", "").strip() or None,
                patron=request.POST.get("patron", ""),
                amount=typed_dollars(request.POST.get("amount", "")),
                patron_signed=request.POST.get("patron_signed") == "yes",
                by=request.user,
            )
        except ServiceError as err:
            _refused(request, err)
            error, status = err.message, err.status
        else:
            url = reverse("compliance:marker_new") + f"?table={table.name}&issued={marker.number}"
            return HttpResponseRedirect(url, status=303)
    issued = Marker.objects.filter(number=request.GET.get("issued", "")).first()
    available = None
    if issued is not None:
        available = credit.available_cents(issued.patron)
    return render(
        request,
        "compliance/marker_new.html",
        {
            "table": table,
            "table_name": name,
            "tables": list(Table.objects.filter(is_open=True).order_by("name")),
            "seats": range(1, (table.seats if table else 7) + 1),
            "issued": issued,
            "issued_amount": dollars(issued.amount_cents) if issued else "",
            "available": dollars(available) if available is not None else "",
            "error": error,
            "posted": request.POST if error else {},
        },
        status=status,
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def repay_page(request: HttpRequest) -> HttpResponse:
    """The cage takes a marker's repayment: in cash (a cash transaction), chips or cheque."""
    _require(request, MARKER_REPAYERS, "Taking a marker's repayment")
    error, status = "", 200
    if request.method == "POST":
        try:
            repayment = credit.marker_repay(
                marker=request.POST.get("marker", ""),
                method=request.POST.get("method", ""),
                amount=typed_dollars(request.POST.get("amount", "")),
                by=request.user,
            )
        except ServiceError as err:
            _refused(request, err)
            error, status = err.message, err.status
        else:
            url = reverse("compliance:marker_repay") + f"?repaid={repayment.pk}"
            return HttpResponseRedirect(url, status=303)
    today = gaming_day_of(timezone.now())
    owed = credit.outstanding(today)
    given = request.GET.get("repaid", "")
    repaid = (
        MarkerRepayment.objects.filter(pk=int(given)).first()
        if given.isascii() and given.isdigit() and len(given) < 18
        else None
    )
    return render(
        request,
        "compliance/marker_repay.html",
        {
            "methods": MarkerRepayment.Method.choices,
            "markers": [_marker_row(r, request.user) for r in owed["markers"]],
            "repaid": repaid,
            "repaid_amount": dollars(repaid.amount_cents) if repaid else "",
            "repaid_left": dollars(credit.outstanding_cents(repaid.marker)) if repaid else "",
            "error": error,
            "posted": request.POST if error else {},
        },
        status=status,
    )
