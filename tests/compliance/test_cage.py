"""The cage's window (`/compliance/cage/`): chips bought and redeemed, front money deposited and
withdrawn, each summed into the patron's day with the table buy-ins by the same rules (one CTR
holding a buy-in and the cage's chips, cash out kept apart from cash in, refusal until
identified), the day's totals by kind, refusals naming the field with nothing saved, and who
may record or read."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.test import Client

from audit.models import AuditEvent
from compliance import selectors
from compliance.models import CashTransaction, Ctr, Kind, MtlEntry, Patron, PatronDay
from compliance.services import cage_record
from core.errors import ServiceError
from tests.compliance.conftest import buy_in, described, identify, today

URL = "/compliance/cage/"


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _day(patron: Patron) -> PatronDay:
    return PatronDay.objects.get(patron=patron, gaming_day=today())


def test_chips_bought_at_the_cage_take_the_day_past_the_ctr_into_one_ctr(
    cash: dict[str, Any],
) -> None:
    patron = described(cash)
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=patron.number)
    tx = cage_record(kind="chips_bought", patron=patron.number, amount="4500.00", by=cash["cage"])
    assert tx.kind == Kind.CHIPS_BOUGHT and tx.direction == "in" and tx.table is None
    assert tx.by == cash["cage"]
    assert _day(patron).cash_in_cents == 10_500_00 and _day(patron).cash_out_cents == 0
    ctr = Ctr.objects.get()
    assert ctr.direction == "in" and ctr.opened_by_transaction == tx
    row = selectors.day_ctrs(today())[0]
    assert [t.kind for t in row["transactions"]] == ["buy_in", "chips_bought"]
    assert row["total_cents"] == 10_500_00
    assert MtlEntry.objects.filter(patron=patron).count() == 2
    event = AuditEvent.objects.filter(kind="cash.transaction").latest("seq")
    assert event.data["kind"] == "chips_bought" and event.data["ctr_opened"] is True
    report = StringIO()
    call_command("cash_compliance", "--day", today().isoformat(), "--json", stdout=report)
    ctr_out = json.loads(report.getvalue())["ctrs"][0]
    assert [(t["kind"], t["where"], t["amount"]) for t in ctr_out["transactions"]] == [
        ("buy_in", "SC-1 seat 3", "6000.00"),
        ("chips_bought", "the cage", "4500.00"),
    ]


def test_cash_out_is_kept_apart_and_opens_its_own_ctr(cash: dict[str, Any]) -> None:
    patron = identify(cash, described(cash))
    buy_in(cash, "SC-1", "9000.00", seat=1, patron=patron.number)
    cage_record(kind="front_money_in", patron=patron.number, amount="900.00", by=cash["cage"])
    cage_record(kind="chips_redeemed", patron=patron.number, amount="7000.00", by=cash["cage"])
    assert not Ctr.objects.exists()  # $9,900.00 in, $7,000.00 out: never netted, none past
    cage_record(kind="front_money_out", patron=patron.number, amount="3000.01", by=cash["cage"])
    day = _day(patron)
    assert (day.cash_in_cents, day.cash_out_cents) == (9_900_00, 10_000_01)
    ctr = Ctr.objects.get()
    assert ctr.direction == "out"
    row = selectors.ctr_rows(Ctr.objects.all())[0]
    assert [t.kind for t in row["transactions"]] == ["chips_redeemed", "front_money_out"]
    cage = selectors.cage_day(today())
    assert (cage["cash_in_cents"], cage["cash_out_cents"]) == (900_00, 10_000_01)
    assert len(cage["transactions"]) == 3  # the table's buy-in is not the cage's


def test_the_cage_window_refuses_until_identified_then_takes(cash: dict[str, Any]) -> None:
    patron = described(cash)
    buy_in(cash, "SC-1", "11000.00", seat=1, patron=patron.number)
    c = _client(cash["cage"])
    before = CashTransaction.objects.count()
    refused = c.post(URL, {"kind": "chips_redeemed", "patron": patron.number, "amount": "50.00"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "patron:" in html and "identify the patron at the cage" in html
    assert 'value="50.00"' in html  # the typed amount kept
    assert CashTransaction.objects.count() == before
    identify(cash, patron)
    taken = c.post(URL, {"kind": "chips_redeemed", "patron": patron.number, "amount": "50.00"})
    assert taken.status_code == 303
    assert _day(patron).cash_out_cents == 50_00
    page = c.get(URL).content.decode()
    assert "Chips redeemed for cash" in page and "$50.00" in page and patron.number in page


@pytest.mark.parametrize(
    ("post", "field", "words"),
    [
        ({"kind": "chips_bought", "amount": "3000.00"}, "patron", "cash purchase of chips"),
        ({"kind": "front_money_out", "amount": "3500.00"}, "patron", "front money withdrawal"),
        ({"kind": "chips_bought", "amount": "12.345", "patron": ""}, "amount", "amount"),
        ({"kind": "chips_bought", "amount": "-5.00"}, "amount", "amount"),
        ({"kind": "chips_bought", "amount": "abc"}, "amount", "amount"),
        ({"kind": "chips_bought", "amount": "1000000.01"}, "amount", "$1,000,000.00"),
        ({"kind": "buy_in", "amount": "10.00"}, "kind", "kind"),
        ({"kind": "", "amount": "10.00"}, "kind", "kind"),
        ({"kind": "chips_bought", "amount": "10.00", "patron": "P9999"}, "patron", "P9999"),
        (
            {"kind": "chips_bought", "amount": "10.00", "patron": "P1", "sex": "male"},
            "patron",
            "not both",
        ),
    ],
)
def test_refusals_name_the_field_and_save_nothing(
    cash: dict[str, Any], post: dict[str, str], field: str, words: str
) -> None:
    c = _client(cash["cage"])  # signing in is an event of its own
    counts = (CashTransaction.objects.count(), Patron.objects.count(), AuditEvent.objects.count())
    response = c.post(URL, post)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert (
        CashTransaction.objects.count(),
        Patron.objects.count(),
        AuditEvent.objects.count(),
    ) == counts
    with pytest.raises(ServiceError) as err:
        cage_record(
            kind=post["kind"],
            patron=post.get("patron") or None,
            amount=post["amount"],
            by=cash["cage"],
        )
    assert err.value.field == field


def test_a_new_patron_described_at_the_window(cash: dict[str, Any]) -> None:
    c = _client(cash["cage"])
    response = c.post(
        URL, {"kind": "chips_bought", "amount": "3500.00", "sex": "female", "hair": "red"}
    )
    assert response.status_code == 303
    tx = CashTransaction.objects.get()
    assert tx.patron is not None and tx.patron.hair == "red"
    assert MtlEntry.objects.get().transaction == tx


def test_an_amount_is_a_decimal_string_not_a_float(cash: dict[str, Any]) -> None:
    with pytest.raises(ServiceError) as err:
        cage_record(kind="chips_bought", patron=None, amount=10.5, by=cash["cage"])
    assert err.value.field == "amount"


@pytest.mark.parametrize(
    ("who", "reads", "records"),
    [
        ("cage", 200, 303),
        ("compliance", 200, 403),
        ("pitboss", 403, 403),
        ("auditor", 403, 403),
        ("host", 403, 403),
        ("dealer", 403, 403),
        ("security", 403, 403),
        ("admin", 403, 403),
    ],
)
def test_only_the_cage_records_and_compliance_reads(
    cash: dict[str, Any], who: str, reads: int, records: int
) -> None:
    user = get_user_model().objects.get(username=who)
    c = _client(user)
    page = c.get(URL)
    assert page.status_code == reads
    if reads == 200:
        assert ('id="record"' in page.content.decode()) is (who == "cage")
    posted = c.post(URL, {"kind": "chips_bought", "amount": "100.00"})
    assert posted.status_code == records
    assert CashTransaction.objects.count() == (1 if records == 303 else 0)
    if who != "cage":
        with pytest.raises(PermissionDenied):
            cage_record(kind="chips_bought", patron=None, amount="1.00", by=user)


def test_the_anonymous_are_sent_to_sign_in() -> None:
    response = Client().get(URL)
    assert response.status_code == 302 and "login" in response["Location"]
