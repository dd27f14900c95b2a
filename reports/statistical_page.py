"""The statistical report's page (/reports/statistical/): the report for a chosen gaming day by
table and type of game, the day's investigations and every one still open, with the form a pit
boss explains and signs one with. Pit bosses and auditors read it; a pit boss reviews a day
(opens its fluctuations' investigations) and explains them."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.roles import PIT_BOSSES, Role, has_role, require

from . import statistical
from .dashboard import reader_required
from .models import StatisticalInvestigation
from .trail import refused


def _day(text: str | None) -> tuple[date, str | None]:
    if not text:
        return statistical.today(), None
    try:
        return date.fromisoformat(text), None
    except ValueError:
        return statistical.today(), f"gaming day: give a date like 2026-11-21, not {text!r}"


def _back(day: date) -> HttpResponse:
    return redirect(f"{reverse('reports:statistical')}?day={day.isoformat()}")


@never_cache
@reader_required
def statistical_report(request: HttpRequest) -> HttpResponse:
    day, error = _day(request.GET.get("day"))
    report = None
    if error is None:
        try:
            report = statistical.statistical_report(day=day)
        except ServiceError as err:
            error = err.message
    if error:
        messages.error(request, error)
    rows = []
    if report is not None:
        for kind, items, name in (
            ("table", report["tables"], "table"),
            ("game", report["games"], "game_label"),
        ):
            for row in items:
                rows.append(
                    {
                        "kind": kind,
                        "name": row[name],
                        "periods": [
                            (statistical.PERIOD_WORDS[p], row[p]) for p in statistical.PERIODS
                        ],
                    }
                )
    investigations = list(statistical.investigations_of(day))
    open_ones = list(statistical.unexplained())
    for inv in investigations + open_ones:
        inv.words = statistical.subject_words(inv)  # type: ignore[attr-defined]
    return render(
        request,
        "reports/statistical.html",
        {
            "day": day,
            "report": report,
            "rows": rows,
            "investigations": investigations,
            "open_investigations": open_ones,
            "can_explain": has_role(request.user, Role.PIT_BOSS),
        },
        status=400 if error else 200,
    )


@reader_required
@require_POST
def statistical_review(request: HttpRequest) -> HttpResponse:
    require(request.user, PIT_BOSSES, "review the statistical report")
    day, error = _day(request.POST.get("day"))
    if error:
        messages.error(request, error)
        return _back(day)
    try:
        opened = statistical.open_investigations(day=day)
    except ServiceError as err:
        refused(request, err)
        return _back(day)
    messages.success(
        request,
        f"{len(opened)} investigation{'s' if len(opened) != 1 else ''} opened."
        if opened
        else "No new fluctuation.",
    )
    return _back(day)


@reader_required
@require_POST
def statistical_explain(request: HttpRequest, pk: int) -> HttpResponse:
    require(request.user, PIT_BOSSES, "explain a statistical fluctuation")
    rows = StatisticalInvestigation.objects.select_related("table")
    investigation = get_object_or_404(rows, pk=pk)
    try:
        statistical.explain_investigation(
            investigation=investigation, text=request.POST.get("text"), by=request.user
        )
    except ServiceError as err:
        refused(request, err)
    else:
        messages.success(
            request, f"{statistical.subject_words(investigation)}: explained and signed."
        )
    return _back(investigation.gaming_day)
