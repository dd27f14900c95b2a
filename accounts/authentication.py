"""API tokens that expire CASINO_TOKEN_HOURS after they were issued (and on sign-out)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.models import OuterRef, Subquery, TextField
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.throttling import UserRateThrottle

from core.prepared import PreparedQuery
from core.roles import remember_roles

from .throttles import COUNTED_WITH_TOKEN, UserThrottle


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

# On PostgreSQL the user throttle's window is counted in the token's own statement, for a
# token of an active user that has not expired (what DRF would go on to throttle): -1 let
# through, -2 refused with no wait, a wait in seconds when refused, NULL not counted. The
# function is accounts migration 0004's, the one `casino.dbcache.DatabaseCache.hit_window` calls.
_WINDOW_SQL = (
    'CASE WHEN {user}."is_active" AND {token}."created" > (%s)::timestamptz THEN ('
    "SELECT CASE WHEN w.allowed THEN -1 ELSE COALESCE(w.wait, -2) END FROM casino_window_hit("
    '(%s) || {token}."user_id"::text, (%s)::double precision, (%s)::double precision, '
    "(%s)::integer) w) END"
)


def _counted_token_query(
    key: str, cutoff: str, prefix: str, now: str, duration: str, limit: str
) -> Any:
    sql = _WINDOW_SQL.format(
        user=f'"{get_user_model()._meta.db_table}"', token=f'"{Token._meta.db_table}"'
    )
    window = RawSQL(sql, [cutoff, prefix, now, duration, limit])  # noqa: S611 (no user text)
    return _token_query(key).annotate(window=window)


_COUNTED_TOKEN = PreparedQuery(
    _counted_token_query, key=str, cutoff=str, prefix=str, now=str, duration=str, limit=str
)


@dataclass
class _Window:
    """The user throttle a view applies, to be counted in the token's read."""

    throttle: UserThrottle
    prefix: str
    now: float

    def values(self, cutoff: Any) -> dict[str, str]:
        return {
            "cutoff": cutoff.isoformat(),
            "prefix": self.prefix,
            "now": repr(self.now),
            "duration": repr(float(self.throttle.duration)),
            "limit": str(int(self.throttle.num_requests)),
        }


def _user_window(request: Any) -> _Window | None:
    """The view's user throttle, when its window can be counted in the token's statement (the
    cache counts windows in PostgreSQL, the throttle keys its window by the user as DRF's
    does); None otherwise, and the throttle counts as it always has."""
    view = (getattr(request, "parser_context", None) or {}).get("view")
    classes = [c for c in getattr(view, "throttle_classes", ()) if issubclass(c, UserThrottle)]
    if len(classes) != 1 or classes[0].get_cache_key is not UserRateThrottle.get_cache_key:
        return None
    throttle = classes[0]()
    if throttle.rate is None:
        return None
    prefix_of = getattr(throttle.cache, "window_key_prefix", None)
    prefix = (
        prefix_of(throttle.cache_format % {"scope": throttle.scope, "ident": ""})
        if (prefix_of)
        else None
    )
    if prefix is None:
        return None
    now = throttle.timer()
    throttle.cache.cull_windows_if_due(now)
    return _Window(throttle=throttle, prefix=prefix, now=now)


class ExpiringTokenAuthentication(TokenAuthentication):
    _request: Any = None
    _window: _Window | None = None

    def authenticate(self, request: Any) -> tuple[Any, Token] | None:
        # DRF makes an authenticator a request: what it keeps here is this request's.
        self._request = request
        self._window = _user_window(request)
        return super().authenticate(request)  # type: ignore[no-any-return]

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        # DRF's own check, with the token's read compiled once; on PostgreSQL the view's user
        # throttle is counted in the same statement (accounts.throttles.COUNTED_WITH_TOKEN).
        window = self._window
        if window is None:
            token = _TOKEN.first(key=key)
        else:
            cutoff = timezone.now() - timedelta(hours=settings.CASINO_TOKEN_HOURS)
            token = _COUNTED_TOKEN.first(key=key, **window.values(cutoff))
            if token is not None and token.window is not None and self._request is not None:
                code = float(token.window)
                setattr(
                    self._request,
                    COUNTED_WITH_TOKEN,
                    (
                        window.prefix + str(token.user_id),
                        window.now,
                        code == -1,
                        code if code >= 0 else None,
                    ),
                )
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
