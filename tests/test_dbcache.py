"""The database cache's one-statement `set` keeps Django's behaviour: values round-trip,
overwrite, expire, `add` and `touch` still work, and the table is culled past its size."""

from __future__ import annotations

import time

import pytest
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from casino import dbcache

pytestmark = pytest.mark.django_db


def test_the_default_cache_is_ours_when_it_is_the_database() -> None:
    backend = caches["default"]
    if "Redis" in type(backend).__name__:
        pytest.skip("CASINO_CACHE_URL names Redis here")
    assert isinstance(backend, dbcache.DatabaseCache)


@pytest.fixture
def dbc() -> dbcache.DatabaseCache:
    return dbcache.DatabaseCache("casino_cache", {"OPTIONS": {"MAX_ENTRIES": 20}})


def test_set_get_overwrite_and_delete(dbc) -> None:
    dbc.set("k", {"a": [1, 2]}, 60)
    assert dbc.get("k") == {"a": [1, 2]}
    dbc.set("k", "two", 60)
    assert dbc.get("k") == "two"
    assert dbc.add("k", "three") is False and dbc.get("k") == "two"
    assert dbc.touch("k", 120) is True
    dbc.delete("k")
    assert dbc.get("k") is None


def test_an_expired_value_is_gone(dbc) -> None:
    dbc.set("short", 1, 1)
    dbc.set("forever", 2, None)
    time.sleep(1.1)
    assert dbc.get("short") is None and dbc.get("forever") == 2


def test_a_set_is_one_statement_outside_a_transaction(dbc) -> None:
    dbc.set("warm", 0)  # the first set of a process also counts the table
    with CaptureQueriesContext(connection) as queries:
        dbc.set("one", 1)
    # (SQLite's brief lock wait is set and restored around it: PRAGMAs, no data touched)
    statements = [
        q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "PRAGMA"))
    ]
    assert len(statements) == 1 and "ON CONFLICT" in statements[0]


def test_a_set_inside_a_transaction_is_seen_there(dbc) -> None:
    with transaction.atomic():
        dbc.set("inside", "x")
        assert dbc.get("inside") == "x"


def test_the_table_is_culled_past_its_size(dbc, monkeypatch) -> None:
    monkeypatch.setattr(dbcache, "CULL_EVERY", 1)
    for i in range(60):
        dbc.set(f"key-{i}", i)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM casino_cache")
        assert cursor.fetchone()[0] <= 31  # Django culls a third of the table at a time
    assert dbc.get("key-59") == 59


def test_on_postgresql_the_cache_table_writes_no_wal() -> None:
    """Migration accounts 0003: a throttle's count on every request waits for no disk flush."""
    if connection.vendor != "postgresql":
        pytest.skip("UNLOGGED tables are PostgreSQL's (DATABASE_URL)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT relpersistence FROM pg_class WHERE relname = 'casino_cache'")
        assert cursor.fetchone() == ("u",)
