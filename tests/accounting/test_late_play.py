"""The count against play that changes after the shift was counted: a round settled (or a poker
hand finished) in a shift whose closer and drop are signed moves the variance, and is compared
again in its own transaction, raising the alert the dashboard shows. Poker tables are in the
count: their hands' win is their rake."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounting import selectors
from accounting.models import VarianceAlert
from audit.models import AuditEvent
from tables.models import Hand
from tables.services import hands as hand_svc
from tables.services.sessions import dealer_sign_in

from .conftest import Clock, play
from .test_reconciliation import DAY, run_day

pytestmark = pytest.mark.django_db

CHECKED_DOWN = [
    {"hole": ["Ah", "Kc", "2d"]},
    *[{"action": "check"}] * 3,
    {"flop": "7s"},
    *[{"action": "check"}] * 3,
    {"turn": "8s"},
    *[{"action": "check"}] * 3,
]  # three players ante $5: pot $15.00, rake 5% = $0.75


def poker_hand(pit: dict[str, Any]) -> Hand:
    table, dealer = pit["RI-1"], pit["dealer2"]
    hand = hand_svc.hand_open(table=table, dealer=dealer, players={1: 10_000, 2: 10_000, 3: 10_000})
    for step in CHECKED_DOWN:
        hand = hand_svc.hand_act(hand=hand, dealer=dealer, step=step)
    return hand_svc.hand_finish(hand=hand, dealer=dealer)


def dashboard(pit: dict[str, Any]) -> str:
    client = Client()
    client.force_login(pit["auditor"])
    return client.get(reverse("reports:dashboard"), {"day": DAY.isoformat()}).content.decode()


def test_a_round_settled_after_the_count_raises_the_alert(
    pit: dict[str, Any], clock: Clock
) -> None:
    run_day(pit, clock)
    assert not VarianceAlert.objects.exists()
    clock.set(13, 0)  # back in the 06:00 shift, after its closer and drop were signed
    late = play(pit, 1)  # the player's pair wins: the house loses
    assert (late.gaming_day, late.shift) == (DAY, "06:00")
    win = -late.players_net_cents
    assert win != 0
    (alert,) = VarianceAlert.objects.all()
    assert (alert.table, alert.shift) == (pit["SC-1"], "06:00")
    assert alert.variance_cents == -win and alert.is_open
    row = selectors.shift_rows(gaming_day=DAY, tables=[pit["SC-1"].pk])[(pit["SC-1"].pk, "06:00")]
    assert row["variance_cents"] == alert.variance_cents
    event = AuditEvent.objects.get(kind="variance.alert_raised")
    assert event.data["variance_cents"] == -win
    # One alert per distinct variance: the same figure is not raised twice.
    assert selectors.open_alerts().count() == 1


def test_a_round_in_a_shift_not_counted_raises_nothing(pit: dict[str, Any], clock: Clock) -> None:
    clock.set(7, 0)
    play(pit, 1)
    assert not VarianceAlert.objects.exists()


def test_a_poker_hand_after_the_count_is_compared_again(pit: dict[str, Any], clock: Clock) -> None:
    run_day(pit, clock)
    # The 06:00 shift of RI-1 counted with nothing played: opener, closer and drop signed.
    clock.set(13, 0)
    dealer_sign_in(dealer=pit["dealer2"], table=pit["RI-1"])
    from accounting.services import slip_create, slip_sign

    from .conftest import as_chips

    table = pit["RI-1"]
    opener = slip_create(table=table, kind="opener", by=pit["dealer2"], chips=as_chips(1_000_00))
    slip_sign(slip=opener, by=pit["pitboss"])
    closer = slip_create(table=table, kind="closer", by=pit["pitboss"], chips=as_chips(1_000_00))
    slip_sign(slip=closer, by=pit["dealer2"])
    hand = poker_hand(pit)
    assert hand.rake_cents == 75
    # No drop yet: the count is not complete, nothing to compare.
    assert not VarianceAlert.objects.filter(table=table).exists()
    row = selectors.shift_rows(gaming_day=DAY, tables=[table.pk])[(table.pk, "06:00")]
    assert row["win_cents"] == 75 and row["variance_cents"] is None


def test_poker_tables_are_in_the_reconciliation_and_the_count(
    pit: dict[str, Any], clock: Clock
) -> None:
    clock.set(7, 0)
    dealer_sign_in(dealer=pit["dealer2"], table=pit["RI-1"])
    play(pit, 0)
    poker_hand(pit)
    poker_hand(pit)
    table = pit["RI-1"]
    day = selectors.day_rows(gaming_day=DAY)
    assert day[table.pk]["win_cents"] == 150  # the rake is the house's win
    assert day[table.pk]["count_win_cents"] is None  # no slips yet
    boss = Client()
    boss.force_login(pit["pitboss"])
    page = boss.get(reverse("accounting:reconciliation"), {"day": DAY.isoformat()})
    text = page.content.decode()
    assert "RI-1" in text and "SC-1" in text
    assert "$1.50" in text
    count = dashboard(pit).split('id="count-today"', 1)[1].split("</table>", 1)[0]
    assert '<tr data-table="RI-1">' in count and '<tr data-table="SC-1">' in count
    # A voided hand leaves the count's win.
    hand = Hand.objects.filter(table=table).first()
    assert hand is not None
    hand_svc.hand_void(hand=hand, by=pit["pitboss"], reason="cards exposed")
    assert selectors.day_rows(gaming_day=DAY)[table.pk]["win_cents"] == 75
