"""The suite runs on the configured database and broker (PostgreSQL and Redis in CI)."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection


@pytest.mark.services
@pytest.mark.django_db
def test_suite_uses_postgresql_when_database_url_names_it() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("DATABASE_URL does not name PostgreSQL: running on the embedded SQLite")
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


@pytest.mark.services
def test_celery_broker_is_reachable_redis_when_configured() -> None:
    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith("redis"):
        pytest.skip("CELERY_BROKER_URL does not name Redis: tasks run in-process")
    assert url == settings.CELERY_BROKER_URL
    parsed = urlparse(url)
    with socket.create_connection((parsed.hostname, parsed.port or 6379), timeout=3) as sock:
        sock.sendall(b"PING\r\n")
        assert sock.recv(64).startswith(b"+PONG")
