"""The check of a kept PostgreSQL connection at a request's start (casino/pgbackend): no round
trip when the server has said nothing since its last answer; Django's own `SELECT 1`, and a
new connection, when the server has ended it, or the connection is in a transaction."""

from __future__ import annotations

import select
import time
from typing import Any

import psycopg
import pytest
from django.core.signals import request_finished, request_started
from django.db import connection, connections

from accounts.models import ApiToken
from casino.pgbackend.base import DatabaseWrapper, quiet_and_idle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture
def pg() -> Any:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL is not configured (DATABASE_URL)")
    conn = connections["default"]
    assert isinstance(conn, DatabaseWrapper)  # the settings name casino.pgbackend
    assert conn.settings_dict["CONN_HEALTH_CHECKS"]
    conn.ensure_connection()
    return conn


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every `SELECT 1` health check Django sends (`is_usable`), with its answer."""
    answers: list[bool] = []
    real = DatabaseWrapper.is_usable

    def is_usable(self: DatabaseWrapper) -> bool:
        answers.append(real(self))
        return answers[-1]

    monkeypatch.setattr(DatabaseWrapper, "is_usable", is_usable)
    return answers


def _new_request(conn: Any) -> None:
    """What Django does between requests (request_started/finished): the check is due again."""
    conn.close_if_unusable_or_obsolete()
    assert conn.health_check_done is False


def _pid(conn: Any) -> int:
    with conn.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def _terminate(pid: int) -> None:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _wait_readable(conn: Any) -> None:
    deadline = time.monotonic() + 5
    sock = conn.connection.pgconn.socket
    while not select.select([sock], [], [], 0.05)[0]:
        assert time.monotonic() < deadline, "the server's word never arrived"


def test_a_quiet_connection_is_used_without_a_round_trip(pg: Any, asked: list[bool]) -> None:
    pid = _pid(pg)
    _new_request(pg)
    assert quiet_and_idle(pg.connection)
    assert _pid(pg) == pid  # the same connection, and no SELECT 1 before the statement
    assert asked == []
    assert pg.health_check_done is True


def test_a_connection_the_server_ended_is_replaced_before_the_request(
    pg: Any, asked: list[bool]
) -> None:
    pid = _pid(pg)
    _terminate(pid)
    _wait_readable(pg)
    _new_request(pg)
    assert not quiet_and_idle(pg.connection)
    assert _pid(pg) != pid  # the statement ran, on a new connection
    assert asked == [False]  # Django's own check was asked, and failed


def test_a_request_after_the_server_ended_its_connection_gets_a_new_one(
    pg: Any, asked: list[bool]
) -> None:
    """Through Django's own request signals, as a server sends them around a request."""
    request_finished.send(sender=None)
    pid = _pid(pg)
    _terminate(pid)
    _wait_readable(pg)
    request_started.send(sender=None, environ={})
    assert ApiToken.objects.count() == 0  # the request's first statement is answered
    assert _pid(pg) != pid
    assert asked == [False]
    request_finished.send(sender=None)
    request_started.send(sender=None, environ={})
    assert ApiToken.objects.count() == 0
    assert asked == [False]  # the new connection, quiet: no round trip


def test_a_connection_in_a_transaction_gets_the_round_trip(pg: Any, asked: list[bool]) -> None:
    with pg.cursor() as cursor:
        cursor.execute("SELECT 1")
    pg.connection.execute("BEGIN")  # left open under Django's feet
    try:
        assert not quiet_and_idle(pg.connection)
        pg.health_check_done = False
        pg.close_if_health_check_failed()
        assert asked == [True]
    finally:
        pg.connection.execute("ROLLBACK")


def test_a_closed_or_missing_connection_is_not_quiet(pg: Any) -> None:
    assert quiet_and_idle(None) is False
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    other = psycopg.connect(**params, autocommit=True)
    assert quiet_and_idle(other) is True
    other.close()
    assert quiet_and_idle(other) is False


# --- a connection the server ends in the middle of a request ---------------------------------


def _ended_mid_request(pg: Any) -> int:
    """The server ends the connection after the request's check was done (a race, or a
    statement later in the request): the next statement finds it gone."""
    pid = _pid(pg)
    _terminate(pid)
    _wait_readable(pg)
    pg.health_check_done = True  # checked at the request's start, before the server ended it
    return pid


def test_a_read_is_sent_again_on_a_fresh_connection(pg: Any) -> None:
    pid = _ended_mid_request(pg)
    assert ApiToken.objects.count() == 0  # answered, not "terminating connection"
    assert _pid(pg) != pid
    pid = _ended_mid_request(pg)
    assert list(ApiToken.objects.all()) == []
    assert _pid(pg) != pid


def test_after_a_lost_connection_the_next_statement_opens_a_fresh_one(pg: Any) -> None:
    """A write is never sent again (it may have been committed before the answer was lost),
    but the statement after it no longer fails with "the connection is closed"."""
    from django.contrib.auth import get_user_model
    from django.db import OperationalError

    pid = _ended_mid_request(pg)
    with pytest.raises(OperationalError):
        get_user_model().objects.filter(pk=0).update(first_name="x")  # a write: not sent again
    assert pg.connection is not None and pg.lost_outside_transaction()
    get_user_model().objects.filter(pk=0).update(first_name="y")  # a fresh connection
    assert _pid(pg) != pid


def test_nothing_is_sent_again_inside_a_transaction(pg: Any) -> None:
    from django.db import OperationalError, transaction

    _pid(pg)
    with pytest.raises(OperationalError), transaction.atomic():
        pid = _pid(pg)
        _terminate(pid)
        _wait_readable(pg)
        ApiToken.objects.count()  # the transaction died with its connection
    assert ApiToken.objects.count() == 0  # after it, a fresh connection
    assert _pid(pg) != pid


def test_a_page_read_answers_after_the_server_ended_the_connection(pg: Any) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user("reader", password="Reader-horse-77")
    client = Client()
    client.force_login(user)
    _ended_mid_request(pg)  # the test client checks nothing between requests
    assert client.get("/accounts/password_change/").status_code == 200
