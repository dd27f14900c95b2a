"""The four roles, as Django groups: dealer, pit boss, admin, auditor."""

from __future__ import annotations

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
