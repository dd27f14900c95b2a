"""A table opens for play with its signed opener and closes with its signed closer: before the
opener and after the closer a round, a poker hand, a buy-in, a fill and a credit are refused
(409, `table_closed`, naming the table) on every path (the services, the API, the tablet's
pages) and nothing is saved; a closer needs the table open, a second opener is refused; at the
shift change the next opener is compared chip by chip with the last closer, and a difference
is alerted at once, on the chain and on the dashboard."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounting.models import HandoverAlert, Slip
from accounting.opening import open_state
from accounting.services import open_table, slip_create, slip_sign
from audit.models import AuditEvent
from core.errors import ServiceError
from tables.models import Hand, Round
from tables.services import hands as hand_svc
from tables.services.sessions import dealer_sign_in

from ..helpers import client_for, person, refused
from .conftest import play

pytestmark = [pytest.mark.django_db, pytest.mark.opener_required]

TRAY = {"100.00": 10, "25.00": 40, "5.00": 100}  # $2,500.00


def opener(pit: dict[str, Any], chips: dict[str, int] = TRAY) -> Slip:
    slip = slip_create(table=pit["SC-1"], kind="opener", by=pit["dealer"], chips=chips)
    return slip_sign(slip=slip, by=pit["pitboss"])


def closer(pit: dict[str, Any], chips: dict[str, int] = TRAY) -> Slip:
    slip = slip_create(table=pit["SC-1"], kind="closer", by=pit["pitboss"], chips=chips)
    return slip_sign(slip=slip, by=pit["dealer"])


def refusals(pit: dict[str, Any]) -> list[ServiceError]:
    """Each play and chip movement at SC-1, as the services take them: all refused."""
    table, errors = pit["SC-1"], []
    attempts = [
        lambda: play(pit, 0),
        lambda: slip_create(table=table, kind="buy_in", by=pit["dealer"], amount="100.00"),
        lambda: slip_create(table=table, kind="fill", by=pit["pitboss"], chips={"25.00": 20}),
        lambda: slip_create(table=table, kind="credit", by=pit["pitboss"], chips={"25.00": 20}),
    ]
    for attempt in attempts:
        with pytest.raises(ServiceError) as refusal:
            attempt()
        errors.append(refusal.value)
    return errors


def saved() -> tuple[int, int, int]:
    return Round.objects.count(), Slip.objects.count(), AuditEvent.objects.count()


def test_a_table_in_service_takes_nothing_before_its_opener_is_signed(
    pit: dict[str, Any], clock: Any
) -> None:
    assert pit["SC-1"].is_open  # the admin's "in service": it opens nothing by itself
    before = saved()
    for error in refusals(pit):
        assert (error.status, error.code) == (409, "table_closed")
        assert "SC-1 is not open for the 06:00 shift" in error.message
        assert "its opener signed" in error.message
    assert saved() == before
    # A closer at a table not open: refused too, nothing saved.
    with pytest.raises(ServiceError) as refusal:
        slip_create(table=pit["SC-1"], kind="closer", by=pit["pitboss"], chips=TRAY)
    assert refusal.value.code == "table_closed" and "a closer waits" in refusal.value.message
    # An opener entered but not yet signed opens nothing.
    pending = slip_create(table=pit["SC-1"], kind="opener", by=pit["dealer"], chips=TRAY)
    assert not open_state(table=pit["SC-1"]).is_open
    with pytest.raises(ServiceError, match="its opener signed"):
        play(pit, 0)
    slip_sign(slip=pending, by=pit["pitboss"])
    assert open_state(table=pit["SC-1"]).is_open


def test_open_play_close_then_closed_again(pit: dict[str, Any], clock: Any) -> None:
    opened = opener(pit)
    assert "open (opener slip" in open_state(table=pit["SC-1"]).words
    play(pit, 0)
    slip_create(table=pit["SC-1"], kind="buy_in", by=pit["dealer"], amount="100.00")
    fill = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"25.00": 20})
    slip_sign(slip=fill, by=pit["cage"])
    slip_sign(slip=fill, by=pit["dealer"])
    # A second opener while open: refused, naming the table and its opener.
    with pytest.raises(ServiceError) as twice:
        slip_create(table=pit["SC-1"], kind="opener", by=pit["dealer"], chips=TRAY)
    assert (twice.value.status, twice.value.code) == (409, "table_open")
    said = f"SC-1 is already open for the 06:00 shift of 2026-11-20 (opener slip {opened.number}"
    assert said in twice.value.message
    closer(pit)
    state = open_state(table=pit["SC-1"])
    assert not state.is_open and state.closer is not None
    before = saved()
    for error in refusals(pit):
        assert error.code == "table_closed"
        assert "SC-1 is closed for the 06:00 shift (its closer is signed)" in error.message
        assert "its next shift's opener signed" in error.message
    assert saved() == before
    # The next shift opens with its own opener.
    clock.set(14, 5)
    assert not open_state(table=pit["SC-1"]).is_open
    opener(pit)
    play(pit, 1)
    assert Round.objects.filter(shift="14:00").count() == 1


def test_a_poker_hand_waits_for_the_opener(floor: dict[str, Any], clock: Any) -> None:
    table = floor["RI-1"]
    dealer = person("ri_dealer", "dealer")
    dealer_sign_in(dealer=dealer, table=table)
    with pytest.raises(ServiceError) as refusal:
        hand_svc.hand_open(table=table, dealer=dealer, players={1: 10_000, 2: 10_000})
    assert refusal.value.code == "table_closed" and "RI-1 is not open" in refusal.value.message
    assert "a hand waits" in refusal.value.message
    assert not Hand.objects.exists()
    open_table(table=table, dealer=dealer, pit_boss=floor["pitboss"])
    hand_svc.hand_open(table=table, dealer=dealer, players={1: 10_000, 2: 10_000})
    assert Hand.objects.count() == 1


def test_the_api_refuses_at_a_closed_table(pit: dict[str, Any], clock: Any) -> None:
    dealer, boss = client_for(pit["dealer"]), client_for(pit["pitboss"])
    table = pit["SC-1"].pk
    before = saved()
    wagers = {"1": {"ante": "10.00"}}
    error = refused(
        dealer.post("/api/rounds/", {"table": table, "wagers": wagers}, format="json"),
        409,
        "table_closed",
    )
    assert "SC-1" in error["message"] and "opener signed" in error["message"]
    body = {"table": table, "kind": "buy_in", "amount": "100.00"}
    refused(dealer.post("/api/slips/", body, format="json"), 409, "table_closed")
    for kind in ("fill", "credit"):
        body = {"table": table, "kind": kind, "chips": {"25.00": 4}}
        refused(boss.post("/api/slips/", body, format="json"), 409, "table_closed")
    body = {"table": table, "kind": "closer", "chips": TRAY}
    refused(boss.post("/api/slips/", body, format="json"), 409, "table_closed")
    assert saved()[:2] == before[:2]
    # Opened through the API as well: the dealer counts, the pit boss signs.
    slip = dealer.post(
        "/api/slips/", {"table": table, "kind": "opener", "chips": TRAY}, format="json"
    ).json()
    assert boss.post(f"/api/slips/{slip['id']}/sign/", {}, format="json").status_code == 200
    response = dealer.post("/api/rounds/", {"table": table, "wagers": wagers}, format="json")
    assert response.status_code == 201, response.content


def test_the_tablet_pages_refuse_at_a_closed_table(pit: dict[str, Any], clock: Any) -> None:
    dealer = Client()
    dealer.force_login(pit["dealer"])
    table = pit["SC-1"]
    before = saved()
    response = dealer.post(f"/tablet/table/{table.pk}/open/", {"seat-1-ante": "10"})
    page = dealer.get(response["Location"]) if response.status_code == 303 else response
    assert "SC-1 is not open for the 06:00 shift" in page.content.decode()
    buy_in = dealer.post(reverse("accounting:buy_in", args=[table.pk]), {"amount": "100.00"})
    assert buy_in.status_code == 409
    assert "a buy-in waits for its opener signed" in buy_in.content.decode()
    assert saved()[:2] == before[:2]


def test_a_handover_difference_is_alerted_at_once(pit: dict[str, Any], clock: Any) -> None:
    opener(pit)
    last = closer(pit, {"100.00": 10, "25.00": 40, "5.00": 100})
    clock.set(14, 5)
    # The next shift's opener counts one $25.00 chip fewer and two $5.00 chips more.
    slip = slip_create(
        table=pit["SC-1"],
        kind="opener",
        by=pit["dealer"],
        chips={"100.00": 10, "25.00": 39, "5.00": 102},
    )
    assert not HandoverAlert.objects.exists()  # only a signed opener counts
    slip_sign(slip=slip, by=pit["pitboss"])
    (alert,) = HandoverAlert.objects.all()
    assert (alert.closer, alert.opener, alert.table) == (last, slip, pit["SC-1"])
    assert alert.difference == {"500": 2, "2500": -1} and alert.difference_cents == -15_00
    event = AuditEvent.objects.get(kind="handover.alert_raised")
    assert event.table_name == "SC-1" and event.data["difference_cents"] == -15_00
    assert (event.data["closer"], event.data["opener"]) == (last.number, slip.number)
    # The pit boss sees it on the dashboard.
    boss = Client()
    boss.force_login(pit["pitboss"])
    page = boss.get("/", follow=True).content.decode()
    if "handover-alerts" not in page:
        page = boss.get(reverse("reports:dashboard")).content.decode()
    assert "Shift handover at SC-1" in page and "-$15.00" in page
    assert "$25.00 chips: 1 fewer at the opener" in page
    assert "$5.00 chips: 2 more at the opener" in page


def test_a_handover_that_agrees_raises_nothing(pit: dict[str, Any], clock: Any) -> None:
    opener(pit)
    closer(pit)
    clock.set(14, 5)
    opener(pit)
    assert not HandoverAlert.objects.exists()
    assert not AuditEvent.objects.filter(kind="handover.alert_raised").exists()


def test_open_table_is_the_one_helper_and_leaves_an_open_table_as_it_is(
    floor: dict[str, Any], clock: Any
) -> None:
    table = floor["LB-1"]
    first = open_table(table=table, dealer=floor["dealer2"], pit_boss=floor["pitboss"])
    assert first.status == "signed" and first.created_by == floor["dealer2"]
    assert first.signatures.get().by == floor["pitboss"]
    again = open_table(table=table, dealer=floor["dealer2"], pit_boss=floor["pitboss"])
    assert again == first and Slip.objects.count() == 1


def test_a_handover_alert_is_never_changed_nor_deleted(pit: dict[str, Any], clock: Any) -> None:
    from django.db import DatabaseError, transaction

    opener(pit)
    closer(pit)
    clock.set(14, 5)
    opener(pit, {"100.00": 10, "25.00": 39, "5.00": 105})
    alert = HandoverAlert.objects.get()
    for change in (
        lambda: HandoverAlert.objects.filter(pk=alert.pk).update(difference_cents=0),
        lambda: HandoverAlert.objects.filter(pk=alert.pk).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            change()
    alert.refresh_from_db()
    assert alert.difference_cents == 0 and alert.difference == {
        "500": 5,
        "2500": -1,
    }
