"""A patron's gaming day of cash over three tables: the MTL from $3,000, a CTR above
$10,000 (cash in and cash out kept apart), the refusal until the patron is identified, a buy-in
at the threshold without its patron refused with nothing saved."""

from __future__ import annotations

from typing import Any

import pytest

from accounting.models import Slip
from audit.models import AuditEvent
from compliance.models import CashTransaction, Ctr, MtlEntry, PatronDay
from compliance.services import cash_out_record
from core.errors import ServiceError
from tests.compliance.conftest import buy_in, described, identify


def _refused(call: Any) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        call()
    return err.value


def test_a_small_buy_in_needs_no_patron_and_records_its_seat(cash: dict[str, Any]) -> None:
    slip = buy_in(cash, "SC-1", "200.00")
    tx = CashTransaction.objects.get(slip=slip)
    assert (tx.seat, tx.patron, tx.amount_cents, tx.direction) == (None, None, 20000, "in")
    slip = buy_in(cash, "SC-1", "2999.99", seat=3)
    assert CashTransaction.objects.get(slip=slip).seat == 3
    assert not MtlEntry.objects.exists()


def test_a_buy_in_at_the_mtl_threshold_without_a_patron_is_refused(cash: dict[str, Any]) -> None:
    slips, events = Slip.objects.count(), AuditEvent.objects.count()
    err = _refused(lambda: buy_in(cash, "SC-1", "3000.00", seat=2))
    assert err.field == "patron"
    assert err.message.startswith("patron: a cash buy-in of $3,000.00 or more names its patron")
    err = _refused(lambda: buy_in(cash, "LB-1", "12000.00"))
    assert "this one is $12,000.00" in err.message
    assert (Slip.objects.count(), AuditEvent.objects.count()) == (slips, events)
    assert not CashTransaction.objects.exists()


def test_a_seat_the_table_does_not_have_is_refused(cash: dict[str, Any]) -> None:
    for seat in (0, 8, "x", True):
        err = _refused(lambda seat=seat: buy_in(cash, "SC-1", "100.00", seat=seat))
        assert err.field == "seat" and "seats 1 to 7" in err.message
    assert not Slip.objects.filter(kind="buy_in").exists()


def test_a_patrons_day_over_three_tables(cash: dict[str, Any]) -> None:
    patron = described(cash)
    number = patron.number
    buy_in(cash, "SC-1", "2000.00", seat=1, patron=number)  # under the MTL: no entry
    assert not MtlEntry.objects.exists()
    buy_in(cash, "LB-1", "1000.00", seat=4, patron=number)  # takes the day to $3,000.00
    entry = MtlEntry.objects.get()
    assert (entry.day_total_cents, entry.direction) == (300000, "in")
    buy_in(cash, "PY-1", "7000.00", seat=2, patron=number)  # the day at $10,000.00: no CTR yet
    assert MtlEntry.objects.count() == 2 and not Ctr.objects.exists()
    buy_in(cash, "SC-1", "0.01", seat=1, patron=number)  # strictly more than $10,000.00
    ctr = Ctr.objects.get()
    assert (ctr.patron, ctr.direction) == (patron, "in")
    day = PatronDay.objects.get(patron=patron)
    assert (day.cash_in_cents, day.cash_out_cents) == (1000001, 0)
    # the CTR is open and the patron unidentified: the next cash transaction waits
    err = _refused(lambda: buy_in(cash, "LB-1", "100.00", seat=4, patron=number))
    assert err.field == "patron" and "identify the patron" in err.message
    assert "Currency Transaction Report" in err.message
    assert CashTransaction.objects.filter(patron=patron).count() == 4
    identify(cash, patron)
    buy_in(cash, "LB-1", "100.00", seat=4, patron=number)
    assert Ctr.objects.count() == 1  # one CTR for the day, holding every transaction
    assert CashTransaction.objects.filter(patron=patron).count() == 5


def test_cash_in_and_cash_out_are_kept_apart(cash: dict[str, Any]) -> None:
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "8000.00", seat=1, patron=patron.number)
    cash_out_record(patron=patron.number, amount="8000.00", by=cash["cage"])
    buy_in(cash, "LB-1", "2500.00", seat=1, patron=patron.number)
    day = PatronDay.objects.get(patron=patron)
    assert (day.cash_in_cents, day.cash_out_cents) == (1050000, 800000)  # never netted
    assert list(Ctr.objects.values_list("direction", flat=True)) == ["in"]
    cash_out_record(patron=patron.number, amount="2000.01", by=cash["cage"])
    assert sorted(Ctr.objects.values_list("direction", flat=True)) == ["in", "out"]
    assert MtlEntry.objects.filter(direction="out").count() == 2


def test_a_payout_at_the_threshold_names_its_patron(cash: dict[str, Any]) -> None:
    err = _refused(lambda: cash_out_record(patron=None, amount="3000.00", by=cash["cage"]))
    assert err.field == "patron" and "cash payout of $3,000.00" in err.message
    with pytest.raises(Exception, match="only a cage"):
        cash_out_record(patron=None, amount="10.00", by=cash["dealer"])


def test_a_player_card_or_a_description_names_the_patron(cash: dict[str, Any]) -> None:
    slip = buy_in(cash, "SC-1", "5000.00", seat=2, patron="100001")
    tx = CashTransaction.objects.get(slip=slip)
    assert tx.patron is not None and tx.patron.player is not None
    assert tx.patron.player.card == "100001"
    again = buy_in(cash, "LB-1", "100.00", seat=2, patron="100001")
    assert CashTransaction.objects.get(slip=again).patron == tx.patron
    new = buy_in(
        cash,
        "PY-1",
        "4000.00",
        seat=5,
        patron={"description": {"sex": "female", "hair": "red", "where_seen": "PY-1 seat 5"}},
    )
    described_patron = CashTransaction.objects.get(slip=new).patron
    assert described_patron is not None and described_patron.hair == "red"
    for bad, words in (
        ("P99999", "there is no patron P99999"),
        ("999999", "no player has card 999999"),
        ("walter", "give a patron number"),
        ({"description": {}}, "describe the patron"),
        ({"description": {"eyes": "blue"}}, "eyes"),
    ):
        err = _refused(lambda bad=bad: buy_in(cash, "SC-1", "3000.00", seat=1, patron=bad))
        assert words in err.message, err.message
    assert CashTransaction.objects.count() == 3
