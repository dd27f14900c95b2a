"""A whole gaming day at a table, counted as the pit counts it (openers, buy-ins into the drop
box, fills, credits, closers, the drop), reconciles with its hands to the cent; a $25 chip gone
from one shift's tray shows as that table's and shift's variance, and its alert, acknowledged by
a pit boss with a note, is on the chain."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from accounting import selectors
from accounting.models import Slip, VarianceAlert
from accounting.rules import MORNING_COUNT_REASON
from accounting.services import slip_create, slip_sign, variance_acknowledge
from audit.models import AuditEvent

from .conftest import Clock, as_chips, play

pytestmark = pytest.mark.django_db

DAY = date(2026, 11, 20)
# (shift, the clock's hour in it, whether the day's next morning)
SHIFTS = [("06:00", 7, False), ("14:00", 15, False), ("22:00", 2, True)]


def fill(pit: dict[str, Any], chips: dict[str, int]) -> Slip:
    """A pit boss requests it, the cage issues it, the dealer at the table confirms receipt."""
    slip = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=chips)
    slip_sign(slip=slip, by=pit["cage"])
    return slip_sign(slip=slip, by=pit["dealer"])


def credit(pit: dict[str, Any], chips: dict[str, int]) -> Slip:
    """A pit boss requests it, the dealer releases the chips, the cage confirms receipt."""
    slip = slip_create(table=pit["SC-1"], kind="credit", by=pit["pitboss"], chips=chips)
    slip_sign(slip=slip, by=pit["dealer"])
    return slip_sign(slip=slip, by=pit["cage"])


def run_day(pit: dict[str, Any], clock: Clock, *, missing_in: str | None = None) -> dict[str, int]:
    """Play the day shift by shift, moving a tray of chips as a table does; returns each shift's
    hands' win. `missing_in`: a $25 chip leaves that shift's tray unaccounted for."""
    table, dealer = pit["SC-1"], pit["dealer"]
    tray = 2_000_00  # the tray's value, in cents; it starts the day with $2,000
    wins: dict[str, int] = {}
    hand = 0
    for shift, hour, next_day in SHIFTS:
        clock.set(hour, 0, next_day=next_day)
        opener = slip_create(table=table, kind="opener", by=dealer, chips=as_chips(tray))
        slip_sign(slip=opener, by=pit["pitboss"])
        drop = 0
        wins[shift] = 0
        for buy_in in ("300.00", "150.00", "500.00"):
            slip_create(table=table, kind="buy_in", by=dealer, amount=buy_in)
            cents = int(buy_in.replace(".", ""))
            tray -= cents  # chips out to the player ...
            drop += cents  # ... cash into the drop box
            for _ in range(4):
                r = play(pit, hand)
                hand += 1
                tray += r.house_win_cents
                wins[shift] += r.house_win_cents
            if tray < 1_000_00:  # the tray runs low: a fill
                fill(pit, {"100.00": 5, "25.00": 20})
                tray += 1_000_00
        if shift == "14:00":  # too many black chips in the tray: a credit to the cage
            credit(pit, {"100.00": 4})
            tray -= 400_00
        if shift == missing_in:
            tray -= 25_00  # a green chip goes missing
        closer = slip_create(table=table, kind="closer", by=pit["pitboss"], chips=as_chips(tray))
        slip_sign(slip=closer, by=dealer)
        # The soft count, the next morning, for this shift's box.
        clock.set(9, 0, next_day=True)
        box = slip_create(
            table=table,
            kind="drop",
            by=pit["count"],
            amount=f"{drop // 100}.{drop % 100:02d}",
            gaming_day=DAY,
            shift=shift,
            reason=MORNING_COUNT_REASON,
        )
        slip_sign(slip=box, by=pit["count2"])
    return wins


def test_a_whole_gaming_day_counts_to_the_hands_win_to_the_cent(
    pit: dict[str, Any], clock: Clock
) -> None:
    wins = run_day(pit, clock)
    table = pit["SC-1"]
    rows = selectors.shift_rows(gaming_day=DAY, tables=[table.pk])
    assert sorted(shift for _t, shift in rows) == ["06:00", "14:00", "22:00"]
    for shift, win in wins.items():
        row = rows[(table.pk, shift)]
        assert row["complete"] and row["pending_slips"] == 0
        assert row["win_cents"] == win
        assert row["count_win_cents"] == win
        assert row["variance_cents"] == 0
        assert row["drop_cents"] == row["expected_drop_cents"] == 950_00
    day = selectors.day_rows(gaming_day=DAY, tables=[table.pk])[table.pk]
    assert day["count_win_cents"] == day["win_cents"] == sum(wins.values())
    assert day["variance_cents"] == 0
    assert day["drop_cents"] == 3 * 950_00
    assert day["fills_cents"] > 0 and day["credits_cents"] == 400_00
    assert day["hold_percent_drop"] == selectors.hold_percent_drop(sum(wins.values()), 3 * 950_00)
    assert not VarianceAlert.objects.exists()


def test_a_missing_25_dollar_chip_names_the_table_and_shift(
    pit: dict[str, Any], clock: Clock
) -> None:
    wins = run_day(pit, clock, missing_in="14:00")
    table = pit["SC-1"]
    rows = selectors.shift_rows(gaming_day=DAY, tables=[table.pk])
    assert rows[(table.pk, "06:00")]["variance_cents"] == 0
    assert rows[(table.pk, "14:00")]["variance_cents"] == -25_00
    assert rows[(table.pk, "14:00")]["count_win_cents"] == wins["14:00"] - 25_00
    # The next shift opens with the tray as it is: it reconciles again.
    assert rows[(table.pk, "22:00")]["variance_cents"] == 0
    assert (
        selectors.day_rows(gaming_day=DAY, tables=[table.pk])[table.pk]["variance_cents"] == -2500
    )

    (alert,) = VarianceAlert.objects.all()
    assert (alert.table, alert.gaming_day, alert.shift) == (table, DAY, "14:00")
    assert alert.variance_cents == -25_00 and alert.is_open
    raised = AuditEvent.objects.get(kind="variance.alert_raised")
    assert raised.table_name == "SC-1"
    assert raised.data["shift"] == "14:00" and raised.data["gaming_day"] == "2026-11-20"
    assert raised.data["variance_cents"] == -2500

    # Only a pit boss acknowledges it, with a note; once.
    from django.core.exceptions import PermissionDenied

    from core.errors import ServiceError

    with pytest.raises(PermissionDenied):
        variance_acknowledge(alert=alert, by=pit["cage"], note="found it")
    with pytest.raises(ServiceError) as refused:
        variance_acknowledge(alert=alert, by=pit["pitboss"], note="  ")
    assert refused.value.field == "note"
    variance_acknowledge(
        alert=alert, by=pit["pitboss"], note="green chip found under the tray; dealer warned"
    )
    alert.refresh_from_db()
    assert not alert.is_open and alert.acknowledged_by == pit["pitboss"]
    event = AuditEvent.objects.get(kind="variance.acknowledged")
    assert event.data["note"] == "green chip found under the tray; dealer warned"
    assert event.table_name == "SC-1" and event.actor_name == "pitboss"
    with pytest.raises(ServiceError):
        variance_acknowledge(alert=alert, by=pit["pitboss"], note="again")


def test_a_variance_within_the_tolerance_raises_no_alert(
    pit: dict[str, Any], clock: Clock, settings: Any
) -> None:
    settings.CASINO_VARIANCE_TOLERANCE_CENTS = 25_00
    run_day(pit, clock, missing_in="06:00")
    rows = selectors.shift_rows(gaming_day=DAY, tables=[pit["SC-1"].pk])
    assert rows[(pit["SC-1"].pk, "06:00")]["variance_cents"] == -25_00
    assert not VarianceAlert.objects.exists()


def test_unsigned_slips_do_not_count(pit: dict[str, Any], clock: Clock) -> None:
    table = pit["SC-1"]
    clock.set(7)
    opener = slip_create(table=table, kind="opener", by=pit["dealer"], chips={"25.00": 40})
    slip_sign(slip=opener, by=pit["pitboss"])
    slip_create(table=table, kind="fill", by=pit["pitboss"], chips={"100.00": 10})
    closer = slip_create(table=table, kind="closer", by=pit["dealer"], chips={"25.00": 40})
    row = selectors.shift_rows(gaming_day=DAY, tables=[table.pk])[(table.pk, "06:00")]
    assert row["opener_cents"] == 1000_00 and row["closer_cents"] is None
    assert row["fills_cents"] == 0 and row["pending_slips"] == 2
    assert row["count_win_cents"] is None and row["variance_cents"] is None
    slip_sign(slip=closer, by=pit["pitboss"])
    row = selectors.shift_rows(gaming_day=DAY, tables=[table.pk])[(table.pk, "06:00")]
    assert row["closer_cents"] == 1000_00 and row["count_win_cents"] is None  # no drop yet


def test_the_report_groupings_carry_the_count(pit: dict[str, Any], clock: Clock) -> None:
    wins = run_day(pit, clock, missing_in="22:00")
    by_table = selectors.accounting_by(start=DAY, end=DAY, by="table")
    sc = by_table["SC-1"]
    assert sc["count_win_cents"] == sum(wins.values()) - 2500 and sc["variance_cents"] == -2500
    assert sc["drop_cents"] == sc["expected_drop_cents"] == 3 * 950_00
    assert sc["hold_percent_drop"] == selectors.hold_percent_drop(sc["count_win_cents"], 285000)
    by_shift = selectors.accounting_by(start=DAY, end=DAY, by="shift")
    assert [by_shift[s]["variance_cents"] for s in ("06:00", "14:00", "22:00")] == [0, 0, -2500]
    by_day = selectors.accounting_by(start=DAY, end=DAY, by="gaming_day")
    assert by_day[DAY]["variance_cents"] == -2500
    assert selectors.accounting_by(start=DAY, end=DAY, by="dealer") == {}
    assert selectors.accounting_by(start=DAY, end=DAY, by="table", table="LB-1") == {}
