"""With the shared cache in Redis (CASINO_CACHE_URL=redis://...) and Redis refusing connections
or accepting them and never answering, the floor stays up: every request answers within the
cache's short timeout (then the cache is not asked during its pause), the throttles let
requests through, failed sign-ins still lock the account (counted in the database), and a
dealer plays a round through."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from accounts.lockout import clear_failures, failures, is_locked, record_failure
from accounts.models import SignInFailure
from audit.models import AuditEvent
from core import cache as core_cache
from tables.models import Round
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db

PASSWORD = "Right-horse-battery-9"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Silent:
    """A server that accepts connections and never answers (a hung Redis)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = int(self.sock.getsockname()[1])
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


def _redis_at(port: int) -> Any:
    return override_settings(
        CACHES={
            "default": {
                "BACKEND": "core.cache.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{port}/7",
            }
        },
        CASINO_LOCKOUT_STORE="redis",
        CASINO_CACHE_TIMEOUT=0.2,
    )


@pytest.fixture(params=["refusing", "hung"])
def redis_down(request: pytest.FixtureRequest) -> Iterator[str]:
    core_cache.resume()
    server = Silent() if request.param == "hung" else None
    port = server.port if server is not None else _free_port()
    with _redis_at(port):
        yield request.param
    if server is not None:
        server.close()
    core_cache.resume()


@pytest.fixture
def player(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("player", password=PASSWORD)


def timed(call: Any) -> tuple[Any, float]:
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


def test_api_requests_answer_at_once(redis_down: str, floor: dict[str, Any]) -> None:
    client = APIClient()
    client.force_login(floor["pitboss"])
    first, took = timed(lambda: client.get("/api/tables/"))
    assert first.status_code == 200 and took < 2
    answers, took = timed(lambda: [client.get("/api/rounds/").status_code for _ in range(20)])
    assert answers == [200] * 20 and took < 5  # the pause: Redis is not asked again
    assert APIClient().get("/api/tables/").status_code == 401  # anonymous: refused, not a 500


def test_failed_sign_ins_still_lock_the_account(redis_down: str, player: Any) -> None:
    for _ in range(10):
        record_failure("player", "192.0.2.30")
    assert is_locked("player")
    assert SignInFailure.objects.filter(username="player").count() == 10  # in the database
    assert failures("player") == 10
    refused = Client().post("/accounts/login/", {"username": "player", "password": PASSWORD})
    assert refused.status_code == 200 and "locked" in refused.content.decode()
    clear_failures("player")
    assert failures("player") == 0


def test_names_that_are_not_accounts_are_chained_once_a_window(redis_down: str) -> None:
    from accounts import lockout

    lockout._unknown_audited_at = 0.0
    for n in range(5):
        record_failure(f"nobody-{n}", "192.0.2.31")
    assert AuditEvent.objects.filter(kind="auth.login_failed_unknown").count() == 1


def test_the_sign_in_page_answers_and_signs_in(redis_down: str, player: Any) -> None:
    client = Client()
    for _ in range(3):
        assert (
            client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 200
        )
    ok = client.post("/accounts/login/", {"username": "player", "password": PASSWORD})
    assert ok.status_code == 302


def test_a_dealer_plays_a_round_through(redis_down: str, floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    api = APIClient()
    api.force_login(floor["dealer"])
    opened = api.post(
        "/api/rounds/",
        {"table": floor["SC-1"].pk, "wagers": {"1": {"ante": "10"}}},
        format="json",
    )
    assert opened.status_code == 201, opened.content
    url = f"/api/rounds/{opened.json()['id']}/"
    steps = [
        ("deal/", {"cards": {"1": "9d 8h 2s"}, "dealer": "Ks 7d 2c"}),
        ("decide/", {"seat": 1, "decision": {}}),
        ("dealer/", {}),
    ]
    for step, body in steps:
        response = api.post(url + step, body, format="json")
        assert response.status_code == 200, (step, response.content)
    assert api.get(url + "preview/").status_code == 200  # computed again: nothing kept
    settled = api.post(url + "settle/", {"idempotency_key": "cache-down-1"}, format="json")
    assert settled.status_code == 200, settled.content
    assert Round.objects.get().status == "settled"


def test_the_cache_is_asked_again_after_its_pause(settings: Any) -> None:
    from django.core.cache import caches

    core_cache.resume()
    port = _free_port()
    with _redis_at(port), override_settings(CASINO_CACHE_PAUSE=0.3):
        store = caches["default"]
        with pytest.raises(core_cache.CacheUnavailable):
            store.get("k")
        with pytest.raises(core_cache.CacheUnavailable, match="failed less than"):
            store.get("k")  # not asked
        time.sleep(0.35)
        with pytest.raises(core_cache.CacheUnavailable) as asked:
            store.get("k")
        assert "failed less than" not in str(asked.value)  # asked again, and refused again
    core_cache.resume()
