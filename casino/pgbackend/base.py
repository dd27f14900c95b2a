"""Django's PostgreSQL backend, with the health check of a kept connection done without a
round trip when nothing is wrong.

With CONN_HEALTH_CHECKS Django checks a kept connection before a request's first statement
by sending `SELECT 1` and waiting for the answer: a round trip to the server on every
request, about a fifth of what an API request that does no work costs here (docs/benchmarks.md).
A server that ends a connection (restarted, `pg_terminate_backend`, an idle timeout, a proxy
that resets it) tells the client: it sends its FATAL message, closes the socket, or both, and
the client's socket becomes readable. An idle connection whose socket has nothing to read,
whose libpq state is OK and which is in no transaction is one the server has not ended, and it
is used without asking. Anything else (something to read, a transaction left open, a broken
or closed connection) gets Django's own check, `SELECT 1`, and a connection that fails it is
closed and opened anew, as before. After an error in a request Django's `is_usable` is asked
as before (the round trip): only the check at a request's start is changed.

A connection lost with no word from the other end (a cable pulled, a firewall dropping packets
silently) shows nothing to read; `SELECT 1` would not have answered either, but waited for
TCP's own timeout.

A connection the server ends while a request runs (between the check and a statement, or
between two statements) is replaced at once outside a transaction: the next statement opens a
fresh connection rather than failing with "the connection is closed", and a read (`SELECT`)
that failed because the connection was lost under it is sent again, once, on a fresh one. In
autocommit a read changes nothing, so sending it again is safe; a write is never sent again
(it may have been committed before the answer was lost), and nothing is retried inside a
transaction, whose earlier statements died with the connection: those fail, and the request
answers 503 (accounts.middleware)."""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db import InterfaceError, OperationalError
from django.db.backends import utils
from django.db.backends.postgresql import base as postgresql
from psycopg import pq

from core.db import connection_broken, connection_lost


def quiet_and_idle(connection: Any) -> bool:
    """True when the psycopg connection is open, idle (no transaction), libpq finds it OK and
    its socket has nothing unread: the server has said nothing since its last answer."""
    if connection is None or connection.closed or connection.broken:
        return False
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        return False
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    try:
        readable, _, _ = select.select([pgconn.socket], [], [], 0)
    except (OSError, ValueError, psycopg.Error):  # closed under us
        return False
    return not readable


def _read(sql: Any) -> bool:
    """A statement that only reads: a plain SELECT (not one that appends to the audit chain)."""
    text = str(sql).lstrip().upper()
    return (
        text.startswith("SELECT")
        and "CASINO_AUDIT_APPEND" not in text
        and " FOR UPDATE" not in text
        and " FOR SHARE" not in text
        and " FOR NO KEY UPDATE" not in text
    )


class _ReadOnceMore:
    """Send a read again, once, on a fresh connection when the server ended the connection."""

    cursor: Any
    db: DatabaseWrapper

    def execute(self, sql: Any, params: Any = None) -> Any:
        try:
            return super().execute(sql, params)  # type: ignore[misc]
        except (OperationalError, InterfaceError) as exc:
            if not (self.db.lost_outside_transaction(exc) and _read(sql)):
                raise
            if getattr(self.cursor, "name", None):  # a server-side cursor: its own rules
                raise
            self.cursor = self.db.fresh_cursor()
            return super().execute(sql, params)  # type: ignore[misc]


class CursorWrapper(_ReadOnceMore, utils.CursorWrapper):
    pass


class CursorDebugWrapper(_ReadOnceMore, utils.CursorDebugWrapper):
    pass


class DatabaseWrapper(postgresql.DatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        if (
            not self.pool
            and self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and quiet_and_idle(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def lost_outside_transaction(self, failure: BaseException | None = None) -> bool:
        """The server ended the connection (it is broken, or `failure` says so), and no
        transaction was open on it."""
        return (
            self.connection is not None
            and not self.in_atomic_block
            and self.autocommit
            and (connection_broken(self) or (failure is not None and connection_lost(failure)))
        )

    def fresh_cursor(self) -> Any:
        """A new connection in place of the lost one, and a cursor of it (unwrapped)."""
        self.close()
        self.ensure_connection()
        with self.wrap_database_errors:
            return self.create_cursor()

    def _cursor(self, name: Any = None) -> Any:
        if self.lost_outside_transaction():
            self.close()  # ended by the server: the next statement opens a fresh connection
        return super()._cursor(name)

    def make_cursor(self, cursor: Any) -> Any:
        return CursorWrapper(cursor, self)

    def make_debug_cursor(self, cursor: Any) -> Any:
        return CursorDebugWrapper(cursor, self)
