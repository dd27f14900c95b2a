"""The API throttles: on PostgreSQL the database cache counts a window in one statement
(`casino.dbcache.DatabaseCache.hit_window`), and it counts as Django REST framework's own
reckoning does (the list read from a cache and written back), request by request: the same
let through, the same refused, the same wait."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.throttles import UserThrottle
from casino import dbcache

pytestmark = pytest.mark.django_db


def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement window is PostgreSQL's (DATABASE_URL)")


class _Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def _throttles(rate: str, clock: _Clock, store: dbcache.DatabaseCache) -> tuple[Any, Any]:
    """The project's throttle on the database cache, and the framework's own on a memory cache,
    both for one client and one clock."""

    class Ours(UserThrottle):
        cache = store
        timer = clock

        def get_cache_key(self, request: Any, view: Any) -> str:
            return "throttle_test_client"

    reference_cache = LocMemCache(f"throttle-reference-{uuid.uuid4()}", {})

    class Framework(SimpleRateThrottle):
        cache = reference_cache
        timer = clock

        def get_cache_key(self, request: Any, view: Any) -> str:
            return "throttle_test_client"

    Ours.rate = Framework.rate = rate
    return Ours, Framework


@pytest.fixture
def store() -> dbcache.DatabaseCache:
    return dbcache.DatabaseCache("casino_cache", {})


@pytest.mark.services
def test_the_window_counts_as_the_framework_does(store: dbcache.DatabaseCache) -> None:
    _postgresql()
    clock = _Clock()
    rng = random.Random(16)
    for rate, steps in (("5/s", 400), ("7/m", 400), ("20/m", 600)):
        store.clear()
        ours_class, framework_class = _throttles(rate, clock, store)
        refused = 0
        for step in range(steps):
            # bursts, pauses, and now and then a whole period of quiet
            clock.now += rng.choice((0.0, 0.01, 0.1, 0.5, 1.0, 3.0, 7.5, 20.0, 61.0))
            ours, framework = ours_class(), framework_class()
            allowed = ours.allow_request(None, None)
            assert allowed == framework.allow_request(None, None), (rate, step)
            if not allowed:
                refused += 1
                assert ours.wait() == pytest.approx(framework.wait(), abs=1e-9), (rate, step)
        assert 0 < refused < steps, rate  # both let through and refused along the way


@pytest.mark.services
def test_a_window_fuller_than_its_limit_refuses_with_no_wait(
    store: dbcache.DatabaseCache,
) -> None:
    """The rate lowered while a client's list is longer than the new limit: refused, and no
    wait to suggest (the framework's `wait()` gives None)."""
    _postgresql()
    clock = _Clock()
    ours_class, framework_class = _throttles("10/m", clock, store)
    for _ in range(8):
        clock.now += 1
        assert ours_class().allow_request(None, None)
        assert framework_class().allow_request(None, None)
    lower_ours, lower_framework = _throttles("5/m", clock, store)
    lower_framework.cache = framework_class.cache
    clock.now += 1
    ours, framework = lower_ours(), lower_framework()
    assert ours.allow_request(None, None) is False
    assert framework.allow_request(None, None) is False
    assert ours.wait() is None and framework.wait() is None


@pytest.mark.services
def test_a_request_is_one_statement_and_clear_empties_the_windows(
    store: dbcache.DatabaseCache,
) -> None:
    _postgresql()
    clock = _Clock()
    ours_class, _ = _throttles("3/m", clock, store)
    store._hits = 1  # the next hit is not a cull's
    with CaptureQueriesContext(connection) as queries:
        assert ours_class().allow_request(None, None)
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 1 and "casino_window_hit" in statements[0]
    for _ in range(2):
        assert ours_class().allow_request(None, None)
    assert ours_class().allow_request(None, None) is False
    store.clear()
    assert ours_class().allow_request(None, None)


@pytest.mark.services
def test_quiet_clients_windows_are_culled(store: dbcache.DatabaseCache) -> None:
    _postgresql()
    clock = _Clock()
    ours_class, _ = _throttles("3/m", clock, store)
    assert ours_class().allow_request(None, None)
    clock.now += 61  # the window's period has passed: nothing in it counts any more
    store._hits = dbcache.CULL_EVERY - 1  # the next hit culls first
    with connection.cursor() as cursor:
        store.hit_window("another_client", clock.now, 60, 3)
        cursor.execute("SELECT key FROM casino_cache_window ORDER BY key")
        keys = [row[0] for row in cursor.fetchall()]
    assert keys == [store.make_and_validate_key("another_client")]


def test_only_postgresql_counts_the_window_in_the_database(store: dbcache.DatabaseCache) -> None:
    """Elsewhere `hit_window` declines (None) and the throttles count as DRF does."""
    counted = store.hit_window("a_client", 1.0, 60, 3)
    assert counted == ((True, None) if connection.vendor == "postgresql" else None)


def test_a_dealer_past_the_rate_is_refused_with_a_wait(
    monkeypatch: pytest.MonkeyPatch, floor: dict[str, Any]
) -> None:
    """Over the API, on whichever database the suite runs: the user rate lowered to 3 a
    minute, the fourth request is refused (429) with a Retry-After, and another user is not."""
    monkeypatch.setattr(UserThrottle, "THROTTLE_RATES", {"user": "3/min"})
    dealer, other = floor["dealer"], floor["dealer2"]
    client = APIClient()
    client.force_authenticate(dealer)
    codes = [client.get("/api/tables/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = client.get("/api/tables/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert refused.json()["error"]["code"]
    someone_else = APIClient()
    someone_else.force_authenticate(other)
    assert someone_else.get("/api/tables/").status_code != 429


# The user's window counted in the API token's own read (accounts.authentication, PostgreSQL).


def _token_client(user: Any) -> APIClient:
    from accounts.models import ApiToken

    _token, key = ApiToken.objects.issue(user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _window_rows(user: Any) -> list[Any]:
    key = dbcache.DatabaseCache("casino_cache", {}).make_key(f"throttle_user_{user.pk}")
    with connection.cursor() as cursor:
        cursor.execute("SELECT cardinality(history) FROM casino_cache_window WHERE key = %s", [key])
        return [row[0] for row in cursor.fetchall()]


def test_a_token_request_counts_its_window_in_the_tokens_statement(
    floor: dict[str, Any],
) -> None:
    """On PostgreSQL the token, its user, their roles and the user's window are one statement;
    elsewhere the throttle counts as DRF does, after the token's read."""
    client = _token_client(floor["dealer"])
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/tables/").status_code == 200
    statements = [q["sql"] for q in queries.captured_queries]
    windows = [sql for sql in statements if "casino_window_hit" in sql]
    if connection.vendor == "postgresql":
        assert len(windows) == 1
        assert '"accounts_apitoken"' in windows[0]  # the token's own read
        assert _window_rows(floor["dealer"]) == [1]
        assert client.get("/api/tables/").status_code == 200
        assert _window_rows(floor["dealer"]) == [2]
    else:
        assert windows == []


def test_a_token_past_the_rate_is_refused_with_a_wait_and_not_counted(
    monkeypatch: pytest.MonkeyPatch, floor: dict[str, Any]
) -> None:
    """With the API token (the statement above on PostgreSQL): the fourth request at 3 a minute
    is refused with a Retry-After and leaves the window as it was; another user is let through."""
    monkeypatch.setattr(UserThrottle, "THROTTLE_RATES", {"user": "3/min"})
    client = _token_client(floor["dealer"])
    codes = [client.get("/api/tables/").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    refused = client.get("/api/tables/")
    assert 0 < int(refused["Retry-After"]) <= 60
    if connection.vendor == "postgresql":
        assert _window_rows(floor["dealer"]) == [3]
    assert _token_client(floor["dealer2"]).get("/api/tables/").status_code == 200


def test_an_expired_token_or_inactive_user_is_refused_and_not_counted(
    settings: Any, floor: dict[str, Any]
) -> None:
    dealer, other = floor["dealer"], floor["dealer2"]
    client = _token_client(dealer)
    inactive = _token_client(other)
    settings.CASINO_TOKEN_HOURS = 0  # every token issued is now expired
    assert client.get("/api/tables/").status_code == 401
    settings.CASINO_TOKEN_HOURS = 12
    type(other).objects.filter(pk=other.pk).update(is_active=False)
    assert inactive.get("/api/tables/").status_code == 401
    if connection.vendor == "postgresql":
        assert _window_rows(dealer) == []
        assert _window_rows(other) == []


def test_the_sign_in_throttle_is_not_counted_with_a_token(floor: dict[str, Any]) -> None:
    """A view without the user throttle: the token's read counts no window."""
    from accounts.authentication import _user_window
    from tables.api.views import TableViewSet, TokenView

    class _Request:
        def __init__(self, view: Any) -> None:
            self.parser_context = {"view": view}

    assert _user_window(_Request(TokenView())) is None
    if connection.vendor == "postgresql":
        assert _user_window(_Request(TableViewSet())) is not None


def test_a_token_request_refused_for_its_role_counts_against_its_rate(
    floor: dict[str, Any],
) -> None:
    """Counted with the token (PostgreSQL), a request refused for its role (403) is counted too:
    DRF, checking permissions first, would not count it. Stricter, never looser."""
    client = _token_client(floor["admin"])
    answer = client.post(
        "/api/rounds/", {"table": floor["SC-1"].pk, "wagers": {1: {"ante": "5.00"}}}, format="json"
    )
    assert answer.status_code == 403
    if connection.vendor == "postgresql":
        assert _window_rows(floor["admin"]) == [1]
