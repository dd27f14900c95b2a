"""The cage's window on the API (`/api/cage/transactions/`): the cashier records, the compliance
role reads, everyone else 403; a patron's day over a table and the window summed into one CTR,
the next transaction refused until the cage identifies the patron; refusals in the API's error
shape naming the field with nothing saved; in the OpenAPI schema. And the identification the
cage (or compliance) enters on the patron's page: each bad input refused naming its field, the
typed values kept, nothing saved."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from compliance.models import CashTransaction, Ctr, Patron, PatronDay
from compliance.services import parse_identification
from core.errors import ServiceError
from tests.compliance.conftest import IDENTIFICATION, buy_in, described, identify, today
from tests.helpers import client_for, ok, refused

URL = "/api/cage/transactions/"


def _post(user: Any, body: dict[str, Any]) -> Any:
    return client_for(user).post(URL, body, format="json")


def test_a_patrons_day_over_a_table_and_the_window(cash: dict[str, Any]) -> None:
    patron = described(cash)
    buy_in(cash, "SC-1", "6000.00", seat=3, patron=patron.number)
    body = ok(
        _post(cash["cage"], {"kind": "chips_bought", "amount": "4500.00", "patron": patron.number}),
        201,
    )
    assert body["kind"] == "chips_bought" and body["direction"] == "in"
    assert (body["amount"], body["amount_cents"]) == ("4500.00", 4_500_00)
    assert body["patron"] == patron.number and body["by"] == "cage" and body["mtl_entry"]
    assert PatronDay.objects.get(patron=patron).cash_in_cents == 10_500_00
    assert Ctr.objects.get().patron == patron
    # the next one waits for the patron's identification, nothing saved
    count = CashTransaction.objects.count()
    error = refused(
        _post(cash["cage"], {"kind": "chips_redeemed", "amount": "20.00", "patron": patron.number}),
        400,
        "identification_required",
    )
    assert error["field"] == "patron" and "identify the patron" in error["message"]
    assert CashTransaction.objects.count() == count
    identify(cash, patron)
    ok(
        _post(cash["cage"], {"kind": "chips_redeemed", "amount": "20.00", "patron": patron.number}),
        201,
    )
    listed = ok(client_for(cash["compliance"]).get(URL))
    assert [r["kind"] for r in listed["results"]] == ["chips_redeemed", "chips_bought"]
    assert "Walter" not in str(listed)  # the patron by number only
    again = ok(client_for(cash["cage"]).get(URL, {"gaming_day": today().isoformat()}))
    assert again["count"] == 2
    earlier = (today() - timedelta(days=3)).isoformat()
    assert ok(client_for(cash["cage"]).get(URL, {"gaming_day": earlier}))["count"] == 0


def test_a_new_patron_described_at_the_window(cash: dict[str, Any]) -> None:
    description = {"description": {"sex": "female", "clothing": "red coat"}}
    body = ok(
        _post(cash["cage"], {"kind": "front_money_in", "amount": "3500.00", "patron": description}),
        201,
    )
    assert Patron.objects.get().number == body["patron"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"kind": "chips_bought", "amount": "3500.00"}, "patron", "names its patron"),
        ({"kind": "buy_in", "amount": "50.00"}, "kind", ""),
        ({"kind": "chips_bought", "amount": 50}, "amount", "must be text"),
        ({"kind": "chips_bought", "amount": "50.5.0"}, "amount", "decimal string"),
        ({"kind": "chips_bought", "amount": "2000000.00"}, "amount", "at most $1,000,000.00"),
        ({"kind": "chips_bought", "amount": "50.00", "patron": "P9999"}, "patron", "no patron"),
        ({"kind": "chips_bought", "amount": "50.00", "extra": 1}, "extra", "not a field"),
        ({"amount": "50.00"}, "kind", ""),
    ],
)
def test_refusals_name_the_field_and_save_nothing(
    cash: dict[str, Any], body: dict[str, Any], field: str, words: str
) -> None:
    events = AuditEvent.objects.count()
    error = refused(_post(cash["cage"], body), 400)
    assert error["field"] == field and words in error["message"], error
    assert not CashTransaction.objects.exists() and not Patron.objects.exists()
    assert AuditEvent.objects.filter(kind="cash.transaction").count() == 0
    assert AuditEvent.objects.count() <= events + 1  # at most the refusal's own record


@pytest.mark.parametrize(
    "who", ["dealer", "pitboss", "auditor", "host", "admin", "count", "security", "compliance"]
)
def test_only_the_cage_records(cash: dict[str, Any], who: str) -> None:
    error = refused(_post(cash[who], {"kind": "chips_bought", "amount": "50.00"}), 403)
    assert error["message"]
    assert not CashTransaction.objects.exists()


@pytest.mark.parametrize("who", ["dealer", "pitboss", "auditor", "host", "admin", "security"])
def test_only_the_cage_and_compliance_read(cash: dict[str, Any], who: str) -> None:
    refused(client_for(cash[who]).get(URL), 403)


def test_anonymous_is_refused(cash: dict[str, Any]) -> None:
    refused(client_for(None).get(URL), 401)


def test_it_is_in_the_schema(cash: dict[str, Any]) -> None:
    schema = client_for(cash["cage"]).get("/api/schema/?format=json").json()
    operations = schema["paths"][URL]
    assert set(operations) >= {"get", "post"}
    assert {"201", "400", "403"} <= set(operations["post"]["responses"])


# --- the identification the cage enters ----------------------------------------------------------


def _expired() -> str:
    return (date.today() - timedelta(days=1)).isoformat()


def _future() -> str:
    return (date.today() + timedelta(days=30)).isoformat()


def _twenty() -> str:
    born = date.today().replace(year=date.today().year - 20)
    return born.isoformat()


BAD_IDENTIFICATIONS = [
    ({"id_expiry": "EXPIRED"}, "id_expiry", "expired"),
    ({"date_of_birth": "FUTURE"}, "date_of_birth", "in the future"),
    ({"date_of_birth": "TWENTY"}, "date_of_birth", "under 21"),
    ({"name": ""}, "name", "needs it"),
    ({"address": "  "}, "address", "needs it"),
    ({"id_number": ""}, "id_number", "needs it"),
    ({"occupation": ""}, "occupation", "needs it"),
    ({"id_expiry": ""}, "id_expiry", "needs it"),
    ({"id_type": "library_card"}, "id_type", "passport, state id card"),
    ({"date_of_birth": "12/04/1970"}, "date_of_birth", "not a date"),
]


def _filled(changes: dict[str, str]) -> dict[str, str]:
    dates = {"EXPIRED": _expired(), "FUTURE": _future(), "TWENTY": _twenty()}
    return {**IDENTIFICATION, **{k: dates.get(v, v) for k, v in changes.items()}}


@pytest.mark.parametrize(("changes", "field", "words"), BAD_IDENTIFICATIONS)
def test_the_service_refuses_bad_identification(
    changes: dict[str, str], field: str, words: str
) -> None:
    with pytest.raises(ServiceError) as refusal:
        parse_identification(_filled(changes), today=date.today())
    assert refusal.value.field == field and words in refusal.value.message


@pytest.mark.parametrize("who", ["cage", "compliance"])
@pytest.mark.parametrize(("changes", "field", "words"), BAD_IDENTIFICATIONS)
def test_the_identify_form_refuses_bad_identification(
    cash: dict[str, Any], who: str, changes: dict[str, str], field: str, words: str
) -> None:
    patron = described(cash)
    client = Client()
    client.force_login(cash[who])
    events = AuditEvent.objects.filter(kind="patron.identified").count()
    given = _filled(changes)
    response = client.post(f"/compliance/patrons/{patron.number}/", given)
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{field}:" in page and words in page
    kept = given["occupation"] or given["name"]
    assert f'value="{kept}"' in page  # the typed values kept
    patron.refresh_from_db()
    assert not patron.is_identified and patron.name == "" and patron.identified_at is None
    assert AuditEvent.objects.filter(kind="patron.identified").count() == events
