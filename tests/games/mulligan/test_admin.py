"""Mulligan's table settings in the admin: the variants (their allowed combinations), the table
minimum and the rake, drafted, checked by the game, approved by a second admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tables.models import TableSettingsVersion
from tests.helpers import form_errors, signed_in, table_settings_approve_action

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:tables_tablesettingsversion_add") + "?game=mulligan"


def draft(**settings: str) -> dict[str, str]:
    data = {
        "name": "mulligan test",
        "setting__variants": "",
        "setting__table_minimum_cents": "",
        "setting__rake_percent": "0",
        "setting__rake_cap_cents": "",
    }
    data.update({f"setting__{k}": v for k, v in settings.items()})
    return data


def test_mulligan_settings_are_drafted_checked_and_approved(floor: Any) -> None:
    admin = signed_in("admin")
    page = admin.get(ADD_URL)
    assert page.status_code == 200
    assert "secret_offers and open_hands exclude each other" in page.content.decode()
    refused = admin.post(ADD_URL, draft(variants="secret_offers open_hands"))
    assert refused.status_code == 200
    assert "Secret Offers cannot be combined with Open Hands" in refused.content.decode()
    refused = admin.post(ADD_URL, draft(variants="open_hands", rake_percent="5"))
    assert "a rake is taken only when playing for chips" in refused.content.decode()
    response = admin.post(
        ADD_URL,
        draft(
            variants="secret_offers, high_risk, chips",
            table_minimum_cents="500",
            rake_percent="2.5",
            rake_cap_cents="1000",
        ),
    )
    assert response.status_code == 302, form_errors(response)
    version = TableSettingsVersion.objects.get(name="mulligan test")
    assert version.values == {
        "variants": ["secret_offers", "high_risk", "chips"],
        "table_minimum_cents": 500,
        "rake_percent": "2.5",
        "rake_cap_cents": 1000,
    }
    table_settings_approve_action(signed_in("admin2"), version)
    version.refresh_from_db()
    assert version.is_approved
    listing = signed_in("admin2").get(reverse("admin:tables_tablesettingsversion_changelist"))
    assert (
        "Secret Offers, High Risk, Playing for chips, table minimum $5.00, rake 2.5% (cap $10.00)"
        in listing.content.decode()
    )
