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
TCP's own timeout."""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base as postgresql
from psycopg import pq


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
