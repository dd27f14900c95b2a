"""A session's idle time is renewed by the requests that use it, at most once a renewal interval,
and a renewal the database cannot take at once (SQLite's lock held by a writer) is let go
rather than holding the reader up or failing it (accounts.sessions)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import OperationalError
from django.db.models import QuerySet
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

pytestmark = pytest.mark.django_db

PASSWORD = "Right-horse-battery-9"


@pytest.fixture
def signed_in(django_user_model: Any) -> Client:
    django_user_model.objects.create_user("player", password=PASSWORD)
    client = Client()
    assert client.login(username="player", password=PASSWORD)
    return client


def _expiry(client: Client) -> Any:
    return Session.objects.get(
        session_key=client.cookies[settings.SESSION_COOKIE_NAME].value
    ).expire_date


def test_a_request_renews_an_old_renewal(signed_in: Client) -> None:
    Session.objects.update(expire_date=timezone.now() + timedelta(minutes=10))
    assert signed_in.get("/accounts/password_change/").status_code == 200
    left = _expiry(signed_in) - timezone.now()
    assert timedelta(seconds=settings.SESSION_COOKIE_AGE - 60) < left


def test_a_request_soon_after_the_last_renewal_writes_nothing(signed_in: Client) -> None:
    from django.db import connection

    signed_in.get("/accounts/password_change/")
    with CaptureQueriesContext(connection) as queries:
        assert signed_in.get("/accounts/password_change/").status_code == 200
    assert not [q for q in queries if "django_session" in q["sql"] and "UPDATE" in q["sql"]]


def test_a_renewal_the_database_cannot_take_is_let_go(
    signed_in: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    Session.objects.update(expire_date=timezone.now() + timedelta(minutes=10))
    before = _expiry(signed_in)

    def locked(self: QuerySet[Any], **kwargs: Any) -> int:
        raise OperationalError("database is locked")

    monkeypatch.setattr(QuerySet, "update", locked)
    assert signed_in.get("/accounts/password_change/").status_code == 200  # not a 400 or 500
    monkeypatch.undo()
    assert _expiry(signed_in) == before  # still valid until its stored expiry
    assert signed_in.get("/accounts/password_change/").status_code == 200
    assert _expiry(signed_in) > before  # the next request renewed it


def test_other_failures_of_a_renewal_are_not_hidden(
    signed_in: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    Session.objects.update(expire_date=timezone.now() + timedelta(minutes=10))

    def broken(self: QuerySet[Any], **kwargs: Any) -> int:
        raise OperationalError("no such table: django_session")

    monkeypatch.setattr(QuerySet, "update", broken)
    with pytest.raises(OperationalError):
        signed_in.get("/accounts/password_change/")
