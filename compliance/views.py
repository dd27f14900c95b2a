"""Cash compliance's pages.

- The day (`/compliance/`, the compliance role): the MTL's entries, the day's CTRs to file and
  filed with the transactions behind each, and every CTR still to file over all days. A CTR's
  printable Form 112, its filing, the CSV and the batch XML are in compliance/filing_views.py.
- The cage's window (`/compliance/cage/`): the cashier records chips bought or redeemed and
  front money deposited or withdrawn, each with its patron; the day's totals by kind and its
  transactions. The cage records; the compliance role reads.
- A patron's page (`/compliance/patrons/<number>/`): the compliance role, the cage, pit bosses,
  auditors and hosts; only the compliance role and the cage see (and enter) identification.
Views parse, call one service or selector and render; refusals are shown, never applied.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from core.bad_request import bad_query
from core.errors import ServiceError
from core.money import dollars
from core.params import ascii_int
from core.roles import (
    CASH_OUT_ROLES,
    COMPLIANCE_READERS,
    PATRON_IDENTIFIERS,
    PATRON_MERGERS,
    Role,
    has_any_role,
    require,
    role_names,
)
from tables.gaming_day import asked_day, gaming_day_of

from . import filing, selectors, services
from .models import (
    CAGE_FORM_KINDS,
    DESCRIPTION_FIELDS,
    IDENTIFICATION_FIELDS,
    CashTransaction,
    Direction,
    Patron,
)

PATRON_PAGE_READERS: tuple[Role, ...] = (
    Role.COMPLIANCE,
    Role.CAGE,
    Role.PIT_BOSS,
    Role.AUDITOR,
    Role.HOST,
)
CAGE_PAGE_READERS: tuple[Role, ...] = (Role.CAGE, Role.COMPLIANCE)
DAY_MESSAGE = "must be a gaming day written like 2026-11-21"


def _require(request: HttpRequest, roles: tuple[Role, ...], what: str) -> None:
    require(request.user, roles, what, message=f"{what} is for the {role_names(roles)}.")


def tx_rows(txs: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "at": tx.at,
            "direction": tx.get_direction_display(),
            "kind": tx.get_kind_display(),
            "amount": dollars(tx.amount_cents),
            "where": selectors.where(tx),
            "slip": tx.slip.number if tx.slip else "",
            "by": tx.by.get_username(),
            "patron_number": tx.patron.number if tx.patron_id and tx.patron else "",
            "voided": selectors.is_voided(tx),
        }
        for tx in txs
    ]


def _ctr_view(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "cash_in": dollars(row["cash_in_cents"]),
        "cash_out": dollars(row["cash_out_cents"]),
        "total": dollars(row["total_cents"]),
        "voided": dollars(row["voided_cents"]) if row["voided_cents"] else "",
        "rows": tx_rows(row["transactions"]),
    }


@never_cache
@login_required
@require_GET
def day_page(request: HttpRequest) -> HttpResponse:
    _require(request, COMPLIANCE_READERS, "The cash compliance day")
    day = asked_day(request.GET.get("day", ""))
    if day is None:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    mtl = [
        {
            "patron": entry.patron,
            "merged_into": getattr(getattr(entry.patron, "merged_into", None), "into", None),
            "day_total": dollars(entry.day_total_cents),
            **tx_rows([entry.transaction])[0],
        }
        for entry in selectors.day_mtl(day)
    ]
    return render(
        request,
        "compliance/day.html",
        {
            "day": day,
            "mtl": mtl,
            **{k: [_ctr_view(r) for r in rows] for k, rows in filing.day_filing(day).items()},
            "still_to_file": [_ctr_view(r) for r in filing.to_file()],
            "mtl_threshold": dollars(services.mtl_threshold()),
            "ctr_threshold": dollars(services.ctr_threshold()),
        },
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def patron_page(request: HttpRequest, number: str) -> HttpResponse:
    _require(request, PATRON_PAGE_READERS, "A patron's page")
    patron = get_object_or_404(Patron, number=number)
    error, status = "", 200
    if request.method == "POST":
        _require(request, PATRON_IDENTIFIERS, "Identifying a patron")
        given = {f: request.POST.get(f, "") for f in IDENTIFICATION_FIELDS}
        try:
            services.patron_identify(patron=patron, by=request.user, identification=given)
        except ServiceError as err:
            error, status = err.message, err.status
        else:
            url = reverse("compliance:patron", args=[patron.number])
            return HttpResponseRedirect(url, status=303)
    return render_patron(request, patron, error=error, status=status)


def render_patron(
    request: HttpRequest,
    patron: Patron,
    *,
    error: str = "",
    status: int = 200,
    merge_error: str = "",
) -> HttpResponse:
    """A patron's page: who they are, merges into and from them, their cash transactions
    (with those of every patron merged into them)."""

    group = selectors.patron_group(patron)
    txs = list(selectors.transactions().filter(patron_id__in=group).order_by("-at", "-id")[:50])
    view = selectors.patron_view(patron, request.user)
    return render(
        request,
        "compliance/patron.html",
        {
            **merge_context(request, patron, merge_error),
            "patron": view,
            "description": [
                (f.replace("_", " ").capitalize(), view["description"][f])
                for f in DESCRIPTION_FIELDS
            ],
            "can_identify": has_any_role(request.user, PATRON_IDENTIFIERS),
            "id_types": Patron.IdType.choices,
            "rows": tx_rows(txs),
            "error": error,
            "posted": request.POST if error else {},
        },
        status=status,
    )


def merge_context(request: HttpRequest, patron: Patron, error: str) -> dict[str, Any]:
    """What the patron's page shows of merges: the patron this one was merged into, the
    patrons merged into this one, and the merge form (a described patron, the cage or the
    compliance role)."""
    into = selectors.merged_into(patron)
    return {
        "merged_into": into,
        "merged_from": selectors.merges_into(patron),
        "can_merge": into is None
        and not patron.is_identified
        and has_any_role(request.user, PATRON_MERGERS),
        "merge_error": error,
        "merge_posted": request.POST if error else {},
    }


def _recorded(request: HttpRequest) -> str:
    """The transaction just recorded (`?recorded=`), in words, if it is the cashier's own."""
    given = ascii_int(request.GET.get("recorded", ""))
    tx = CashTransaction.objects.filter(pk=given, by=request.user).first() if given else None
    if tx is None:
        return ""
    whose = f", patron {tx.patron.number}" if tx.patron else ""
    mtl = " (on the MTL)" if hasattr(tx, "mtl_entry") else ""
    return f"Recorded: {tx.get_kind_display().lower()}, {dollars(tx.amount_cents)}{whose}{mtl}."


def _posted_patron(post: Any) -> Any:
    """The patron as posted (the buy-in's forms): a card or patron number, or a new patron's
    description (any of its fields filled in); both at once is refused."""
    given = post.get("patron", "").strip()
    described = {name: post.get(name, "").strip() for name in DESCRIPTION_FIELDS}
    if any(described.values()):
        if given:
            raise ServiceError(
                "patron: give a card or patron number, or describe a new patron, not both",
                field="patron",
            )
        return {"description": {k: v for k, v in described.items() if v}}
    return given or None


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def cage_page(request: HttpRequest) -> HttpResponse:
    """The cage's window: record a cash transaction (the cage), the day's totals and list."""
    _require(request, CAGE_PAGE_READERS, "The cage's window")
    error, status, identify = "", 200, ""
    if request.method == "POST":
        _require(request, CASH_OUT_ROLES, "Recording cash at the cage")
        try:
            tx = services.cage_record(
                kind=request.POST.get("kind", ""),
                patron=_posted_patron(request.POST),
                amount=request.POST.get("amount", "").strip(),
                by=request.user,
            )
        except ServiceError as err:
            error, status = err.message, err.status
            number = request.POST.get("patron", "").strip()
            if err.code == "identification_required" and Patron.objects.filter(number=number):
                identify = reverse("compliance:patron", args=[number])
        else:
            url = reverse("compliance:cage") + f"?recorded={tx.pk}"
            return HttpResponseRedirect(url, status=303)
    day = gaming_day_of(timezone.now())
    cage = selectors.cage_day(day)
    return render(
        request,
        "compliance/cage.html",
        {
            "day": day,
            "recorded": "" if error else _recorded(request),
            "identify": identify,
            "can_record": has_any_role(request.user, CASH_OUT_ROLES),
            "kinds": [(k.value, k.label) for k in CAGE_FORM_KINDS],
            "totals": [
                (kind.label, "Cash in" if d == Direction.CASH_IN else "Cash out", dollars(c))
                for kind, d, c in cage["totals"]
            ],
            "cash_in": dollars(cage["cash_in_cents"]),
            "cash_out": dollars(cage["cash_out_cents"]),
            "rows": [
                {**row, "patron": tx.patron.number if tx.patron else ""}
                for row, tx in zip(tx_rows(cage["transactions"]), cage["transactions"], strict=True)
            ],
            "description": [
                (f, f.replace("_", " ").capitalize(), request.POST.get(f, "") if error else "")
                for f in DESCRIPTION_FIELDS
            ],
            "described": bool(error) and any(request.POST.get(f) for f in DESCRIPTION_FIELDS),
            "mtl_threshold": dollars(services.mtl_threshold()),
            "error": error,
            "posted": request.POST if error else {},
        },
        status=status,
    )
