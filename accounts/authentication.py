"""API tokens that expire CASINO_TOKEN_HOURS after they were issued (and on sign-out)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.db.models import OuterRef, Subquery, TextField
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from core.prepared import PreparedQuery
from core.roles import remember_roles


def token_expired(token: Token) -> bool:
    return bool(token.created <= timezone.now() - timedelta(hours=settings.CASINO_TOKEN_HOURS))


def revoke_tokens(user: Any, reason: str) -> int:
    """Delete the user's API tokens (each deletion is audited by accounts.signals)."""
    count = 0
    for token in Token.objects.filter(user=user):
        token._revoke_reason = reason  # type: ignore[attr-defined]
        token.delete()
        count += 1
    return count


class _GroupNames(Subquery):
    """The names of the token's user's groups (their roles), read in the token's own statement:
    PostgreSQL gives an array, SQLite a JSON array."""

    template = "ARRAY(%(subquery)s)"
    output_field = TextField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(
            compiler,
            connection,
            template="(SELECT json_group_array(name) FROM (%(subquery)s))",
            **extra,
        )


def _token_query(key: str) -> Any:
    names = Group.objects.filter(user=OuterRef("user_id")).values("name")
    return (
        Token.objects.select_related("user").annotate(role_names=_GroupNames(names)).filter(key=key)
    )


def _names(value: Any) -> list[str]:
    if isinstance(value, str):  # SQLite's JSON array
        value = json.loads(value)
    return list(value or ())


_TOKEN = PreparedQuery(_token_query, key=str)  # read on every API request, with the roles


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        # DRF's own check, with the token's read compiled once.
        token = _TOKEN.first(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        user = token.user
        remember_roles(user, _names(token.role_names))
        if token_expired(token):
            revoke_tokens(user, "expired")
            raise exceptions.AuthenticationFailed("token expired: get a new one")
        return user, token
