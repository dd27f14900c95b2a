"""Two buy-ins of one patron, at two tables, taking the patron's day past $10,000: one CTR,
holding both transactions, and the day's sum is both. In turn on any database; at once on
PostgreSQL (the patron's day is locked: the second waits for the first and reads its sum)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from compliance import selectors
from compliance.models import Ctr, MtlEntry, PatronDay
from tests.accounts.test_races import race
from tests.compliance.conftest import buy_in, described, identify


def _one_ctr_holding_both(patron: Any) -> None:
    (ctr,) = Ctr.objects.filter(patron=patron)
    (row,) = selectors.ctr_rows(Ctr.objects.filter(pk=ctr.pk))
    assert sorted(t.table.name for t in row["transactions"]) == ["LB-1", "SC-1"]
    assert row["total_cents"] == 1200000
    day = PatronDay.objects.get(patron=patron)
    assert (day.cash_in_cents, day.cash_out_cents) == (1200000, 0)
    totals = sorted(
        MtlEntry.objects.filter(patron=patron).values_list("day_total_cents", flat=True)
    )
    assert totals == [600000, 1200000]


def test_two_buy_ins_in_turn_make_one_ctr(cash: dict[str, Any]) -> None:
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "6000.00", seat=1, patron=patron.number)
    buy_in(cash, "LB-1", "6000.00", seat=2, patron=patron.number)
    _one_ctr_holding_both(patron)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_buy_ins_at_once_make_one_ctr(cash: dict[str, Any]) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL) for writers racing on separate connections")
    patron = identify(cash, described(cash))
    results = race(
        lambda: buy_in(cash, "SC-1", "6000.00", seat=1, patron=patron.number),
        lambda: buy_in(cash, "LB-1", "6000.00", seat=2, patron=patron.number),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    _one_ctr_holding_both(patron)
