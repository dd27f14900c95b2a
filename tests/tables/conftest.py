"""Fixtures for the floor: the demo floor (seed_demo) and its users."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from tables.models import Table


@pytest.fixture
def floor(db: Any) -> dict[str, Any]:
    """The demo floor: tables SC-1, LB-1, PY-1 and users dealer, dealer2, pitboss, admin,
    admin2, auditor (password "demo")."""
    with override_settings(DEBUG=True):
        call_command("seed_demo", stdout=open("/dev/null", "w"))
    User = get_user_model()
    users = {u.username: u for u in User.objects.all()}
    tables = {t.name: t for t in Table.objects.select_related("paytable_version", "meter")}
    return {"users": users, "tables": tables, **users, **tables}
