"""Identity management is the security role's: its pages in the admin, who reaches them, what
they refuse (superusers, mixed roles, one's own roles, deletion), the audit chain, and the
paytable approval that no second account of the drafter can give."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from accounts.models import AccountChange, AccountLock, ApiToken
from audit.models import AuditEvent
from core.roles import Role
from tables.engine.paytables import named
from tables.services.paytables import paytable_approve, paytable_draft

pytestmark = pytest.mark.django_db
User = get_user_model()
STRONG = "Tablet-shift-7-kestrel"


def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="demo")
    return client


def events(kind: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(kind=kind).order_by("seq"))


# --- the role matrix of the admin's account pages ---------------------------------------------

PRINCIPALS = ["dealer", "pitboss", "admin", "auditor", "security", "cage", "count", "anonymous"]
# page: (dealer, pitboss, admin, auditor, security, cage, count, anonymous); 302 = sent to the
# admin login (dealers, the cage and the count team are not staff)
PAGES: dict[str, tuple[int, ...]] = {
    "users": (302, 403, 403, 403, 200, 302, 302, 302),
    "user_add": (302, 403, 403, 403, 200, 302, 302, 302),
    "user_change": (302, 403, 403, 403, 200, 302, 302, 302),
    "user_password": (302, 403, 403, 403, 200, 302, 302, 302),
    "user_delete": (302, 403, 403, 403, 403, 302, 302, 302),
    "token_detail": (302, 403, 403, 403, 403, 302, 302, 302),
    "tokens": (302, 403, 403, 403, 200, 302, 302, 302),
    "locks": (302, 403, 403, 403, 200, 302, 302, 302),
    "groups": (302, 403, 403, 403, 200, 302, 302, 302),
}


def _url(page: str, floor: dict[str, Any]) -> str:
    target = floor["dealer2"].pk
    token = ApiToken.objects.filter(user=floor["dealer2"]).first()
    if token is None:
        token, _key = ApiToken.objects.issue(floor["dealer2"])
    return {
        "users": reverse("admin:auth_user_changelist"),
        "user_add": reverse("admin:auth_user_add"),
        "user_change": reverse("admin:auth_user_change", args=[target]),
        "user_password": reverse("admin:auth_user_password_change", args=[target]),
        "user_delete": reverse("admin:auth_user_delete", args=[target]),
        "tokens": reverse("admin:accounts_apitoken_changelist"),
        "token_detail": reverse("admin:accounts_apitoken_change", args=[token.pk]),
        "locks": reverse("admin:accounts_accountlock_changelist"),
        "groups": reverse("admin:auth_group_changelist"),
    }[page]


@pytest.mark.parametrize(
    ("page", "who", "status"),
    [
        pytest.param(page, who, codes[i], id=f"{page}-{who}")
        for page, codes in PAGES.items()
        for i, who in enumerate(PRINCIPALS)
    ],
)
def test_admin_account_pages_role_matrix(
    floor: dict[str, Any], page: str, who: str, status: int
) -> None:
    client = Client() if who == "anonymous" else signed_in(who)
    response = client.get(_url(page, floor))
    assert response.status_code == status, (page, who, response.status_code)
    if status == 302:
        assert response["Location"].startswith(reverse("admin:login"))


def test_the_admin_index_shows_account_pages_only_to_security(floor: dict[str, Any]) -> None:
    users = reverse("admin:auth_user_changelist")
    assert users in signed_in("security").get(reverse("admin:index")).content.decode()
    for who in ("admin", "pitboss", "auditor"):
        assert users not in signed_in(who).get(reverse("admin:index")).content.decode()


def test_the_paytable_admin_role_no_longer_holds_account_permissions(floor: Any) -> None:
    admin_perms = set(
        Group.objects.get(name="admin").permissions.values_list("codename", flat=True)
    )
    assert not {p for p in admin_perms if p.endswith("_user") or p.endswith("_group")}
    security = set(
        Group.objects.get(name="security").permissions.values_list("codename", flat=True)
    )
    assert {"add_user", "change_user", "view_user", "delete_apitoken"} <= security
    assert not {p for p in security if p.endswith("paytableversion")}


# --- what the security role does, and what it cannot -----------------------------------------


def _add(client: Client, username: str, *roles: str, password: str = STRONG, **extra: Any) -> Any:
    groups = [Group.objects.get(name=r).pk for r in roles]
    return client.post(
        reverse("admin:auth_user_add"),
        {
            "username": username,
            "first_name": "",
            "last_name": "",
            "groups": groups,
            "password1": password,
            "password2": password,
            "usable_password": "true",
            **extra,
        },
    )


def test_security_creates_an_account_with_a_role_on_the_audit_chain(floor: Any) -> None:
    security = floor["security"]
    response = _add(signed_in("security"), "newdealer", "dealer")
    assert response.status_code == 302, response.content.decode()[:2000]
    user = User.objects.get(username="newdealer")
    assert user.check_password(STRONG)
    assert list(user.groups.values_list("name", flat=True)) == ["dealer"]
    assert not user.is_staff and not user.is_superuser
    (created,) = [e for e in events("account.created") if e.data["username"] == "newdealer"]
    assert created.actor_id == security.pk and created.data["ip"] == "127.0.0.1"
    (roles,) = [e for e in events("account.roles_changed") if e.data["username"] == "newdealer"]
    assert roles.actor_id == security.pk and roles.data["added"] == ["dealer"]
    assert AccountChange.objects.filter(account=user, by=security).exists()


def test_a_pit_boss_account_is_made_staff_from_its_role(floor: Any) -> None:
    assert _add(signed_in("security"), "newboss", "pit_boss").status_code == 302
    assert User.objects.get(username="newboss").is_staff


def test_no_superuser_is_made_from_the_site(floor: Any) -> None:
    client = signed_in("security")
    _add(client, "sneaky", "admin", is_superuser="on", is_staff="on")
    sneaky = User.objects.get(username="sneaky")
    assert not sneaky.is_superuser
    change = reverse("admin:auth_user_change", args=[sneaky.pk])
    page = client.get(change).content.decode()
    assert 'name="is_superuser"' not in page and 'name="user_permissions"' not in page
    form = {
        "username": "sneaky",
        "is_active": "on",
        "is_superuser": "on",
        "groups": [Group.objects.get(name="admin").pk],
    }
    client.post(change, form)
    sneaky.refresh_from_db()
    assert not sneaky.is_superuser


def test_a_superuser_account_is_changed_only_by_a_superuser(floor: Any) -> None:
    root = User.objects.create_superuser("root", password="x-very-long-password")
    url = reverse("admin:auth_user_change", args=[root.pk])
    client = signed_in("security")
    assert client.post(url, {"username": "root2", "is_active": "on"}).status_code == 403
    assert client.get(reverse("admin:auth_user_password_change", args=[root.pk])).status_code == 403


def test_security_is_held_alone(floor: Any) -> None:
    response = _add(signed_in("security"), "both", "security", "admin")
    assert response.status_code == 200
    assert "security is a role of its own" in response.content.decode()
    assert not User.objects.filter(username="both").exists()


def test_nobody_changes_their_own_roles(floor: Any) -> None:
    me = floor["security"]
    client = signed_in("security")
    url = reverse("admin:auth_user_change", args=[me.pk])
    response = client.post(
        url,
        {
            "username": "security",
            "is_active": "on",
            "groups": [Group.objects.get(name="auditor").pk],
        },
    )
    assert response.status_code == 200
    assert "your own roles are changed by another security officer" in response.content.decode()
    assert list(me.groups.values_list("name", flat=True)) == ["security"]


def test_a_weak_password_is_refused_by_every_validator(floor: Any) -> None:
    client = signed_in("security")
    for weak, reason in [
        ("short1!", "too short"),
        ("password1234", "too common"),
        ("834759283745982", "entirely numeric"),
        ("weakling-user-x", "too similar"),
    ]:
        response = _add(client, "weakling-user-x", "dealer", password=weak)
        assert response.status_code == 200 and reason in response.content.decode(), weak
    assert not User.objects.filter(username="weakling-user-x").exists()


def test_a_password_reset_by_security_is_audited_and_revokes_tokens(floor: Any) -> None:
    dealer = floor["dealer"]
    ApiToken.objects.issue(dealer)
    url = reverse("admin:auth_user_password_change", args=[dealer.pk])
    response = signed_in("security").post(
        url, {"password1": STRONG, "password2": STRONG, "usable_password": "true"}
    )
    assert response.status_code == 302
    dealer.refresh_from_db()
    assert dealer.check_password(STRONG)
    (event,) = [e for e in events("account.password_set") if e.actor_id == floor["security"].pk]
    assert event.data["username"] == "dealer" and dealer.password not in str(event.data)
    assert not ApiToken.objects.filter(user=dealer).exists()
    (revoked,) = events("token.revoked")
    assert revoked.data["reason"] == "password changed"


def test_accounts_are_deactivated_never_deleted(floor: Any) -> None:
    client = signed_in("security")
    dealer = floor["dealer2"]
    response = client.post(
        reverse("admin:auth_user_change", args=[dealer.pk]),
        {"username": "dealer2", "groups": [Group.objects.get(name="dealer").pk]},
    )
    assert response.status_code == 302
    dealer.refresh_from_db()
    assert not dealer.is_active
    (event,) = [e for e in events("account.changed") if e.data["username"] == "dealer2"]
    assert event.data["changed"] == {"is_active": [True, False]}
    assert client.post(reverse("admin:auth_user_delete", args=[dealer.pk])).status_code == 403


def test_tokens_are_listed_without_their_keys_and_revoked_on_the_chain(floor: Any) -> None:
    token, key = ApiToken.objects.issue(floor["dealer"])
    client = signed_in("security")
    page = client.get(reverse("admin:accounts_apitoken_changelist")).content.decode()
    assert "dealer" in page and key not in page and token.digest not in page
    assert client.get(reverse("admin:accounts_apitoken_change", args=[token.pk])).status_code in (
        302,
        403,
    )
    response = client.post(
        reverse("admin:accounts_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    assert response.status_code == 302
    assert not ApiToken.objects.exists()
    (event,) = events("token.revoked")
    assert event.actor_id == floor["security"].pk and event.data["username"] == "dealer"
    (issued,) = events("token.issued")
    assert issued.data["username"] == "dealer"


def test_role_changes_made_anywhere_are_on_the_chain(floor: Any) -> None:
    """Even outside the site (a shell or command): the actor is then "system"."""
    dealer = floor["dealer2"]
    dealer.groups.add(Group.objects.get(name="auditor"))
    dealer.groups.remove(Group.objects.get(name="auditor"))
    added, removed = [
        e for e in events("account.roles_changed") if e.data["username"] == "dealer2"
    ][-2:]
    assert added.data["added"] == ["auditor"] and added.actor_name == "system"
    assert removed.data["removed"] == ["auditor"] and removed.data["roles"] == ["dealer"]


# --- the paytable's approver --------------------------------------------------------------------


def _draft(author: Any) -> Any:
    lines = named("pyramid", "default").as_data()
    return paytable_draft(
        author=author,
        game="pyramid",
        name="house",
        lines=lines,
        limits={"ante": {"min_cents": 500, "max_cents": 50000}},
    )


def test_security_cannot_approve_paytables(floor: Any) -> None:
    draft = _draft(floor["admin"])
    with pytest.raises(PermissionDenied, match="security role does not approve"):
        paytable_approve(version=draft, approver=floor["security"])


def _as_request_of(user: Any) -> Any:
    from django.test import RequestFactory

    from accounts.middleware import acting_request

    request = RequestFactory().post("/admin/auth/user/")
    request.user = user
    return acting_request(request)


def test_an_approver_the_drafter_created_is_refused(floor: Any) -> None:
    """A former security officer, now an admin, made a second account before: that account
    cannot approve what they draft."""
    person = User.objects.create_user("person", password=STRONG)
    person.groups.add(Group.objects.get(name=Role.SECURITY.value))
    with _as_request_of(person):
        second = User.objects.create_user("person-alt", password=STRONG)
        second.groups.add(Group.objects.get(name=Role.ADMIN.value))
    person.groups.set([Group.objects.get(name=Role.ADMIN.value)])
    draft = _draft(User.objects.get(pk=person.pk))
    with pytest.raises(PermissionDenied, match="created or changed by person"):
        paytable_approve(version=draft, approver=User.objects.get(pk=second.pk))
    assert paytable_approve(version=draft, approver=floor["admin2"]).is_approved


def test_an_approver_whose_account_the_drafter_changed_is_refused(floor: Any) -> None:
    with _as_request_of(floor["admin"]):
        floor["admin2"].first_name = "Changed"
        floor["admin2"].save()
    draft = _draft(floor["admin"])
    with pytest.raises(PermissionDenied, match="created or changed by admin"):
        paytable_approve(version=draft, approver=floor["admin2"])


def test_the_demo_has_a_security_login(floor: Any) -> None:
    security = floor["security"]
    assert security.check_password("demo") and security.is_staff
    assert list(security.groups.values_list("name", flat=True)) == ["security"]
    assert not AccountLock.objects.exists()
