"""Lockout after repeated failed sign-ins, shared by every process.

A failed sign-in for a username is counted in the shared store: the database
(`SignInFailure` rows, pruned past the window) or Redis (one expiring counter per username,
when the cache is Redis). CASINO_LOCKOUT_FAILURES failures within CASINO_LOCKOUT_WINDOW_MINUTES
lock an existing account (`AccountLock`) until someone with the security role lifts it, or
until CASINO_LOCKOUT_MINUTES have passed when that is set. A locked account is refused before
its password is checked (accounts.backends), so guessing on cannot tell a right password.

When Redis cannot be reached (core.cache.CacheUnavailable: it refuses, hangs past
CASINO_CACHE_TIMEOUT, or failed a moment ago) a failure is counted in the database instead, and
with Redis the count is its counter plus the database's rows in the window (rows only written
while Redis was away): a Redis outage never skips a lock, at worst it locks sooner.

The same counts serve the pit boss's sign-off at a dealer's tablet (accounts.signoff) under keys
no account can have (a name with a colon), so those failures never lock an account.

On the audit chain: each failure for an existing account (at most the threshold per window,
since the account then locks and attempts on a locked account are not chained), the lock and
its lifting. Failures for names that do not exist are counted, but the chain gets at most one
`auth.login_failed_unknown` event per window, whatever the number of names tried.
"""

from __future__ import annotations

import hashlib
import threading
import time
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.cache import CacheUnavailable
from core.errors import ServiceError
from core.roles import (
    SECURITY,
    require,
)

from .models import AccountLock, SignInFailure

UNKNOWN_AUDIT_KEY = "signin-unknown-audited"


def _window() -> timedelta:
    return timedelta(minutes=settings.CASINO_LOCKOUT_WINDOW_MINUTES)


def _counter_key(username: str) -> str:
    return "signin-failures:" + hashlib.sha256(username.encode("utf-8", "replace")).hexdigest()


def _clip(username: Any) -> str:
    return str(username or "")[:150].replace("\x00", "")


def open_lock(username: str, *, now: datetime | None = None) -> AccountLock | None:
    """The lock in force on this username's account, if any."""
    now = now or timezone.now()
    lock = (
        AccountLock.objects.filter(user__username=_clip(username), lifted_at__isnull=True)
        .select_related("user")
        .first()
    )
    if lock is None or (lock.locked_until is not None and lock.locked_until <= now):
        return None
    return lock


def is_locked(username: str) -> bool:
    return open_lock(username) is not None


def _count_in_redis(username: str) -> int:
    key = _counter_key(username)
    cache.add(key, 0, timeout=int(_window().total_seconds()))
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=int(_window().total_seconds()))
        return 1


def count_failure(username: str, ip: str) -> int:
    """Count one failure under `username` in the shared store; the failures within the
    window."""
    since = timezone.now() - _window()
    if settings.CASINO_LOCKOUT_STORE == "redis":
        try:
            counted = _count_in_redis(username)
        except CacheUnavailable:
            pass  # counted in the database below: the lock is never skipped
        else:
            return counted + SignInFailure.objects.filter(username=username, at__gte=since).count()
    SignInFailure.objects.create(username=username, ip=ip)
    SignInFailure.objects.filter(at__lt=since).delete()
    return SignInFailure.objects.filter(username=username, at__gte=since).count()


def failures(username: str) -> int:
    """The failures counted under `username` within the window (nothing counted)."""
    since = timezone.now() - _window()
    in_rows = SignInFailure.objects.filter(username=username, at__gte=since).count()
    if settings.CASINO_LOCKOUT_STORE == "redis":
        try:
            return in_rows + int(cache.get(_counter_key(username)) or 0)
        except CacheUnavailable:
            pass
    return in_rows


def clear_failures(username: str) -> None:
    if settings.CASINO_LOCKOUT_STORE == "redis":
        with suppress(CacheUnavailable):  # else the counter expires with its window
            cache.delete(_counter_key(username))
    SignInFailure.objects.filter(username=username).delete()


def record_failure(username: Any, ip: str) -> None:
    """One failed sign-in (wrong password, unknown name or locked account)."""
    username = _clip(username)
    user = get_user_model().objects.filter(username=username).first() if username else None
    if user is not None and is_locked(username):
        return  # already locked: refused without a password check, not counted again
    count = count_failure(username, ip)
    if user is None:
        _audit_unknown(username, ip)
        return
    with transaction.atomic():
        audit_record(
            actor=None,
            actor_name=username,
            kind=EventKind.AUTH_LOGIN_FAILED,
            obj=user,
            bind_obj=False,  # the account itself is unchanged
            data={"username": username, "ip": ip, "failures_in_window": count},
        )
        if count >= settings.CASINO_LOCKOUT_FAILURES:
            _lock(user, count, ip)


# Without the shared cache, the mark of the last chained event is kept by each process.
_unknown_audited_at = 0.0
_unknown_lock = threading.Lock()


def _unknown_due() -> bool:
    """True for the first failure for names that are not accounts in a window."""
    seconds = int(_window().total_seconds())
    try:
        return bool(cache.add(UNKNOWN_AUDIT_KEY, 1, timeout=seconds))
    except CacheUnavailable:
        global _unknown_audited_at
        with _unknown_lock:
            if time.monotonic() - _unknown_audited_at < seconds and _unknown_audited_at:
                return False
            _unknown_audited_at = time.monotonic()
            return True


def _audit_unknown(username: str, ip: str) -> None:
    """At most one chained event per window for names that are not accounts."""
    if _unknown_due():
        audit_record(
            actor=None,
            actor_name="",
            kind=EventKind.AUTH_LOGIN_FAILED_UNKNOWN,
            data={
                "username": username,
                "ip": ip,
                "note": "failed sign-ins for names that are not accounts; further ones in the "
                f"next {settings.CASINO_LOCKOUT_WINDOW_MINUTES} minutes are counted, not chained",
            },
        )


def _lock(user: AbstractBaseUser, count: int, ip: str) -> None:
    minutes = settings.CASINO_LOCKOUT_MINUTES
    until = timezone.now() + timedelta(minutes=minutes) if minutes > 0 else None
    # An expired automatic lock is closed before the new one opens.
    expired = list(
        AccountLock.objects.select_for_update().filter(
            user=user, lifted_at__isnull=True, locked_until__lte=timezone.now()
        )
    )
    for old in expired:
        old.lifted_at = timezone.now()
        old.save(update_fields=["lifted_at"])
    try:
        with transaction.atomic():
            lock = AccountLock.objects.create(user=user, failures=count, ip=ip, locked_until=until)
    except IntegrityError:
        return  # another process locked it at the same moment
    audit_record(
        actor=None,
        actor_name=user.get_username(),
        kind=EventKind.ACCOUNT_LOCKED,
        obj=user,
        bind_obj=False,  # the account itself is unchanged
        data={
            "username": user.get_username(),
            "failures_in_window": count,
            "window_minutes": settings.CASINO_LOCKOUT_WINDOW_MINUTES,
            "ip": ip,
            "locked_until": until.isoformat() if until else None,
            "lock_id": lock.pk,
        },
        bind=[lock, *expired],
    )


@transaction.atomic
def lockout_lift(*, lock: AccountLock, by: AbstractBaseUser) -> AccountLock:
    """Lift a lock (security role only); the account's failure count starts again."""
    require(
        by, SECURITY, "lift a sign-in lock", message="only the security role lifts a sign-in lock"
    )
    lock = AccountLock.objects.select_for_update().select_related("user").get(pk=lock.pk)
    if lock.lifted_at is not None:
        raise ServiceError(f"{lock} is already lifted", code="already_lifted", status=409)
    lock.lifted_at = timezone.now()
    lock.lifted_by = by  # type: ignore[assignment]
    lock.save(update_fields=["lifted_at", "lifted_by"])
    clear_failures(lock.user.get_username())
    audit_record(
        actor=by,
        kind=EventKind.ACCOUNT_UNLOCKED,
        obj=lock.user,
        bind_obj=False,  # the account itself is unchanged
        data={"username": lock.user.get_username(), "lock_id": lock.pk},
        bind=[lock],
    )
    return lock
