"""The accounting pages: who sees each (the page role matrix, extended to cage and count), and
what each does: the tablet's buy-in in two taps, the dealer's fill confirmation and tray count,
the desk's request, issue and void, the reconciliation and its acknowledgement."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounting.models import Slip, VarianceAlert
from accounting.rules import MORNING_COUNT_REASON
from accounting.services import slip_create, slip_sign
from audit.models import AuditEvent
from tables.services.sessions import dealer_sign_in
from tests.helpers import person

from .conftest import Clock

pytestmark = pytest.mark.django_db

PRINCIPALS = [
    "dealer",
    "dealer2",
    "pitboss",
    "admin",
    "auditor",
    "security",
    "cage",
    "count",
    "anonymous",
]
# page: (dealer at SC-1, dealer2 at LB-1, pitboss, admin, auditor, security, cage, count, anonymous)
PAGES: dict[str, tuple[int, ...]] = {
    "desk": (403, 403, 200, 403, 200, 403, 200, 200, 302),
    "reconciliation": (403, 403, 200, 403, 200, 403, 403, 403, 302),
    "tablet_chips": (200, 403, 403, 403, 403, 403, 403, 403, 302),
    "tablet": (200, 200, 403, 403, 403, 403, 403, 403, 302),
    "audit_trail": (403, 403, 200, 403, 200, 403, 403, 403, 302),
    "dashboard": (403, 403, 200, 403, 200, 403, 403, 403, 302),
}


def _url(page: str, floor: dict[str, Any]) -> str:
    return {
        "desk": reverse("accounting:desk"),
        "reconciliation": reverse("accounting:reconciliation"),
        "tablet_chips": reverse("accounting:tablet", args=[floor["SC-1"].pk]),
        "tablet": reverse("tablet:home"),
        "audit_trail": reverse("audit:events"),
        "dashboard": reverse("reports:dashboard"),
    }[page]


def client(floor: dict[str, Any], who: str) -> Client:
    c = Client()
    if who != "anonymous":
        c.force_login(floor[who])
    return c


@pytest.fixture
def both(pit: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=pit["dealer2"], table=pit["LB-1"])
    return pit


@pytest.mark.parametrize(
    ("page", "who", "status"),
    [
        pytest.param(page, who, codes[i], id=f"{page}-{who}")
        for page, codes in PAGES.items()
        for i, who in enumerate(PRINCIPALS)
    ],
)
def test_page_role_matrix(both: dict[str, Any], page: str, who: str, status: int) -> None:
    response = client(both, who).get(_url(page, both))
    assert response.status_code == status, (page, who, response.status_code)
    if status == 302:
        assert response["Location"].startswith(reverse("login"))


def test_the_navigation_links_each_role_to_its_work(both: dict[str, Any]) -> None:
    """Each role lands on its home page (cage and count at the slips desk), whose navigation
    links the slips desk for the roles that work there."""
    desk = reverse("accounting:desk")
    for who in ("cage", "count"):
        assert client(both, who).get("/")["Location"] == desk, who
    for who in ("pitboss", "cage", "count", "auditor"):
        page = client(both, who).get("/", follow=True).content.decode()
        assert f'href="{desk}"' in page, who
    for who in ("dealer", "admin", "security"):
        page = client(both, who).get("/", follow=True).content.decode()
        assert f'href="{desk}"' not in page, who


def test_a_buy_in_takes_two_taps_on_the_tablet(pit: dict[str, Any]) -> None:
    dealer = client(pit, "dealer")
    table_page = dealer.get(reverse("tablet:table", args=[pit["SC-1"].pk])).content.decode()
    chips = reverse("accounting:tablet", args=[pit["SC-1"].pk])
    assert f'href="{chips}"' in table_page  # tap 1
    page = dealer.get(chips).content.decode()
    assert 'data-buy-in="100"' in page
    response = dealer.post(
        reverse("accounting:buy_in", args=[pit["SC-1"].pk]), {"amount": "100.00"}
    )
    assert response.status_code == 303  # tap 2
    (slip,) = Slip.objects.all()
    assert (slip.kind, slip.amount_cents, slip.status, slip.created_by) == (
        "buy_in",
        10000,
        "signed",
        pit["dealer"],
    )
    assert "Slip 1: Buy-in" in dealer.get(response["Location"]).content.decode()
    refused = dealer.post(reverse("accounting:buy_in", args=[pit["SC-1"].pk]), {"amount": "-3"})
    assert refused.status_code == 400 and "must be more than zero" in refused.content.decode()
    assert Slip.objects.count() == 1
    # Another dealer's table: refused, recorded.
    other = dealer.post(reverse("accounting:buy_in", args=[pit["LB-1"].pk]), {"amount": "100.00"})
    assert other.status_code == 403 and Slip.objects.count() == 1
    assert AuditEvent.objects.filter(kind="permission.refused", actor_name="dealer").exists()


def test_the_dealer_confirms_a_fill_on_the_tablet(pit: dict[str, Any]) -> None:
    fill = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"25.00": 20})
    dealer = client(pit, "dealer")
    page = reverse("accounting:tablet", args=[pit["SC-1"].pk])
    assert f'data-slip="{fill.number}"' not in dealer.get(page).content.decode()  # cage first
    slip_sign(slip=fill, by=pit["cage"])
    assert f"Confirm fill {fill.number}" in dealer.get(page).content.decode()
    response = dealer.post(reverse("accounting:tablet_sign", args=[pit["SC-1"].pk, fill.pk]))
    assert response.status_code == 303
    fill.refresh_from_db()
    assert fill.status == "signed"
    assert list(fill.signatures.values_list("role", flat=True)) == ["cage", "dealer"]


def test_the_tray_count_on_the_denomination_grid(pit: dict[str, Any]) -> None:
    dealer = client(pit, "dealer")
    tray = reverse("accounting:tray", args=[pit["SC-1"].pk])
    refused = dealer.post(tray, {"kind": "opener", "chip_2500": "x"})
    assert refused.status_code == 400 and "chips.25.00" in refused.content.decode()
    assert (
        dealer.post(tray, {"kind": "opener", "chip_2500": "40", "chip_100": ""}).status_code == 303
    )
    opener = Slip.objects.get()
    assert opener.chips == {"2500": 40} and opener.amount_cents == 100000
    assert opener.status == "pending"  # a pit boss signs it at the desk
    page = client(pit, "dealer").get(reverse("accounting:tablet", args=[pit["SC-1"].pk]))
    assert "Tray count: closing" in page.content.decode()
    boss = client(pit, "pitboss")
    assert f'data-slip="{opener.number}"' in boss.get(reverse("accounting:desk")).content.decode()
    assert boss.post(reverse("accounting:sign", args=[opener.pk])).status_code == 303
    opener.refresh_from_db()
    assert opener.status == "signed"


def test_the_desk_requests_issues_and_voids(pit: dict[str, Any]) -> None:
    boss, cage = client(pit, "pitboss"), client(pit, "cage")
    response = boss.post(
        reverse("accounting:create"),
        {"kind": "fill", "table": pit["SC-1"].pk, "chip_10000": "5", "shift": "06:00"},
    )
    assert response.status_code == 303, response.content
    fill = Slip.objects.get()
    assert fill.amount_cents == 50000 and fill.created_by == pit["pitboss"]
    # The cage cannot enter a fill; the count team sees no fills.
    refused = cage.post(reverse("accounting:create"), {"kind": "fill", "table": pit["SC-1"].pk})
    assert refused.status_code == 403
    assert (
        f'data-slip="{fill.number}"'
        not in client(pit, "count").get(reverse("accounting:desk")).content.decode()
    )
    assert cage.post(reverse("accounting:sign", args=[fill.pk])).status_code == 303
    assert list(fill.signatures.values_list("role", flat=True)) == ["cage"]
    # A bad form names the field.
    bad = boss.post(
        reverse("accounting:create"), {"kind": "fill", "table": pit["SC-1"].pk, "chip_700": "2"}
    )
    assert bad.status_code == 400 and "no active $7.00 chip" in bad.content.decode()
    # Void: asked by the pit boss, confirmed by a cage account that did not issue it.
    boss.post(reverse("accounting:void", args=[fill.pk]), {"reason": "wrong table"})
    cage.post(reverse("accounting:void", args=[fill.pk]), {"reason": "agreed"})
    fill.refresh_from_db()
    assert fill.status == "pending"  # the cage that issued it may not confirm
    cage2 = Client()
    cage2.force_login(person("cage2", "cage"))
    cage2.post(reverse("accounting:void", args=[fill.pk]), {"reason": "agreed"})
    fill.refresh_from_db()
    assert fill.status == "voided"


def test_the_count_team_enters_and_signs_a_drop(pit: dict[str, Any], clock: Clock) -> None:
    clock.set(9, 0, next_day=True)  # the soft count, the morning after: the 20th's boxes
    count, count2 = client(pit, "count"), client(pit, "count2")
    desk = count.get(reverse("accounting:desk")).content.decode()
    assert 'name="ready_reason"' in desk and "Morning count of the previous gaming day" in desk
    form = {
        "kind": "drop",
        "table": pit["SC-1"].pk,
        "amount": "950.00",
        "markers": "50",
        "gaming_day": "2026-11-20",
        "shift": "14:00",
        "chip_2500": "2",
    }
    # The previous gaming day's box asks its reason; the desk offers the morning count's.
    page = count.post(reverse("accounting:create"), form)
    assert page.status_code == 400 and "needs a reason" in page.content.decode()
    assert not Slip.objects.exists()
    response = count.post(
        reverse("accounting:create"), {**form, "ready_reason": MORNING_COUNT_REASON}
    )
    assert response.status_code == 303, response.content
    assert AuditEvent.objects.get(kind="slip.created").data["late_reason"] == (MORNING_COUNT_REASON)
    drop = Slip.objects.get()
    assert (drop.cash_cents, drop.markers_cents, drop.amount_cents) == (95000, 5000, 105000)
    assert str(drop.gaming_day) == "2026-11-20" and drop.shift == "14:00"
    assert count.post(reverse("accounting:sign", args=[drop.pk])).status_code == 303
    drop.refresh_from_db()
    assert drop.status == "pending"  # the creator's own signature is refused
    count2.post(reverse("accounting:sign", args=[drop.pk]))
    drop.refresh_from_db()
    assert drop.status == "signed"


def test_the_reconciliation_page_and_the_acknowledgement(pit: dict[str, Any]) -> None:
    from datetime import date

    from django.utils import timezone

    alert = VarianceAlert.objects.create(
        table=pit["SC-1"],
        gaming_day=date(2026, 11, 20),
        shift="14:00",
        count_win_cents=0,
        hands_win_cents=2500,
        variance_cents=-2500,
        tolerance_cents=500,
        raised_at=timezone.now(),
    )
    page = client(pit, "auditor").get(reverse("accounting:reconciliation") + "?day=2026-11-20")
    assert (
        "-$25.00" in page.content.decode() and ">Acknowledge</button>" not in page.content.decode()
    )
    boss = client(pit, "pitboss")
    assert (
        ">Acknowledge</button>" in boss.get(reverse("accounting:reconciliation")).content.decode()
    )
    refused = client(pit, "auditor").post(
        reverse("accounting:acknowledge", args=[alert.pk]), {"note": "x"}
    )
    assert refused.status_code == 403
    boss.post(
        reverse("accounting:acknowledge", args=[alert.pk]), {"note": "chip found on the floor"}
    )
    alert.refresh_from_db()
    assert alert.note == "chip found on the floor" and alert.acknowledged_by == pit["pitboss"]
