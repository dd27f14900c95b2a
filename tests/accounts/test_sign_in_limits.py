"""Signing in is limited per client address on every path: the sign-in page shares the API's
sign-in window (20 a minute) and past it checks no password; an anonymous API request (no
credentials or a refused token) is counted by the anonymous throttle before its 401; Django's
password-reset pages exist only when CASINO_PASSWORD_RESET asks for them."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import clear_url_caches, reverse
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.lockout import failures
from accounts.models import SignInFailure

pytestmark = pytest.mark.django_db

PASSWORD = "Right-horse-battery-9"
RATES = {"anon": "5/min", "user": "1200/min", "sign_in": "20/min"}


@pytest.fixture
def player(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("player", password=PASSWORD)


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", RATES)
    return RATES


def page(client: Client, username: str, password: str, ip: str = "198.51.100.7") -> Any:
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip
    )


# --- the sign-in page -----------------------------------------------------------------------


def test_the_sign_in_page_refuses_the_21st_sign_in_of_an_address_within_a_minute(
    player: Any,
) -> None:
    client = Client()
    names = [f"name-{n}" for n in range(20)]
    for name in names:  # 20 names tried: each answered (and counted toward its own lockout)
        assert page(client, name, "guess").status_code == 200
    refused = page(client, "player", PASSWORD)  # even the right password: not checked
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "Too many sign-ins from this device" in refused.content.decode()
    assert "_auth_user_id" not in client.session
    assert failures("player") == 0  # no password checked, nothing counted toward its lockout
    # another address is not held up
    other = Client()
    assert page(other, "player", PASSWORD, ip="198.51.100.8").status_code == 302


def test_the_page_and_the_api_share_one_sign_in_window(player: Any) -> None:
    api = APIClient(REMOTE_ADDR="198.51.100.9")
    for _ in range(15):
        api.post("/api/auth-token/", {"username": "player", "password": "guess"}, format="json")
    client = Client()
    for _ in range(5):
        assert page(client, "player", "guess", ip="198.51.100.9").status_code == 200
    assert page(client, "player", PASSWORD, ip="198.51.100.9").status_code == 429
    assert (
        api.post(
            "/api/auth-token/", {"username": "player", "password": PASSWORD}, format="json"
        ).status_code
        == 429
    )


def test_a_signed_in_user_posting_to_the_sign_in_page_is_counted_too(player: Any) -> None:
    client = Client()
    client.force_login(player)
    for n in range(20):
        page(client, f"someone-{n}", "guess")
    assert page(client, "someone", "guess").status_code == 429


def test_the_admins_sign_in_form_shares_the_window(player: Any) -> None:
    client = Client()
    for n in range(20):
        page(client, f"name-{n}", "guess", ip="198.51.100.11")
    refused = client.post(
        "/admin/login/",
        {"username": "player", "password": PASSWORD},
        REMOTE_ADDR="198.51.100.11",
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session
    assert Client().get("/admin/login/").status_code == 200  # showing it is not counted


def test_showing_the_sign_in_page_is_not_counted() -> None:
    client = Client()
    for _ in range(30):
        assert client.get(reverse("login"), REMOTE_ADDR="198.51.100.10").status_code == 200
    assert page(client, "nobody", "guess", ip="198.51.100.10").status_code == 200


# --- the anonymous API throttle ---------------------------------------------------------------


def test_the_anonymous_throttle_engages_before_the_401(rates: dict[str, str]) -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.20")
    answers = [client.get("/api/tables/").status_code for _ in range(7)]
    assert answers == [401] * 5 + [429] * 2
    throttled = client.get("/api/rounds/")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) >= 1
    assert throttled.json()["error"]["code"] == "throttled"
    assert APIClient(REMOTE_ADDR="203.0.113.21").get("/api/tables/").status_code == 401


def test_guessing_tokens_is_throttled_as_anonymous(rates: dict[str, str]) -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.22")
    answers = []
    for n in range(7):
        client.credentials(HTTP_AUTHORIZATION=f"Token {n:040d}")
        answers.append(client.get("/api/tables/").status_code)
    assert answers == [401] * 5 + [429] * 2


def test_the_schema_is_throttled_for_anonymous_callers_too(rates: dict[str, str]) -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.23")
    assert [client.get("/api/schema/").status_code for _ in range(6)] == [401] * 5 + [429]


def test_a_signed_in_caller_is_not_held_to_the_anonymous_rate(
    rates: dict[str, str], player: Any
) -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.24")
    client.force_login(player)
    assert {client.get("/api/tables/").status_code for _ in range(8)} == {403}


def test_an_anonymous_sign_in_through_the_api_is_counted_once(
    rates: dict[str, str], player: Any
) -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.25")
    answers = [
        client.post(
            "/api/auth-token/", {"username": f"nobody-{n}", "password": "guess"}, format="json"
        ).status_code
        for n in range(21)
    ]
    assert answers == [400] * 20 + [429]  # the sign-in rate (20), each request counted once


# --- password reset -----------------------------------------------------------------------------


def _reload_urls() -> None:
    import casino.urls

    importlib.reload(casino.urls)
    clear_url_caches()


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/password_reset/",
        "/accounts/password_reset/done/",
        "/accounts/reset/MQ/set-password/",
        "/accounts/reset/done/",
    ],
)
def test_no_password_reset_pages_by_default(path: str) -> None:
    assert Client().get(path).status_code == 404
    assert Client().post(path, {"email": "someone@example.com"}).status_code == 404


def test_the_password_reset_pages_when_configured() -> None:
    try:
        with override_settings(CASINO_PASSWORD_RESET=True):
            _reload_urls()
            assert Client().get("/accounts/password_reset/").status_code == 200
    finally:
        _reload_urls()
    assert Client().get("/accounts/password_reset/").status_code == 404


def test_signing_out_and_changing_ones_password_are_still_there(player: Any) -> None:
    client = Client()
    client.force_login(player)
    assert client.get("/accounts/password_change/").status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/accounts/password_change/").status_code == 302  # to the sign-in page
    assert not SignInFailure.objects.exists()
