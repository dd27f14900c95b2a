"""What a database failure means for a request, and writes that must not hold a reader up.

- `brief_lock_wait`: on SQLite a writer waits for the lock up to the busy timeout
  (CASINO_SQLITE_BUSY_TIMEOUT, 20 s), which suits a round's step, never a write a reading request
  makes on the side (a session's idle time renewed, a throttle's count, a refused request's
  record): those wait CASINO_SQLITE_BRIEF_WAIT_MS at most, and their caller lets them go when
  the lock is not free (a refusal's record is never let go: the request answers 503).
- `lock_busy`, `unavailable`, `out_of_range`: the failures a request answers with 503 (try
  again: the database is busy or its connection was lost) or 400 (a number or a date in the
  request no column or calendar holds) rather than a server error (`core.faults`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DataError, InterfaceError, OperationalError, connections

# SQLSTATE classes and codes of a failure that passes: the connection lost (08), the server
# shutting down or the backend ended (57P01-57P03), a statement cancelled (57014), a deadlock or
# a serialization failure (40P01, 40001), a lock not available (55P03).
_TRANSIENT_CLASSES = ("08",)
_TRANSIENT_CODES = {"57P01", "57P02", "57P03", "57014", "40P01", "40001", "55P03"}


@contextmanager
def brief_lock_wait(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """On SQLite, writes made inside wait at most CASINO_SQLITE_BRIEF_WAIT_MS for the database's
    lock (then fail with "database is locked"); elsewhere, or inside a transaction (which
    holds the lock already: SQLite's transactions begin IMMEDIATE here), nothing changes."""
    connection = connections[using]
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    full = int(float(connection.settings_dict.get("OPTIONS", {}).get("timeout", 5)) * 1000)
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {int(settings.CASINO_SQLITE_BRIEF_WAIT_MS)}")
    try:
        yield
    finally:
        if connection.connection is not None:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA busy_timeout = {full}")


def _sqlstate(exc: BaseException) -> str:
    cause = exc.__cause__ or exc
    return str(getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None) or "")


def lock_busy(exc: BaseException) -> bool:
    """SQLite's "database is locked" (another writer held the lock past the wait)."""
    return isinstance(exc, OperationalError) and "locked" in str(exc)


def unavailable(exc: BaseException) -> bool:
    """A failure that passes: the database busy, or its connection lost or refused."""
    if isinstance(exc, InterfaceError) or lock_busy(exc):
        return True
    if not isinstance(exc, OperationalError):
        return False
    state = _sqlstate(exc)
    if state:
        return state[:2] in _TRANSIENT_CLASSES or state in _TRANSIENT_CODES
    # No SQLSTATE: the client library's own failure (the connection is closed, could not
    # connect, the server closed it unexpectedly).
    text = str(exc).lower()
    return any(
        words in text
        for words in ("connection", "server closed", "terminating", "could not connect")
    )


def connection_lost(exc: BaseException) -> bool:
    """The failure says the connection itself is gone: the server ended it (SQLSTATE class 08,
    57P01-57P03: "terminating connection due to administrator command") or the client library
    found it closed."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    state = _sqlstate(exc)
    if state:
        return state[:2] == "08" or state in ("57P01", "57P02", "57P03")
    text = str(exc).lower()
    return "connection is closed" in text or "server closed the connection" in text


def out_of_range(exc: BaseException) -> bool:
    """A number or a date too large for its column or the calendar: SQLite refuses an integer
    past 64 bits before the statement runs (OverflowError), PostgreSQL a value past its column
    (SQLSTATE 22003, 22008); Python's date arithmetic past year 9999 (OverflowError)."""
    if isinstance(exc, OverflowError):
        return True
    return isinstance(exc, DataError) and _sqlstate(exc) in ("22003", "22008")


def connection_broken(connection: Any) -> bool:
    """True when the driver's connection is gone or broken (the server ended it)."""
    raw = connection.connection
    return raw is None or bool(getattr(raw, "closed", False)) or bool(getattr(raw, "broken", False))


@contextmanager
def one_transaction(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """A command's whole run as one transaction: all of its work, or none of it. The services'
    durable blocks (each step its own commit on the floor) nest inside as savepoints, as
    Django's own TestCase nests them, and their side effects (`on_commit`) wait for the run's
    commit; any failure rolls back everything the run wrote, the audit chain's events with it."""
    from django.db import transaction

    with transaction.atomic(using=using):
        # Django's durable check lets a durable block nest in a block marked as a test case's.
        connections[using].atomic_blocks[-1]._from_testcase = True
        yield
