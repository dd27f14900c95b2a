"""API throttles keyed by the trusted client address (never a client-chosen X-Forwarded-For)
or the user, counted in the shared cache (CACHES: the database, or Redis).

Where the cache counts a window itself (the database cache on PostgreSQL,
`casino.dbcache.DatabaseCache.hit_window`) a request costs one statement: the list of times is
read, trimmed, checked and written where it is kept, under the key's row lock, so two requests
of one client at once are both counted. Elsewhere Django REST framework's own reckoning: the
list read from the cache, then written back whole. The two count alike (the same period, the
same limit, refused requests not counted, the same `wait()`); tests/accounts/test_throttles.py
checks one against the other.

With an API token on PostgreSQL the user's window is counted in the token's own read
(accounts.authentication): the same function, in the statement that reads the token, so an
authenticated request makes no statement of its own for its throttle. One difference from
DRF's order follows: DRF checks a view's permissions before its throttles, so a request refused
for its role was not counted; counted with the token, it is (a token's requests count against
its user's rate whatever they ask for). A token that is unknown, expired or of an inactive user
counts against no user's window; its request is anonymous, counted against its address's rate
before its 401 (`CountAnonymousFirst`), as is a request with no credentials at all."""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError
from rest_framework.exceptions import APIException
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from core.cache import CacheUnavailable

from .clientip import client_ip

log = logging.getLogger(__name__)

# Where the API token's read has counted the user's window in its own statement
# (accounts.authentication, on PostgreSQL), the request carries (stored key, time, allowed,
# wait) under this name, and the user throttle takes that answer instead of counting again.
COUNTED_WITH_TOKEN = "_casino_window_counted"


class _Throttle(SimpleRateThrottle):
    _wait: float | None

    def get_ident(self, request: Any) -> str:
        return client_ip(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return self._allow(request, view)
        except (CacheUnavailable, DatabaseError) as exc:
            # A throttle that cannot count lets the request through (it fails open): the
            # shared cache down or the database's lock taken never takes the API down.
            log.info("throttle %s not counted: %s", self.scope, exc)
            self._wait = None
            return True

    def _allow(self, request: Any, view: Any) -> bool:
        hit = getattr(self.cache, "hit_window", None)
        if self.rate is None or hit is None:
            return bool(super().allow_request(request, view))
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        counted = vars(request).pop(COUNTED_WITH_TOKEN, None) if request is not None else None
        if counted is not None and counted[0] == self.cache.make_key(self.key):
            self.now, allowed, self._wait = counted[1], counted[2], counted[3]
            return bool(allowed)
        self.now = self.timer()
        counted = hit(self.key, self.now, self.duration, self.num_requests)
        if counted is None:  # not on this database: the framework's get and set
            return bool(super().allow_request(request, view))
        allowed, self._wait = counted
        return allowed

    def wait(self) -> float | None:
        if hasattr(self, "_wait"):
            return self._wait
        return super().wait()  # type: ignore[no-any-return]


class AnonThrottle(_Throttle, AnonRateThrottle):
    scope = "anon"


class UserThrottle(_Throttle, UserRateThrottle):
    scope = "user"


class SignInThrottle(_Throttle, AnonRateThrottle):
    """Username-and-password requests per client address (the API's and the sign-in page's,
    in one window), whoever is already signed in."""

    scope = "sign_in"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class CountAnonymousFirst:
    """A view mix-in: an anonymous request (no credentials, or a token refused) is counted by
    the view's throttles before it is refused. Django REST framework checks permissions before
    throttles: without this a request with no or wrong credentials would get its 401 uncounted,
    the anonymous rate would never engage, and guessing tokens would be unlimited.
    A signed-in request is throttled where DRF throttles it (after its permissions)."""

    _throttles_counted = False

    def perform_authentication(self, request: Any) -> None:
        try:
            anonymous = not request.user.is_authenticated
        except APIException:  # a token refused (unknown, expired): anonymous, then its 401
            self._count_anonymous(request)
            raise
        if anonymous:
            self._count_anonymous(request)

    def _count_anonymous(self, request: Any) -> None:
        self.check_throttles(request)
        self._throttles_counted = True

    def check_throttles(self, request: Any) -> None:
        if not self._throttles_counted:
            super().check_throttles(request)  # type: ignore[misc]
