"""The printed forms of accounting: a slip on a page of its own and the gaming day's
reconciliation, each as its print page (no navigation, no form controls; the property, the
gaming day, its signature lines), its PDF (the same bytes each time from the same record) and
its CSV; read by the roles that read the page it prints."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from typing import Any

import pytest
from defusedcsv import csv
from django.test import Client
from django.urls import reverse

from accounting.models import Slip
from accounting.services import slip_create, slip_sign, slip_void
from core.printing import weasyprint

from .conftest import Clock, as_chips

pytestmark = pytest.mark.django_db

needs_pdf = pytest.mark.skipif(
    weasyprint() is None,
    reason="WeasyPrint (and its system libraries) is not installed: the PDFs cannot be made",
)


def client(floor: dict[str, Any], who: str) -> Client:
    c = Client()
    if who != "anonymous":
        c.force_login(floor[who])
    return c


def csv_rows(response: Any) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(response.content.decode().splitlines()))


def assert_print_page(page: str) -> None:
    """A print page: the property's name, no navigation, no form or control, no script."""
    assert "Harbor Lights Casino" in page and "Harbor Lights Casino LLC" in page
    for tag in ("<nav", "<form", "<input", "<button", "<select", "<textarea", "<script"):
        assert tag not in page, tag
    assert 'class="topbar"' not in page
    assert "css/print.css" in page


@pytest.fixture
def fill(pit: dict[str, Any], clock: Clock) -> Slip:
    """A fill at SC-1 requested by the pit boss and issued by the cage: the dealer's receipt
    is still to sign."""
    slip = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"25.00": 20})
    return slip_sign(slip=slip, by=pit["cage"])


def test_a_slip_prints_on_its_own_page_with_its_signatures(pit: dict[str, Any], fill: Slip) -> None:
    response = client(pit, "pitboss").get(reverse("accounting:slip_print", args=[fill.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert_print_page(page)
    assert f"Fill slip {fill.number}" in page
    assert "Gaming day <strong>Fri 20 Nov 2026</strong>" in page and "SC-1" in page
    assert "$500.00" in page and "$25.00" in page and '<td class="num">20</td>' in page
    # Who entered and who issued it, with when; a blank line for the dealer's receipt.
    lines = re.findall(r'<tr class="pf-sig( pf-blank)?"><td>([^<]*)</td><td>([^<]*)</td>', page)
    assert lines == [
        ("", "entered", "pitboss"),
        ("", "issued by the cage (cage)", "cage"),
        (" pf-blank", "received at the table", ""),
    ]
    assert "Fri 20 Nov 2026, 06:30 UTC" in page
    # The dealer signs: the blank line now names them.
    slip_sign(slip=fill, by=pit["dealer"])
    page = client(pit, "pitboss").get(reverse("accounting:slip_print", args=[fill.pk]))
    assert "pf-blank" not in page.content.decode()
    assert "received at the table (dealer)</td><td>dealer</td>" in page.content.decode()


def test_a_voided_slip_prints_void_with_who_voided_it(pit: dict[str, Any], fill: Slip) -> None:
    from tests.helpers import person

    slip_void(slip=fill, by=pit["pitboss"], reason="wrong table")
    slip_void(slip=fill, by=person("cage2", "cage"), reason="agreed")
    page = client(pit, "auditor").get(reverse("accounting:slip_print", args=[fill.pk]))
    text = page.content.decode()
    assert "VOID: this slip does not count." in text
    assert "wrong table" in text and "cage2" in text and "pf-blank" not in text


def test_a_slips_csv_is_its_row(pit: dict[str, Any], fill: Slip) -> None:
    response = client(pit, "cage").get(reverse("accounting:slip_csv", args=[fill.pk]))
    assert response.status_code == 200
    assert f'filename="slip-{fill.number}.csv"' in response["Content-Disposition"]
    header, row = csv_rows(response)
    assert header == [
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
    ]
    got = dict(zip(header, row, strict=True))
    assert got["slip"] == str(fill.number) and got["table"] == "SC-1" and got["kind"] == "Fill"
    assert (got["gaming_day"], got["amount"]) == ("2026-11-20", "$500.00")
    assert got["chips"] == "20 × $25.00"
    assert got["entered_by"] == "pitboss" and got["status"] == "Awaiting signature"
    assert got["signatures"].startswith("issued by the cage (cage): cage 2026-11-20 06:30")


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("pitboss", 200),
        ("auditor", 200),
        ("cage", 200),
        ("count", 404),  # the count team's desk shows no fills
        ("dealer", 403),
        ("admin", 403),
        ("security", 403),
        ("anonymous", 302),
    ],
)
@pytest.mark.parametrize("name", ["slip_print", "slip_pdf", "slip_csv"])
def test_a_slip_is_printed_by_those_the_desk_shows_it(
    pit: dict[str, Any], fill: Slip, name: str, who: str, status: int
) -> None:
    if name == "slip_pdf" and status == 200 and weasyprint() is None:
        status = 503
    response = client(pit, who).get(reverse(f"accounting:{name}", args=[fill.pk]))
    assert response.status_code == status, (name, who, response.status_code)


def test_the_days_reconciliation_prints_as_a_form(pit: dict[str, Any], clock: Clock) -> None:
    slip_sign(
        slip=slip_create(
            table=pit["SC-1"], kind="opener", by=pit["dealer"], chips=as_chips(100000)
        ),
        by=pit["pitboss"],
    )
    url = reverse("accounting:reconciliation_print") + "?day=2026-11-20"
    page = client(pit, "auditor").get(url).content.decode()
    assert_print_page(page)
    assert "Reconciliation: the count against the hands" in page
    assert "Gaming day <strong>Fri 20 Nov 2026</strong>" in page
    assert "<td>SC-1</td><td>06:00</td>" in page and "$1,000.00" in page
    assert "prepared by the pit boss" in page and "reviewed by the auditor" in page
    assert page.count('class="pf-sig pf-blank"') == 2
    # Its CSV: a row per shift and the day's total, under the page's columns.
    header, *rows = csv_rows(client(pit, "pitboss").get(url.replace("print/", "print.csv")))
    assert header[:4] == ["table", "shift", "opener", "closer"] and len(header) == 13
    assert [r[:3] for r in rows] == [["SC-1", "06:00", "$1,000.00"], ["SC-1", "day", ""]]
    # The reconciliation's own page links its form.
    recon = client(pit, "pitboss").get(reverse("accounting:reconciliation") + "?day=2026-11-20")
    assert reverse("accounting:reconciliation_pdf") + "?day=2026-11-20" in recon.content.decode()


def test_a_day_with_nothing_prints_an_empty_form(pit: dict[str, Any]) -> None:
    base = reverse("accounting:reconciliation_print")
    page = client(pit, "pitboss").get(base + "?day=2026-01-05")
    assert page.status_code == 200
    assert "No slips and no hands on Mon 5 Jan 2026." in page.content.decode()
    assert "No variance alerts on Mon 5 Jan 2026." in page.content.decode()
    csv_response = client(pit, "pitboss").get(
        reverse("accounting:reconciliation_csv") + "?day=2026-01-05"
    )
    assert len(csv_rows(csv_response)) == 1  # the columns alone
    bad = client(pit, "pitboss").get(base + "?day=yesterday")
    assert bad.status_code == 400 and "2026-11-21" in bad.content.decode()


@pytest.mark.parametrize(
    ("who", "status"),
    [("pitboss", 200), ("auditor", 200), ("cage", 403), ("count", 403), ("dealer", 403)],
)
def test_the_reconciliation_is_printed_by_its_readers(
    pit: dict[str, Any], who: str, status: int
) -> None:
    for name in ("reconciliation_print", "reconciliation_csv"):
        response = client(pit, who).get(reverse(f"accounting:{name}"))
        assert response.status_code == status, (name, who)


@pytest.mark.services  # CI (CASINO_REQUIRE_SERVICES) may not skip it
@needs_pdf
def test_the_same_record_prints_the_same_pdf_bytes(
    pit: dict[str, Any], fill: Slip, tmp_path: Any
) -> None:
    boss = client(pit, "pitboss")
    url = reverse("accounting:slip_pdf", args=[fill.pk])
    first, second = boss.get(url), client(pit, "auditor").get(url)
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    assert first.content.startswith(b"%PDF-") and first.content == second.content
    if shutil.which("pdfinfo"):  # the PDF's dates are the record's, not the clock's
        (tmp_path / "slip.pdf").write_bytes(first.content)
        info = subprocess.run(
            ["pdfinfo", "-isodates", str(tmp_path / "slip.pdf")], capture_output=True, check=True
        ).stdout.decode()
        assert re.search(r"CreationDate:\s+2026-11-20T06:30:00Z", info), info
        assert re.search(r"ModDate:\s+2026-11-20T06:30:00Z", info), info
    day = reverse("accounting:reconciliation_pdf") + "?day=2026-11-20"
    assert boss.get(day).content == boss.get(day).content
    empty = boss.get(reverse("accounting:reconciliation_pdf") + "?day=2026-01-05")
    assert empty.status_code == 200 and empty.content.startswith(b"%PDF-")
    # The record changes (the dealer signs): another PDF.
    slip_sign(slip=fill, by=pit["dealer"])
    assert boss.get(url).content != first.content


def test_without_weasyprint_the_pdf_answers_503_saying_so(
    pit: dict[str, Any], fill: Slip, monkeypatch: pytest.MonkeyPatch
) -> None:
    import core.printing

    monkeypatch.setattr(core.printing, "weasyprint", lambda: None)
    response = client(pit, "pitboss").get(reverse("accounting:slip_pdf", args=[fill.pk]))
    assert response.status_code == 503
    assert "WeasyPrint" in response.content.decode() and "print page" in response.content.decode()


@pytest.mark.services  # CI (CASINO_REQUIRE_SERVICES) may not skip it
@needs_pdf
@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="no pdftoppm (poppler-utils)")
def test_the_pdf_has_page_n_of_m(pit: dict[str, Any], fill: Slip, tmp_path: Any) -> None:
    """The PDF's text (pdftotext) has the header, the day, the signatures and "Page 1 of 1"."""
    if not shutil.which("pdftotext"):
        pytest.skip("no pdftotext (poppler-utils)")
    data = client(pit, "pitboss").get(reverse("accounting:slip_pdf", args=[fill.pk])).content
    (tmp_path / "slip.pdf").write_bytes(data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "slip.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for words in ("Harbor Lights Casino", f"Fill slip {fill.number}", "Page 1 of 1", "pitboss"):
        assert words in text, words
    assert "Fri 20 Nov 2026" in text and str(date(2026, 11, 20).year) in text


@pytest.mark.services  # CI (CASINO_REQUIRE_SERVICES) may not skip it
@needs_pdf
@pytest.mark.skipif(not shutil.which("pdftotext"), reason="no pdftotext (poppler-utils)")
def test_a_long_form_numbers_its_pages_and_repeats_its_header(tmp_path: Any) -> None:
    """Page N of M on every page of a form longer than one page; the table's columns and the
    property's name repeat on each; the signatures stay together on the last."""
    from core.printing import html, pdf_bytes

    row = {
        key: 123456
        for key in (
            "opener_cents",
            "closer_cents",
            "fills_cents",
            "credits_cents",
            "drop_cents",
            "expected_drop_cents",
            "count_win_cents",
            "win_cents",
            "variance_cents",
        )
    } | {"hold_percent_drop": None, "pending_slips": 0}
    tables = [
        {"name": f"BJ-{n}", "day": row, "shifts": [{"shift": s, **row} for s in ("06:00", "14:00")]}
        for n in range(1, 40)
    ]
    page = html(
        "print/reconciliation.html",
        {
            "form_title": "Reconciliation: the count against the hands",
            "gaming_day": date(2026, 11, 20),
            "tables": tables,
            "alerts": [],
            "signatures": [],
        },
        stamp=date(2026, 11, 20),
        pdf=True,
    )
    (tmp_path / "long.pdf").write_bytes(pdf_bytes(page, key="reconciliation-2026-11-20"))
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "long.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    pages = text.split("\f")[:-1]
    assert len(pages) >= 2
    for n, words in enumerate(pages, start=1):
        assert f"Page {n} of {len(pages)}" in words, n
        assert "Harbor Lights Casino" in words and "Expected drop" in words, n
    assert "Signatures" in pages[-1] and "This form takes no signature." in pages[-1]
