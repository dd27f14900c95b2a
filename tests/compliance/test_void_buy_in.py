"""A voided buy-in's cash did not change hands: once two people have voided its slip it stops
counting in its patron's day (a `CashVoid` row, the day taken back in the void's transaction),
while the MTL entry and the CTR it made stay, shown as voided on the compliance pages."""

from __future__ import annotations

from typing import Any

from django.test import Client

from accounting.services import slip_void
from audit.models import AuditEvent
from audit.verify import verify_record
from compliance import selectors
from compliance.merge import patron_merge
from compliance.models import CashVoid, Ctr, MtlEntry, PatronDay
from compliance.services import cage_record
from tests.compliance.conftest import buy_in, described, identify, today


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _void(cash: dict[str, Any], slip: Any, table: str) -> None:
    """The dealer at the table asks, the pit boss confirms (two people)."""
    slip_void(slip=slip, by=cash["dealers"][table], reason="rang up the wrong amount")
    slip_void(slip=slip, by=cash["pitboss"], reason="agreed: the player bought in $500.00")


def test_a_voided_buy_in_stops_counting_but_its_ctr_and_mtl_stay(cash: dict[str, Any]) -> None:
    patron = described(cash)
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=patron.number)
    wrong = buy_in(cash, "LB-1", "5000.00", seat=1, patron=patron.number)
    day = PatronDay.objects.get(patron=patron, gaming_day=today())
    assert day.cash_in_cents == 11_000_00 and Ctr.objects.count() == 1
    # the first step alone changes nothing: the void waits for a second person
    slip_void(slip=wrong, by=cash["dealers"]["LB-1"], reason="rang up the wrong amount")
    assert not CashVoid.objects.exists()
    slip_void(slip=wrong, by=cash["pitboss"], reason="agreed")
    void = CashVoid.objects.get()
    assert void.transaction.slip == wrong and void.by == cash["pitboss"]
    day.refresh_from_db()
    assert day.cash_in_cents == 6_000_00  # the voided $5,000.00 no longer counts
    assert Ctr.objects.count() == 1 and MtlEntry.objects.count() == 2  # history stays
    event = AuditEvent.objects.filter(kind="cash.voided").get()
    assert event.data["cash_cents"] == 5_000_00 and event.data["day_total_cents"] == 6_000_00
    row = selectors.day_ctrs(today())[0]
    assert (row["total_cents"], row["voided_cents"]) == (6_000_00, 5_000_00)
    page = _client(cash["compliance"]).get("/compliance/").content.decode()
    assert "<del>$5,000.00</del> voided" in page  # the MTL entry, shown voided
    assert "($5,000.00 voided)" in page  # the CTR's total without it
    ctr = Ctr.objects.get()
    printable = _client(cash["compliance"]).get(f"/compliance/ctr/{ctr.pk}/").content.decode()
    assert "$5,000.00 voided" in printable
    patron_page = _client(cash["cage"]).get(f"/compliance/patrons/{patron.number}/")
    assert "<del>$5,000.00</del> voided" in patron_page.content.decode()
    assert verify_record().problems == ()


def test_a_voided_buy_in_leaves_room_under_the_ctr(cash: dict[str, Any]) -> None:
    """The day as the cash changed hands decides the next CTR: a voided buy-in's cash is not
    summed, so the next transaction under the threshold opens none."""
    patron = identify(cash, described(cash))
    wrong = buy_in(cash, "SC-1", "9000.00", seat=2, patron=patron.number)
    _void(cash, wrong, "SC-1")
    cage_record(kind="chips_bought", patron=patron.number, amount="2000.00", by=cash["cage"])
    day = PatronDay.objects.get(patron=patron, gaming_day=today())
    assert day.cash_in_cents == 2_000_00 and not Ctr.objects.exists()


def test_a_void_of_a_merged_patrons_buy_in_comes_off_both_days(cash: dict[str, Any]) -> None:
    known = identify(cash, described(cash))
    stranger = described(cash)
    buy_in(cash, "SC-1", "4000.00", seat=1, patron=known.number)
    wrong = buy_in(cash, "LB-1", "3000.00", seat=4, patron=stranger.number)
    patron_merge(merged=stranger.number, into=known.number, by=cash["cage"], reason="same ID")
    assert PatronDay.objects.get(patron=known).cash_in_cents == 7_000_00
    _void(cash, wrong, "LB-1")
    assert PatronDay.objects.get(patron=known).cash_in_cents == 4_000_00
    assert PatronDay.objects.get(patron=stranger, gaming_day=today()).cash_in_cents == 0
    assert verify_record().problems == ()


def test_a_buy_in_without_a_patron_and_other_slips(cash: dict[str, Any]) -> None:
    slip = buy_in(cash, "SC-1", "200.00", seat=5)
    _void(cash, slip, "SC-1")
    void = CashVoid.objects.get()
    assert void.transaction.patron is None
    event = AuditEvent.objects.filter(kind="cash.voided").get()
    assert event.data["patron"] is None and "day_total_cents" not in event.data
    assert verify_record().problems == ()


def test_verify_audit_sums_each_patrons_day_again(cash: dict[str, Any]) -> None:
    """A day whose figure and whose event were both changed by an insider (the record alone
    would not see it) differs from its transactions, merges and voids summed again."""
    from compliance.voids import patron_day_problems

    patron = described(cash)
    slip = buy_in(cash, "SC-1", "4000.00", seat=3, patron=patron.number)
    buy_in(cash, "LB-1", "1000.00", seat=3, patron=patron.number)
    _void(cash, slip, "SC-1")
    assert patron_day_problems() == []
    day = PatronDay.objects.get(patron=patron)
    PatronDay.objects.filter(pk=day.pk).update(cash_in_cents=5_000_00)
    problems = patron_day_problems()
    assert len(problems) == 1 and "is 500000, its transactions sum to 100000" in problems[0]
    assert patron.number in problems[0]
