"""The pit boss's sign-off typed at a dealer's tablet: one answer for every failure (no such
name, a wrong password, not a pit boss, the dealer at the tablet, the round's own dealer, a
locked account), so it tells nothing about any account; its failures count on their own limit
(per dealer and per address) and never toward the named account's lockout."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from accounts import signoff
from accounts.lockout import failures, is_locked
from accounts.models import SignInFailure
from audit.models import AuditEvent
from tables.models import MeterEntry, Round
from tables.services.sessions import dealer_sign_in, dealer_sign_out

from .test_tablet_controls import jackpot_to_confirm
from .test_tablet_views import client_for, hidden, refused, sign_in, text

pytestmark = pytest.mark.django_db

PASSWORD = "Dual-role-horse-77"


@pytest.fixture
def awaiting(floor: dict[str, Any]) -> tuple[Client, str, str]:
    """dealer's tablet at LB-1, a jackpot round waiting for a pit boss's sign-off."""
    dealer = client_for("dealer")
    table = floor["LB-1"]
    sign_in(dealer, table)
    url, round_id = jackpot_to_confirm(dealer, table)
    key = hidden(dealer.get(url), "idempotency_key")
    dealer.post(url + "settle/", {"round": round_id, "idempotency_key": key})
    assert Round.objects.get(pk=round_id).approval_requested_at is not None
    return dealer, url, round_id


def try_sign_off(client: Client, url: str, round_id: str, name: str, password: str) -> str:
    page = refused(
        client,
        url + "approve/",
        {"round": round_id, "approver": name, "approver-password": password},
    )
    return text(page)


def dual_role(username: str) -> Any:
    """An account holding both the dealer and the pit boss roles."""
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    user.groups.add(*Group.objects.filter(name__in=["dealer", "pit_boss"]))
    return user


@pytest.mark.parametrize(
    ("name", "password"),
    [
        ("nobody", "demo"),  # no such account
        ("pitboss", "wrong"),  # a wrong password
        ("auditor", "demo"),  # right password, not a pit boss
        ("dealer", "demo"),  # the dealer at the tablet
        ("PITBOSS", "demo"),  # names are exact
    ],
)
def test_every_failure_gets_the_same_answer_and_nothing_is_paid(
    awaiting: tuple[Client, str, str], name: str, password: str
) -> None:
    dealer, url, round_id = awaiting
    entries = MeterEntry.objects.count()
    shown = try_sign_off(dealer, url, round_id, name, password)
    assert signoff.REFUSED in shown
    for telling in ("not a pit boss", "do not match", "own round", name + " is"):
        assert telling not in shown
    assert Round.objects.get(pk=round_id).status == "open"
    assert MeterEntry.objects.count() == entries
    refusal = AuditEvent.objects.get(kind="round.approval_refused")
    assert refusal.actor_name == "dealer" and refusal.object_id == str(round_id)


def test_the_rounds_own_dealer_cannot_sign_it_off_from_another_dealers_tablet(
    floor: dict[str, Any],
) -> None:
    dual = dual_role("dual")
    table = floor["LB-1"]
    first = Client()
    assert first.login(username="dual", password=PASSWORD)
    sign_in(first, table)
    url, round_id = jackpot_to_confirm(first, table)
    key = hidden(first.get(url), "idempotency_key")
    first.post(url + "settle/", {"round": round_id, "idempotency_key": key})
    # the dealer who dealt it holds the pit boss role too: at their own tablet, refused
    assert signoff.REFUSED in try_sign_off(first, url, round_id, "dual", PASSWORD)
    # another dealer takes the table over: the round's own dealer still cannot sign it off
    dealer_sign_out(dealer=dual)
    dealer_sign_in(dealer=floor["dealer2"], table=table)
    second = client_for("dealer2")
    assert signoff.REFUSED in try_sign_off(second, url, round_id, "dual", PASSWORD)
    assert Round.objects.get(pk=round_id).status == "open"
    ok = second.post(
        url + "approve/", {"round": round_id, "approver": "pitboss", "approver-password": "demo"}
    )
    assert ok.status_code == 303
    assert Round.objects.get(pk=round_id).approved_by == floor["pitboss"]


def test_a_locked_pit_boss_cannot_sign_off(awaiting: tuple[Client, str, str]) -> None:
    dealer, url, round_id = awaiting
    from accounts.lockout import record_failure

    for _ in range(10):
        record_failure("pitboss", "192.0.2.9")
    assert is_locked("pitboss")
    assert signoff.REFUSED in try_sign_off(dealer, url, round_id, "pitboss", "demo")
    assert Round.objects.get(pk=round_id).status == "open"


def test_failed_sign_offs_never_lock_the_pit_boss(
    awaiting: tuple[Client, str, str], settings: Any
) -> None:
    settings.CASINO_SIGN_OFF_FAILURES = 50
    dealer, url, round_id = awaiting
    for _ in range(12):
        assert signoff.REFUSED in try_sign_off(dealer, url, round_id, "pitboss", "wrong")
    assert not is_locked("pitboss")
    assert failures("pitboss") == 0
    assert not SignInFailure.objects.filter(username="pitboss").exists()
    assert not AuditEvent.objects.filter(kind="auth.login_failed").exists()
    assert Client().login(username="pitboss", password="demo")  # signs in everywhere as before


def test_the_sign_off_stops_at_its_own_limit_then_takes_none(
    awaiting: tuple[Client, str, str], settings: Any
) -> None:
    dealer, url, round_id = awaiting
    limit = settings.CASINO_SIGN_OFF_FAILURES
    for n in range(limit):
        assert signoff.REFUSED in try_sign_off(dealer, url, round_id, f"guess-{n}", "demo")
    response = dealer.post(
        url + "approve/", {"round": round_id, "approver": "pitboss", "approver-password": "demo"}
    )
    assert response.status_code == 303
    shown = text(dealer.get(response["Location"]))
    assert "Too many failed sign-offs at this tablet" in shown
    assert Round.objects.get(pk=round_id).status == "open"  # even the right password: refused
    assert AuditEvent.objects.filter(kind="round.approval_refused").count() == limit
    # the pit boss approves from the dashboard, signed in as themselves
    boss = client_for("pitboss")
    approved = boss.post(f"/audit/rounds/{round_id}/approve/", {"confirm": "approve"})
    assert approved.status_code == 303
    assert Round.objects.get(pk=round_id).status == "settled"


def test_the_limit_passes_with_its_window(awaiting: tuple[Client, str, str], settings: Any) -> None:
    dealer, url, round_id = awaiting
    for n in range(settings.CASINO_SIGN_OFF_FAILURES):
        try_sign_off(dealer, url, round_id, f"guess-{n}", "demo")
    assert "Too many failed sign-offs" in try_sign_off(dealer, url, round_id, "pitboss", "demo")
    SignInFailure.objects.update(at=SignInFailure.objects.first().at.replace(year=2000))
    ok = dealer.post(
        url + "approve/", {"round": round_id, "approver": "pitboss", "approver-password": "demo"}
    )
    assert ok.status_code == 303 and ok["Location"] == f"/tablet/round/{round_id}/"
