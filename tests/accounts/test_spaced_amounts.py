"""An amount with spaces around it (" 1.00", "1.00 ") is no amount: refused naming the field,
wherever an amount is read (the API's wagers and slips, the tablet's wagers and buy-ins, the
slip desk), and nothing is saved. A field left blank (or only spaces) on a page is still blank."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounting.models import Slip
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.models import Round
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db

SPACED = (" 1.00", "1.00 ", " 25", "\t5", "5\n")


@pytest.mark.parametrize("typed", SPACED)
def test_the_amount_parser_refuses_spaces(typed: str) -> None:
    with pytest.raises(EngineError, match="seat 1's ante must be an amount"):
        parse_cents(typed, where="seat 1's ante")
    assert parse_cents(typed.strip(), where="seat 1's ante") > 0


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def refused(response: Any, field: str) -> None:
    assert response.status_code == 400, (response.status_code, response.content[:500])
    error = response.json()["error"]
    assert error["field"] == field, error
    assert "must be an amount" in error["message"], error


@pytest.mark.parametrize("typed", [" 10.00", "10.00 "])
@pytest.mark.parametrize(
    "body, field",
    [
        (lambda t, f: {"table": f["SC-1"].pk, "wagers": {"1": {"ante": t}}}, "seat 1's ante"),
        (
            lambda t, f: {"table": f["SC-1"].pk, "wagers": {"1": {"ante": "10", "pair_plus": t}}},
            "seat 1's pair_plus",
        ),
    ],
)
def test_the_api_refuses_a_spaced_wager(floor: Any, typed: str, body: Any, field: str) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    refused(api(floor["dealer"]).post("/api/rounds/", body(typed, floor), format="json"), field)
    assert not Round.objects.exists()


@pytest.mark.parametrize("typed", [" 1.00", "1.00 "])
@pytest.mark.parametrize(
    "who, body, field",
    [
        ("dealer", {"kind": "buy_in", "amount": "{t}"}, "amount"),
        ("count", {"kind": "drop", "amount": "10.00", "markers": "{t}"}, "markers"),
        ("pitboss", {"kind": "fill", "chips": {"{t}": 4}}, "chips.{t}"),
    ],
)
def test_the_api_refuses_a_spaced_slip_amount(
    floor: Any, typed: str, who: str, body: dict[str, Any], field: str
) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    filled = {
        k: (v.replace("{t}", typed) if isinstance(v, str) else {typed: 4}) for k, v in body.items()
    }
    answer = api(floor[who]).post(
        "/api/slips/", {"table": floor["SC-1"].pk, **filled}, format="json"
    )
    refused(answer, field.replace("{t}", typed))
    assert not Slip.objects.exists()


@pytest.mark.parametrize("typed", [" 1.00", "1.00 ", " 100"])
def test_the_tablets_buy_in_refuses_a_spaced_amount(floor: Any, typed: str) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    page = Client()
    page.force_login(floor["dealer"])
    answer = page.post(reverse("accounting:buy_in", args=[floor["SC-1"].pk]), {"amount": typed})
    assert answer.status_code == 400
    assert "amount must be an amount" in answer.content.decode()
    assert not Slip.objects.exists()


@pytest.mark.parametrize("typed", [" 10", "10 "])
def test_the_tablets_wagers_refuse_a_spaced_amount(floor: Any, typed: str) -> None:
    """A seat's wager typed with a space is refused naming the seat and the wager; a seat left
    blank or with spaces only is no wager."""
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    page = Client()
    page.force_login(floor["dealer"])
    url = f"/tablet/table/{floor['SC-1'].pk}/open/"
    answer = page.post(url, {"seat-1-ante": typed, "seat-2-ante": "  "}, follow=True)
    assert "must be an amount" in answer.content.decode()
    assert not Round.objects.exists()
    page.post(url, {"seat-1-ante": "10", "seat-2-ante": "  "})
    (opened,) = Round.objects.all()
    assert [seat["seat"] for seat in opened.entry["seats"]] == [1]
