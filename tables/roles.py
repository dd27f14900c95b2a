"""The roles, as Django groups: dealer, pit boss, admin (paytables), auditor, security
(identity management: accounts, roles, passwords, tokens, sign-in locks), cage (issues fills,
receives credits) and count (the soft count team: counts and signs the drop boxes). Security
is a role of its own: an account holding it holds no other (accounts.admin enforces it), so it never
plays, approves paytables or reads the floor."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models


class Role(models.TextChoices):
    DEALER = "dealer", "Dealer"
    PIT_BOSS = "pit_boss", "Pit boss"
    ADMIN = "admin", "Admin"
    AUDITOR = "auditor", "Auditor"
    SECURITY = "security", "Security"
    CAGE = "cage", "Cage"
    COUNT = "count", "Count team"


def has_role(user: AbstractBaseUser | AnonymousUser | None, role: Role) -> bool:
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    cache = getattr(user, "_role_names", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))  # type: ignore[union-attr]
        user._role_names = cache  # type: ignore[union-attr]
    return role.value in cache


def roles_of(user: AbstractBaseUser | AnonymousUser | None) -> list[str]:
    return [r.value for r in Role if has_role(user, r)]


_VIEW = ("view",)
_EDIT = ("view", "change", "add")
_FLOOR_VIEW = {
    m: _VIEW
    for m in (
        "pit",
        "table",
        "round",
        "settlementline",
        "progressivemeter",
        "meterentry",
        "paytableversion",
        "dealersession",
    )
}
_ACCOUNTING_VIEW = {
    m: _VIEW for m in ("chipdenomination", "slip", "slipsignature", "slipvoid", "variancealert")
}
# Model permissions each role's group holds (the Django admin uses them).
ROLE_PERMISSIONS: dict[Role, dict[str, dict[str, tuple[str, ...]]]] = {
    Role.DEALER: {},
    Role.PIT_BOSS: {"tables": _FLOOR_VIEW, "accounting": _ACCOUNTING_VIEW},
    Role.ADMIN: {
        "tables": {
            **_FLOOR_VIEW,
            "pit": _EDIT,
            "table": _EDIT,
            "paytableversion": _EDIT,
            "progressivemeter": _EDIT,
            "meterentry": ("view", "add"),
        },
        "accounting": {**_ACCOUNTING_VIEW, "chipdenomination": _EDIT},
    },
    Role.AUDITOR: {
        "tables": _FLOOR_VIEW,
        "audit": {"auditevent": _VIEW},
        "accounting": _ACCOUNTING_VIEW,
    },
    Role.SECURITY: {
        "auth": {"user": _EDIT, "group": _VIEW},
        "authtoken": {"tokenproxy": ("view", "delete")},
        "accounts": {"accountlock": ("view", "change")},
    },
    # The cage and the count team work on their own pages (/accounting/), not in the admin.
    Role.CAGE: {},
    Role.COUNT: {},
}


def ensure_role_groups(group_model: Any = None, permission_model: Any = None) -> None:
    """Create the role groups with exactly their permissions (idempotent; the migrations and
    seed_demo call it, so a flushed test database gets them back). A permission whose app is
    not migrated yet is skipped; the later migration that calls this again adds it."""
    if group_model is None or permission_model is None:
        from django.contrib.auth.models import Group, Permission

        group_model, permission_model = Group, Permission
    for role, apps_perms in ROLE_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=role.value)
        wanted = []
        for app_label, perms in apps_perms.items():
            for model, actions in perms.items():
                for action in actions:
                    permission = permission_model.objects.filter(
                        content_type__app_label=app_label, codename=f"{action}_{model}"
                    ).first()
                    if permission is not None:
                        wanted.append(permission)
        group.permissions.set(wanted)
