"""Every answer under /api/ is JSON in the API's error shape, whatever refused the request:
the API's own views, its parser, the request guards, Django itself (no such address, a body it
cannot read, a server error) or the database."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError
from django.middleware.csrf import _get_new_csrf_string
from django.test import override_settings
from rest_framework.test import APIClient

from accounts.throttles import UserThrottle
from tables.api.views import TableViewSet
from tables.models import Round

pytestmark = pytest.mark.django_db


def _signed_in(floor: dict[str, Any], *, csrf: bool = False) -> APIClient:
    client = APIClient(enforce_csrf_checks=csrf, raise_request_exception=False)
    client.force_login(floor["dealer"])
    if csrf:
        # a CSRF cookie and no header: the check reads the token from the body
        client.cookies["csrftoken"] = _get_new_csrf_string()
    return client


def _token(floor: dict[str, Any]) -> APIClient:
    client = APIClient(raise_request_exception=False)
    key = client.post(
        "/api/auth-token/", {"username": "dealer", "password": "demo"}, format="json"
    ).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _fail_tables(monkeypatch: pytest.MonkeyPatch, exc: Exception) -> None:
    def failing(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        raise exc

    monkeypatch.setattr(TableViewSet, "list", failing)


def _throttle_at_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(UserThrottle, "rate", "1/min", raising=False)


def _post(path: str, body: bytes, content_type: str) -> Callable[[APIClient], Any]:
    return lambda c: c.generic("POST", path, body, content_type=content_type)


def _get(path: str, **headers: str) -> Callable[[APIClient], Any]:
    return lambda c: c.get(path, **headers)


BIG = json.dumps({"table": 1, "wagers": {"1": {"ante": "1" * 2_000}}}).encode()

# (case, client, prepare, request, status, code)
CASES: list[tuple[str, str, Any, Callable[[APIClient], Any], int, str | None]] = [
    (
        "multipart without a boundary",
        "token",
        None,
        _post("/api/rounds/", b"--x\r\n", "multipart/form-data"),
        415,
        "unsupported_media_type",
    ),
    (
        "multipart without a boundary, session with its CSRF check",
        "csrf",
        None,
        _post("/api/rounds/", b"--x\r\n", "multipart/form-data"),
        415,
        "unsupported_media_type",
    ),
    (
        "multipart with a boundary",
        "session",
        None,
        _post("/api/rounds/", b"--zz\r\n\r\n--zz--\r\n", "multipart/form-data; boundary=zz"),
        415,
        "unsupported_media_type",
    ),
    (
        "a form body",
        "session",
        None,
        _post("/api/rounds/", b"table=1", "application/x-www-form-urlencoded"),
        415,
        "unsupported_media_type",
    ),
    (
        "plain text",
        "token",
        None,
        _post("/api/rounds/", b"{}", "text/plain"),
        415,
        "unsupported_media_type",
    ),
    ("malformed JSON", "token", None, _post("/api/rounds/", b"{", "application/json"), 400, None),
    (
        "a body too large",
        "token",
        "small_bodies",
        _post("/api/rounds/", BIG, "application/json"),
        413,
        "too_large",
    ),
    (
        "a body too large, anonymous",
        "anonymous",
        "small_bodies",
        _post("/api/rounds/", BIG, "application/json"),
        413,
        "too_large",
    ),
    (
        "a host the site does not serve",
        "token",
        None,
        _get("/api/tables/", HTTP_HOST="elsewhere.example"),
        400,
        "bad_request",
    ),
    ("an unknown address", "token", None, _get("/api/no-such-thing/"), 404, "not_found"),
    ("an unknown address, anonymous", "anonymous", None, _get("/api/nothing/"), 404, "not_found"),
    ("no such round", "token", None, _get("/api/rounds/999999/"), 404, "not_found"),
    (
        "a wrong method",
        "token",
        None,
        lambda c: c.delete("/api/tables/"),
        405,
        "method_not_allowed",
    ),
    ("no credentials", "anonymous", None, _get("/api/rounds/"), 401, "not_authenticated"),
    (
        "the schema without credentials",
        "anonymous",
        None,
        _get("/api/schema/"),
        401,
        "not_authenticated",
    ),
    ("the schema in no known format", "token", None, _get("/api/schema/?format=x"), 404, None),
    (
        "an error the browsable API would render",
        "session",
        None,
        _get("/api/rounds/999999/", HTTP_ACCEPT="text/html"),
        404,
        "not_found",
    ),
    (
        "an answer in no acceptable type",
        "token",
        None,
        _get("/api/tables/", HTTP_ACCEPT="application/xml"),
        406,
        "not_acceptable",
    ),
    ("a role refused", "token", None, _get("/api/variance-alerts/"), 403, "forbidden"),
    ("throttled", "token", "throttle", _get("/api/tables/"), 429, "throttled"),
    ("a server error", "token", "crash", _get("/api/tables/"), 500, "server_error"),
    ("the database busy", "token", "busy", _get("/api/tables/"), 503, "busy"),
    ("the database out of reach", "token", "gone", _get("/api/tables/"), 503, "unavailable"),
]


@pytest.mark.parametrize(
    ("who", "prepare", "send", "status", "code"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_every_api_refusal_is_json_in_the_error_shape(
    floor: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    who: str,
    prepare: str | None,
    send: Callable[[APIClient], Any],
    status: int,
    code: str | None,
) -> None:
    client = {
        "token": lambda: _token(floor),
        "session": lambda: _signed_in(floor),
        "csrf": lambda: _signed_in(floor, csrf=True),
        "anonymous": lambda: APIClient(raise_request_exception=False),
    }[who]()
    settings_override = override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1_000)
    if prepare == "small_bodies":
        settings_override.enable()
    elif prepare == "throttle":
        _throttle_at_one(monkeypatch)
        assert client.get("/api/tables/").status_code == 200
    elif prepare == "crash":
        _fail_tables(monkeypatch, RuntimeError("a bug"))
    elif prepare == "busy":
        _fail_tables(monkeypatch, OperationalError("database is locked"))
    elif prepare == "gone":
        _fail_tables(monkeypatch, OperationalError("the connection is closed"))
    try:
        response = send(client)
    finally:
        if prepare == "small_bodies":
            settings_override.disable()
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    body = json.loads(response.content)
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert code is None or body["error"]["code"] == code, body
    if status in (429, 503):
        assert int(response["Retry-After"]) >= 1
    assert not Round.objects.exists()


def test_the_site_s_pages_keep_their_own_error_pages(floor: dict[str, Any]) -> None:
    client = APIClient(raise_request_exception=False)
    client.force_login(floor["pitboss"])
    response = client.get("/reports/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
