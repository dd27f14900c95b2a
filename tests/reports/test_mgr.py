"""The Master Game Report of a played day: its figures reconcile to the cent with the slips and
the hands; it is reviewed by one person and signed final by a revenue auditor who did not work
the floor that day, once the day is closed; after final a figure changes only by an adjustment
with its reason, approved by a second person, shown beside it. Every refusal writes nothing.
The day's exceptions report lists what the record holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime
from io import StringIO
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.utils import timezone

from accounting import selectors
from accounting.services import slip_create, slip_sign, slip_void
from audit.models import AuditEvent
from core.errors import ServiceError
from reports import mgr
from reports.models import MgrAdjustment, MgrAdjustmentApproval, MgrFigure, MgrSignature
from tables.services.sessions import dealer_sign_in
from tests.accounting import conftest as acc
from tests.accounting import test_reconciliation as rec
from tests.helpers import person, signed_in

pytestmark = pytest.mark.django_db

DAY = rec.DAY  # 2026-11-20
UTC = ZoneInfo("UTC")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[acc.Clock]:
    c = acc.Clock()
    monkeypatch.setattr(timezone, "now", c)
    yield c


@pytest.fixture
def pit(floor: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    return floor


def close_the_day(clock: acc.Clock) -> None:
    """Two days on: the gaming day of DAY is closed."""
    clock.now = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def written() -> tuple[int, ...]:
    return (
        MgrSignature.objects.count(),
        MgrFigure.objects.count(),
        MgrAdjustment.objects.count(),
        MgrAdjustmentApproval.objects.count(),
        AuditEvent.objects.filter(kind__startswith="mgr.").count(),
    )


def test_the_mgr_of_a_played_day_reconciles_to_the_cent(pit: dict[str, Any], clock: Any) -> None:
    wins = rec.run_day(pit, clock)
    table = pit["SC-1"]
    report = mgr.master_report(DAY)
    assert report["state"] == "draft"
    assert report["closed"] is True  # the clock is on the next morning's count
    assert [(r["table"], r["shift"]) for r in report["rows"]] == [
        ("SC-1", "06:00"),
        ("SC-1", "14:00"),
        ("SC-1", "22:00"),
    ]
    live = selectors.shift_rows(gaming_day=DAY, tables=[table.pk])
    for row in report["rows"]:
        f, slips = row["figures"], live[(table.pk, row["shift"])]
        for name in ("opener", "closer", "fills", "credits", "drop"):
            assert f[f"{name}_cents"] == slips[f"{name}_cents"], name
        assert f["drop_cash_cents"] == f["drop_cents"] == 950_00
        assert f["drop_markers_cents"] == f["drop_chips_cents"] == 0
        assert f["win_cents"] == f["hands_win_cents"] == wins[row["shift"]]
        assert (
            f["win_cents"]
            == f["drop_cents"]
            + f["closer_cents"]
            - f["opener_cents"]
            + f["credits_cents"]
            - f["fills_cents"]
        )
        assert f["variance_cents"] == 0
        assert f["hold_percent"] == selectors.hold_percent_drop(wins[row["shift"]], 950_00)
        assert row["adjusted"] == f and row["adjustments"] == []
    total = report["totals"]["figures"]
    assert total["win_cents"] == total["hands_win_cents"] == sum(wins.values())
    assert total["drop_cents"] == 3 * 950_00 and total["credits_cents"] == 400_00
    assert total["variance_cents"] == 0

    # The command prints the same figures.
    close_the_day(clock)
    out = StringIO()
    call_command("regulator_report", kind="master", day="2026-11-20", json=True, stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["gaming_day"] == "2026-11-20" and printed["state"] == "draft"
    assert printed["totals"]["figures"]["win_cents"] == sum(wins.values())
    assert printed["rows"][0]["figures"]["hold_percent"] == str(
        report["rows"][0]["figures"]["hold_percent"]
    )


def test_review_final_and_adjustments_each_by_their_person(pit: dict[str, Any], clock: Any) -> None:
    wins = rec.run_day(pit, clock)
    auditor, revenue, revenue2 = pit["auditor"], pit["revenue"], pit["revenue2"]

    # The day is not closed yet: nothing is signed.
    clock.set(23)
    with pytest.raises(ServiceError) as refused:
        mgr.mgr_review(gaming_day=DAY, by=auditor)
    assert refused.value.field == "gaming_day" and "not closed" in str(refused.value)
    assert written() == (0, 0, 0, 0, 0)

    close_the_day(clock)
    # Nobody signs final a report not reviewed; only an auditor or revenue auditor reviews.
    with pytest.raises(ServiceError, match="reviewed before"):
        mgr.mgr_finalize(gaming_day=DAY, by=revenue)
    with pytest.raises(PermissionDenied):
        mgr.mgr_review(gaming_day=DAY, by=pit["pitboss"])
    assert written() == (0, 0, 0, 0, 0)

    mgr.mgr_review(gaming_day=DAY, by=revenue)
    assert mgr.master_report(DAY)["state"] == "reviewed"
    # The reviewer does not sign it final too; an auditor is no revenue auditor.
    with pytest.raises(PermissionDenied, match="reviewed the report"):
        mgr.mgr_finalize(gaming_day=DAY, by=revenue)
    with pytest.raises(PermissionDenied):
        mgr.mgr_finalize(gaming_day=DAY, by=auditor)
    # A revenue auditor who is also the pit boss who signed the day's slips may not.
    boss = person("boss_and_auditor", "pit_boss", "revenue_audit")
    clock.set(16, 0)  # back on the day, to sign one of its slips
    dealer_sign_in(dealer=pit["dealer2"], table=pit["LB-1"])
    opener = slip_create(
        table=pit["LB-1"], kind="opener", by=pit["dealer2"], chips=acc.as_chips(1_000_00)
    )
    slip_sign(slip=opener, by=boss)
    close_the_day(clock)
    before = written()
    with pytest.raises(PermissionDenied, match="worked the floor on 2026-11-20"):
        mgr.mgr_finalize(gaming_day=DAY, by=boss)
    assert written() == before

    final = mgr.mgr_finalize(gaming_day=DAY, by=revenue2)
    figures = list(MgrFigure.objects.filter(signature=final))
    assert len(figures) == 4  # SC-1's three shifts and LB-1's opener
    assert AuditEvent.objects.get(kind="mgr.finalized").actor_name == "revenue2"
    with pytest.raises(ServiceError, match="final already"):
        mgr.mgr_finalize(gaming_day=DAY, by=revenue2)

    # After final the report reads the stored figures: a slip voided later changes nothing.
    clock.set(17, 0)
    slip_void(slip=opener, by=pit["pitboss"], reason="counted at the wrong table")
    slip_void(slip=opener, by=pit["pitboss_b"], reason="counted at the wrong table")
    close_the_day(clock)
    report = mgr.master_report(DAY)
    assert report["state"] == "final"
    assert report["final"]["by"] == "revenue2" and report["reviewed"]["by"] == "revenue"
    lb = [r for r in report["rows"] if r["table"] == "LB-1"]
    assert lb and lb[0]["figures"]["opener_cents"] == 1_000_00

    # An adjustment: a reason, a known shift and figure, an amount; nothing written otherwise.
    before = written()
    for kwargs, field in (
        ({"reason": "  "}, "reason"),
        ({"figure": "win"}, "figure"),
        ({"shift": "10:00"}, "shift"),
        ({"amount": "0.00"}, "amount"),
        ({"amount": "ten"}, "amount"),
    ):
        given = {"shift": "14:00", "figure": "closer", "amount": "-2500.00", "reason": "r"}
        with pytest.raises(ServiceError) as refused:
            mgr.mgr_adjust(gaming_day=DAY, table=pit["SC-1"], by=auditor, **{**given, **kwargs})
        assert refused.value.field == field
    assert written() == before

    adjustment = mgr.mgr_adjust(
        gaming_day=DAY,
        table=pit["SC-1"],
        shift="14:00",
        figure="closer",
        amount="-2,500.00",
        reason="a $2,500 chip counted twice in the closer",
        by=auditor,
    )
    row = next(
        r for r in mgr.master_report(DAY)["rows"] if (r["table"], r["shift"]) == ("SC-1", "14:00")
    )
    assert row["adjusted"]["closer_cents"] == row["figures"]["closer_cents"]  # not approved yet
    with pytest.raises(PermissionDenied, match="another person approves"):
        mgr.mgr_adjustment_approve(adjustment=adjustment, by=auditor)
    assert not MgrAdjustmentApproval.objects.exists()
    mgr.mgr_adjustment_approve(adjustment=adjustment, by=revenue)
    report = mgr.master_report(DAY)
    row = next(r for r in report["rows"] if (r["table"], r["shift"]) == ("SC-1", "14:00"))
    assert row["figures"]["win_cents"] == wins["14:00"]
    assert row["adjusted"]["closer_cents"] == row["figures"]["closer_cents"] - 2_500_00
    assert row["adjusted"]["win_cents"] == wins["14:00"] - 2_500_00
    assert row["adjusted"]["variance_cents"] == -2_500_00
    assert row["adjustments"][0]["approved_by"] == "revenue"
    assert report["totals"]["adjusted"]["win_cents"] is None  # LB-1's shift is not counted
    with pytest.raises(ServiceError, match="approved already"):
        mgr.mgr_adjustment_approve(adjustment=adjustment, by=revenue2)

    exceptions = mgr.exceptions_report(DAY)
    (named,) = exceptions["named_adjustments"]
    assert named["table"] == "SC-1" and named["amount_cents"] == -2_500_00
    (voided,) = exceptions["voided_slips"]
    assert voided["table"] == "LB-1" and voided["confirmed_by"] == "pitboss_b"
    # The morning count's drops are late slips, with their reason.
    assert {s["kind"] for s in exceptions["late_slips"]} == {"Drop"}
    assert all(s["reason"] for s in exceptions["late_slips"])

    # The signatures, the stored figures and the adjustment are bound to their events.
    from audit import binding

    compared, problems = binding.check_rows()
    assert problems == [] and compared > 0


def test_an_adjustment_before_final_is_refused(pit: dict[str, Any], clock: Any) -> None:
    rec.run_day(pit, clock)
    close_the_day(clock)
    with pytest.raises(ServiceError) as refused:
        mgr.mgr_adjust(
            gaming_day=DAY,
            table=pit["SC-1"],
            shift="06:00",
            figure="fills",
            amount="10.00",
            reason="fill miscounted",
            by=pit["auditor"],
        )
    assert refused.value.field == "gaming_day" and "not final" in str(refused.value)
    assert written() == (0, 0, 0, 0, 0)


def test_inventory_differences_listed_over_25_and_marked_from_100(
    pit: dict[str, Any], clock: Any
) -> None:
    table, dealer, boss = pit["SC-1"], pit["dealer"], pit["pitboss"]

    def count(kind: str, cents: int) -> None:
        if kind == "opener":
            slip = slip_create(table=table, kind=kind, by=dealer, chips=acc.as_chips(cents))
            slip_sign(slip=slip, by=boss)
        else:
            slip = slip_create(table=table, kind=kind, by=boss, chips=acc.as_chips(cents))
            slip_sign(slip=slip, by=dealer)

    clock.set(7)
    count("opener", 2_000_00)
    count("closer", 2_000_00)
    clock.set(15)
    count("opener", 1_975_00)  # $25 short: not listed
    count("closer", 2_000_00)
    clock.set(23)
    count("opener", 1_900_00)  # $100 short: listed and marked
    differences = mgr.exceptions_report(DAY)["inventory_differences"]
    assert differences == [
        {
            "table": "SC-1",
            "shift": "22:00",
            "opener_cents": 1_900_00,
            "previous_closer_cents": 2_000_00,
            "previous_shift": "14:00",
            "difference_cents": -100_00,
            "for_regulator": True,
        }
    ]


def test_a_day_without_data_is_an_empty_form(floor: dict[str, Any]) -> None:
    empty = date(2020, 1, 2)
    report = mgr.master_report(empty)
    assert report["rows"] == [] and report["state"] == "draft"
    assert report["totals"]["figures"]["drop_cents"] is None
    exceptions = mgr.exceptions_report(empty)
    assert exceptions["voided_slips"] == exceptions["inventory_differences"] == []
    for kind in ("master", "exceptions"):
        out = StringIO()
        call_command("regulator_report", kind=kind, day="2020-01-02", json=True, stdout=out)
        assert json.loads(out.getvalue())["gaming_day"] == "2020-01-02"


def test_the_pages_show_the_report_and_refuse_a_signature_naming_the_field(
    pit: dict[str, Any], clock: Any
) -> None:
    rec.run_day(pit, clock)
    clock.set(23)
    page = signed_in("auditor").get("/reports/mgr/?day=2026-11-20")
    assert page.status_code == 200
    body = page.content.decode()
    assert "SC-1" in body and "Draft" in body and "2026-11-20" in body
    # The day is not closed: the review is refused, nothing written.
    answer = signed_in("auditor").post("/reports/mgr/review/", {"day": "2026-11-20"}, follow=True)
    assert "not closed" in answer.content.decode()
    assert written() == (0, 0, 0, 0, 0)
    assert signed_in("dealer").get("/reports/mgr/?day=2026-11-20").status_code == 403
    exceptions = signed_in("auditor").get("/reports/mgr/exceptions/?day=2026-11-20")
    assert exceptions.status_code == 200 and "Late slips" in exceptions.content.decode()


def test_the_adjustment_pages_refuse_naming_the_field_and_the_author(
    pit: dict[str, Any], clock: Any
) -> None:
    rec.run_day(pit, clock)
    close_the_day(clock)
    auditor = signed_in("auditor")
    assert auditor.post("/reports/mgr/review/", {"day": "2026-11-20"}).status_code == 303
    final = signed_in("revenue").post("/reports/mgr/final/", {"day": "2026-11-20"}, follow=True)
    assert "is final" in final.content.decode()
    assert mgr.master_report(DAY)["final"]["by"] == "revenue"

    form = {"day": "2026-11-20", "table": "SC-1", "shift": "06:00", "figure": "fills"}
    before = written()
    no_reason = auditor.post("/reports/mgr/adjust/", {**form, "amount": "10.00", "reason": ""})
    assert no_reason.status_code == 400 and "reason: say why" in no_reason.content.decode()
    assert written() == before
    entered = auditor.post(
        "/reports/mgr/adjust/", {**form, "amount": "10.00", "reason": "a fill slip misread"}
    )
    assert entered.status_code == 303
    adjustment = MgrAdjustment.objects.get()
    url = f"/reports/mgr/adjustments/{adjustment.pk}/approve/"
    assert auditor.post(url).status_code == 403
    assert not MgrAdjustmentApproval.objects.exists()
    assert signed_in("revenue2").post(url).status_code == 303
    page = auditor.get("/reports/mgr/?day=2026-11-20").content.decode()
    assert "adjusted" in page and "a fill slip misread" in page and "revenue2" in page


def test_a_revenue_auditor_lands_on_the_mgr_with_its_navigation(floor: dict[str, Any]) -> None:
    c = signed_in("revenue")
    response = c.get("/")
    assert response.status_code == 302 and response["Location"] == "/reports/mgr/"
    page = c.get("/reports/mgr/").content.decode()
    assert page.count('<nav aria-label="Main">') == 1 and 'aria-current="page"' in page
    assert signed_in("revenue").get("/reports/dashboard/").status_code in (302, 403)


def test_the_printed_report_its_pdf_and_csv_carry_the_figures_and_who_signed(
    pit: dict[str, Any], clock: Any, tmp_path: Any
) -> None:
    """The print page (no navigation, no form controls), the CSV's figures equal the report's,
    the PDF the same bytes twice with the signatures in it; a pit boss reads it, a dealer not."""
    import shutil
    import subprocess

    from django.test import Client
    from django.urls import reverse

    from core.money import dollars
    from core.printing import weasyprint

    rec.run_day(pit, clock)
    close_the_day(clock)
    mgr.mgr_review(gaming_day=DAY, by=pit["revenue"])
    mgr.mgr_finalize(gaming_day=DAY, by=pit["revenue2"])
    report = mgr.master_report(DAY)

    def get(who: str, name: str) -> Any:
        c = Client()
        c.force_login(pit[who])
        return c.get(f"{reverse(name)}?day={DAY.isoformat()}")

    page = get("pitboss", "reports:mgr_print").content.decode()
    for absent in ("<nav", "<form", "<button", "<input", "<script"):
        assert absent not in page, absent
    for words in ("Master Game Report", "Fri 20 Nov 2026", "Final", "revenue2", "revenue"):
        assert words in page, words
    assert get("dealer", "reports:mgr_print").status_code == 403

    lines = get("auditor", "reports:mgr_csv").content.decode().splitlines()
    assert lines[0].startswith("gaming day,state,table,shift,opener")
    assert len(lines) == 1 + len(report["rows"]) + 1  # the header, a line a shift, the total
    total = report["totals"]["adjusted"]["win_cents"]
    assert lines[-1].startswith("2026-11-20,final,Total,") and dollars(total) in lines[-1]

    if weasyprint() is None:
        pytest.skip("no WeasyPrint here: the PDF answers 503")
    first, second = (get("pitboss", "reports:mgr_pdf").content for _ in range(2))
    assert first.startswith(b"%PDF") and first == second
    if shutil.which("pdftotext"):
        (tmp_path / "mgr.pdf").write_bytes(first)
        text = subprocess.run(
            ["pdftotext", "-layout", str(tmp_path / "mgr.pdf"), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for words in ("Master Game Report", "Signed final by the revenue auditor", "Page 1 of"):
            assert words in text, words
