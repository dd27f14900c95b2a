"""Chip denominations in the admin: admins add, relabel and deactivate them (audited); nobody
deletes one or changes its value; slips and alerts are read-only records there."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounting.models import ChipDenomination
from accounting.services import slip_create
from audit.models import AuditEvent

pytestmark = pytest.mark.django_db


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


def test_an_admin_adds_and_deactivates_a_chip(pit: dict[str, Any]) -> None:
    admin = signed_in("admin")
    add = reverse("admin:accounting_chipdenomination_add")
    response = admin.post(add, {"value_cents": "2.50", "label": "pink", "is_active": "on"})
    assert response.status_code == 302, response.content.decode()[:2000]
    chip = ChipDenomination.objects.get(value_cents=250)
    assert chip.label == "pink" and chip.is_active
    event = AuditEvent.objects.get(kind="chip_denomination.saved")
    assert event.actor_name == "admin" and event.data["value_cents"] == 250
    change = reverse("admin:accounting_chipdenomination_change", args=[chip.pk])
    assert admin.post(change, {"label": "pink", "value_cents": "9.00"}).status_code == 302
    chip.refresh_from_db()
    assert chip.value_cents == 250 and not chip.is_active  # the value stays; unticked: inactive
    bad = admin.post(add, {"value_cents": "0", "label": "x", "is_active": "on"})
    assert bad.status_code == 200 and "more than zero" in bad.content.decode()
    delete = reverse("admin:accounting_chipdenomination_delete", args=[chip.pk])
    assert admin.post(delete, {"post": "yes"}).status_code == 403
    assert ChipDenomination.objects.filter(pk=chip.pk).exists()


def test_who_sees_what_in_the_admin(pit: dict[str, Any]) -> None:
    slip = slip_create(table=pit["SC-1"], kind="buy_in", by=pit["dealer"], amount="100")
    slip_url = reverse("admin:accounting_slip_change", args=[slip.pk])
    chips = reverse("admin:accounting_chipdenomination_changelist")
    add = reverse("admin:accounting_chipdenomination_add")
    for who, slip_status, chips_status, add_status in (
        ("admin", 200, 200, 200),
        ("pitboss", 200, 200, 403),
        ("auditor", 200, 200, 403),
    ):
        client = signed_in(who)
        assert client.get(slip_url).status_code == slip_status, who
        assert client.get(chips).status_code == chips_status, who
        assert client.get(add).status_code == add_status, who
        page = client.get(slip_url).content.decode()
        assert 'name="_save"' not in page  # read-only
    for who in ("cage", "count", "dealer"):  # not staff: sent to the admin's sign-in
        assert signed_in(who).get(slip_url).status_code == 302
    assert signed_in("security").get(slip_url).status_code == 403
