"""The drop box and the count by its parts: a numbered box removed from the table by someone
who did not deal there and received in the count room; the drop counted by bills (counts),
chips, markers and coupons, its total their sum, refusals naming the part; the count sheet of
the day signed by two count-team members, one independent of the pit, nobody twice, nobody who
removed one of its boxes alone. Each refusal saves nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, transaction
from django.utils import timezone

from accounting.count import (
    box_arrive,
    box_remove,
    count_sheet,
    count_sheet_sign,
    worked_the_pit,
)
from accounting.models import CountSheetSignature, DropBoxMove, DropCount, Slip
from accounting.services import slip_create, slip_sign
from audit.models import AuditEvent
from core.errors import ServiceError
from tables.gaming_day import gaming_day_of
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for, ok, person, refused, signed_in

pytestmark = pytest.mark.django_db

BILLS = {"100": 12, "50": 4, "20": 40, "10": 3, "5": 6, "1": 17}  # $2,277.00
BILLS_CENTS = 12 * 10000 + 4 * 5000 + 40 * 2000 + 3 * 1000 + 6 * 500 + 17 * 100


def _drop(pit: dict[str, Any], table: str = "SC-1", **parts: Any) -> Slip:
    parts.setdefault("bills", BILLS)
    slip = slip_create(table=pit[table], kind="drop", by=pit["count"], **parts)
    return slip_sign(slip=slip, by=pit["count2"])


def _refused(fn: Any, **kwargs: Any) -> BaseException:
    with pytest.raises((ServiceError, PermissionDenied)) as refusal:
        fn(**kwargs)
    return refusal.value


def test_a_drop_counted_by_its_parts_totals_them(pit: dict[str, Any]) -> None:
    box_remove(table=pit["SC-1"], box=14, by=pit["count"], witness=pit["count2"])
    box_arrive(table=pit["SC-1"], by=pit["count2"])
    slip = _drop(
        pit,
        box=14,
        chips={"25.00": 2},
        markers="500.00",
        coupons={"match_play": "75.00", "promotional": "20.00"},
    )
    assert slip.cash_cents == BILLS_CENTS
    assert slip.markers_cents == 500_00 and slip.chips == {"2500": 2}
    assert slip.amount_cents == BILLS_CENTS + 50_00 + 500_00 + 75_00 + 20_00
    count = DropCount.objects.get(slip=slip)
    assert count.box_number == 14
    assert count.bills == {"10000": 12, "5000": 4, "2000": 40, "1000": 3, "500": 6, "100": 17}
    assert (count.match_play_cents, count.promotional_cents) == (75_00, 20_00)
    created = AuditEvent.objects.get(kind="slip.created", object_id=str(slip.pk))
    assert created.data["count"]["box"] == 14
    # The rows are history: the database refuses to change them.
    with pytest.raises(DatabaseError), transaction.atomic():
        DropCount.objects.filter(pk=count.pk).update(match_play_cents=0)
    with pytest.raises(DatabaseError), transaction.atomic():
        DropBoxMove.objects.filter(table=pit["SC-1"]).delete()


@pytest.mark.parametrize(
    ("parts", "field", "words"),
    [
        ({"bills": {"2": 5}}, "bills.2", "not $2.00"),
        ({"bills": {"100": 1.5}}, "bills.100", "whole number"),
        ({"bills": {"100": -1}}, "bills.100", "whole number"),
        ({"bills": "100"}, "bills", "map bills to counts"),
        ({"bills": BILLS, "amount": "10.00"}, "amount", "the bills' total"),
        ({"coupons": {"free_bet": "5.00"}}, "coupons.free_bet", "match-play and promotional"),
        ({"coupons": {"match_play": "-5.00"}}, "coupons.match_play", ""),
        ({"box": 0}, "box", "has a number"),
        ({"chips": {"3.00": 1}}, "chips.3.00", "no active $3.00 chip"),
    ],
)
def test_a_wrong_part_is_refused_naming_it(
    pit: dict[str, Any], parts: dict[str, Any], field: str, words: str
) -> None:
    parts = {"bills": BILLS, **parts} if "bills" not in parts else parts
    error = _refused(slip_create, table=pit["SC-1"], kind="drop", by=pit["count"], **parts)
    assert isinstance(error, ServiceError) and error.field == field, error
    assert words in error.message
    assert not Slip.objects.exists() and not DropCount.objects.exists()


def test_only_a_drop_takes_bills_and_the_amount_only_drop_stays(pit: dict[str, Any]) -> None:
    error = _refused(
        slip_create, table=pit["SC-1"], kind="fill", by=pit["pitboss"], bills={"100": 1}
    )
    assert "only a drop" in str(error)
    old = slip_create(table=pit["SC-1"], kind="drop", by=pit["count"], amount="1234.00")
    assert old.amount_cents == 1234_00 and not DropCount.objects.filter(slip=old).exists()


def test_the_box_number_matches_its_removal(pit: dict[str, Any]) -> None:
    box_remove(table=pit["SC-1"], box=7, by=pit["count"])
    error = _refused(
        slip_create, table=pit["SC-1"], kind="drop", by=pit["count"], bills=BILLS, box=8
    )
    assert "SC-1's box for the" in str(error) and "is box 7, not box 8" in str(error)
    assert not Slip.objects.exists()


def test_the_tables_dealer_never_removes_its_box(pit: dict[str, Any]) -> None:
    dealing_pit_boss = person("dealing_boss", "pit_boss", "dealer")
    dealer_sign_in(dealer=dealing_pit_boss, table=pit["LB-1"])
    error = _refused(box_remove, table=pit["LB-1"], box=3, by=dealing_pit_boss)
    assert "dealing_boss dealt at LB-1 that day" in str(error)
    error = _refused(
        box_remove, table=pit["LB-1"], box=3, by=pit["count"], witness=dealing_pit_boss
    )
    assert "witness: dealing_boss dealt at LB-1" in str(error)
    assert "only a" in str(_refused(box_remove, table=pit["LB-1"], box=3, by=pit["dealer"]))
    assert "witness is another" in str(
        _refused(box_remove, table=pit["LB-1"], box=3, by=pit["count"], witness=pit["count"])
    )
    assert not DropBoxMove.objects.exists()
    # The box arrives only once removed, and once.
    assert "not recorded as removed" in str(
        _refused(box_arrive, table=pit["LB-1"], by=pit["count"])
    )
    box_remove(table=pit["LB-1"], box=3, by=pit["pitboss"], witness=pit["count"])
    box_arrive(table=pit["LB-1"], by=pit["count2"])
    assert "already arrived" in str(_refused(box_arrive, table=pit["LB-1"], by=pit["count"]))
    assert "already removed" in str(_refused(box_remove, table=pit["LB-1"], box=4, by=pit["count"]))
    assert DropBoxMove.objects.count() == 2


def test_the_count_sheet_by_part_signed_by_two(pit: dict[str, Any]) -> None:
    day = gaming_day_of(timezone.now())
    _drop(pit, "SC-1", coupons={"match_play": "25.00"})
    _drop(pit, "LB-1", bills={"100": 1, "5": 2})
    sheet = count_sheet(day)
    assert [r["table"] for r in sheet["rows"]] == ["LB-1", "SC-1"]
    assert sheet["totals"]["bills"]["10000"] == 13 and sheet["totals"]["bills"]["500"] == 8
    assert sheet["totals"]["match_play_cents"] == 25_00
    assert sheet["totals"]["total_cents"] == BILLS_CENTS + 110_00 + 25_00
    assert not sheet["signed"]
    first = count_sheet_sign(gaming_day=day, by=pit["count"])
    assert first.independent and not count_sheet(day)["signed"]
    error = _refused(count_sheet_sign, gaming_day=day, by=pit["count"])
    assert "count already signed the count sheet" in str(error)
    for outsider in ("pitboss", "cage", "dealer", "security"):
        _refused(count_sheet_sign, gaming_day=day, by=pit[outsider])
    count_sheet_sign(gaming_day=day, by=pit["count2"])
    assert count_sheet(day)["signed"]
    assert AuditEvent.objects.filter(kind="count_sheet.signed").count() == 2
    # A drop entered afterwards makes a new sheet: the old signatures do not sign it.
    _drop(pit, "PY-1", bills={"20": 5})
    assert not count_sheet(day)["signed"] and count_sheet(day)["signatures"] == []


def test_one_signer_independent_of_the_pit(pit: dict[str, Any]) -> None:
    day = gaming_day_of(timezone.now())
    boss_counter = person("boss_counter", "count", "pit_boss")
    dealer_counter = person("dealer_counter", "count", "dealer")
    dealer_sign_in(dealer=dealer_counter, table=pit["LB-1"])
    fill = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"25.00": 4})
    slip_sign(
        slip=slip_create(table=pit["LB-1"], kind="opener", by=boss_counter, chips={"25.00": 1}),
        by=dealer_counter,
    )
    assert worked_the_pit(boss_counter, day) and worked_the_pit(dealer_counter, day)
    assert not worked_the_pit(pit["count"], day)
    _drop(pit, "SC-1")
    count_sheet_sign(gaming_day=day, by=boss_counter)
    error = _refused(count_sheet_sign, gaming_day=day, by=dealer_counter)
    assert "dealer_counter worked the pit" in str(error) and "independent of the pit" in str(error)
    assert CountSheetSignature.objects.count() == 1
    count_sheet_sign(gaming_day=day, by=pit["count"])
    assert count_sheet(day)["signed"]
    assert fill.status == Slip.Status.PENDING  # untouched by the count


def test_nobody_who_removed_a_box_alone_signs(pit: dict[str, Any]) -> None:
    day = gaming_day_of(timezone.now())
    count3 = person("count3", "count")
    box_remove(table=pit["SC-1"], box=5, by=pit["count"])  # alone
    _drop(pit, "SC-1", box=5)
    error = _refused(count_sheet_sign, gaming_day=day, by=pit["count"])
    assert "count removed SC-1's box 5 alone" in str(error)
    count_sheet_sign(gaming_day=day, by=pit["count2"])
    count_sheet_sign(gaming_day=day, by=count3)
    assert count_sheet(day)["signed"]


def test_the_sheet_waits_for_every_drop(pit: dict[str, Any]) -> None:
    day = gaming_day_of(timezone.now())
    assert "no signed drop" in str(_refused(count_sheet_sign, gaming_day=day, by=pit["count"]))
    _drop(pit, "SC-1")
    waiting = slip_create(table=pit["LB-1"], kind="drop", by=pit["count"], bills={"1": 3})
    error = _refused(count_sheet_sign, gaming_day=day, by=pit["count2"])
    assert f"drop slip {waiting.number} at LB-1" in str(error)
    assert not CountSheetSignature.objects.exists()


def test_the_api_takes_the_parts(pit: dict[str, Any]) -> None:
    api = client_for(pit["count"])
    body = {
        "table": pit["SC-1"].pk,
        "kind": "drop",
        "bills": {"100": 2, "20": 1},
        "coupons": {"promotional": "10.00"},
        "box": 9,
    }
    slip = ok(api.post("/api/slips/", body, format="json"), 201)
    assert slip["amount_cents"] == 230_00 and slip["cash_cents"] == 220_00
    assert slip["count"] == {
        "box": 9,
        "bills": {"10000": 2, "2000": 1},
        "match_play_cents": 0,
        "promotional_cents": 10_00,
    }
    error = refused(
        api.post(
            "/api/slips/",
            {"table": pit["LB-1"].pk, "kind": "drop", "bills": {"3": 1}},
            format="json",
        ),
        400,
    )
    assert error["field"] == "bills.3"


def test_the_count_sheet_page(pit: dict[str, Any]) -> None:
    day = gaming_day_of(timezone.now())
    _drop(pit, "SC-1", box=11, coupons={"match_play": "25.00"})
    page = signed_in("count").get(f"/accounting/count/?day={day.isoformat()}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "SC-1" in html and "$2,302.00" in html and "box 11" in html.lower()
    response = signed_in("count").post(f"/accounting/count/?day={day.isoformat()}")
    assert response.status_code == 303
    assert CountSheetSignature.objects.filter(by=pit["count"]).exists()
    assert signed_in("dealer").get("/accounting/count/").status_code == 403


def test_the_desk_asks_for_the_parts(pit: dict[str, Any]) -> None:
    count = signed_in("count")
    desk = count.get("/accounting/").content.decode()
    assert 'name="bill_100"' in desk and 'name="match_play"' in desk and 'name="box"' in desk
    form = {
        "kind": "drop",
        "table": pit["SC-1"].pk,
        "box": "21",
        "bill_100": "3",
        "bill_5": "4",
        "markers": "50",
        "match_play": "25.00",
        "chip_2500": "2",
    }
    page = count.post("/accounting/slips/", {**form, "bill_20": "two"})
    assert page.status_code == 400 and "bills.20 must be a count of $20 bills" in (
        page.content.decode()
    )
    assert not Slip.objects.exists()
    assert count.post("/accounting/slips/", form).status_code == 303
    drop = Slip.objects.get()
    assert (drop.cash_cents, drop.markers_cents, drop.amount_cents) == (320_00, 50_00, 445_00)
    assert drop.drop_count.box_number == 21 and drop.drop_count.match_play_cents == 25_00
