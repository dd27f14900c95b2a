"""Suspicious activity's pages, for the compliance role only (403 for every other role):

- `/compliance/alerts/`: the open alerts (no case has taken them); open a case from some.
- `/compliance/cases/`: the case queue with each SAR's due date (overdue ones marked); open a
  case by hand for a patron and a gaming day.
- `/compliance/cases/<id>/`: a case's alerts, evidence (the patron's cash transactions, the
  rounds at those tables), notes, and its decision (file a SAR or not, with the reason).
Views parse, call one service or selector and render; refusals are shown, never applied.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.roles import COMPLIANCE_READERS, require, role_names

from . import case_selectors, cases
from .alerts import open_alerts
from .models import Case
from .views import tx_rows

SAR_CHOICES = {"file": True, "no": False}


def _officer(request: HttpRequest, what: str) -> None:
    require(
        request.user,
        COMPLIANCE_READERS,
        what,
        message=f"{what} is for the {role_names(COMPLIANCE_READERS)} role.",
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def alerts_page(request: HttpRequest) -> HttpResponse:
    """The open alerts; checking some and opening a case takes them out of the list."""
    _officer(request, "Suspicious activity alerts")
    error, field, status = "", "", 200
    if request.method == "POST":
        try:
            case = cases.case_open(
                by=request.user,
                alerts=request.POST.getlist("alert"),
                note=request.POST.get("note", ""),
            )
        except ServiceError as err:
            error, field, status = err.message, err.field or "", err.status
        else:
            return HttpResponseRedirect(reverse("compliance:case", args=[case.pk]), status=303)
    checked = set(request.POST.getlist("alert")) if error else set()
    return render(
        request,
        "compliance/alerts.html",
        {
            "alerts": [
                {**case_selectors.alert_view(a), "checked": str(a.pk) in checked}
                for a in open_alerts()
            ],
            "error": error,
            "field": field,
            "posted": request.POST if error else {},
        },
        status=status,
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def cases_page(request: HttpRequest) -> HttpResponse:
    """The case queue; open a case by hand for a patron and a gaming day."""
    _officer(request, "Compliance cases")
    error, field, status = "", "", 200
    if request.method == "POST":
        try:
            case = cases.case_open(
                by=request.user,
                patron=request.POST.get("patron", ""),
                day=request.POST.get("day", ""),
                note=request.POST.get("note", ""),
            )
        except ServiceError as err:
            error, field, status = err.message, err.field or "", err.status
        else:
            return HttpResponseRedirect(reverse("compliance:case", args=[case.pk]), status=303)
    return render(
        request,
        "compliance/cases.html",
        {
            "rows": case_selectors.case_rows(),
            "error": error,
            "field": field,
            "posted": request.POST if error else {},
        },
        status=status,
    )


def _decide(request: HttpRequest, case: Case) -> None:
    choice = request.POST.get("file_sar", "")
    if choice not in SAR_CHOICES:
        raise ServiceError(
            "file_sar: choose whether to file a SAR (file) or not (no)", field="file_sar"
        )
    cases.case_decide(
        case=case,
        by=request.user,
        file_sar=SAR_CHOICES[choice],
        reason=request.POST.get("reason", ""),
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def case_page(request: HttpRequest, case_id: int) -> HttpResponse:
    _officer(request, "A compliance case")
    case = get_object_or_404(Case.objects.select_related("patron", "opened_by"), pk=case_id)
    error, field, status, action = "", "", 200, request.POST.get("action", "")
    if request.method == "POST":
        try:
            if action == "note":
                cases.case_note(case=case, by=request.user, note=request.POST.get("note", ""))
            elif action == "decide":
                _decide(request, case)
            else:
                raise ServiceError("action must be note or decide", field="action")
        except ServiceError as err:
            error, field, status = err.message, err.field or "", err.status
        else:
            return HttpResponseRedirect(reverse("compliance:case", args=[case.pk]), status=303)
    detail = case_selectors.case_detail(case)
    return render(
        request,
        "compliance/case.html",
        {
            **detail,
            "rows": tx_rows(detail["transactions"]),
            "error": error,
            "field": field,
            "action": action,
            "posted": request.POST if error else {},
        },
        status=status,
    )
