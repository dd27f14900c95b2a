"""A cash buy-in through the API: its seat and patron, the refusal naming the patron in the
API's error shape (nothing saved), a patron the compliance check cannot read."""

from __future__ import annotations

from typing import Any

import pytest

from accounting.models import Slip
from compliance.models import CashTransaction, Patron
from tests.helpers import client_for, ok, refused


def _post(cash: dict[str, Any], body: dict[str, Any]) -> Any:
    base = {"table": cash["SC-1"].pk, "kind": "buy_in"}
    return client_for(cash["dealer"]).post("/api/slips/", {**base, **body}, format="json")


def test_a_large_buy_in_names_its_patron_on_the_api(cash: dict[str, Any]) -> None:
    error = refused(_post(cash, {"amount": "12000.00", "seat": 3}), 400, "patron_required")
    assert error["field"] == "patron"
    assert error["message"].startswith("patron: a cash buy-in of $3,000.00 or more")
    assert not Slip.objects.exists()
    described = {"description": {"sex": "male", "where_seen": "SC-1 seat 3"}}
    body = ok(_post(cash, {"amount": "12000.00", "seat": 3, "patron": described}), 201)
    tx = CashTransaction.objects.get(slip_id=body["id"])
    assert tx.seat == 3 and tx.patron == Patron.objects.get()
    again = refused(_post(cash, {"amount": "20.00", "patron": tx.patron.number}), 400)
    assert again["field"] == "patron" and "identify the patron" in again["message"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"amount": "50.00", "seat": 9}, "seat", "less than or equal to 7"),
        ({"amount": "50.00", "patron": 100001}, "patron", "must be text"),
        ({"amount": "50.00", "patron": ["P1001"]}, "patron", "must be text"),
        ({"amount": "50.00", "patron": {"name": "Walter"}}, "patron name", "no field 'name'"),
        ({"amount": "50.00", "patron": {"description": "tall"}}, "description", "object"),
        ({"amount": "5000.00", "patron": ""}, "patron", "names its patron"),
    ],
)
def test_a_patron_the_check_cannot_read_is_refused(
    cash: dict[str, Any], body: dict[str, Any], field: str, words: str
) -> None:
    error = refused(_post(cash, body), 400)
    assert error["field"] == field and words in error["message"], error
    assert not Slip.objects.exists() and not Patron.objects.exists()


def test_a_slip_of_another_kind_names_no_seat(cash: dict[str, Any]) -> None:
    client = client_for(cash["pitboss"])
    body = {"table": cash["SC-1"].pk, "kind": "fill", "chips": {"25.00": 4}, "seat": 2}
    error = refused(client.post("/api/slips/", body, format="json"), 400)
    assert error["field"] == "seat" and "only a buy-in" in error["message"]
