"""Django's model backend, refusing a locked account before its password is checked, and
reading a signed-in user with their roles in one statement compiled once (every page)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef
from django.http import HttpRequest

from core.prepared import PreparedQuery
from core.roles import remember_roles

from .group_names import GroupNames, names
from .lockout import is_locked


def _user_query(pk: int) -> Any:
    """The user of that id (as ModelBackend reads them) with their group names."""
    group_names = Group.objects.filter(user=OuterRef("pk")).values("name")
    return (
        get_user_model()._default_manager.annotate(role_names=GroupNames(group_names)).filter(pk=pk)
    )


_USER = PreparedQuery(_user_query, pk=int)


class LockoutModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        name = username if username is not None else kwargs.get(get_user_model().USERNAME_FIELD)
        if name and is_locked(str(name)):
            # authenticate() stops here, and sends user_login_failed (counted, not chained).
            raise PermissionDenied("account locked")
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        """ModelBackend's: the user of a session (None if gone or inactive), their roles read
        with them (`core.roles.has_role` asks no more)."""
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return super().get_user(user_id)
        user = _USER.first(pk=user_id)
        if user is None or not self.user_can_authenticate(user):
            return None
        remember_roles(user, names(user.role_names))
        del user.role_names
        return user
