"""Every printed form of the site: one print layout, its PDF and its CSV.

A form is a template that extends `print/base.html` (the property's name, the form's title, the
gaming day, page N of M, the signature lines; no navigation, no form controls) and a table of
its rows. `respond` answers the form in the format asked:

- "html": the print page itself (a browser's print of it is the same form);
- "pdf": the same page laid out by WeasyPrint. The same record gives the same bytes: the PDF's
  dates and identifier come from the record (`stamp`, `key`), never from the clock. Without
  WeasyPrint (or its system libraries) the answer is a 503 that says so;
- "csv": the form's rows, one line each, under its column names.

`signature_lines` turns the signatures a form takes into the lines it prints: each signature
given shows who signed and when; each one not (yet) given is a blank line to sign.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from defusedcsv import csv
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone

FORMATS = ("html", "pdf", "csv")
PRINT_CSS = "css/print.css"
UNAVAILABLE = (
    "The PDF of this form cannot be made on this server: its PDF library (WeasyPrint and its "
    "system libraries) is not installed. Print the form from its print page instead."
)


@dataclass(frozen=True)
class SignatureLine:
    """One signature a form takes: what it means ("issued by the cage"), and who signed it and
    when (both empty: a blank line to sign)."""

    meaning: str
    by: str = ""
    at: datetime | None = None


def signature_lines(
    given: Iterable[tuple[str, str, datetime | None]], wanted: Sequence[str] = ()
) -> list[SignatureLine]:
    """The signature lines of a form: each signature given (meaning, who, when), then a blank
    line for each meaning in `wanted` beyond those given (in order)."""
    lines = [SignatureLine(meaning, by, at) for meaning, by, at in given]
    lines += [SignatureLine(meaning) for meaning in wanted[len(lines) :]]
    return lines


def the_property() -> dict[str, str]:
    """The property's name and address as the forms print them (settings.CASINO_FILER)."""
    filer = settings.CASINO_FILER
    return {
        "name": filer["dba_name"],
        "legal_name": filer["legal_name"],
        "address": f"{filer['street']}, {filer['city']}, {filer['state']} {filer['zip']}",
    }


def _print_css() -> str:
    path = finders.find(PRINT_CSS)
    if not path:
        raise FileNotFoundError(PRINT_CSS)
    with open(path, encoding="utf-8") as f:
        return f.read()


def weasyprint() -> Any | None:
    """The WeasyPrint module, or None when it (or a system library it loads) is missing."""
    try:
        import weasyprint as module
    except (ImportError, OSError):
        return None
    return module


def _as_utc(moment: datetime | date) -> datetime:
    if not isinstance(moment, datetime):
        moment = datetime(moment.year, moment.month, moment.day)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_default_timezone())
    return moment.astimezone(UTC)


def html(template: str, context: dict[str, Any], *, stamp: datetime | date, pdf: bool) -> str:
    """The form's page: `context` with the property, the record's time (`stamp`, the PDF's
    date) and, for the PDF, the print CSS inlined (WeasyPrint fetches nothing)."""
    return render_to_string(
        template,
        {
            **context,
            "property": the_property(),
            "stamp_iso": _as_utc(stamp).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "inline_css": _print_css() if pdf else "",
        },
    )


def pdf_bytes(page: str, *, key: str) -> bytes:
    """The page as a PDF: the same page and key give the same bytes. `key` names the record
    (e.g. "slip 12"): the PDF's identifier is its digest. Raises RuntimeError without
    WeasyPrint."""
    module = weasyprint()
    if module is None:
        raise RuntimeError(UNAVAILABLE)
    identifier = hashlib.sha256(key.encode()).hexdigest()[:32].encode()
    return bytes(
        module.HTML(string=page, base_url=str(settings.BASE_DIR)).write_pdf(
            pdf_identifier=identifier
        )
    )


def respond(
    request: HttpRequest,
    *,
    fmt: str,
    template: str,
    context: dict[str, Any],
    filename: str,
    stamp: datetime | date,
    columns: Sequence[str],
    rows: Iterable[Sequence[Any]],
) -> HttpResponse:
    """The form in format `fmt` ("html", "pdf" or "csv"): `filename` without its extension
    names the download and the record (the PDF's identifier); `stamp` is the record's time
    (the PDF's dates); `columns` and `rows` the CSV."""
    if fmt == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        writer = csv.writer(response)
        writer.writerow(columns)
        for row in rows:
            writer.writerow(row)
        return response
    if fmt == "pdf":
        page = html(template, context, stamp=stamp, pdf=True)
        try:
            data = pdf_bytes(page, key=filename)
        except RuntimeError as err:
            return HttpResponse(str(err), status=503, content_type="text/plain; charset=utf-8")
        response = HttpResponse(data, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{filename}.pdf"'
        return response
    page = html(template, context, stamp=stamp, pdf=False)
    return HttpResponse(page)
