"""Every bad input is refused with the API's JSON error naming the field, and nothing is saved:
seat numbers given twice, other scripts' digits, a correction outside the table's limits or
with unknown fields, deep JSON, impossible dates, NUL characters, oversized bodies."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.models import Round
from tables.services import ServiceError
from tables.services import rounds as svc
from tables.services.corrections import round_correct, round_void
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db


def refused(response: Any, status: int, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content[:500])
    error = response.json()["error"]
    assert set(error) == {"code", "message", "field"} and error["message"]
    if field is not None:
        assert error["field"] == field, error
    return error  # type: ignore[no-any-return]


@pytest.fixture
def dealer(floor: dict[str, Any]) -> APIClient:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    client = APIClient()
    client.force_login(floor["dealer"])
    return client


def open_round(client: APIClient, floor: Any, wagers: Any) -> Any:
    return client.post("/api/rounds/", {"table": floor["SC-1"].pk, "wagers": wagers}, format="json")


# --- seats and amounts ---------------------------------------------------------------------------


def test_a_seat_given_twice_as_1_and_01_is_refused(floor: Any, dealer: APIClient) -> None:
    error = refused(open_round(dealer, floor, {"1": {"ante": "10"}, "01": {"ante": "20"}}), 400)
    assert error["field"] == "seat 1" and "twice" in error["message"]
    assert not Round.objects.exists()


def test_a_seat_01_alone_is_seat_1(floor: Any, dealer: APIClient) -> None:
    response = open_round(dealer, floor, {"01": {"ante": "10"}})
    assert response.status_code == 201
    assert response.json()["entry"]["seats"] == [{"seat": 1, "wagers": {"ante": "10.00"}}]
    deal = dealer.post(
        f"/api/rounds/{response.json()['id']}/deal/",
        {"cards": {"1": "9d 8h 2s", "01": "Ah Kd 2c"}, "dealer": "Kc 7d 2c"},
        format="json",
    )
    refused(deal, 400, "seat 1")
    deal = dealer.post(
        f"/api/rounds/{response.json()['id']}/deal/",
        {"cards": {"01": "9d 8h 2s"}, "dealer": "Kc 7d 2c"},
        format="json",
    )
    assert deal.status_code == 200


@pytest.mark.parametrize(
    ("wagers", "field"),
    [
        ({"1": {"ante": "١٠.٠٠"}}, "seat 1's ante"),  # Arabic-Indic digits
        ({"1": {"ante": "１０"}}, "seat 1's ante"),  # full-width digits
        ({"١": {"ante": "10"}}, "wagers"),
        ({" 1": {"ante": "10"}}, "wagers"),
        ({"1": {"ante": "10", "pair_plus": "٥"}}, "seat 1's pair_plus"),
    ],
)
def test_only_ascii_digits_are_amounts_and_seats(
    floor: Any, dealer: APIClient, wagers: Any, field: str
) -> None:
    refused(open_round(dealer, floor, wagers), 400, field)
    assert not Round.objects.exists()


def test_a_decision_seat_in_other_digits_is_refused(floor: Any, dealer: APIClient) -> None:
    r = open_round(dealer, floor, {"1": {"ante": "10"}}).json()
    dealer.post(
        f"/api/rounds/{r['id']}/deal/",
        {"cards": {"1": "9d 8h 2s"}, "dealer": "Kc 7d 2c"},
        format="json",
    )
    refused(
        dealer.post(f"/api/rounds/{r['id']}/decide/", {"seat": "١", "decision": {}}, format="json"),
        400,
        "seat",
    )
    assert Round.objects.get(pk=r["id"]).entry["decided"] == []


# --- corrections ---------------------------------------------------------------------------------


def _settled(floor: Any) -> Round:
    d, table = floor["dealer"], floor["SC-1"]
    dealer_sign_in(dealer=d, table=table)
    r = svc.round_open(table=table, dealer=d, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "9d 8h 2s"}, dealer_cards="Kc 7d 2c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=d, draw=[])
    r = svc.round_settle(round=r, dealer=d, idempotency_key="k")
    return round_void(round=r, by=floor["pitboss"], reason="wrong card")


def _entry(r: Round) -> dict[str, Any]:
    return {k: v for k, v in r.entry.items() if k not in ("decided", "dealer_done")}


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda e: e["seats"][0]["wagers"].update(ante="999999999999.99"), "seat 1 ante", "500.00"),
        (lambda e: e["seats"][0]["wagers"].update(ante="1.00"), "seat 1 ante", "from 5.00"),
        (lambda e: e["seats"][0]["wagers"].update(bonus="5.00"), "seat 1 bonus", "may not"),
        (lambda e: e["seats"][0]["wagers"].update(ante="١٠"), "seat 1's ante", "decimal"),
        (lambda e: e.update(comment="x"), "comment", "no field"),
        (lambda e: e.update(paytable={"ante": {}}), "paytable", "no field"),
        (lambda e: e["seats"][0].update(note="x"), "seat 1 note", "no field"),
        (lambda e: e["dealer"].update(extra=[]), "dealer extra", "no field"),
        (lambda e: e["seats"].append({"seat": "01", "wagers": {"ante": "10"}}), "seat 1", "twice"),
        (lambda e: e["seats"].append({"seat": 9, "wagers": {"ante": "10"}}), "seat 9", "exist"),
        (lambda e: e["seats"][0].update(cards=["9d", "9d", "2s"]), None, "9"),
        (
            lambda e: e["seats"][0].update(
                mulligan={"cards": ["Ah", "Kd", "Qc"], "pair_plus": "900"}
            ),
            "seat 1 mulligan pair_plus",
            "100.00",
        ),
    ],
)
def test_a_correction_is_checked_like_a_new_round_at_the_table(
    floor: Any, change: Any, field: str | None, words: str
) -> None:
    voided = _settled(floor)
    entry = _entry(voided)
    change(entry)
    events = AuditEvent.objects.count()
    with pytest.raises(ServiceError) as refusal:
        round_correct(voided=voided, by=floor["pitboss"], entry=entry)
    if field is not None:
        assert refusal.value.field == field, refusal.value.message
    assert words in refusal.value.message
    assert not Round.objects.filter(corrects=voided).exists()
    assert AuditEvent.objects.count() == events


def test_a_valid_correction_still_settles(floor: Any) -> None:
    voided = _settled(floor)
    entry = _entry(voided)
    entry["seats"][0]["wagers"]["ante"] = "20"
    corrected = round_correct(voided=voided, by=floor["pitboss"], entry=entry)
    assert corrected.entry["seats"][0]["wagers"] == {"ante": "20.00"}


def test_the_correction_form_refuses_junk_at_its_fields(floor: Any) -> None:
    voided = _settled(floor)
    client = Client()
    client.force_login(floor["pitboss"])
    url = f"/audit/rounds/{voided.pk}/correct/"
    junk = {"seat-1-ante": "9" * 5000, "seat-1-cards": "[" * 5000, "dealer-cards": "Zz"}
    response = client.post(url, junk)
    assert response.status_code == 303 and response["Location"] == url
    page = client.get(url)
    assert page.status_code == 200 and 'id="err-seat-1-cards"' in page.content.decode()
    assert not Round.objects.filter(corrects=voided).exists()


# --- JSON, dates, NUL, sizes ---------------------------------------------------------------------


@pytest.mark.parametrize("depth", [25, 5000, 100000])
def test_deep_json_is_a_400_on_any_api_route_even_anonymous(floor: Any, depth: int) -> None:
    body = "[" * depth + "]" * depth
    for client, path in [
        (APIClient(), "/api/auth-token/"),
        (APIClient(), "/api/rounds/"),
    ]:
        response = client.generic("POST", path, body, content_type="application/json")
        assert response.status_code in (400, 401), response.status_code
        if path == "/api/auth-token/":
            refused(response, 400)
    signed = APIClient()
    signed.force_login(floor["dealer"])
    refused(signed.generic("POST", "/api/rounds/", body, content_type="application/json"), 400)


def test_a_key_given_twice_is_refused_naming_it_and_nothing_is_saved(floor: Any) -> None:
    from accounting.models import Slip

    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    client = APIClient()
    client.force_login(floor["dealer"])
    events = AuditEvent.objects.count()
    body = (
        f'{{"table": {floor["SC-1"].pk}, "kind": "buy_in", "amount": "1.00", "amount": "40000.00"}}'
    )
    response = client.generic("POST", "/api/slips/", body, content_type="application/json")
    error = refused(response, 400, "amount")
    assert "'amount'" in error["message"] and "twice" in error["message"]
    assert response["Content-Type"] == "application/json"
    assert not Slip.objects.exists() and AuditEvent.objects.count() == events
    # the same body with the key once is taken
    once = f'{{"table": {floor["SC-1"].pk}, "kind": "buy_in", "amount": "1.00"}}'
    assert (
        client.generic("POST", "/api/slips/", once, content_type="application/json").status_code
        == 201
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"table": 1, "wagers": {"1": {"ante": "1", "ante": "900"}}}', "wagers.1.ante"),
        ('{"table": 1, "wagers": {"1": {"ante": "1"}, "1": {"ante": "900"}}}', "wagers.1"),
        ('{"table": 1, "table": 2, "wagers": {}}', "table"),
        ('[{"a": 1}, {"b": 1, "b": 2}]', "1.b"),
        ('{"x": [[{"deep": {"k": 1, "k": 1}}]]}', "x.0.0.deep.k"),
    ],
)
def test_a_key_given_twice_at_any_depth_is_refused_where_it_is(
    floor: Any, dealer: APIClient, body: str, field: str
) -> None:
    response = dealer.generic("POST", "/api/rounds/", body, content_type="application/json")
    refused(response, 400, field)
    assert not Round.objects.exists()


def test_a_key_given_twice_is_refused_before_sign_in(floor: Any) -> None:
    body = '{"username": "dealer", "password": "x", "password": "demo"}'
    response = APIClient().generic(
        "POST", "/api/auth-token/", body, content_type="application/json"
    )
    refused(response, 400, "password")


def test_the_same_key_in_two_objects_is_no_repeat(floor: Any, dealer: APIClient) -> None:
    body = json.dumps(
        {"table": floor["SC-1"].pk, "wagers": {"1": {"ante": "10"}, "2": {"ante": "10"}}}
    )
    response = dealer.generic("POST", "/api/rounds/", body, content_type="application/json")
    assert response.status_code == 201, response.content


def test_nan_is_not_json(floor: Any, dealer: APIClient) -> None:
    body = '{"table": 1, "wagers": {"1": {"ante": NaN}}}'
    refused(dealer.generic("POST", "/api/rounds/", body, content_type="application/json"), 400)


def test_a_nul_in_json_is_refused_naming_the_field(floor: Any, dealer: APIClient) -> None:
    error = refused(open_round(dealer, floor, {"1": {"ante": "10\x00"}}), 400, "wagers.1.ante")
    assert "NUL" in error["message"]
    assert not Round.objects.exists()


def test_a_nul_in_a_void_reason_is_refused_and_the_round_stays_settled(floor: Any) -> None:
    voided = _settled(floor)
    # a fresh settled round to void
    d = floor["dealer"]
    r = svc.round_open(table=floor["SC-1"], dealer=d, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=d, seat_cards={1: "9d 8h 2s"}, dealer_cards="Kc 7d 2c")
    r = svc.round_decide(round=r, dealer=d, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=d, draw=[])
    r = svc.round_settle(round=r, dealer=d, idempotency_key="k2")
    client = Client()
    client.force_login(floor["pitboss"])
    response = client.post(f"/audit/rounds/{r.pk}/void/", {"reason": "bad\x00card"})
    assert response.status_code == 400 and b"reason" in response.content
    assert Round.objects.get(pk=r.pk).status == "settled"
    assert voided.status == "voided"


@pytest.mark.parametrize(
    "query",
    ["user=a%00b", "kind=%00", "since=2024-02-30", "until=2024-13-01", "since=2024-02-30T10:00"],
)
def test_bad_audit_filters_are_400_naming_the_filter(floor: Any, query: str) -> None:
    client = Client()
    client.force_login(floor["auditor"])
    for path in ("/audit/", "/audit/events.csv"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, query)
        assert query.split("=")[0].encode() in response.content


def test_a_nul_in_an_api_filter_is_a_json_400(floor: Any) -> None:
    client = APIClient()
    client.force_login(floor["auditor"])
    refused(client.get("/api/rounds/?status=settled%00"), 400, "status")


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000)
def test_an_oversized_body_is_a_json_413(floor: Any, dealer: APIClient) -> None:
    body = json.dumps({"table": floor["SC-1"].pk, "wagers": {"1": {"ante": "1" * 20_000}}})
    for client in (dealer, APIClient()):
        response = client.generic("POST", "/api/rounds/", body, content_type="application/json")
        error = refused(response, 413)
        assert error["code"] == "too_large"
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page_size=abc", "page_size"),
        ("page_size=0", "page_size"),
        ("page_size=201", "page_size"),
        ("page_size=%C2%B2", "page_size"),
        ("page=-1", "page"),
        ("page=x", "page"),
        ("status=settled&status=open", "status"),
        ("page_size=5&page_size=500", "page_size"),
    ],
)
def test_a_list_s_page_a_filter_given_twice_or_out_of_range_is_refused_naming_it(
    floor: Any, query: str, field: str
) -> None:
    client = APIClient()
    client.force_login(floor["pitboss"])
    for path in ("/api/rounds/", "/api/slips/", "/api/variance-alerts/"):
        refused(client.get(f"{path}?{query}"), 400, field)


def test_a_list_s_page_within_its_bounds_is_taken(floor: Any) -> None:
    client = APIClient()
    client.force_login(floor["pitboss"])
    assert client.get("/api/rounds/?page=1&page_size=200").status_code == 200
    assert client.get("/api/rounds/?page=2").status_code == 404  # past the end
