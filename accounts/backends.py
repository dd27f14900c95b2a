"""Django's model backend, refusing a locked account before its password is checked."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from .lockout import is_locked


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
