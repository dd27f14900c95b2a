"""Cash compliance's fixtures: three tables with a dealer signed in at each, and a patron
identified by the cage."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from accounting.models import Slip
from accounting.services import slip_create
from compliance.models import Patron
from compliance.services import patron_create, patron_identify
from tables.gaming_day import gaming_day_of
from tables.services.sessions import dealer_sign_in

TABLES = ("SC-1", "LB-1", "PY-1")


@pytest.fixture
def cash(floor: dict[str, Any]) -> dict[str, Any]:
    """The demo floor with a dealer signed in at each of SC-1, LB-1 and PY-1."""
    third = get_user_model().objects.create_user("dealer3", password="demo-password-3")
    third.groups.add(Group.objects.get(name="dealer"))
    dealers = {"SC-1": floor["dealer"], "LB-1": floor["dealer2"], "PY-1": third}
    for name, dealer in dealers.items():
        dealer_sign_in(dealer=dealer, table=floor[name])
    return {**floor, "dealers": dealers, "dealer3": third}


def buy_in(cash: dict[str, Any], table: str, amount: str, **extra: Any) -> Slip:
    return slip_create(
        table=cash[table], kind="buy_in", by=cash["dealers"][table], amount=amount, **extra
    )


def described(cash: dict[str, Any]) -> Patron:
    return patron_create(
        by=cash["dealer"], description={"sex": "male", "clothing": "grey suit, red tie"}
    )


IDENTIFICATION = {
    "name": "Walter Reyes",
    "date_of_birth": "1970-04-12",
    "address": "12 Harbor Road, Atlantic City, NJ 08401",
    "id_type": "drivers_license",
    "id_number": "D1234-56789-01234",
    "id_issuer": "NJ",
    "id_expiry": (date.today() + timedelta(days=800)).isoformat(),
    "occupation": "contractor",
}


def identify(cash: dict[str, Any], patron: Patron, **changes: Any) -> Patron:
    return patron_identify(
        patron=patron, by=cash["cage"], identification={**IDENTIFICATION, **changes}
    )


def today() -> date:
    """The gaming day now (before the day's start, yesterday's)."""
    return gaming_day_of(timezone.now())
