"""The simulation's slips are consistent with its hands (the reconciliation shows no variance),
and a shortage asked for shows as that table's and shift's variance, with its alert."""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import pytest

from accounting import selectors
from accounting.models import Slip, VarianceAlert
from accounting.simulation import ShiftBook, as_chips, fill_chips, seed_slips, staff
from tables.simulation import play_round

from .conftest import Clock, play

pytestmark = pytest.mark.django_db


def test_as_chips_and_fills(pit: dict[str, Any]) -> None:
    assert as_chips(2_215_50) == {"1000.00": 2, "100.00": 2, "5.00": 3, "0.50": 1}
    assert sum(int(k.replace(".", "")) * n for k, n in fill_chips(10_000_00).items()) == 10_000_00
    with pytest.raises(ValueError, match=r"\$0.25 cannot be made"):
        as_chips(25)


@pytest.mark.parametrize("shortage", [0, 2500])
def test_a_live_shift_with_its_slips(pit: dict[str, Any], clock: Clock, shortage: int) -> None:
    clock.set(15)
    table = pit["PY-1"]
    from tables.services.sessions import dealer_sign_in

    dealer_sign_in(dealer=pit["dealer2"], table=table)
    table.refresh_from_db()
    rng = random.Random(7)
    book = ShiftBook(
        table=table, dealer=pit["dealer2"], people=staff(), rng=rng, shortage_cents=shortage
    )
    book.open()
    for _ in range(25):
        book.before_round()
        book.after_round(play_round(table, pit["dealer2"], rng))
    summary = book.close()
    row = selectors.shift_rows(gaming_day=date(2026, 11, 20), tables=[table.pk])[
        (table.pk, "14:00")
    ]
    assert row["complete"] and row["pending_slips"] == 0
    assert row["drop_cents"] == row["expected_drop_cents"] == summary["drop_cents"]
    assert row["count_win_cents"] == row["win_cents"] - shortage
    assert row["variance_cents"] == -shortage == summary["expected_variance_cents"]
    assert VarianceAlert.objects.count() == (1 if shortage else 0)


def test_a_seeded_history_reconciles_but_for_the_shortage(
    pit: dict[str, Any], clock: Clock
) -> None:
    day = date(2026, 11, 20)
    hand = 0
    for hour in (7, 15):
        clock.set(hour)
        for _ in range(6):
            play(pit, hand)
            hand += 1
    summary = seed_slips(
        days=[day], rng=random.Random(3), shortage=(pit["SC-1"].pk, day, "14:00", 2500)
    )
    assert summary["slips"] == Slip.objects.count() and summary["variance_alerts"] == 1
    assert not Slip.objects.exclude(status="signed").exists()
    rows = selectors.shift_rows(gaming_day=day, tables=[pit["SC-1"].pk])
    assert rows[(pit["SC-1"].pk, "06:00")]["variance_cents"] == 0
    assert rows[(pit["SC-1"].pk, "14:00")]["variance_cents"] == -2500
    # The next shift's opener is the last closer.
    opener = Slip.objects.get(kind="opener", shift="14:00")
    closer = Slip.objects.get(kind="closer", shift="06:00")
    assert opener.amount_cents == closer.amount_cents
    (alert,) = VarianceAlert.objects.all()
    assert (alert.table.name, alert.shift, alert.variance_cents) == ("SC-1", "14:00", -2500)


def test_a_simulated_shift_past_its_gaming_day_gives_the_late_slips_reasons(
    pit: dict[str, Any], clock: Clock
) -> None:
    """A run that passes into the next gaming day enters the rest of its shift's slips for the
    previous one, each with its reason (the drop's the morning count's), on the chain."""
    from accounting.rules import MORNING_COUNT_REASON
    from accounting.simulation import LATE_REASON
    from audit.models import AuditEvent
    from tables.services.sessions import dealer_sign_in

    clock.set(23)
    table = pit["PY-1"]
    dealer_sign_in(dealer=pit["dealer2"], table=table)
    table.refresh_from_db()
    rng = random.Random(7)
    book = ShiftBook(table=table, dealer=pit["dealer2"], people=staff(), rng=rng)
    book.open()
    for _ in range(5):
        book.before_round()
        book.after_round(play_round(table, pit["dealer2"], rng))
    clock.set(9, next_day=True)
    book.close()
    late = {
        e.data["kind"]: e.data.get("late_reason")
        for e in AuditEvent.objects.filter(kind="slip.created")
    }
    assert late["opener"] is None
    assert late["closer"] == LATE_REASON and late["drop"] == MORNING_COUNT_REASON
    assert set(Slip.objects.values_list("gaming_day", flat=True)) == {date(2026, 11, 20)}
