"""The Master Game Report's pages (docs/regulator.md): the day's report (table × shift, its
state and who signed it, the review and final buttons), the adjustment form and its approval,
and the day's exceptions. Every figure comes from `reports.mgr`'s one dict per report, which a
print template can use as it is."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounting.views import forbidden, roles_only
from core.bad_request import bad_query
from core.errors import ServiceError
from core.money import dollars
from core.printing import respond, signature_lines
from core.roles import MGR_ADJUSTERS, MGR_FINALIZERS, MGR_READERS, MGR_REVIEWERS, has_any_role
from tables.gaming_day import gaming_day_of
from tables.models import Table

from . import mgr
from .models import MgrAdjustment


def _day(given: str | None) -> date | None:
    if not given:
        return gaming_day_of(timezone.now())
    try:
        return date.fromisoformat(given)
    except ValueError:
        return None


def _back(day: date) -> HttpResponse:
    return HttpResponseRedirect(f"{reverse('reports:mgr')}?day={day:%Y-%m-%d}", status=303)


def _bad_day(request: HttpRequest, given: str) -> HttpResponse:
    return bad_query(
        request, field="day", message=f"{given!r} is not a gaming day written like 2026-11-21"
    )


@roles_only(*MGR_READERS, what="The Master Game Report")
def report(request: HttpRequest) -> HttpResponse:
    day = _day(request.GET.get("day"))
    if day is None:
        return _bad_day(request, request.GET["day"])
    user = request.user
    return render(
        request,
        "reports/mgr.html",
        {
            "day": day,
            "mgr": mgr.master_report(day),
            "figures": mgr.ADJUSTABLE,
            "can_review": has_any_role(user, MGR_REVIEWERS),
            "can_finalize": has_any_role(user, MGR_FINALIZERS),
            "can_adjust": has_any_role(user, MGR_ADJUSTERS),
        },
    )


def _signing(request: HttpRequest, sign: Any, done: str) -> HttpResponse:
    day = _day(request.POST.get("day"))
    if day is None:
        return _bad_day(request, request.POST.get("day", ""))
    try:
        sign(gaming_day=day, by=request.user)
    except PermissionDenied as err:
        return forbidden(request, str(err))
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, f"The report of {day:%Y-%m-%d} is {done}.")
    return _back(day)


@roles_only(*MGR_REVIEWERS, what="Reviewing the Master Game Report")
@require_POST
def review(request: HttpRequest) -> HttpResponse:
    return _signing(request, mgr.mgr_review, "reviewed")


@roles_only(*MGR_FINALIZERS, what="Signing the Master Game Report final")
@require_POST
def finalize(request: HttpRequest) -> HttpResponse:
    return _signing(request, mgr.mgr_finalize, "final")


@roles_only(*MGR_ADJUSTERS, what="Adjusting the Master Game Report")
def adjust(request: HttpRequest) -> HttpResponse:
    day = _day(request.GET.get("day") or request.POST.get("day"))
    if day is None:
        return _bad_day(request, request.GET.get("day") or request.POST.get("day", ""))
    report = mgr.master_report(day)
    error = None
    if request.method == "POST":
        table = Table.objects.filter(name=request.POST.get("table", "")).first()
        try:
            if table is None:
                raise ServiceError("table: choose a table of the report", field="table")
            mgr.mgr_adjust(
                gaming_day=day,
                table=table,
                shift=request.POST.get("shift", ""),
                figure=request.POST.get("figure", ""),
                amount=request.POST.get("amount", ""),
                reason=request.POST.get("reason", ""),
                by=request.user,
            )
        except PermissionDenied as err:
            return forbidden(request, str(err))
        except ServiceError as err:
            error = err.message
        else:
            messages.success(request, "The adjustment is entered; another person approves it.")
            return _back(day)
    return render(
        request,
        "reports/mgr_adjust.html",
        {
            "day": day,
            "mgr": report,
            "figures": mgr.ADJUSTABLE,
            "error": error,
            "posted": request.POST,
        },
        status=400 if error else 200,
    )


@roles_only(*MGR_ADJUSTERS, what="Approving an adjustment of the Master Game Report")
@require_POST
def approve(request: HttpRequest, pk: int) -> HttpResponse:
    adjustment = get_object_or_404(MgrAdjustment, pk=pk)
    try:
        mgr.mgr_adjustment_approve(adjustment=adjustment, by=request.user)
    except PermissionDenied as err:
        return forbidden(request, str(err))
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, "The adjustment is approved.")
    return _back(adjustment.gaming_day)


@roles_only(*MGR_READERS, what="The day's exceptions report")
def exceptions(request: HttpRequest) -> HttpResponse:
    day = _day(request.GET.get("day"))
    if day is None:
        return _bad_day(request, request.GET["day"])
    return render(
        request,
        "reports/mgr_exceptions.html",
        {"day": day, "ex": mgr.exceptions_report(day)},
    )


# The printed report's CSV: one line per table and shift, then the day's total; the figures
# as signed (or as computed, before final) and with the approved adjustments.
PRINT_FIGURES = (
    ("opener_cents", "opener"),
    ("fills_cents", "fills"),
    ("credits_cents", "credits"),
    ("closer_cents", "closer"),
    ("drop_cash_cents", "drop: cash"),
    ("drop_markers_cents", "drop: markers"),
    ("drop_chips_cents", "drop: chips"),
    ("drop_cents", "drop"),
    ("win_cents", "win or loss"),
    ("hands_win_cents", "hands' win"),
    ("variance_cents", "variance"),
)
PRINT_COLUMNS = (
    "gaming day",
    "state",
    "table",
    "shift",
    *(label for _key, label in PRINT_FIGURES),
    "hold % of drop",
    *(f"{label}, adjusted" for _key, label in PRINT_FIGURES),
)


def _csv_rows(report: dict[str, Any]) -> list[list[Any]]:
    def money(value: int | None) -> str:
        return "" if value is None else dollars(value)

    lines = [
        (row["table"], row["shift"], row["figures"], row["adjusted"]) for row in report["rows"]
    ]
    totals = report["totals"]
    lines.append(("Total", "", totals["figures"], totals["adjusted"]))
    return [
        [
            report["gaming_day"].isoformat(),
            report["state"],
            table,
            shift,
            *(money(figures.get(key)) for key, _label in PRINT_FIGURES),
            adjusted.get("hold_percent") or "",
            *(money(adjusted.get(key)) for key, _label in PRINT_FIGURES),
        ]
        for table, shift, figures, adjusted in lines
    ]


@roles_only(*MGR_READERS, what="The Master Game Report")
@never_cache
@require_GET
def report_print(request: HttpRequest, fmt: str) -> HttpResponse:
    """The day's Master Game Report as a printed form (its PDF, its CSV): the figures, the
    adjustments, and the signatures it takes (reviewed, then final by the revenue auditor)."""
    day = _day(request.GET.get("day"))
    if day is None:
        return _bad_day(request, request.GET["day"])
    report = mgr.master_report(day)
    given = [
        (meaning, signed["by"], signed["at"])
        for meaning, signed in (
            ("Reviewed", report["reviewed"]),
            ("Signed final by the revenue auditor", report["final"]),
        )
        if signed is not None
    ]
    wanted = ("Reviewed", "Signed final by the revenue auditor")
    moments = [s["at"] for s in (report["reviewed"], report["final"]) if s is not None]
    moments += [a["approved_at"] or a["entered_at"] for a in report["adjustments"]]
    return respond(
        request,
        fmt=fmt,
        template="print/mgr.html",
        context={
            "form_title": "Master Game Report",
            "gaming_day": day,
            "mgr": report,
            "signatures": signature_lines(given, wanted),
        },
        filename=f"master-game-report-{day.isoformat()}",
        stamp=max(moments) if moments else day,
        columns=PRINT_COLUMNS,
        rows=_csv_rows(report),
    )
