"""Separation of duties: one account holding the dealer's and the pit boss's roles (the
security role may grant both) never signs off, voids or corrects a round it dealt, nor voids a
hand it dealt, on any path: the services, the API, the dashboard, the tablet, the trail's pages.
Each refusal names the round and changes nothing; another pit boss does it; the record verifies
clean after all of it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.test import APIClient

from accounting.services import slip_create, slip_void
from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import SeparationOfDuties
from tables.models import Hand, MeterEntry, ProgressiveMeter, Round, SettlementLine
from tables.services import controls, corrections
from tables.services import hands as hand_svc
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in, dealer_sign_out

from .test_tablet_views import hidden, text

pytestmark = pytest.mark.django_db
PASSWORD = "a long demo password"


def person(name: str, *roles: str) -> Any:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    for role in roles:
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def sly(floor: dict[str, Any]) -> dict[str, Any]:
    """`sly` holds the dealer's and the pit boss's roles; `pitboss2` is a second pit boss."""
    return {
        **floor,
        "sly": person("sly", "dealer", "pit_boss"),
        "pitboss2": person("pitboss2", "pit_boss"),
    }


def straight_flush_waiting(f: dict[str, Any], dealer: Any) -> Round:
    """LB-1, dealt by `dealer`: seat 1 on the progressive with A-2-4 against the
    dealer's A-2-4, the jackpot; the settle waits for a sign-off."""
    dealer_sign_in(dealer=dealer, table=f["LB-1"])
    r = svc.round_open(
        table=f["LB-1"], dealer=dealer, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=dealer, seat_cards={1: "Ah 2c 4d"}, dealer_cards="As 2d 4c")
    r = svc.round_decide(round=r, dealer=dealer, seat=1, decision={"discard": [], "draw": []})
    r = svc.round_dealer(round=r, dealer=dealer)
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=dealer)
    return r


def unchanged(r: Round, meter: ProgressiveMeter, value: int, entries: int) -> None:
    r.refresh_from_db()
    meter.refresh_from_db()
    assert r.status == Round.Status.OPEN and r.approved_by is None and r.awaiting_approval
    assert not SettlementLine.objects.filter(round=r).exists()
    assert meter.value_cents == value and MeterEntry.objects.count() == entries


def test_the_dealer_pit_boss_cannot_approve_its_own_round_on_any_path(
    sly: dict[str, Any],
) -> None:
    f = sly
    r = straight_flush_waiting(f, f["sly"])
    meter = ProgressiveMeter.objects.get(pk=f["LB-1"].meter_id)
    value, entries = meter.value_cents, MeterEntry.objects.count()
    words = f"You dealt round LB-1 #{r.number}; another pit boss must approve it"

    # the service
    with pytest.raises(SeparationOfDuties) as err:
        controls.round_approve(round=r, by=f["sly"])
    assert err.value.message == words and err.value.status == 403
    unchanged(r, meter, value, entries)

    # the API: 403, the message, nothing paid
    api = APIClient()
    api.force_authenticate(f["sly"])
    answer = api.post(f"/api/rounds/{r.pk}/approve/", {}, format="json")
    assert answer.status_code == 403
    assert answer.json()["error"] == {
        "code": "separation_of_duties",
        "message": words,
        "field": None,
    }
    unchanged(r, meter, value, entries)

    # the dashboard's form: back to the dashboard, the refusal shown there
    page = Client()
    page.force_login(f["sly"])
    posted = page.post(f"/audit/rounds/{r.pk}/approve/", {"confirm": "approve"})
    assert posted.status_code == 303
    assert words in text(page.get(posted["Location"]))
    unchanged(r, meter, value, entries)

    # the round's record page and the dashboard: no button for sly, the reason instead
    for url in (f"/audit/rounds/{r.pk}/", "/reports/dashboard/"):
        shown = text(page.get(url))
        assert "Approve and pay" not in shown and f"{words}." in shown

    # the tablet: sly at the table typing its own name (the tablet's own check) ...
    tablet = Client()
    tablet.force_login(f["sly"])
    url = f"/tablet/table/{f['LB-1'].pk}/"
    round_id = hidden(tablet.get(url), "round")
    sent = tablet.post(
        url + "approve/", {"round": round_id, "approver": "sly", "approver-password": PASSWORD}
    )
    assert sent.status_code == 303
    # (the sign-off's one answer for every failure: it tells nothing of the password)
    assert "cannot sign off this payout" in text(tablet.get(sent["Location"]))
    unchanged(r, meter, value, entries)
    # ... and, once another dealer took over the table, sly's password on that dealer's tablet
    dealer_sign_out(dealer=f["sly"])
    dealer_sign_in(dealer=f["dealer2"], table=f["LB-1"])
    other = Client()
    other.force_login(f["dealer2"])
    sent = other.post(
        url + "approve/", {"round": round_id, "approver": "sly", "approver-password": PASSWORD}
    )
    assert sent.status_code == 303
    shown = text(other.get(sent["Location"]))
    assert "cannot sign off this payout" in shown and words not in shown
    unchanged(r, meter, value, entries)

    # another pit boss approves: paid, the meter reset, under that pit boss's name
    paid = controls.round_approve(round=r, by=f["pitboss"])
    meter.refresh_from_db()
    assert paid.status == Round.Status.SETTLED and paid.approved_by == f["pitboss"]
    assert meter.value_cents == meter.reset_cents
    assert verify_record().problems == ()


def test_a_dealer_who_took_over_a_round_counts_as_its_dealer(sly: dict[str, Any]) -> None:
    """The round's dealer field names who opened it; whoever entered a step of it dealt it too."""
    f = sly
    dealer_sign_in(dealer=f["dealer2"], table=f["LB-1"])
    r = svc.round_open(
        table=f["LB-1"], dealer=f["dealer2"], wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    dealer_sign_out(dealer=f["dealer2"])
    dealer_sign_in(dealer=f["sly"], table=f["LB-1"])
    r = svc.round_deal(
        round=r, dealer=f["sly"], seat_cards={1: "Ah 2c 4d"}, dealer_cards="As 2d 4c"
    )
    r = svc.round_decide(round=r, dealer=f["sly"], seat=1, decision={"discard": [], "draw": []})
    r = svc.round_dealer(round=r, dealer=f["sly"])
    assert r.dealer == f["dealer2"]
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=f["sly"])
    with pytest.raises(SeparationOfDuties, match=f"You dealt round LB-1 #{r.number}"):
        controls.round_approve(round=r, by=f["sly"])
    assert controls.round_approve(round=r, by=f["pitboss"]).status == "settled"


def test_nobody_voids_or_corrects_a_round_they_dealt_or_signed_off(sly: dict[str, Any]) -> None:
    f = sly
    r = straight_flush_waiting(f, f["sly"])
    r = controls.round_approve(round=r, by=f["pitboss"])
    before = Round.objects.get(pk=r.pk)
    n = r.number
    # the dealer: neither the service nor the trail's void form
    with pytest.raises(SeparationOfDuties, match=f"You dealt round LB-1 #{n}; another pit boss"):
        corrections.round_void(round=r, by=f["sly"], reason="the dealer's 4 was a 5")
    page = Client()
    page.force_login(f["sly"])
    posted = page.post(f"/audit/rounds/{r.pk}/void/", {"reason": "the dealer's 4 was a 5"})
    assert f"You dealt round LB-1 #{n}; another pit boss must void it" in text(
        page.get(posted["Location"])
    )
    # the pit boss who signed off its payout
    with pytest.raises(SeparationOfDuties, match=f"You signed off the payout of round LB-1 #{n}"):
        corrections.round_void(round=r, by=f["pitboss"], reason="the dealer's 4 was a 5")
    r.refresh_from_db()
    assert r.status == "settled" and r.settlement == before.settlement
    # a third pit boss asks for the void (a jackpot's void waits for a sign-off), a fourth
    # approves it; the dealer may not correct it, nor the one who signed it off
    asked = corrections.round_void(round=r, by=f["pitboss2"], reason="the dealer's 4 was a 5")
    assert asked.status == "settled" and asked.void_waiting
    voided = corrections.round_void_approve(round=r, by=person("pitboss3", "pit_boss"))
    assert voided.status == "voided"
    entry = {k: v for k, v in voided.entry.items() if k not in ("decided", "dealer_done")}
    for who in ("sly", "pitboss"):
        with pytest.raises(SeparationOfDuties, match="another pit boss must correct it"):
            corrections.round_correct(voided=voided, by=f[who], entry=entry)
    posted = page.post(f"/audit/rounds/{r.pk}/correct/", {"dealer-cards": "As 2d 5c"})
    assert posted.status_code == 303
    assert "another pit boss must correct it" in text(page.get(posted["Location"]))
    assert not voided.corrections.exists()
    assert verify_record().problems == ()


def test_nobody_voids_a_hand_they_dealt(sly: dict[str, Any]) -> None:
    f = sly
    dealer_sign_in(dealer=f["sly"], table=f["RI-1"])
    hand = hand_svc.hand_open(table=f["RI-1"], dealer=f["sly"], players={1: 1000, 2: 1000})
    words = f"You dealt {hand}; another pit boss must void it"
    with pytest.raises(SeparationOfDuties) as err:
        hand_svc.hand_void(hand=hand, by=f["sly"], reason="misdeal")
    assert err.value.message == words
    api = APIClient()
    api.force_authenticate(f["sly"])
    answer = api.post(f"/api/hands/{hand.pk}/void/", {"reason": "misdeal"}, format="json")
    assert answer.status_code == 403 and answer.json()["error"]["message"] == words
    page = Client()
    page.force_login(f["sly"])
    posted = page.post(f"/audit/hands/{hand.pk}/void/", {"reason": "misdeal"})
    assert words in text(page.get(posted["Location"]))
    hand.refresh_from_db()
    assert hand.status == Hand.Status.OPEN
    assert hand_svc.hand_void(hand=hand, by=f["pitboss"], reason="misdeal").status == "voided"


def test_whoever_entered_a_slip_never_confirms_its_void(sly: dict[str, Any]) -> None:
    f = sly
    dealer_sign_in(dealer=f["sly"], table=f["SC-1"])
    opener = slip_create(table=f["SC-1"], kind="opener", by=f["sly"], chips={"25.00": 8})
    slip_void(slip=opener, by=f["pitboss"], reason="miscounted the reds")
    with pytest.raises(SeparationOfDuties, match="sly entered slip"):
        slip_void(slip=opener, by=f["sly"], reason="agreed")
    # on the slip desk and the API: refused, each recorded once as a refused permission
    words = f"sly entered slip {opener.number}: another person confirms its void"
    for path, post in (
        (f"/accounting/slips/{opener.pk}/void/", Client()),
        (f"/api/slips/{opener.pk}/void/", APIClient()),
    ):
        post.force_login(f["sly"])
        before = AuditEvent.objects.count()
        post.post(path, {"reason": "agreed"}, **({"format": "json"} if "api" in path else {}))
        (event,) = AuditEvent.objects.order_by("-seq")[: AuditEvent.objects.count() - before]
        assert event.kind == "permission.refused" and event.actor_name == "sly"
        assert event.data["reason"] == words and event.data["action"] == "confirm_void"
        assert event.data["slip_id"] == opener.pk and event.table_name == "SC-1"
    opener.refresh_from_db()
    assert opener.status == "pending"
    assert slip_void(slip=opener, by=f["pitboss2"], reason="agreed").status == "voided"


def test_a_refusal_writes_nothing(sly: dict[str, Any]) -> None:
    f = sly
    r = straight_flush_waiting(f, f["sly"])
    events = AuditEvent.objects.count()
    with pytest.raises(SeparationOfDuties):
        controls.round_approve(round=r, by=f["sly"])
    assert AuditEvent.objects.count() == events
