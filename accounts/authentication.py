"""API tokens: kept by their keys' digests, bound to the audit record, expiring
CASINO_TOKEN_HOURS after they were issued (and on sign-out).

A request's token is read in one statement by its key's digest, with its user, the user's
roles and the token's latest audit event (by the index on the event's object); the token is
accepted only when that event is sealed with the audit key and binds the row as it stands. A
row written or changed with SQL, by someone without the key, signs nobody in, and
`verify_audit` names it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import CharField, F, Func, OuterRef, Subquery, TextField
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.throttling import UserRateThrottle

from audit.binding import KEY, content
from audit.chain import canonical_parts, json_text, seal_problem
from audit.checkpoints import signing_key
from audit.models import AuditEvent
from core.prepared import PreparedQuery
from core.roles import remember_roles

from .group_names import GroupNames, names
from .models import ApiToken, token_digest
from .throttles import COUNTED_WITH_TOKEN, UserThrottle

log = logging.getLogger(__name__)
LABEL = ApiToken._meta.label_lower


def token_expired(token: ApiToken) -> bool:
    return bool(token.created <= timezone.now() - timedelta(hours=settings.CASINO_TOKEN_HOURS))


def revoke_token(token: ApiToken, reason: str) -> bool:
    """Delete one token (audited by accounts.signals, the row's deletion on the record);
    false when it was already gone (revoked by a request at the same time)."""
    with transaction.atomic():
        locked = ApiToken.objects.select_for_update().filter(pk=token.pk).first()
        if locked is None:
            return False
        locked._revoke_reason = reason  # type: ignore[attr-defined]
        locked.delete()
    return True


def revoke_tokens(user: Any, reason: str, *, expired_only: bool = False) -> int:
    """Delete the user's API tokens (or only those expired); returns how many."""
    tokens = ApiToken.objects.select_for_update().filter(user=user).order_by("pk")
    if expired_only:
        cutoff = timezone.now() - timedelta(hours=settings.CASINO_TOKEN_HOURS)
        tokens = tokens.filter(created__lte=cutoff)
    count = 0
    with transaction.atomic():
        for token in tokens:  # locked: each is deleted here, once
            token._revoke_reason = reason  # type: ignore[attr-defined]
            token.delete()
            count += 1
    return count


# The event's fields its seal covers (audit.chain.canonical_parts), in this order.
_SEALED = ("actor_id", "actor_name", "kind", "object_type", "object_id", "table_name")


class _JSONValue(Func):
    """A JSON column as JSON inside a JSON array: SQLite keeps it as text."""

    template = "%(expressions)s"
    output_field = TextField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="json(%(expressions)s)", **extra)


class _EventArray(Func):
    """An event's sealed content and its seal as one JSON array (text on both databases)."""

    function = "json_array"
    output_field = TextField()

    def __init__(self) -> None:
        super().__init__(*(F(name) for name in _SEALED), _JSONValue(F("data")), F("seal"))

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="jsonb_build_array", **extra)


def _latest_event() -> Subquery:
    """The token's latest event (by the index on the event's object and seq)."""
    events = (
        AuditEvent.objects.filter(
            object_type=LABEL, object_id=Cast(OuterRef("pk"), output_field=CharField())
        )
        .order_by("-seq")
        .annotate(sealed=_EventArray())
        .values("sealed")[:1]
    )
    return Subquery(events, output_field=TextField())


def _token_query(digest: str) -> Any:
    group_names = Group.objects.filter(user=OuterRef("user_id")).values("name")
    return (
        ApiToken.objects.select_related("user")
        .annotate(role_names=GroupNames(group_names), record=_latest_event())
        .filter(digest=digest)
    )


def on_record(token: ApiToken) -> bool:
    """Whether the token's latest event (read with it, as `record`) is sealed with the audit
    key and binds the row as it stands: false for a row written or changed with SQL, and for
    one whose latest event records its deletion."""
    sealed = getattr(token, "record", None)
    if not isinstance(sealed, str):
        return False
    row = (str(token.pk), token.digest, token.user_id, token.created)
    return _matches(sealed, row, signing_key())


@lru_cache(maxsize=4096)
def _matches(sealed: str, row: tuple[str, str, int, Any], key: bytes) -> bool:
    """`on_record` for the event's text, the row's bound values and the key: a pure function
    of them, so a token's later requests (same event, same row) skip the parse, the HMAC and
    the row's canonical content."""
    pk, digest, user_id, created = row
    try:
        *sealed_fields, data, seal = json.loads(sealed)
        if len(sealed_fields) != len(_SEALED) or not isinstance(data, dict):
            return False
        parts = canonical_parts(dict(zip(_SEALED, sealed_fields, strict=True)), json_text(data))
        if seal_problem(seal if isinstance(seal, str) else "", parts, key):
            return False
        recorded = ((data.get(KEY) or {}).get(LABEL) or {}).get(pk)
    except (ValueError, TypeError, AttributeError):  # not an event the application wrote
        return False
    live = content(ApiToken(pk=int(pk), digest=digest, user_id=user_id, created=created))
    return recorded is not None and recorded == live


_TOKEN = PreparedQuery(_token_query, digest=str)  # every API request: roles and record with it

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
    digest: str, cutoff: str, prefix: str, now: str, duration: str, limit: str
) -> Any:
    sql = _WINDOW_SQL.format(
        user=f'"{get_user_model()._meta.db_table}"', token=f'"{ApiToken._meta.db_table}"'
    )
    window = RawSQL(sql, [cutoff, prefix, now, duration, limit])  # noqa: S611 (no user text)
    return _token_query(digest).annotate(window=window)


_COUNTED_TOKEN = PreparedQuery(
    _counted_token_query, digest=str, cutoff=str, prefix=str, now=str, duration=str, limit=str
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
    """DRF's `Authorization: Token <key>`, the key looked up by its digest."""

    model = ApiToken
    _request: Any = None
    _window: _Window | None = None

    def authenticate(self, request: Any) -> tuple[Any, ApiToken] | None:
        # DRF makes an authenticator a request: what it keeps here is this request's.
        self._request = request
        self._window = _user_window(request)
        return super().authenticate(request)  # type: ignore[no-any-return]

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        # One statement reads the token, its user, their roles and the token's record; on
        # PostgreSQL the view's user throttle is counted in it too
        # (accounts.throttles.COUNTED_WITH_TOKEN).
        digest = token_digest(key)
        window = self._window
        if window is None:
            token = _TOKEN.first(digest=digest)
        else:
            cutoff = timezone.now() - timedelta(hours=settings.CASINO_TOKEN_HOURS)
            token = _COUNTED_TOKEN.first(digest=digest, **window.values(cutoff))
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
        if not on_record(token):
            # Written or changed outside the application: refused, and left as it is for
            # verify_audit to name (nothing here writes to it).
            log.warning("API token id %s is not as its audit record says: refused", token.pk)
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        user = token.user
        remember_roles(user, names(token.role_names))
        if token_expired(token):
            revoke_token(token, "expired")
            raise exceptions.AuthenticationFailed("token expired: get a new one")
        return user, token
