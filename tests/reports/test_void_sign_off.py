"""A void goes through the same sign-off as a settle: the void of a round whose payout was signed
off, or would need a sign-off (every jackpot), waits for a second pit boss, with the round still
settled and in the hold reports and the meter unmoved; the approval voids it and puts the meter
back, on the record. Nobody approves a void they asked for, nor one of a round they dealt or
signed off, whatever roles they hold, on the API or the pages, where the button is shown only to
who may press it. Every separation-of-duties refusal is recorded once, as a refused permission
naming the action and the round, and nothing else is written."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.lockout import failures
from audit.models import AuditEvent
from audit.verify import verify_record
from core.errors import ServiceError
from reports import reporting
from reports.selectors import hold_rows
from tables.models import MeterEntry, ProgressiveMeter, Round
from tables.services import controls, corrections
from tables.services import rounds as svc
from tables.services.duties import rounds_allowed
from tables.services.meters import meter_correct
from tables.services.sessions import dealer_sign_in, dealer_sign_out
from tests.tables.test_tablet_views import hidden, text

pytestmark = pytest.mark.django_db
PASSWORD = "a long demo password"
REASON = "the dealer's 4 was a 5"


def person(name: str, *roles: str) -> Any:
    user = get_user_model().objects.create_user(name, password=PASSWORD)
    user.groups.add(*Group.objects.filter(name__in=roles))
    return user


@pytest.fixture
def f(floor: dict[str, Any]) -> dict[str, Any]:
    """The demo floor; `sly` holds the dealer's and the pit boss's roles and deals at LB-1;
    `pitboss2` and `pitboss3` are two more pit bosses."""
    made = {
        "sly": person("sly", "dealer", "pit_boss"),
        "pitboss2": person("pitboss2", "pit_boss"),
        "pitboss3": person("pitboss3", "pit_boss"),
    }
    dealer_sign_in(dealer=made["sly"], table=floor["LB-1"])
    return {**floor, **made}


def lowball(f: dict[str, Any], seat: str, dealer: str) -> Round:
    """A round at LB-1 with the progressive wager, dealt by sly to the confirm step."""
    d = f["sly"]
    r = svc.round_open(
        table=f["LB-1"], dealer=d, wagers={1: {"ante": "10.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: seat}, dealer_cards=dealer)
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={"discard": [], "draw": []})
    return svc.round_dealer(round=r, dealer=d)


def jackpot_waiting(f: dict[str, Any]) -> Round:
    """Seat 1's A-2-4 against the dealer's A-2-4: the jackpot, waiting for a sign-off."""
    r = lowball(f, "Ah 2c 4d", "As 2d 4c")
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=f["sly"])
    return r


def jackpot_paid(f: dict[str, Any]) -> Round:
    """The jackpot round, signed off by `pitboss` and paid."""
    return controls.round_approve(round=jackpot_waiting(f), by=f["pitboss"])


def meter_of(f: dict[str, Any]) -> ProgressiveMeter:
    return ProgressiveMeter.objects.get(pk=f["LB-1"].meter_id)


def hold(r: Round) -> dict[str, Any]:
    reporting.rebuild_stale()
    rows = hold_rows(start=r.gaming_day, end=r.gaming_day, by="table", table="LB-1")
    return {k: v for k, v in rows[0].items()} if rows else {}


def new_events(since: int) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(seq__gt=since).order_by("seq"))


def last_seq() -> int:
    return AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def page(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def refused_once(since: int, who: Any, action: str, r: Round, path: str, words: str) -> None:
    """One event since `since`: the refused permission, naming the action and the round."""
    (event,) = new_events(since)
    assert event.kind == "permission.refused" and event.actor_id == who.pk
    assert event.table_name == "LB-1"
    assert event.data == {
        "method": "POST",
        "path": path,
        "reason": words,
        "action": action,
        "round_id": r.pk,
        "round": str(r),
    }


def test_a_jackpots_void_waits_for_a_second_pit_boss_who_puts_the_meter_back(
    f: dict[str, Any],
) -> None:
    meter = meter_of(f)
    start = meter.value_cents
    paid = jackpot_paid(f)
    n = paid.number
    meter.refresh_from_db()
    paid_value, entries = meter.value_cents, MeterEntry.objects.count()
    before = hold(paid)
    assert before["rounds"] == 1 and before["voids"] == 0

    # pitboss2 asks for the void over the API: 202, the round still settled, the void waiting
    seq = last_seq()
    answer = api(f["pitboss2"]).post(
        f"/api/rounds/{paid.pk}/void/", {"reason": REASON}, format="json"
    )
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert body["status"] == "settled" and body["void_waiting"] is True
    assert body["void_requested_by"] == "pitboss2" and body["void_reason"] == REASON
    assert body["voided_by"] is None and body["void_requested_at"]
    (asked,) = new_events(seq)
    assert asked.kind == "round.void_requested" and asked.actor_name == "pitboss2"
    assert asked.data["reason"] == REASON
    assert "its payout was signed off by pitboss" in asked.data["reasons"]
    assert any(r.startswith("seat 1 wins the progressive jackpot") for r in asked.data["reasons"])
    # nothing moved: the meter, its entries, the hold report
    meter.refresh_from_db()
    assert meter.value_cents == paid_value and MeterEntry.objects.count() == entries
    assert hold(paid) == before

    # no second void, no correction while it waits
    again = api(f["pitboss3"]).post(f"/api/rounds/{paid.pk}/void/", {"reason": "x"}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "void_waiting"
    entry = {k: v for k, v in paid.entry.items() if k not in ("decided", "dealer_done")}
    with pytest.raises(ServiceError) as err:
        corrections.round_correct(voided=paid, by=f["pitboss3"], entry=entry)
    assert err.value.code == "void_waiting" and "pitboss2" in err.value.message

    # whoever asked, dealt it (a pit boss too) or signed off its payout cannot approve it:
    # 403 on the API, the refusal on the page, each recorded once, nothing else written
    refusals = {
        "pitboss2": f"You asked for the void of round LB-1 #{n}; another pit boss must approve it",
        "sly": f"You dealt round LB-1 #{n}; another pit boss must approve its void",
        "pitboss": f"You signed off the payout of round LB-1 #{n}; another pit boss must "
        "approve its void",
    }
    for who, words in refusals.items():
        user = f[who]
        seq = last_seq()
        path = f"/api/rounds/{paid.pk}/void-approve/"
        answer = api(user).post(path, {}, format="json")
        assert answer.status_code == 403
        assert answer.json()["error"] == {
            "code": "separation_of_duties",
            "message": words,
            "field": None,
        }
        refused_once(seq, user, "approve_void", paid, path, words)
        # the round's record shows them no button but why
        boss = page(user)
        shown = text(boss.get(f"/audit/rounds/{paid.pk}/"))
        assert f"Void requested by pitboss2: {REASON}" in shown
        assert "Approve void" not in shown and f"{words}." in shown
        # posting anyway: refused, recorded once
        seq = last_seq()
        path = f"/audit/rounds/{paid.pk}/void/approve/"
        posted = boss.post(path)
        assert posted.status_code == 302
        assert words in text(boss.get(posted["Location"]))
        refused_once(seq, user, "approve_void", paid, path, words)
    paid.refresh_from_db()
    assert paid.status == "settled" and paid.void_waiting
    meter.refresh_from_db()
    assert meter.value_cents == paid_value and MeterEntry.objects.count() == entries
    # a dealer is not a pit boss at all
    assert api(f["dealer"]).post(f"/api/rounds/{paid.pk}/void-approve/").status_code == 403

    # a third pit boss approves it from the round's record: voided, the meter put back
    third = page(f["pitboss3"])
    shown = text(third.get(f"/audit/rounds/{paid.pk}/"))
    assert "Approve void" in shown and "Withdraw" in shown
    seq = last_seq()
    assert third.post(f"/audit/rounds/{paid.pk}/void/approve/").status_code == 302
    paid.refresh_from_db()
    assert paid.status == "voided" and paid.voided_by == f["pitboss3"]
    assert paid.void_requested_by == f["pitboss2"] and paid.void_reason == REASON
    meter.refresh_from_db()
    assert meter.value_cents == start  # as if the jackpot round had never been played
    jackpot = MeterEntry.objects.get(round=paid, kind="jackpot")
    voids = list(MeterEntry.objects.filter(round=paid, kind="void").order_by("id"))
    assert [e.amount_cents for e in voids] == [-jackpot.amount_cents, -20]
    assert all(e.by == f["pitboss3"] for e in voids)
    kinds = [(e.kind, e.actor_name) for e in new_events(seq)]
    assert kinds == [("meter.round_voided", "pitboss3"), ("round.voided", "pitboss3")]
    voided = AuditEvent.objects.get(kind="round.voided", object_id=str(paid.pk))
    assert voided.data["requested_by"] == "pitboss2" and voided.data["approved_by"] == "pitboss3"
    assert voided.data["reason"] == REASON
    after = hold(paid)
    assert after["voids"] == 1 and after["rounds"] == 0
    # the record in words
    shown = text(third.get(f"/audit/rounds/{paid.pk}/"))
    assert "Void requested by pit boss pitboss2" in shown
    assert "Voided: asked for by pit boss pitboss2, approved by pit boss pitboss3" in shown
    assert verify_record().problems == ()


def test_a_void_waiting_is_withdrawn_by_its_requester_or_another_pit_boss(
    f: dict[str, Any],
) -> None:
    paid = jackpot_paid(f)
    n = paid.number
    corrections.round_void(round=paid, by=f["pitboss2"], reason=REASON)
    # the dealer (a pit boss too) may not withdraw it
    words = f"You dealt round LB-1 #{n}; another pit boss must withdraw its void"
    seq = last_seq()
    path = f"/api/rounds/{paid.pk}/void-withdraw/"
    answer = api(f["sly"]).post(path, {"reason": "no"}, format="json")
    assert answer.status_code == 403 and answer.json()["error"]["message"] == words
    refused_once(seq, f["sly"], "withdraw_void", paid, path, words)
    assert "Withdraw</button>" not in text(page(f["sly"]).get(f"/audit/rounds/{paid.pk}/"))
    # its requester withdraws it from the round's record, with a reason
    asker = page(f["pitboss2"])
    none = api(f["pitboss2"]).post(path, {}, format="json")
    assert none.status_code == 400 and none.json()["error"]["field"] == "reason"
    posted = asker.post(
        f"/audit/rounds/{paid.pk}/void/withdraw/", {"reason": "the cards were right"}
    )
    assert posted.status_code == 302
    paid.refresh_from_db()
    assert paid.status == "settled" and not paid.void_waiting
    assert paid.void_requested_by is None and paid.void_reason == ""
    withdrawn = AuditEvent.objects.get(kind="round.void_withdrawn")
    assert withdrawn.actor_name == "pitboss2"
    assert withdrawn.data["reason"] == "the cards were right"
    assert withdrawn.data["requested_by"] == "pitboss2" and withdrawn.data["void_reason"] == REASON
    # voided again from the page: it waits again; another pit boss withdraws it over the API
    third = page(f["pitboss3"])
    posted = third.post(f"/audit/rounds/{paid.pk}/void/", {"reason": "seat 1 had a 5"})
    assert "waits for another pit boss" in text(third.get(posted["Location"]))
    paid.refresh_from_db()
    assert paid.void_waiting and paid.void_requested_by == f["pitboss3"]
    done = api(f["pitboss2"]).post(path, {"reason": "checked the camera"}, format="json")
    assert done.status_code == 200 and done.json()["void_waiting"] is False
    assert done.json()["status"] == "settled"
    nothing = api(f["pitboss2"]).post(path, {"reason": "again"}, format="json")
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "no_void_waiting"
    assert verify_record().problems == ()


def test_a_small_void_happens_at_once(f: dict[str, Any], settled: Round) -> None:
    answer = api(f["pitboss"]).post(
        f"/api/rounds/{settled.pk}/void/", {"reason": "wrong card"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "voided" and answer.json()["void_waiting"] is False
    assert answer.json()["voided_by"] == "pitboss" and answer.json()["void_requested_by"] is None
    event = AuditEvent.objects.get(kind="round.voided")
    assert "requested_by" not in event.data
    assert not AuditEvent.objects.filter(kind="round.void_requested").exists()
    assert verify_record().problems == ()


def test_a_void_leaving_the_meter_below_zero_is_refused_when_asked_and_when_approved(
    f: dict[str, Any],
) -> None:
    """A seat paid the table's threshold: signed off, so its void waits too."""
    table = f["LB-1"]
    table.approval_threshold_cents = 4000
    table.save()
    r = lowball(f, "2h 3c 5d", "9s 7d 6c")  # seat 1 wins $42 (ante, bonus, five high)
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=f["sly"])
    paid = controls.round_approve(round=r, by=f["pitboss"])
    assert "its payout was signed off by pitboss" in corrections.void_reasons(paid)
    meter = meter_of(f)

    def drain() -> None:
        meter.refresh_from_db()
        meter_correct(meter=meter, by=f["admin"], amount_cents=10 - meter.value_cents, reason="x")

    drain()
    seq = last_seq()
    with pytest.raises(ServiceError) as err:
        corrections.round_void(round=paid, by=f["pitboss2"], reason=REASON)
    assert err.value.code == "meter_below_zero"
    assert new_events(seq) == []
    paid.refresh_from_db()
    assert not paid.void_waiting
    meter_correct(meter=meter, by=f["admin"], amount_cents=1000, reason="refilled")
    assert corrections.round_void(round=paid, by=f["pitboss2"], reason=REASON).void_waiting
    drain()
    entries, seq = MeterEntry.objects.count(), last_seq()
    answer = api(f["pitboss3"]).post(f"/api/rounds/{paid.pk}/void-approve/")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "meter_below_zero"
    assert new_events(seq) == [] and MeterEntry.objects.count() == entries
    paid.refresh_from_db()
    assert paid.status == "settled" and paid.void_waiting


def test_the_dashboard_shows_each_button_only_to_who_may_press_it(f: dict[str, Any]) -> None:
    first = jackpot_paid(f)
    corrections.round_void(round=first, by=f["pitboss2"], reason=REASON)
    second = jackpot_waiting(f)
    dealt_void = f"You dealt round LB-1 #{first.number}; another pit boss must approve its void."
    dealt_pay = f"You dealt round LB-1 #{second.number}; another pit boss must approve it."
    asked = (
        f"You asked for the void of round LB-1 #{first.number}; another pit boss must approve it."
    )
    for path in ("/reports/dashboard/", "/reports/dashboard/floor/"):
        shown = text(page(f["sly"]).get(path))
        assert "Void requested by pitboss2 at" in shown and REASON in shown
        assert "Approve void" not in shown and "Approve and pay" not in shown
        assert dealt_void in shown and dealt_pay in shown
        shown = text(page(f["pitboss2"]).get(path))
        assert "Approve void" not in shown and asked in shown and "Approve and pay" in shown
        shown = text(page(f["pitboss3"]).get(path))
        assert "Approve void" in shown and "Approve and pay" in shown
        assert "another pit boss must" not in shown
        shown = text(page(f["auditor"]).get(path))  # reads the lists, no button, no refusal
        assert REASON in shown and "Approve" not in shown and "another pit boss" not in shown
    # approved from the dashboard, back to the dashboard
    posted = page(f["pitboss3"]).post(
        f"/audit/rounds/{first.pk}/void/approve/", {"back": "dashboard"}
    )
    assert posted.status_code == 303 and posted["Location"] == "/reports/dashboard/"
    first.refresh_from_db()
    assert first.status == "voided"


def test_who_may_do_what_is_read_for_every_listed_round_at_once(
    f: dict[str, Any], settled: Round
) -> None:
    """The dashboard's list asks once for all its rounds: the statements do not grow with it."""
    d = f["dealer"]
    played = [settled]
    for _ in range(4):
        r = svc.round_open(table=f["SC-1"], dealer=d, wagers={1: {"ante": "10.00"}})
        r = svc.round_deal(round=r, dealer=d, seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c")
        r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
        played.append(svc.round_settle(round=svc.round_dealer(round=r, dealer=d), dealer=d))
    rounds = list(Round.objects.filter(pk__in=[r.pk for r in played]).select_related("table"))
    rounds_allowed(f["pitboss"], rounds[:1])  # the caller's roles, read once per request
    with CaptureQueriesContext(connection) as one:
        rounds_allowed(f["pitboss"], rounds[:1])
    with CaptureQueriesContext(connection) as five:
        allowed = rounds_allowed(f["pitboss"], rounds)
    assert len(one) == len(five) == 1  # the rounds' events
    assert all(a.may == {"void": True} for a in allowed.values())
    dealt = rounds_allowed(f["sly"], rounds)  # sly dealt none of them
    assert all(a.may == {"void": True} and not a.why for a in dealt.values())
    assert rounds_allowed(f["auditor"], rounds)[settled.pk].may == {}


def test_every_separation_of_duties_refusal_is_recorded_once(f: dict[str, Any]) -> None:
    """The dashboard's approve, the record's void, the correction form and the tablet's
    sign-off: each refusal one refused permission naming the action and the round."""
    waiting = jackpot_waiting(f)
    n = waiting.number
    sly = page(f["sly"])
    # the dashboard's "Approve and pay", posted anyway
    seq = last_seq()
    path = f"/audit/rounds/{waiting.pk}/approve/"
    assert sly.post(path, {"confirm": "approve"}).status_code == 303
    words = f"You dealt round LB-1 #{n}; another pit boss must approve it"
    refused_once(seq, f["sly"], "approve", waiting, path, words)
    # the tablet: another dealer took over; sly's right password there is refused, recorded
    # once in sly's name (no sign-off failure event besides), and counted on the limit
    dealer_sign_out(dealer=f["sly"])
    dealer_sign_in(dealer=f["dealer2"], table=f["LB-1"])
    tablet = page(f["dealer2"])
    url = f"/tablet/table/{f['LB-1'].pk}/"
    round_id = hidden(tablet.get(url), "round")
    seq = last_seq()
    sent = tablet.post(
        url + "approve/", {"round": round_id, "approver": "sly", "approver-password": PASSWORD}
    )
    assert sent.status_code == 303
    assert "cannot sign off this payout" in text(tablet.get(sent["Location"]))
    (event,) = new_events(seq)
    assert event.kind == "permission.refused" and event.actor_name == "sly"
    assert event.data["action"] == "approve" and event.data["round_id"] == waiting.pk
    assert event.data["reason"] == words and event.data["at_tablet_of"] == "dealer2"
    assert failures(f"sign-off:dealer:{f['dealer2'].pk}") == 1
    paid = controls.round_approve(round=waiting, by=f["pitboss"])
    # the record's void form
    seq = last_seq()
    path = f"/audit/rounds/{paid.pk}/void/"
    posted = sly.post(path, {"reason": REASON})
    words = f"You dealt round LB-1 #{n}; another pit boss must void it"
    assert words in text(sly.get(posted["Location"]))
    refused_once(seq, f["sly"], "void", paid, path, words)
    assert not Round.objects.get(pk=paid.pk).void_waiting
    # the correction form
    corrections.round_void(round=paid, by=f["pitboss2"], reason=REASON)
    corrections.round_void_approve(round=paid, by=f["pitboss3"])
    paid.refresh_from_db()
    words = f"You dealt round LB-1 #{n}; another pit boss must correct it"
    assert f"{words}." in text(sly.get(f"/audit/rounds/{paid.pk}/correct/"))  # no form
    seq = last_seq()
    path = f"/audit/rounds/{paid.pk}/correct/"
    posted = sly.post(path, {"dealer-cards": "As 2d 5c"})
    assert posted.status_code == 303
    refused_once(seq, f["sly"], "correct", paid, path, words)
    assert not paid.corrections.exists()
    assert verify_record().problems == ()
