"""Input no column, encoding or calendar holds is refused with a clear 4xx naming what is wrong,
never a 500, and nothing is saved: a lone surrogate in a wager name or a chip key, a number
past 64 bits in a filter or a buy-in, a report's day at the edge of the calendar, digits
`isdigit()` accepts and `int()` does not. The database busy or out of reach answers 503 with
Retry-After (accounts.middleware)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import DataError, InterfaceError, OperationalError
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from accounting.models import Slip
from accounts.middleware import FaultMiddleware
from audit.models import AuditEvent
from core.params import ascii_int
from tables.models import Hand, Round
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db

BIG = "99999999999999999999"  # past 2**64


def api_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def page_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def refused(response: Any, status: int = 400) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:400])
    error = response.json()["error"]
    assert set(error) == {"code", "message", "field"} and error["message"]
    return error  # type: ignore[no-any-return]


# --- lone surrogates ---------------------------------------------------------------------------


def _raw(client: APIClient, path: str, body: Any) -> Any:
    """Post `body` as JSON text (a lone surrogate is written as its `\\ud800` escape)."""
    return client.post(path, json.dumps(body), content_type="application/json")


def test_a_lone_surrogate_in_a_wager_name_is_refused(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    body: Any = {"table": floor["SC-1"].pk, "wagers": {"1": {"\ud800": "10"}}}
    error = refused(_raw(api_for(floor["dealer"]), "/api/rounds/", body))
    assert error["field"] == "wagers.1" and "surrogate" in error["message"]
    body = {"table": floor["SC-1"].pk, "wagers": {"1": {"ante": "1\udc00"}}}
    error = refused(_raw(api_for(floor["dealer"]), "/api/rounds/", body))
    assert error["field"] == "wagers.1.ante"
    assert not Round.objects.exists()


def test_a_lone_surrogate_in_a_chip_key_is_refused(floor: dict[str, Any]) -> None:
    body = {"table": floor["SC-1"].pk, "kind": "fill", "chips": {"\ud800": 4}}
    error = refused(_raw(api_for(floor["pitboss"]), "/api/slips/", body))
    assert error["field"] == "chips" and "surrogate" in error["message"]
    assert not Slip.objects.exists()


def test_a_pair_of_surrogates_is_an_ordinary_character(floor: dict[str, Any]) -> None:
    """A paired escape is one character (here U+1F0A1), refused only for what it means."""
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    body = {"table": floor["SC-1"].pk, "wagers": {"1": {"\U0001f0a1": "10"}}}
    error = refused(_raw(api_for(floor["dealer"]), "/api/rounds/", body))
    assert "surrogate" not in error["message"]


# --- numbers past 64 bits ---------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/rounds/", "/api/hands/", "/api/slips/"])
def test_a_filter_past_64_bits_is_refused_naming_it(floor: dict[str, Any], path: str) -> None:
    error = refused(api_for(floor["pitboss"]).get(path, {"table": BIG}))
    assert error["field"] == "table" and error["code"] == "out_of_range"
    assert BIG in error["message"]


@pytest.mark.parametrize(
    "path",
    [
        "/audit/",
        "/audit/events.csv",
        "/reports/dashboard/",
        "/reports/",
        "/reports/hold.csv",
        "/accounting/",
        "/accounting/reconciliation/",
    ],
)
def test_a_page_given_a_number_past_64_bits_answers_400(floor: dict[str, Any], path: str) -> None:
    """The pages' filters alike (SQLite refuses such a parameter before the statement runs)."""
    for name in ("table", "seq", "page", "slip"):
        response = page_for(floor["pitboss"]).get(path, {name: BIG})
        assert response.status_code == 400, (path, name, response.status_code)
        assert BIG in response.content.decode()


def test_a_filter_within_64_bits_that_names_nothing_is_an_empty_list(
    floor: dict[str, Any],
) -> None:
    response = api_for(floor["pitboss"]).get("/api/rounds/", {"table": str(2**63 - 1)})
    assert response.status_code in (200, 400)  # never a server error


def test_a_hand_buy_in_of_2_to_the_70_is_refused(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    client = api_for(floor["dealer"])
    body = {"table": floor["RI-1"].pk, "players": {"1": 2**70, "2": 10000}}
    error = refused(_raw(client, "/api/hands/", body))
    assert error["field"] == "players.1" and "too large" in error["message"]
    assert not Hand.objects.exists()


def test_a_hand_buy_in_of_2_to_the_70_on_the_tablet_page(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    client = page_for(floor["dealer"])
    response = client.post(
        f"/tablet/table/{floor['RI-1'].pk}/hand/open/",
        {"seat-1-buy_in": str(2**70), "seat-2-buy_in": "100"},
    )
    assert response.status_code == 400
    assert "seat 1&#x27;s buy-in" in response.content.decode()
    assert not Hand.objects.exists()


# --- days at the edge of the calendar ------------------------------------------------------------


@pytest.mark.parametrize("period", ["day", "mtd", "ytd", "30d"])
@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_the_charts_refuse_a_day_at_the_edge_of_the_calendar(
    floor: dict[str, Any], period: str, day: str
) -> None:
    client = page_for(floor["pitboss"])
    response = client.get("/reports/dashboard/charts.json", {"day": day, "period": period})
    error = refused(response)
    assert error["field"] == "day"
    assert client.get("/reports/dashboard/", {"day": day, "period": period}).status_code == 200
    assert client.get("/reports/", {"day": day, "period": period}).status_code == 200
    table = floor["SC-1"].pk
    assert client.get(f"/reports/tables/{table}/rounds/", {"day": day}).status_code == 400


def test_the_charts_refuse_a_period_they_do_not_know(floor: dict[str, Any]) -> None:
    client = page_for(floor["pitboss"])
    response = client.get("/reports/dashboard/charts.json", {"day": "0001-01-01", "period": "year"})
    assert refused(response)["field"] in ("day", "period")
    response = client.get("/reports/dashboard/charts.json", {"day": "2026-03-01", "period": "year"})
    assert refused(response)["field"] == "period"
    assert client.get("/reports/dashboard/", {"period": "year"}).status_code == 200


def test_the_charts_still_answer_for_an_ordinary_day(floor: dict[str, Any]) -> None:
    response = page_for(floor["pitboss"]).get(
        "/reports/dashboard/charts.json", {"day": "2026-03-01", "period": "ytd"}
    )
    assert response.status_code == 200


# --- digits isdigit() accepts and int() does not --------------------------------------------------


def test_ascii_int() -> None:
    assert ascii_int("12") == 12 and ascii_int(" 7 ") == 7
    for bad in ("²", "①", "١٠", "１０", "-1", "1.0", "", BIG, None, 12):
        assert ascii_int(bad) is None, bad


def test_a_superscript_slip_number_on_the_accounting_tablet(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    client = page_for(floor["dealer"])
    url = f"/accounting/tablet/{floor['SC-1'].pk}/"
    for slip in ("²", BIG, "12"):
        assert client.get(url, {"slip": slip}).status_code in (200, 400), slip


def test_a_superscript_chip_field_is_refused_naming_it(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    client = page_for(floor["dealer"])
    tray = f"/accounting/tablet/{floor['SC-1'].pk}/tray/"
    response = client.post(tray, {"kind": "opener", "chip_²": "4"})
    assert response.status_code == 400 and "chip_²: not a chip" in response.content.decode()
    response = client.post(tray, {"kind": "opener", f"chip_{BIG}": "4"})
    assert response.status_code == 400
    assert not Slip.objects.exists()


def test_a_superscript_table_at_the_slip_desk(floor: dict[str, Any]) -> None:
    client = page_for(floor["pitboss"])
    response = client.post("/accounting/slips/", {"kind": "fill", "table": "²", "chip_500": "2"})
    assert response.status_code == 400 and not Slip.objects.exists()


@pytest.mark.parametrize(
    "path", ["/admin/tables/paytableversion/add/", "/admin/tables/tablesettingsversion/add/"]
)
def test_a_superscript_based_on_in_the_admin(floor: dict[str, Any], path: str) -> None:
    response = page_for(floor["admin"]).get(path, {"based_on": "²"})
    assert response.status_code < 500


# --- the database busy or out of reach: 503 with Retry-After, 400 for a number -------------------


def _answer(exc: Exception, path: str = "/api/rounds/") -> Any:
    request = RequestFactory().get(path)
    return FaultMiddleware(lambda r: None).process_exception(request, exc)  # type: ignore[arg-type,return-value]


def test_a_locked_sqlite_answers_503_with_retry_after() -> None:
    response = _answer(OperationalError("database is locked"), "/audit/")
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert "busy" in response.content.decode()


def test_a_lost_connection_answers_503_with_retry_after() -> None:
    for exc in (
        InterfaceError("connection already closed"),
        OperationalError("the connection is closed"),
        OperationalError("terminating connection due to administrator command"),
    ):
        response = _answer(exc)
        assert response.status_code == 503 and response["Retry-After"] == "1"
        assert json.loads(response.content)["error"]["code"] == "unavailable"


def test_a_number_out_of_range_answers_400() -> None:
    response = _answer(OverflowError("Python int too large to convert to SQLite INTEGER"))
    assert response.status_code == 400
    assert json.loads(response.content)["error"]["code"] == "out_of_range"


def test_other_failures_stay_server_errors() -> None:
    assert _answer(OperationalError("no such table: x")) is None
    assert _answer(DataError("invalid input syntax")) is None
    assert _answer(ValueError("a bug")) is None


def test_nothing_was_audited_for_a_refused_number(floor: dict[str, Any]) -> None:
    client = api_for(floor["pitboss"])  # (signing in is on the record)
    before = AuditEvent.objects.count()
    refused(client.get("/api/rounds/", {"table": BIG}))
    assert AuditEvent.objects.count() == before


# --- a refused request whose record cannot be written --------------------------------------------


@pytest.mark.parametrize(
    ("who", "method", "path"),
    [
        ("dealer", "get", "/reports/dashboard/"),  # the page's 403 (audit.middleware)
        ("dealer", "get", "/accounting/reconciliation/"),  # a page's own 403 page
        ("dealer", "get", "/api/variance-alerts/"),  # the API's 403 (its error handler)
        ("pitboss", "get", "/admin/tables/amountlimit/add/"),  # the admin's 403
    ],
)
def test_a_refusal_whose_record_cannot_be_written_answers_503(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch, who: str, method: str, path: str
) -> None:
    """SQLite's lock held past the wait (or the database out of reach) while a refused request
    writes its record: 503 with Retry-After, never a 500, never a 403 the record lacks."""
    from audit import services

    client = page_for(floor[who])
    client.raise_request_exception = False
    assert getattr(client, method)(path).status_code == 403  # refused, and recorded
    before = AuditEvent.objects.count()

    def locked(**kwargs: Any) -> Any:
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "audit_record", locked)
    response = getattr(client, method)(path)
    assert response.status_code == 503, (response.status_code, response.content[:300])
    assert response["Retry-After"] == "1" and b"busy" in response.content
    assert AuditEvent.objects.count() == before
