"""What the pit boss's and the auditor's pages answer beyond their figures: the API root, the
site's 400 page for a query value it cannot read, the approve confirmation (two presses), the
locked accounts in the security role's user list, and a hold % on a small handle."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.lockout import lockout_lift, record_failure
from accounts.models import AccountLock
from reports.reporting import HOLD_MIN_BASE_CENTS
from reports.templatetags.reports_money import hold, hold_of_drop
from tables.models import Round
from tables.services import ServiceError
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for

pytestmark = pytest.mark.django_db


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


# --- /api/ -------------------------------------------------------------------------------------


def test_the_api_root_lists_every_collection_the_schema_and_the_docs(floor: Any) -> None:
    answer = client_for(floor["pitboss"]).get("/api/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 200
    links = answer.json()
    for key, path in {
        "tables": "/api/tables/",
        "rounds": "/api/rounds/",
        "hands": "/api/hands/",
        "slips": "/api/slips/",
        "variance-alerts": "/api/variance-alerts/",
        "reconciliation": "/api/reconciliation/",
        "players": "/api/players/",
        "schema": "/api/schema/",
        "docs": "/api/docs/",
    }.items():
        assert links[key] == f"http://testserver{path}", key


def test_the_api_root_refuses_an_anonymous_caller_in_the_apis_error_shape(floor: Any) -> None:
    answer = client_for(None).get("/api/")
    assert answer.status_code == 401
    assert answer["WWW-Authenticate"].startswith("Token")
    assert answer.json()["error"]["code"] == "not_authenticated"


# --- the 400 page ------------------------------------------------------------------------------


def test_a_bad_day_on_a_tables_rounds_is_the_sites_400_page_naming_the_field(floor: Any) -> None:
    boss = signed_in("pitboss")
    table = floor["SC-1"]
    for url in (
        reverse("reports:table_rounds", args=[table.pk]),
        reverse("reports:table_rounds_csv", args=[table.pk]),
    ):
        answer = boss.get(url, {"day": "abc"})
        assert answer.status_code == 400
        assert answer["Content-Type"].startswith("text/html")
        page = answer.content.decode()
        assert 'data-field="day"' in page and "must be a gaming day written like" in page
        assert "Casino floor" in page  # the site's frame, not a bare line of text
    assert boss.get(reverse("reports:table_rounds", args=[table.pk])).status_code == 200


def test_bad_query_values_on_the_reconciliation_and_the_trails_export_name_the_field(
    floor: Any,
) -> None:
    boss = signed_in("pitboss")
    answer = boss.get(reverse("accounting:reconciliation"), {"day": "26/11/2026"})
    assert answer.status_code == 400 and 'data-field="day"' in answer.content.decode()
    answer = boss.get(reverse("reports:reports_csv"), {"by": "colour"})
    assert answer.status_code == 400 and 'data-field="by"' in answer.content.decode()
    answer = boss.get(reverse("audit:events_csv"), {"since": "yesterday"})
    assert answer.status_code == 400
    assert 'data-field="since"' in answer.content.decode()
    for field in ("since", "until", "min", "max"):
        answer = boss.get(reverse("audit:events_readable_csv"), {field: "yesterday"})
        assert answer.status_code == 400
        assert 'data-field="' in answer.content.decode()


# --- the approve confirmation ------------------------------------------------------------------


@pytest.fixture
def waiting(floor: dict[str, Any]) -> Round:
    """LB-1: seat 1 on the progressive with A-2-4 against the dealer's A-2-4, waiting for a
    pit boss's sign-off."""
    d = floor["dealer2"]
    dealer_sign_in(dealer=d, table=floor["LB-1"])
    r = svc.round_open(
        table=floor["LB-1"], dealer=d, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "Ah 2c 4d"}, dealer_cards="As 2d 4c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={"discard": [], "draw": []})
    r = svc.round_dealer(round=r, dealer=d)
    with pytest.raises(ServiceError):
        svc.round_settle(round=r, dealer=d)
    r.refresh_from_db()
    assert r.awaiting_approval
    return r


def test_approving_from_the_dashboard_asks_first_with_table_round_seat_and_dollars(
    waiting: Round,
) -> None:
    boss = signed_in("pitboss")
    url = reverse("audit:round_approve", args=[waiting.pk])
    floor_page = boss.get(reverse("reports:dashboard")).content.decode()
    assert f'href="{url}"' in floor_page  # a link to the confirm page, not a one-click form
    confirm = boss.get(url)
    assert confirm.status_code == 200
    page = confirm.content.decode()
    assert f"LB-1 round #{waiting.number}" in page
    assert 'data-seat="1"' in page and "Seat 1" in page
    assert "$" in page and "cents" not in page
    assert 'name="confirm" value="approve"' in page
    paid = confirm.context["paid_cents"]
    assert paid > 0 and f"Approve and pay ${paid // 100:,}.{paid % 100:02d}" in page
    waiting.refresh_from_db()
    assert waiting.status == "open"  # opening the confirm page pays nothing

    answer = boss.post(url, {"confirm": "approve"})
    assert answer.status_code == 303 and answer["Location"] == reverse("reports:dashboard")
    waiting.refresh_from_db()
    assert waiting.status == "settled" and waiting.approved_by.username == "pitboss"  # type: ignore[union-attr]


def test_a_one_click_post_without_the_confirm_step_pays_nothing_and_goes_to_confirm(
    waiting: Round,
) -> None:
    boss = signed_in("pitboss")
    url = reverse("audit:round_approve", args=[waiting.pk])
    answer = boss.post(url)
    assert answer.status_code == 303 and answer["Location"] == url
    answer = boss.post(url, {"confirm": "yes"})  # anything but the confirm page's value
    assert answer.status_code == 303 and answer["Location"] == url
    waiting.refresh_from_db()
    assert waiting.status == "open" and waiting.approved_by is None


def test_the_confirm_page_of_a_round_not_waiting_offers_nothing(waiting: Round) -> None:
    boss = signed_in("pitboss")
    url = reverse("audit:round_approve", args=[waiting.pk])
    boss.post(url, {"confirm": "approve"})
    page = boss.get(url).content.decode()
    assert "is not waiting for a sign-off" in page and 'name="confirm"' not in page


def test_the_dealer_of_the_round_sees_why_not_on_the_confirm_page(
    waiting: Round, floor: dict[str, Any]
) -> None:
    from django.contrib.auth.models import Group

    dealer = floor["dealer2"]
    dealer.groups.add(Group.objects.get(name="pit_boss"))
    page = signed_in("dealer2").get(reverse("audit:round_approve", args=[waiting.pk]))
    text = page.content.decode()
    assert 'name="confirm"' not in text and "You dealt round" in text


# --- locked users in the security role's list ------------------------------------------------


@override_settings(CASINO_LOCKOUT_FAILURES=3, CASINO_LOCKOUT_MINUTES=30)
def test_the_user_list_shows_who_is_locked_and_until_when(floor: Any) -> None:
    for _ in range(3):
        record_failure("dealer", "10.0.0.9")
    lock = AccountLock.objects.get(user__username="dealer")
    assert lock.locked_until is not None
    security = signed_in("security")
    changelist = reverse("admin:auth_user_changelist")
    page = security.get(changelist).content.decode()
    assert "sign-in lock" in page.lower()
    ends = timezone.localtime(lock.locked_until).strftime("%Y-%m-%d %H:%M")
    assert f"Locked until {ends}" in page
    locked_only = security.get(changelist, {"locked": "yes"})
    shown = [u.username for u in locked_only.context["cl"].result_list]
    assert shown == ["dealer"]
    not_locked = security.get(changelist, {"locked": "no"}).context["cl"].result_list
    assert "dealer" not in [u.username for u in not_locked] and len(not_locked) > 1


@override_settings(CASINO_LOCKOUT_FAILURES=3, CASINO_LOCKOUT_MINUTES=0)
def test_a_lock_without_an_end_reads_as_such_and_a_lifted_one_is_gone(floor: Any) -> None:
    for name in ("dealer", "dealer2"):
        for _ in range(3):
            record_failure(name, "10.0.0.9")
    assert AccountLock.objects.filter(locked_until__isnull=True).count() == 2
    lockout_lift(lock=AccountLock.objects.get(user__username="dealer2"), by=floor["security"])
    security = signed_in("security")
    listed = security.get(reverse("admin:auth_user_changelist"), {"locked": "yes"})
    assert [u.username for u in listed.context["cl"].result_list] == ["dealer"]
    assert "Locked until security lifts it" in listed.content.decode()


# --- a hold % on a small handle ----------------------------------------------------------------


def test_a_hold_on_a_small_handle_is_written_with_its_handle_not_as_a_figure() -> None:
    assert hold(Decimal("-20542.13"), 1200) == "n/a (handle $12.00)"
    assert hold(Decimal("12.50"), HOLD_MIN_BASE_CENTS) == "12.50%"
    assert hold(Decimal("12.5"), HOLD_MIN_BASE_CENTS - 1) == "n/a (handle $999.99)"
    assert hold(None, 0) == "—"
    assert hold_of_drop(Decimal("80"), 5000) == "n/a (drop $50.00)"


def test_the_reports_page_has_no_inner_scroll_and_no_chart_without_rows(floor: Any) -> None:
    page = signed_in("pitboss").get(reverse("reports:reports"), {"by": "table"}).content.decode()
    assert 'class="table-scroll' not in page  # no inner sideways scroll
    assert 'class="data report hold"' in page and 'class="data report voids"' not in page
    assert "No rounds settled or hands finished in this period." in page
