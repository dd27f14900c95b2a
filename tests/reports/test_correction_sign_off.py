"""A correction is settled under the same sign-off rules as a settle, and the meter follows the
record: a correction paying the progressive jackpot waits for a pit boss who neither entered it
nor dealt the round, and moves the meter (reset, with its entries) only when approved; a void
takes its round's effect off the meter (the jackpot put back, the contributions taken back),
with entries bound to the chain. The record verifies clean after all of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.test import APIClient

from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import SeparationOfDuties, ServiceError
from tables.engine.money import parse_cents
from tables.models import MeterEntry, ProgressiveMeter, Round, SettlementLine
from tables.selectors import open_round
from tables.services import controls, corrections
from tables.services import rounds as svc
from tables.services.meters import meter_correct
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db

JACKPOT_FORM = {
    "seat-1-ante": "10",
    "seat-1-bonus": "",
    "seat-1-progressive": "1",
    "seat-1-cards": "Ah 2c 4d",
    "seat-1-discard": "",
    "seat-1-draw": "",
    "dealer-cards": "As 2d 4c",
}


@pytest.fixture
def f(floor: dict[str, Any]) -> dict[str, Any]:
    """The demo floor, dealer2 at LB-1, and three more pit bosses."""
    made = {}
    for name in ("pitboss2", "pitboss3", "pitboss4"):
        boss = get_user_model().objects.create_user(name, password="a long demo password")
        boss.groups.add(Group.objects.get(name="pit_boss"))
        made[name] = boss
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    return {**floor, **made}


def meter_of(f: dict[str, Any]) -> ProgressiveMeter:
    return ProgressiveMeter.objects.get(pk=f["LB-1"].meter_id)


def lowball(f: dict[str, Any], seat: str, dealer: str = "As 2d 4c") -> Round:
    """A round at LB-1 with the progressive wager, played to the confirm step by dealer2."""
    d = f["dealer2"]
    r = svc.round_open(
        table=f["LB-1"], dealer=d, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: seat}, dealer_cards=dealer)
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={"discard": [], "draw": []})
    return svc.round_dealer(round=r, dealer=d)


def entries_of(r: Round) -> list[tuple[str, int]]:
    return list(
        MeterEntry.objects.filter(round=r).order_by("id").values_list("kind", "amount_cents")
    )


def meter_figures(r: Round) -> dict[str, int]:
    progressive = r.settlement["progressive"]
    return {
        key: parse_cents(value, where=key, allow_zero=True) for key, value in progressive.items()
    }


def test_a_correction_paying_the_jackpot_waits_and_moves_the_meter_when_approved(
    f: dict[str, Any],
) -> None:
    meter = meter_of(f)
    start = meter.value_cents
    lost = svc.round_settle(round=lowball(f, "9h 8c 7d"), dealer=f["dealer2"])
    assert lost.players_net_cents < 0 and lost.approved_by is None
    meter.refresh_from_db()
    assert meter.value_cents == start + 20  # 20 % of the $1 progressive

    # the void takes the round's 20 cents back off the meter, on the record
    voided = corrections.round_void(round=lost, by=f["pitboss"], reason="seat 1's cards were wrong")
    meter.refresh_from_db()
    assert meter.value_cents == start
    assert entries_of(voided) == [("contribution", 20), ("void", -20)]
    event = AuditEvent.objects.get(kind="meter.round_voided")
    assert event.data["round_id"] == voided.pk and event.data["meter_after_cents"] == start

    # the pit boss corrects it into A-2-4 against the dealer's A-2-4 on the correction form
    boss = Client()
    boss.force_login(f["pitboss"])
    posted = boss.post(f"/audit/rounds/{voided.pk}/correct/", JACKPOT_FORM)
    assert posted.status_code == 303, posted.content
    corrected = Round.objects.get(corrects=voided)
    assert posted["Location"] == f"/audit/rounds/{corrected.pk}/"
    page = boss.get(posted["Location"]).content.decode()
    assert (
        "waits for another pit boss&#x27;s sign-off" in page
        or "waits for another pit boss's" in page
    )
    # waiting: nothing paid, the meter unmoved, the reasons kept and on the chain
    assert corrected.status == Round.Status.OPEN and corrected.awaiting_approval
    assert corrected.approved_by is None
    assert any("progressive jackpot" in reason for reason in corrected.approval_reasons)
    assert not SettlementLine.objects.filter(round=corrected).exists()
    meter.refresh_from_db()
    assert meter.value_cents == start and not entries_of(corrected)
    kinds = list(
        AuditEvent.objects.filter(object_type="tables.round", object_id=str(corrected.pk))
        .order_by("seq")
        .values_list("kind", "actor_name")
    )
    assert kinds == [("round.corrected", "pitboss"), ("round.approval_requested", "pitboss")]
    requested = AuditEvent.objects.get(kind="round.approval_requested", object_id=str(corrected.pk))
    assert requested.data["reasons"] == corrected.approval_reasons

    # the table plays on meanwhile: the correction is not its round in play
    live = svc.round_open(table=f["LB-1"], dealer=f["dealer2"], wagers={1: {"ante": "5.00"}})
    assert open_round(f["LB-1"]) == live
    with pytest.raises(ServiceError) as err:  # never played at the table
        svc.round_settle(round=corrected, dealer=f["dealer2"])
    assert err.value.code == "correction"
    controls.round_cancel(round=live, by=f["dealer2"], reason="misdeal")

    # the dashboard lists it; the pit boss who entered it cannot approve it, a dealer neither
    assert "correction of round #" in boss.get("/reports/dashboard/floor/").content.decode()
    api = APIClient()
    api.force_authenticate(f["pitboss"])
    refused = api.post(f"/api/rounds/{corrected.pk}/approve/", {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"]["message"] == (
        f"You entered the correction of round LB-1 #{voided.number}; another pit boss must "
        "approve it"
    )
    with pytest.raises(PermissionDenied):
        controls.round_approve(round=corrected, by=f["dealer2"])
    corrected.refresh_from_db()
    assert corrected.status == Round.Status.OPEN

    # a second pit boss approves: paid now, the meter reset as the settlement says
    second = Client()
    second.force_login(f["pitboss2"])
    assert (
        second.post(f"/audit/rounds/{corrected.pk}/approve/", {"confirm": "approve"}).status_code
        == 303
    )
    corrected.refresh_from_db()
    meter.refresh_from_db()
    assert corrected.status == Round.Status.SETTLED and corrected.approved_by == f["pitboss2"]
    assert corrected.gaming_day == voided.gaming_day and corrected.shift == voided.shift
    figures = meter_figures(corrected)
    assert figures["meter_before"] == start and figures["contributions"] == 20
    assert figures["meter_after"] == meter.value_cents == meter.reset_cents
    assert figures["paid"] == start + 20
    assert entries_of(corrected) == [
        ("contribution", 20),
        ("jackpot", meter.reset_cents - start - 20),
    ]
    jackpot = corrected.lines.get(wager="progressive")
    assert jackpot.award == "jackpot" and jackpot.net_cents == start + 20 - 100
    assert corrected.players_net_cents == sum(corrected.lines.values_list("net_cents", flat=True))
    assert list(
        AuditEvent.objects.filter(object_type="tables.round", object_id=str(corrected.pk))
        .order_by("seq")
        .values_list("kind", "actor_name")
    )[-2:] == [("round.approved", "pitboss2"), ("round.settled", "pitboss")]

    # voiding the paid correction puts the jackpot back and takes its contributions back:
    # not by the one who entered it, nor the one who signed it off
    for who in ("pitboss", "pitboss2"):
        with pytest.raises(SeparationOfDuties):
            corrections.round_void(round=corrected, by=f[who], reason="the dealer had A-2-5")
    # (a jackpot's void waits for a second pit boss, then puts the meter back)
    waiting = corrections.round_void(
        round=corrected, by=f["pitboss3"], reason="the dealer had A-2-5"
    )
    assert waiting.status == Round.Status.SETTLED and waiting.void_waiting
    corrections.round_void_approve(round=corrected, by=f["pitboss4"])
    meter.refresh_from_db()
    assert meter.value_cents == start
    assert entries_of(corrected)[-2:] == [("void", start + 20 - meter.reset_cents), ("void", -20)]
    assert verify_record().problems == ()


def test_a_void_of_a_jackpot_round_puts_the_meter_back(f: dict[str, Any]) -> None:
    meter = meter_of(f)
    start = meter.value_cents
    r = lowball(f, "Ah 2c 4d")
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=f["dealer2"])
    paid = controls.round_approve(round=r, by=f["pitboss"])
    meter.refresh_from_db()
    assert meter.value_cents == meter.reset_cents
    # later rounds add to the reset meter
    svc.round_settle(round=lowball(f, "9h 8c 7d"), dealer=f["dealer2"])
    meter.refresh_from_db()
    assert meter.value_cents == meter.reset_cents + 20
    # the void (asked for, approved by a second pit boss): as if the jackpot round had never
    # been played
    corrections.round_void(round=paid, by=f["pitboss2"], reason="the dealer's 4 was a 5")
    meter.refresh_from_db()
    assert meter.value_cents == meter.reset_cents + 20  # not yet: the void waits
    corrections.round_void_approve(round=paid, by=f["pitboss3"])
    meter.refresh_from_db()
    assert meter.value_cents == start + 20  # the other round's contribution stays
    jackpot_entry = MeterEntry.objects.get(round=paid, kind="jackpot")
    assert entries_of(paid)[-2:] == [("void", -jackpot_entry.amount_cents), ("void", -20)]
    put_back = MeterEntry.objects.filter(round=paid, kind="void").first()
    assert put_back is not None and put_back.by == f["pitboss3"]
    assert "put back" in put_back.reason
    # on the round's record page
    boss = Client()
    boss.force_login(f["pitboss3"])
    page = boss.get(f"/audit/rounds/{paid.pk}/").content.decode()
    assert "Meter put back by a round" in page
    assert verify_record().problems == ()


def test_a_void_that_would_take_the_meter_below_zero_is_refused(f: dict[str, Any]) -> None:
    meter = meter_of(f)
    r = svc.round_settle(round=lowball(f, "9h 8c 7d"), dealer=f["dealer2"])
    meter.refresh_from_db()
    meter_correct(meter=meter, by=f["admin"], amount_cents=10 - meter.value_cents, reason="drained")
    entries = MeterEntry.objects.count()
    with pytest.raises(ServiceError) as err:
        corrections.round_void(round=r, by=f["pitboss"], reason="wrong cards")
    assert err.value.code == "meter_below_zero" and "$0.20" in err.value.message
    r.refresh_from_db()
    meter.refresh_from_db()
    assert r.status == "settled" and meter.value_cents == 10
    assert MeterEntry.objects.count() == entries


def test_a_small_correction_settles_at_once_and_moves_the_meter_as_it_says(
    f: dict[str, Any],
) -> None:
    meter = meter_of(f)
    start = meter.value_cents
    r = svc.round_settle(round=lowball(f, "9h 8c 7d"), dealer=f["dealer2"])
    voided = corrections.round_void(round=r, by=f["pitboss"], reason="seat 1 had a 6")
    entry = {k: v for k, v in voided.entry.items() if k not in ("decided", "dealer_done")}
    entry["seats"][0]["cards"] = ["9h", "8c", "6d"]
    corrected = corrections.round_correct(voided=voided, by=f["pitboss"], entry=entry)
    assert corrected.status == "settled" and corrected.approved_by is None
    meter.refresh_from_db()
    assert meter_figures(corrected)["meter_before"] == start
    assert meter_figures(corrected)["meter_after"] == meter.value_cents == start + 20
    assert entries_of(corrected) == [("contribution", 20)]
    assert verify_record().problems == ()


def test_a_waiting_correction_is_withdrawn_and_entered_again(f: dict[str, Any]) -> None:
    r = svc.round_settle(round=lowball(f, "9h 8c 7d"), dealer=f["dealer2"])
    voided = corrections.round_void(round=r, by=f["pitboss"], reason="wrong cards")
    entry = {k: v for k, v in voided.entry.items() if k not in ("decided", "dealer_done")}
    jackpot = {**entry, "seats": [{**entry["seats"][0], "cards": ["Ah", "2c", "4d"]}]}
    waiting = corrections.round_correct(voided=voided, by=f["pitboss"], entry=jackpot)
    assert waiting.awaiting_approval
    with pytest.raises(ServiceError, match="already has a correction"):
        corrections.round_correct(voided=voided, by=f["pitboss2"], entry=entry)
    with pytest.raises(PermissionDenied):  # a dealer does not withdraw a correction
        controls.round_cancel(round=waiting, by=f["dealer2"], reason="no")
    boss = Client()
    boss.force_login(f["pitboss2"])
    page = boss.get(f"/audit/rounds/{waiting.pk}/").content.decode()
    assert "Withdraw this correction" in page
    posted = boss.post(f"/audit/rounds/{waiting.pk}/withdraw/", {"reason": "wrong cards typed"})
    assert posted.status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == "cancelled" and not waiting.lines.exists()
    again = corrections.round_correct(voided=voided, by=f["pitboss2"], entry=entry)
    assert again.status == "settled"
    assert verify_record().problems == ()
