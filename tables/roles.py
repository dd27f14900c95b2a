"""The four roles, as Django groups: dealer, pit boss, admin, auditor."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models


class Role(models.TextChoices):
    DEALER = "dealer", "Dealer"
    PIT_BOSS = "pit_boss", "Pit boss"
    ADMIN = "admin", "Admin"
    AUDITOR = "auditor", "Auditor"


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
# Model permissions each role's group holds (the Django admin uses them).
ROLE_PERMISSIONS: dict[Role, dict[str, dict[str, tuple[str, ...]]]] = {
    Role.DEALER: {},
    Role.PIT_BOSS: {"tables": _FLOOR_VIEW},
    Role.ADMIN: {
        "tables": {
            **_FLOOR_VIEW,
            "pit": _EDIT,
            "table": _EDIT,
            "paytableversion": _EDIT,
            "progressivemeter": _EDIT,
            "meterentry": ("view", "add"),
        },
        "auth": {"user": _EDIT, "group": _VIEW},
    },
    Role.AUDITOR: {"tables": _FLOOR_VIEW, "audit": {"auditevent": _VIEW}},
}


def ensure_role_groups(group_model: Any = None, permission_model: Any = None) -> None:
    """Create the four groups with their permissions (idempotent; the migration and seed_demo
    call it, so a flushed test database gets them back)."""
    if group_model is None or permission_model is None:
        from django.contrib.auth.models import Group, Permission

        group_model, permission_model = Group, Permission
    for role, apps_perms in ROLE_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=role.value)
        for app_label, perms in apps_perms.items():
            for model, actions in perms.items():
                for action in actions:
                    group.permissions.add(
                        permission_model.objects.get(
                            content_type__app_label=app_label, codename=f"{action}_{model}"
                        )
                    )
