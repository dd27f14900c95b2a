"""Lockout after repeated failed sign-ins: shared by every process (the database, or Redis),
refusing even the right password, lifted by security, on the audit chain; unknown names cannot
grow the chain; the client address is never taken from a header the client chose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.db import connection
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.clientip import client_ip
from accounts.lockout import is_locked, lockout_lift
from accounts.models import AccountLock, SignInFailure
from audit.models import AuditEvent

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("signin_process.py")
PASSWORD = "Right-horse-battery-9"


def fail(username: str, times: int, ip: str = "192.0.2.7") -> None:
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=ip)
    for _ in range(times):
        assert authenticate(request, username=username, password="wrong-password") is None


def login_page(username: str, password: str) -> Any:
    return Client().post(reverse("login"), {"username": username, "password": password})


@pytest.fixture
def player(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("player", password=PASSWORD)


@pytest.mark.django_db
def test_ten_failures_in_the_window_lock_the_account_even_for_the_right_password(
    player: Any,
) -> None:
    fail("player", 9)
    assert not is_locked("player")
    assert authenticate(username="player", password=PASSWORD) == player  # 9 do not lock
    fail("player", 1)
    assert is_locked("player")
    assert authenticate(username="player", password=PASSWORD) is None
    response = login_page("player", PASSWORD)
    assert response.status_code == 200
    assert "locked after repeated failed sign-ins" in response.content.decode()
    assert "_auth_user_id" not in Client().session
    (lock,) = AccountLock.objects.all()
    assert lock.user == player and lock.failures == 10 and lock.ip == "192.0.2.7"
    kinds = list(AuditEvent.objects.order_by("seq").values_list("kind", flat=True))
    assert kinds.count("auth.login_failed") == 10 and kinds.count("account.locked") == 1


@pytest.mark.django_db
def test_a_successful_sign_in_starts_the_count_again(player: Any) -> None:
    fail("player", 9)
    assert login_page("player", PASSWORD).status_code == 302
    fail("player", 9)
    assert not is_locked("player")


@pytest.mark.django_db
@override_settings(CASINO_LOCKOUT_FAILURES=3, CASINO_LOCKOUT_WINDOW_MINUTES=5)
def test_the_threshold_and_window_are_configurable(player: Any) -> None:
    fail("player", 2)
    assert not is_locked("player")
    SignInFailure.objects.update(at=SignInFailure.objects.first().at.replace(year=2000))
    fail("player", 2)  # the two old ones are outside the window
    assert not is_locked("player")
    fail("player", 1)
    assert is_locked("player")


@pytest.mark.django_db
@override_settings(CASINO_LOCKOUT_MINUTES=1)
def test_an_automatic_lock_expires_when_configured(player: Any) -> None:
    fail("player", 10)
    assert is_locked("player")
    AccountLock.objects.update(locked_until="2000-01-01T00:00:00Z")
    assert not is_locked("player")
    assert authenticate(username="player", password=PASSWORD) == player


@pytest.mark.django_db
def test_security_lifts_the_lock_on_the_audit_chain(floor: Any, player: Any) -> None:
    fail("player", 10)
    lock = AccountLock.objects.get()
    security = Client()
    assert security.login(username="security", password="demo")
    changelist = reverse("admin:accounts_accountlock_changelist")
    assert "player" in security.get(changelist).content.decode()
    response = security.post(changelist, {"action": "lift_locks", "_selected_action": [lock.pk]})
    assert response.status_code == 302
    lock.refresh_from_db()
    assert lock.lifted_by == floor["security"] and lock.lifted_at is not None
    assert not is_locked("player")
    event = AuditEvent.objects.get(kind="account.unlocked")
    assert event.actor_id == floor["security"].pk and event.data["username"] == "player"
    assert login_page("player", PASSWORD).status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["admin", "pitboss", "auditor", "dealer"])
def test_only_security_lifts_a_lock(floor: Any, player: Any, who: str) -> None:
    from django.core.exceptions import PermissionDenied

    fail("player", 10)
    with pytest.raises(PermissionDenied):
        lockout_lift(lock=AccountLock.objects.get(), by=floor[who])
    assert is_locked("player")


@pytest.mark.django_db
def test_the_api_token_endpoint_is_locked_too(player: Any) -> None:
    fail("player", 10)
    response = APIClient().post(
        "/api/auth-token/", {"username": "player", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["error"] == {
        "code": "account_locked",
        "message": "This account is locked after repeated failed sign-ins: ask security to "
        "unlock it.",
        "field": "username",
    }


@pytest.mark.django_db
def test_failures_for_unknown_names_cannot_grow_the_chain(player: Any) -> None:
    before = AuditEvent.objects.count()
    for i in range(200):
        fail(f"nobody-{i}", 1, ip=f"198.51.100.{i % 250}")
    new = AuditEvent.objects.count() - before
    assert new == 1
    assert AuditEvent.objects.filter(kind="auth.login_failed_unknown").count() == 1
    assert SignInFailure.objects.count() == 200  # counted, pruned after the window


@pytest.mark.django_db
def test_attempts_on_a_locked_account_are_not_chained(player: Any) -> None:
    fail("player", 10)
    before = AuditEvent.objects.count()
    fail("player", 100)
    assert AuditEvent.objects.count() == before


# --- across processes ---------------------------------------------------------------------------


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _shared_env(tmp_path: Path, cache_url: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["DJANGO_DEBUG"] = "true"
    env.pop("CASINO_CACHE_URL", None)
    if cache_url:
        env["CASINO_CACHE_URL"] = cache_url
    if connection.vendor == "postgresql":
        s = connection.settings_dict
        password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
        env["DATABASE_URL"] = (
            f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/"
            f"{s['NAME']}"
        )
    else:  # the test database is in memory: the processes share a database file instead
        env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
    return env


def _two_processes_lock_one_account(env: dict[str, str]) -> None:
    _run(env, "create", "shared-player", PASSWORD)
    _run(env, "fail", "shared-player", PASSWORD, "5")  # process one: 5 failures, not locked
    assert _run(env, "try", "shared-player", PASSWORD).split("\n")[:2] == [
        "signed in",
        "not locked",
    ]
    _run(env, "fail", "shared-player", PASSWORD, "5")
    _run(env, "fail", "shared-player", PASSWORD, "5")  # process three: the 10th locks it
    assert _run(env, "try", "shared-player", PASSWORD).split("\n")[:2] == ["refused", "locked"]


@pytest.mark.django_db(transaction=True)
def test_lockout_is_shared_by_separate_processes_through_the_database(tmp_path: Path) -> None:
    _two_processes_lock_one_account(_shared_env(tmp_path))
    if connection.vendor == "postgresql":
        assert is_locked("shared-player")  # and this process sees it too


REDIS_URL = os.environ.get("CELERY_BROKER_URL", "")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_lockout_is_shared_by_separate_processes_through_redis(tmp_path: Path) -> None:
    if not REDIS_URL.startswith("redis://"):
        pytest.skip("CELERY_BROKER_URL does not name Redis")
    env = _shared_env(tmp_path, cache_url=REDIS_URL)
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    redis = RedisCache(REDIS_URL, {})
    redis.clear()
    try:
        _two_processes_lock_one_account(env)
        assert any(k for k in redis._cache.get_client().keys("*signin-failures*"))
    finally:
        redis.clear()
    assert caches  # the default cache of this process is untouched


# --- the client's address -------------------------------------------------------------------


def test_x_forwarded_for_is_ignored_by_default() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == "203.0.113.9"


@override_settings(CASINO_TRUSTED_PROXIES=["10.0.0.0/8"])
def test_a_trusted_proxys_header_names_the_client() -> None:
    factory = RequestFactory()
    request = factory.get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9, 10.0.0.5"
    )
    assert client_ip(request) == "203.0.113.9"  # the client chose 6.6.6.6; the proxy saw .9
    untrusted = factory.get("/", REMOTE_ADDR="203.0.113.50", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(untrusted) == "203.0.113.50"


@pytest.mark.django_db
def test_the_sign_in_throttle_counts_the_connection_not_the_header(player: Any) -> None:
    client = APIClient(REMOTE_ADDR="203.0.113.77")
    codes = [
        client.post(
            "/api/auth-token/",
            {"username": f"guess-{i}", "password": "x"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"10.9.8.{i}",
        ).status_code
        for i in range(25)
    ]
    assert codes[:20] == [400] * 20 and set(codes[20:]) == {429}
    other = APIClient(REMOTE_ADDR="203.0.113.78")
    ok = other.post("/api/auth-token/", {"username": "player", "password": PASSWORD}, format="json")
    assert ok.status_code == 200
    assert get_user_model().objects.filter(username="player").exists()
