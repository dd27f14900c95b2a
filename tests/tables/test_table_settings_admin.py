"""Player-vs-player table settings in the admin: drafted (a new version each time), approved by
a second admin, never edited, put in force at a table through the service; roles."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from tables.models import Pit, Table, TableSettingsVersion
from tables.selectors import settings_in_force
from tests.helpers import (
    form_errors,
    messages_of,
    signed_in,
    table_settings_approve_action,
)

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:tables_tablesettingsversion_add")
CHANGELIST_URL = reverse("admin:tables_tablesettingsversion_changelist")


def draft_post(name: str = "heads-up", **overrides: str) -> dict[str, str]:
    data = {
        "name": name,
        "setting__players": "2",
        "setting__ante_cents": "100",
        "setting__bets_cents": "200 400 400",
        "setting__raise_cap": "2",
        "setting__rake_percent": "2.5",
        "setting__rake_cap_cents": "150",
    }
    data.update(overrides)
    return data


def test_admin_drafts_a_second_admin_approves_and_it_is_put_in_force(floor: Any) -> None:
    admin = signed_in("admin")
    page = admin.get(f"{ADD_URL}?game=rhode_island")
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert form.initial["setting__bets_cents"] == "1000 2000 2000"  # the rules' defaults
    response = admin.post(f"{ADD_URL}?game=rhode_island", draft_post())
    assert response.status_code == 302, form_errors(response)
    version = TableSettingsVersion.objects.get(name="heads-up")
    assert version.values == {
        "players": 2,
        "ante_cents": 100,
        "bets_cents": [200, 400, 400],
        "raise_cap": 2,
        "rake_percent": "2.5",
        "rake_cap_cents": 150,
    }
    assert AuditEvent.objects.filter(kind="table_settings.drafted", object_id=str(version.pk))
    refused = table_settings_approve_action(admin, version)
    assert any("was not approved" in m for m in messages_of(refused))
    version.refresh_from_db()
    assert version.status == "draft"
    table_settings_approve_action(signed_in("admin2"), version)
    version.refresh_from_db()
    assert version.status == "approved" and version.approved_by == floor["admin2"]

    table = floor["RI-1"]
    url = reverse("admin:tables_table_change", args=[table.pk])
    offered = admin.get(url).context["adminform"].form.fields["table_settings"].queryset
    assert version in offered
    data = {
        "name": table.name,
        "pit": table.pit_id,
        "seats": table.seats,
        "table_settings": version.pk,
        "is_open": "on",
    }
    response = admin.post(url, data)
    assert response.status_code == 302, form_errors(response)
    assert settings_in_force(table) == version
    event = AuditEvent.objects.filter(kind="table_settings.assigned").last()
    assert event is not None
    assert event.table_name == "RI-1" and event.data["settings_version_id"] == version.pk


def test_bad_settings_are_refused_at_the_field_and_nothing_is_saved(floor: Any) -> None:
    admin = signed_in("admin")
    for field, value in [
        ("setting__players", "12"),
        ("setting__bets_cents", "200 400"),
        ("setting__rake_percent", "150"),
        ("setting__raise_cap", "x"),
    ]:
        response = admin.post(f"{ADD_URL}?game=rhode_island", draft_post(**{field: value}))
        assert response.status_code == 200
        assert field in form_errors(response), (field, form_errors(response))
    assert not TableSettingsVersion.objects.filter(name="heads-up").exists()


def test_an_approved_version_is_never_edited_and_pit_bosses_only_read(floor: Any) -> None:
    version = TableSettingsVersion.objects.get(game="rhode_island", status="approved")
    url = reverse("admin:tables_tablesettingsversion_change", args=[version.pk])
    admin = signed_in("admin")
    assert admin.get(url).status_code == 200
    admin.post(url, draft_post(name="hacked"))
    version.refresh_from_db()
    assert version.name == "house"
    pit = signed_in("pitboss")
    assert pit.get(CHANGELIST_URL).status_code == 200
    assert pit.get(ADD_URL).status_code == 403
    assert pit.post(f"{ADD_URL}?game=rhode_island", draft_post()).status_code == 403
    assert not TableSettingsVersion.objects.filter(name="heads-up").exists()


def test_a_new_poker_table_needs_settings_and_no_paytable(floor: Any) -> None:
    admin = signed_in("admin")
    add = reverse("admin:tables_table_add")
    pit = Pit.objects.get()
    base = {"name": "RI-2", "pit": pit.pk, "game": "rhode_island", "seats": 6, "is_open": "on"}
    response = admin.post(add, base)
    assert "table_settings" in form_errors(response)
    paytable = floor["SC-1"].paytable_version
    response = admin.post(add, {**base, "paytable_version": paytable.pk})
    assert "paytable_version" in form_errors(response)
    version = TableSettingsVersion.objects.get(game="rhode_island", status="approved")
    response = admin.post(add, {**base, "table_settings": version.pk})
    assert response.status_code == 302, form_errors(response)
    assert settings_in_force(Table.objects.get(name="RI-2")) == version
