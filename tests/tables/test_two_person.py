"""The two-person rule on paytables and table settings holds both ways: nobody approves what
was drafted by an account they created or gave roles to, nor what was drafted by the one who
created their account or gave them their roles. The accounts are made and changed through the
security role's admin pages, as on the floor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from accounts.models import AccountChange
from audit.models import AuditEvent
from core.roles import Role
from tables.engine.paytables import named
from tables.models import PaytableVersion, TableSettingsVersion
from tables.services.paytables import paytable_approve, paytable_draft
from tables.services.table_settings import table_settings_approve, table_settings_draft

pytestmark = pytest.mark.django_db
User = get_user_model()
STRONG = "Tablet-shift-7-kestrel"


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _group(role: Role) -> int:
    return Group.objects.get(name=role.value).pk


def _add_account(by: Any, username: str, role: Role) -> Any:
    """`by` (security) creates an account with one role in the admin."""
    response = _client(by).post(
        reverse("admin:auth_user_add"),
        {
            "username": username,
            "first_name": "",
            "last_name": "",
            "groups": [_group(role)],
            "password1": STRONG,
            "password2": STRONG,
            "usable_password": "true",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return User.objects.get(username=username)


def _set_roles(by: Any, account: Any, role: Role) -> Any:
    """`by` (security) gives `account` exactly `role` in the admin."""
    response = _client(by).post(
        reverse("admin:auth_user_change", args=[account.pk]),
        {"username": account.username, "is_active": "on", "groups": [_group(role)]},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    account = User.objects.get(pk=account.pk)
    assert list(account.groups.values_list("name", flat=True)) == [role.value]
    return account


def _officer(username: str) -> Any:
    user = User.objects.create_user(username, password=STRONG, is_staff=True)
    user.groups.add(Group.objects.get(name=Role.SECURITY.value))
    return User.objects.get(pk=user.pk)


def _draft_paytable(author: Any) -> PaytableVersion:
    return paytable_draft(
        author=author,
        game="pyramid",
        name="house",
        lines=named("pyramid", "default").as_data(),
        limits={"ante": {"min_cents": 500, "max_cents": 50000}},
    )


def _draft_settings(author: Any) -> TableSettingsVersion:
    return table_settings_draft(
        author=author,
        game="rhode_island",
        name="heads-up",
        values={
            "players": 2,
            "ante_cents": 100,
            "bets_cents": [200, 400, 400],
            "raise_cap": 2,
            "rake_percent": "2.5",
            "rake_cap_cents": 150,
        },
    )


KINDS: dict[str, tuple[Callable[[Any], Any], Callable[..., Any]]] = {
    "paytable": (_draft_paytable, paytable_approve),
    "table settings": (_draft_settings, table_settings_approve),
}


@pytest.mark.parametrize("kind", KINDS)
def test_an_officer_made_admin_does_not_approve_the_draft_of_an_account_they_created(
    floor: Any, kind: str
) -> None:
    """A security officer creates admin account P; another officer makes the first officer an
    admin; P drafts: the former officer may not approve it, another admin may."""
    draft, approve = KINDS[kind]
    first = _officer("officer-1")
    p = _add_account(first, "p-admin", Role.ADMIN)
    first = _set_roles(_officer("officer-2"), first, Role.ADMIN)
    version = draft(p)
    with pytest.raises(PermissionDenied) as refusal:
        approve(version=version, approver=first)
    assert str(refusal.value) == (
        f"p-admin's account, which drafted {version}, was created or changed by officer-1: "
        "another admin must approve it"
    )
    version.refresh_from_db()
    assert not version.is_approved and version.approved_by is None
    assert approve(version=version, approver=floor["admin2"]).is_approved


@pytest.mark.parametrize("kind", KINDS)
def test_nobody_approves_the_draft_of_an_account_they_gave_its_roles(floor: Any, kind: str) -> None:
    """The officer did not create P's account but gave it the admin role: the same."""
    draft, approve = KINDS[kind]
    first = _officer("officer-1")
    p = User.objects.create_user("p-admin", password=STRONG)  # made on the server: no actor
    p = _set_roles(first, p, Role.ADMIN)
    first = _set_roles(_officer("officer-2"), first, Role.ADMIN)
    assert AccountChange.objects.filter(account=p, by=first, kind="roles").exists()
    version = draft(p)
    with pytest.raises(PermissionDenied, match="was created or changed by officer-1"):
        approve(version=version, approver=first)
    assert approve(version=version, approver=floor["admin2"]).is_approved


@pytest.mark.parametrize("kind", KINDS)
def test_nobody_approves_the_draft_of_the_one_who_created_their_account(
    floor: Any, kind: str
) -> None:
    """The direct case: a former officer, now an admin, created the approver's account."""
    draft, approve = KINDS[kind]
    first = _officer("officer-1")
    second = _add_account(first, "second-admin", Role.ADMIN)
    first = _set_roles(_officer("officer-2"), first, Role.ADMIN)
    version = draft(first)
    with pytest.raises(PermissionDenied) as refusal:
        approve(version=version, approver=second)
    assert str(refusal.value) == (
        f"second-admin's account was created or changed by officer-1, who drafted {version}: "
        "another admin must approve it"
    )
    assert approve(version=version, approver=floor["admin2"]).is_approved


@pytest.mark.parametrize("kind", KINDS)
def test_unlinked_admins_still_approve_each_other(floor: Any, kind: str) -> None:
    """Two admins made by the same officer are two people: each approves the other's draft."""
    draft, approve = KINDS[kind]
    officer = _officer("officer-1")
    one = _add_account(officer, "admin-one", Role.ADMIN)
    two = _add_account(officer, "admin-two", Role.ADMIN)
    assert approve(version=draft(one), approver=two).is_approved


def test_the_admin_action_refuses_the_linked_approver_and_records_it(floor: Any) -> None:
    first = _officer("officer-1")
    p = _add_account(first, "p-admin", Role.ADMIN)
    first = _set_roles(_officer("officer-2"), first, Role.ADMIN)
    version = _draft_paytable(p)
    response = _client(first).post(
        reverse("admin:tables_paytableversion_changelist"),
        {"action": "approve_drafts", "_selected_action": [version.pk], "index": 0},
        follow=True,
    )
    shown = " ".join(str(m) for m in response.context["messages"])
    assert "was created or changed by officer-1" in shown
    version.refresh_from_db()
    assert not version.is_approved
    refusal = AuditEvent.objects.filter(kind="permission.refused", actor_id=first.pk).get()
    assert "was created or changed by officer-1" in refusal.data["reason"]
