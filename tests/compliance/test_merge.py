"""Merging a described patron into an identified one: a patron's day over the tables and the
cage under two numbers becomes one (the days summed, a CTR opened for the identified patron
when the sum passes the threshold), the cash transactions never rewritten; the described
number then names the identified patron; the patron page says so both ways; the refusals name
the field and save nothing; who may merge."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from audit.models import AuditEvent
from audit.verify import verify_record
from compliance import selectors
from compliance.merge import patron_merge
from compliance.models import CashTransaction, Ctr, PatronDay, PatronMerge
from compliance.services import cage_record
from core.errors import ServiceError
from tests.compliance.conftest import buy_in, described, identify, today


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _counts() -> tuple[int, ...]:
    return (
        PatronMerge.objects.count(),
        Ctr.objects.count(),
        AuditEvent.objects.count(),
        sum(PatronDay.objects.values_list("cash_in_cents", flat=True)),
    )


def test_a_described_patrons_day_becomes_the_identified_patrons(cash: dict[str, Any]) -> None:
    walter = identify(cash, described(cash))
    grey_suit = described(cash)
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=walter.number)
    buy_in(cash, "LB-1", "2500.00", seat=1, patron=grey_suit.number)
    cage_record(kind="chips_bought", patron=grey_suit.number, amount="2000.00", by=cash["cage"])
    assert not Ctr.objects.exists()  # $6,000.00 and $4,500.00: neither passes alone
    before = list(CashTransaction.objects.values_list("id", "patron_id", "amount_cents"))
    merge = patron_merge(
        merged=grey_suit.number,
        into=walter.number,
        by=cash["cage"],
        reason="the same man came to the window with his license",
    )
    assert (merge.merged, merge.into, merge.by) == (grey_suit, walter, cash["cage"])
    # the transactions are not rewritten; the days are summed into the identified patron's
    assert list(CashTransaction.objects.values_list("id", "patron_id", "amount_cents")) == before
    day = PatronDay.objects.get(patron=walter, gaming_day=today())
    assert day.cash_in_cents == 10_500_00
    ctr = Ctr.objects.get()
    assert ctr.patron == walter and ctr.direction == "in"
    row = selectors.day_ctrs(today())[0]
    assert row["patron"] == walter and row["total_cents"] == 10_500_00
    assert sorted(t.patron_id for t in row["transactions"]) == sorted(
        [walter.pk, grey_suit.pk, grey_suit.pk]
    )
    event = AuditEvent.objects.filter(kind="patron.merged").get()
    assert event.data["patron"] == grey_suit.number and event.data["into"] == walter.number
    assert "Walter" not in str(event.data)  # the number only, never the name
    # the described number now names the identified patron at a table and the cage
    slip = buy_in(cash, "PY-1", "100.00", seat=2, patron=grey_suit.number)
    assert CashTransaction.objects.get(slip=slip).patron == walter
    day.refresh_from_db()
    assert day.cash_in_cents == 10_600_00
    assert verify_record().problems == ()


def test_the_patron_pages_say_merged_into_and_merged_from(cash: dict[str, Any]) -> None:
    walter = identify(cash, described(cash))
    grey_suit = described(cash)
    buy_in(cash, "LB-1", "700.00", seat=1, patron=grey_suit.number)
    cage = _client(cash["cage"])
    page = cage.get(f"/compliance/patrons/{grey_suit.number}/").content.decode()
    assert 'id="merge"' in page  # a described patron's page offers the merge
    response = cage.post(
        f"/compliance/patrons/{grey_suit.number}/merge/",
        {"into": walter.number, "reason": "his license at the window"},
    )
    assert response.status_code == 303
    page = cage.get(f"/compliance/patrons/{grey_suit.number}/").content.decode()
    link = f'<a href="/compliance/patrons/{walter.number}/">{walter.number}</a>'
    assert f"Merged into {link}" in page
    assert 'id="merge"' not in page and 'id="identify"' not in page
    page = cage.get(f"/compliance/patrons/{walter.number}/").content.decode()
    assert 'id="merged-from"' in page and grey_suit.number in page
    assert "$700.00" in page  # the merged patron's transaction is on the identified one's page
    assert 'id="merge"' not in page  # an identified patron is not merged away


def test_a_merged_day_already_past_the_ctr_keeps_its_one_ctr(cash: dict[str, Any]) -> None:
    """The described patron's CTR holds the identified patron's transactions too: one CTR per
    person, day and direction on the compliance day."""
    walter = identify(cash, described(cash))
    grey_suit = described(cash)
    buy_in(cash, "SC-1", "11000.00", seat=3, patron=grey_suit.number)
    buy_in(cash, "LB-1", "500.00", seat=1, patron=walter.number)
    patron_merge(merged=grey_suit.number, into=walter.number, by=cash["compliance"], reason="ID")
    assert Ctr.objects.get().patron == grey_suit  # no second CTR
    rows = selectors.day_ctrs(today())
    assert len(rows) == 1 and rows[0]["patron"] == walter and rows[0]["recorded_as"] == grey_suit
    assert rows[0]["total_cents"] == 11_500_00
    page = _client(cash["compliance"]).get("/compliance/").content.decode()
    assert f"opened as {grey_suit.number}, merged into {walter.number}" in page
    # the printable Form 112 is Walter's, with his identification
    form = _client(cash["compliance"]).get(f"/compliance/ctr/{Ctr.objects.get().pk}/")
    assert walter.number in form.content.decode() and "Reyes" in form.content.decode()
    # the described patron's refusal until identified is over: the number names Walter
    buy_in(cash, "PY-1", "50.00", seat=1, patron=grey_suit.number)


@pytest.mark.parametrize(
    ("case", "field", "words"),
    [
        ("itself", "into", "cannot be merged into itself"),
        ("twice", "merged", "was already merged into"),
        ("into_merged", "into", "was merged into"),
        ("identified_away", "merged", "only a described patron is merged away"),
        ("into_described", "into", "is not identified yet"),
        ("unknown_merged", "merged", "there is no patron P9999"),
        ("unknown_into", "into", "there is no patron P9999"),
        ("not_a_number", "into", "is not a patron number"),
        ("no_reason", "reason", "say what shows"),
    ],
)
def test_refused_merges_name_the_field_and_save_nothing(
    cash: dict[str, Any], case: str, field: str, words: str
) -> None:
    walter = identify(cash, described(cash))
    first, second = described(cash), described(cash)
    buy_in(cash, "SC-1", "3000.00", seat=1, patron=first.number)
    patron_merge(merged=first.number, into=walter.number, by=cash["cage"], reason="ID")
    merged, into, reason = {
        "itself": (second.number, second.number, "x"),
        "twice": (first.number, walter.number, "x"),
        "into_merged": (second.number, first.number, "x"),
        "identified_away": (walter.number, second.number, "x"),
        "into_described": (second.number, "", "x"),  # a third, described patron: below
        "unknown_merged": ("P9999", walter.number, "x"),
        "unknown_into": (second.number, "P9999", "x"),
        "not_a_number": (second.number, "Walter", "x"),
        "no_reason": (second.number, walter.number, "  "),
    }[case]
    if case == "into_described":
        third = described(cash)
        into = third.number
    before = _counts()
    with pytest.raises(ServiceError) as refused:
        patron_merge(merged=merged, into=into, by=cash["cage"], reason=reason)
    assert refused.value.field == field and words in refused.value.message, refused.value.message
    assert _counts() == before


def test_a_refused_merge_on_the_page_keeps_what_was_typed(cash: dict[str, Any]) -> None:
    grey_suit = described(cash)
    other = described(cash)
    officer = _client(cash["compliance"])  # signing in is an event of its own
    before = _counts()
    response = officer.post(
        f"/compliance/patrons/{grey_suit.number}/merge/",
        {"into": other.number, "reason": "same coat"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert f"into: {other.number} is not identified yet" in page
    assert f'value="{other.number}"' in page and 'value="same coat"' in page
    assert _counts() == before


@pytest.mark.parametrize("who", ["dealer", "pitboss", "auditor", "host", "admin", "security"])
def test_only_the_cage_and_compliance_merge(cash: dict[str, Any], who: str) -> None:
    walter = identify(cash, described(cash))
    grey_suit = described(cash)
    with pytest.raises(PermissionDenied):
        patron_merge(merged=grey_suit.number, into=walter.number, by=cash[who], reason="x")
    response = _client(cash[who]).post(
        f"/compliance/patrons/{grey_suit.number}/merge/",
        {"into": walter.number, "reason": "x"},
    )
    assert response.status_code == 403
    assert not PatronMerge.objects.exists()


def test_a_merged_patron_is_not_identified_apart(cash: dict[str, Any]) -> None:
    walter = identify(cash, described(cash))
    grey_suit = described(cash)
    patron_merge(merged=grey_suit.number, into=walter.number, by=cash["cage"], reason="ID")
    with pytest.raises(ServiceError) as refused:
        identify(cash, grey_suit, name="Someone Else")
    assert refused.value.field == "patron" and f"identify {walter.number}" in refused.value.message
    grey_suit.refresh_from_db()
    assert grey_suit.name == "" and grey_suit.identified_at is None
