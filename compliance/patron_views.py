"""Cash compliance's pages for merging patrons and for the thresholds.

- Merging (`POST /compliance/patrons/<number>/merge/`, the cage or the compliance role): the
  described patron's page has the form; a refusal re-shows that page with the error naming
  the field, the typed values kept and nothing saved.
- The thresholds (`/compliance/thresholds/`, the compliance role): the MTL and CTR thresholds
  in force (and since when, by whom), the proposals with their approvals; a compliance officer
  proposes, a second one approves.
Views parse, call one service or selector and render; refusals are shown, never applied.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from core.money import dollars, typed_dollars
from core.roles import PATRON_MERGERS, THRESHOLD_SETTERS, require, role_names

from . import merge, thresholds
from .models import Patron, ThresholdProposal


@never_cache
@login_required
@require_POST
def merge_page(request: HttpRequest, number: str) -> HttpResponse:
    from .views import render_patron

    what = "Merging patrons"
    message = f"{what} is for the {role_names(PATRON_MERGERS)}."
    require(request.user, PATRON_MERGERS, what, message=message)
    patron = get_object_or_404(Patron, number=number)
    try:
        merge.patron_merge(
            merged=patron.number,
            into=request.POST.get("into", "").strip(),
            reason=request.POST.get("reason", ""),
            by=request.user,
        )
    except ServiceError as err:
        return render_patron(request, patron, status=err.status, merge_error=err.message)
    url = reverse("compliance:patron", args=[patron.number])
    return HttpResponseRedirect(url, status=303)


def _proposal_rows(user: Any) -> list[dict[str, Any]]:
    rows = []
    for p in thresholds.proposals():
        approval = getattr(p, "approval", None)
        rows.append(
            {
                "id": p.pk,
                "mtl": dollars(p.mtl_cents),
                "ctr": dollars(p.ctr_cents),
                "reason": p.reason,
                "proposed_by": p.proposed_by.get_username(),
                "proposed_at": p.proposed_at,
                "approved_by": approval.approved_by.get_username() if approval else "",
                "approved_at": approval.approved_at if approval else None,
                "can_approve": approval is None and p.proposed_by_id != user.pk,
            }
        )
    return rows


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def thresholds_page(request: HttpRequest) -> HttpResponse:
    what = "The MTL and CTR thresholds"
    require(
        request.user,
        THRESHOLD_SETTERS,
        what,
        message=f"{what} are for the {role_names(THRESHOLD_SETTERS)}.",
    )
    error, status = "", 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "approve":
                given = request.POST.get("proposal", "").strip()
                proposal = ThresholdProposal.objects.filter(
                    pk=int(given) if given.isascii() and given.isdigit() else 0
                ).first()
                if proposal is None:
                    raise ServiceError(
                        f"proposal: there is no proposal {given!r}", field="proposal"
                    )
                thresholds.threshold_approve(proposal=proposal, by=request.user)
            else:
                thresholds.threshold_propose(
                    mtl=typed_dollars(request.POST.get("mtl", "")),
                    ctr=typed_dollars(request.POST.get("ctr", "")),
                    reason=request.POST.get("reason", ""),
                    by=request.user,
                )
        except ServiceError as err:
            error, status = err.message, err.status
        else:
            return HttpResponseRedirect(reverse("compliance:thresholds"), status=303)
    now = thresholds.in_force()
    return render(
        request,
        "compliance/thresholds.html",
        {
            "mtl": dollars(now.mtl_cents),
            "ctr": dollars(now.ctr_cents),
            "approval": now.approval,
            "proposals": _proposal_rows(request.user),
            "error": error,
            "posted": request.POST if error else {},
        },
        status=status,
    )
