"""The dealer's buy-in at the tablet: a seat and a patron (a card, a patron number or a new
patron's description), the refusal naming the patron from the MTL threshold, shown on the page
with what was typed, nothing saved."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from accounting.models import Slip
from accounting.views import PATRON_DESCRIPTION
from compliance.models import DESCRIPTION_FIELDS, CashTransaction
from tests.compliance.conftest import described


def _dealer(cash: dict[str, Any]) -> Client:
    c = Client()
    c.force_login(cash["dealer"])
    return c


def _post(cash: dict[str, Any], body: dict[str, str]) -> Any:
    return _dealer(cash).post(reverse("accounting:buy_in", args=[cash["SC-1"].pk]), body)


def test_the_tablet_asks_the_seat_and_the_patron(cash: dict[str, Any]) -> None:
    page = _dealer(cash).get(reverse("accounting:tablet", args=[cash["SC-1"].pk]))
    html = page.content.decode()
    assert 'name="seat"' in html and 'name="patron"' in html and 'name="clothing"' in html
    assert 'data-buy-in="100"' in html and "from $3,000.00" in html
    assert [name for name, _ in PATRON_DESCRIPTION] == list(DESCRIPTION_FIELDS)


def test_a_large_buy_in_without_its_patron_is_refused_on_the_page(cash: dict[str, Any]) -> None:
    response = _post(cash, {"other_amount": "12000.00", "seat": "4"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "patron: a cash buy-in of $3,000.00 or more names its patron" in html
    assert 'value="12000.00"' in html and '<option value="4" selected>' in html
    assert not Slip.objects.exists() and not CashTransaction.objects.exists()


def test_a_buy_in_names_its_patron_by_card_number_or_description(cash: dict[str, Any]) -> None:
    assert _post(cash, {"amount": "100.00"}).status_code == 303  # small: no seat, no patron
    assert _post(cash, {"other_amount": "5000", "seat": "2", "patron": "100002"}).status_code == 303
    tx = CashTransaction.objects.get(amount_cents=500000)
    assert tx.seat == 2 and tx.patron is not None and tx.patron.player is not None
    patron = described(cash)
    assert _post(cash, {"amount": "500.00", "patron": patron.number}).status_code == 303
    body = {"other_amount": "3000.00", "seat": "6", "sex": "female", "clothing": "green dress"}
    assert _post(cash, body).status_code == 303
    new = CashTransaction.objects.get(amount_cents=300000).patron
    assert new is not None and (new.sex, new.clothing) == ("female", "green dress")
    both = _post(cash, {**body, "patron": "100001"})
    assert both.status_code == 400 and "not both" in both.content.decode()
    assert CashTransaction.objects.count() == 4
