"""Filing CTRs' pages (the compliance role only; docs/compliance.md, "Filing CTRs").

- A CTR's printable FinCEN Form 112 (`/compliance/ctr/<id>/`): Part I the person, Part II
  the amounts by the form's check-boxes, Part III the casino; its filing, or what is missing.
- Recording a filing (`/compliance/ctrs/file/`, `?ctr=<id>` to choose one): the CTR, the BSA
  ID FinCEN acknowledged it with, a note. A refusal re-shows the form naming the field, the
  typed values kept, nothing saved.
- The day's CTRs as CSV (`/compliance/ctrs.csv?day=`), with Form 112's fields: the
  identification included, since only the compliance role may download it.
- The day's CTRs as FinCEN's batch XML (`/compliance/ctrs.xml?day=`): the identified ones;
  those whose patron is not identified are left out and named in `X-CTRs-Left-Out`.
Views parse, call one service or selector and render; refusals are shown, never applied.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from defusedcsv import csv
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from audit.services import audit_refused_duties
from core.bad_request import bad_query
from core.errors import SeparationOfDuties, ServiceError
from core.money import dollars
from core.roles import COMPLIANCE_READERS, Role, has_any_role, require, role_names

from . import filing, selectors
from .filing_xml import batch_xml
from .models import Ctr
from .views import DAY_MESSAGE


def _require(request: HttpRequest, roles: tuple[Role, ...], what: str) -> None:
    require(request.user, roles, what, message=f"{what} is for the {role_names(roles)}.")


def _day(request: HttpRequest) -> date | None:
    """The `day` asked (the gaming day now when none), or None when it is not a date."""
    given = request.GET.get("day", "").strip()
    if not given:
        return filing.today()
    try:
        return date.fromisoformat(given)
    except ValueError:
        return None


def _ctr_view(row: dict[str, Any]) -> dict[str, Any]:
    """A CTR row in the page's words: dollars, and each transaction's time, kind, amount,
    where, slip and who entered it."""
    return {
        **row,
        "cash_in": dollars(row["cash_in_cents"]),
        "cash_out": dollars(row["cash_out_cents"]),
        "total": dollars(row["total_cents"]),
        "voided": dollars(row["voided_cents"]) if row.get("voided_cents") else "",
        "rows": [
            {
                "at": tx.at,
                "direction": tx.get_direction_display(),
                "kind": tx.get_kind_display(),
                "amount": dollars(tx.amount_cents),
                "where": selectors.where(tx),
                "slip": tx.slip.number if tx.slip else "",
                "by": tx.by.get_username(),
                "voided": selectors.is_voided(tx),
            }
            for tx in row["transactions"]
        ],
    }


def _row_view(row: dict[str, Any]) -> dict[str, Any]:
    return {**_ctr_view(row), "form": filing.form112(row)}


def _money_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**item, "amount": dollars(item["cents"]) if item["checked"] else ""} for item in items]


@never_cache
@login_required
@require_GET
def ctr_page(request: HttpRequest, ctr_id: int) -> HttpResponse:
    """A CTR as FinCEN Form 112, printable (A4 or Letter), with its filing."""
    _require(request, COMPLIANCE_READERS, "A CTR")
    ctr = get_object_or_404(Ctr, pk=ctr_id)
    row = filing.ctr_row(ctr)
    form = filing.form112(row)
    return render(
        request,
        "compliance/ctr.html",
        {
            "row": _ctr_view(row),
            "form": form,
            "cash_in_items": _money_items(form["cash_in_items"]),
            "cash_out_items": _money_items(form["cash_out_items"]),
            "cash_in": dollars(form["cash_in_cents"]),
            "cash_out": dollars(form["cash_out_cents"]),
            "patron": selectors.patron_view(row["patron"], request.user),  # through a merge
            "missing": row["missing"],
            "can_file": has_any_role(request.user, filing.CTR_FILERS),
        },
    )


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def file_page(request: HttpRequest) -> HttpResponse:
    """Record a CTR's filing with FinCEN (the compliance role; not a CTR one recorded)."""
    _require(request, filing.CTR_FILERS, "Filing a CTR")
    error, field, status = "", "", 200
    given = request.POST if request.method == "POST" else request.GET
    if request.method == "POST":
        try:
            ctr = filing.find_ctr(request.POST.get("ctr", ""))
            filing.ctr_file(
                ctr=ctr,
                by=request.user,
                bsa_id=request.POST.get("bsa_id", ""),
                note=request.POST.get("note", ""),
            )
        except ServiceError as err:
            if isinstance(err, SeparationOfDuties):  # recorded as a refused permission
                audit_refused_duties(request, err)
            error, field, status = err.message, err.field or "", err.status
        else:
            url = reverse("compliance:ctr", args=[ctr.pk]) + "?filed=1"
            return HttpResponseRedirect(url, status=303)
    open_rows = filing.to_file()
    chosen = str(given.get("ctr", "")).strip()
    return render(
        request,
        "compliance/ctr_form.html",
        {
            "rows": [_row_view(r) for r in open_rows],
            "chosen": chosen,
            "chosen_known": any(str(r["ctr"].pk) == chosen for r in open_rows),
            "error": error,
            "field": field,
            "posted": request.POST if error else {},
        },
        status=status,
    )


# The CSV's columns: Form 112's fields (Part I the person, Part II the amounts by item, the
# filing). The first four stay those the CSV always had.
CSV_COLUMNS = (
    "gaming_day",
    "patron",
    "direction",
    "total",
    "cash_in",
    "cash_out",
    "last_name",
    "first_name",
    "street",
    "city",
    "state",
    "zip",
    "country",
    "date_of_birth",
    "occupation",
    "id_type",
    "id_number",
    "id_issuer_state",
    "id_issuer_country",
    *(f"cash_in_{item.letter}" for item in filing.CASH_IN_ITEMS),
    *(f"cash_out_{item.letter}" for item in filing.CASH_OUT_ITEMS),
    "transaction_date",
    "transactions",
    "identified",
    "due",
    "status",
    "filed_at",
    "filed_by",
    "bsa_id",
)


def csv_row(row: dict[str, Any]) -> list[Any]:
    form = filing.form112(row)
    a = form["address"]
    f = row["filing"]
    items = {
        **{f"cash_in_{i['letter']}": i for i in form["cash_in_items"]},
        **{f"cash_out_{i['letter']}": i for i in form["cash_out_items"]},
    }
    return [
        row["ctr"].gaming_day.isoformat(),
        row["patron"].number,
        row["ctr"].get_direction_display(),
        dollars(row["total_cents"]),
        dollars(form["cash_in_cents"]),
        dollars(form["cash_out_cents"]),
        form["last_name"],
        form["first_name"],
        a["street"],
        a["city"],
        a["state"],
        a["zip"],
        a["country"],
        form["date_of_birth"].isoformat() if form["date_of_birth"] else "",
        form["occupation"],
        form["id_type"],
        form["id_number"],
        form["id_issuer"]["state"],
        form["id_issuer"]["country"],
        *(
            dollars(items[c]["cents"]) if items[c]["checked"] else ""
            for c in CSV_COLUMNS
            if c.startswith(("cash_in_", "cash_out_"))
        ),
        form["transaction_date"].isoformat(),
        len(row["transactions"]),
        "yes" if row["patron"].is_identified else "no",
        row["due"].isoformat(),
        row["status"],
        timezone.localtime(f.filed_at).isoformat(timespec="seconds") if f else "",
        f.filed_by.get_username() if f else "",
        f.bsa_id if f else "",
    ]


@never_cache
@login_required
@require_GET
def ctrs_csv(request: HttpRequest) -> HttpResponse:
    """The day's CTRs with Form 112's fields, the patron's identification included: the file
    is for the compliance role alone (every other role is refused it)."""
    _require(request, COMPLIANCE_READERS, "The day's CTRs")
    day = _day(request)
    if day is None:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="ctrs-{day.isoformat()}.csv"'
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    split = filing.day_filing(day)
    rows = sorted(
        split["to_file"] + split["filed"], key=lambda r: (r["patron"].number, r["ctr"].direction)
    )
    for row in rows:
        writer.writerow(csv_row(row))
    return response


@never_cache
@login_required
@require_GET
def ctrs_xml(request: HttpRequest) -> HttpResponse:
    """The day's identified CTRs as FinCEN's CTR batch XML; a CTR whose patron is not
    identified cannot be filed, so it is left out (named in a header); none left: 409."""
    _require(request, COMPLIANCE_READERS, "The day's CTRs")
    day = _day(request)
    if day is None:
        return bad_query(request, field="day", message=DAY_MESSAGE)
    split = filing.day_filing(day)
    rows = sorted(
        split["to_file"] + split["filed"], key=lambda r: (r["patron"].number, r["ctr"].direction)
    )
    ready = [r for r in rows if not r["missing"]]
    left_out = [r["patron"].number for r in rows if r["missing"]]
    if not ready:
        words = f"day: no CTR of {day:%a %-d %b %Y} can go in the batch XML" + (
            f": {', '.join(left_out)} {'is' if len(left_out) == 1 else 'are'} not identified"
            if left_out
            else ": the day has no CTR"
        )
        return HttpResponse(words, status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(batch_xml(ready), content_type="application/xml")
    response["Content-Disposition"] = f'attachment; filename="ctrs-{day.isoformat()}.xml"'
    if left_out:
        response["X-CTRs-Left-Out"] = ", ".join(left_out)
    return response
