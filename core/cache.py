"""The shared cache when it is Redis: a Redis that refuses or hangs never takes a page down.

Django's Redis cache waits as long as the operating system lets a connection or a read wait,
and redis-py retries; a Redis that accepts connections but never answers would hold every
request for seconds, then fail it. Here a connection and each answer wait CASINO_CACHE_TIMEOUT
(0.25 s) at most, nothing is retried, and after a failure the cache is not asked at all for
CASINO_CACHE_PAUSE seconds (30): every call fails at once with `CacheUnavailable` meanwhile.

What a failure means is decided where the cache is used, never here:

- the throttles (accounts.throttles, the sign-in page) let the request through: a throttle
  that cannot count fails open;
- the lockout (accounts.lockout) counts the failed sign-in in the database instead, as it does
  without Redis: the lock is never skipped;
- the settlement kept for the confirm page (tables.selectors) is computed again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

log = logging.getLogger(__name__)

T = TypeVar("T")


class CacheUnavailable(Exception):
    """The shared cache did not answer (or failed a moment ago and is not asked meanwhile)."""


# Per server location, when the cache may be asked again (monotonic seconds), shared by every
# thread of the process (each thread has its own cache object).
_paused_until: dict[str, float] = {}
_lock = threading.Lock()


def resume() -> None:
    """Forget every pause (tests)."""
    with _lock:
        _paused_until.clear()


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        timeout = float(settings.CASINO_CACHE_TIMEOUT)
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", timeout)
        options.setdefault("socket_timeout", timeout)
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(server, {**params, "OPTIONS": options})
        self._where = str(server)

    def _guard(self, call: Callable[[], T]) -> T:
        from redis.exceptions import RedisError

        now = time.monotonic()
        with _lock:
            until = _paused_until.get(self._where, 0.0)
        if now < until:
            raise CacheUnavailable(
                f"the cache failed less than {settings.CASINO_CACHE_PAUSE} s ago"
            )
        try:
            return call()
        except (RedisError, OSError) as exc:
            with _lock:
                _paused_until[self._where] = time.monotonic() + float(settings.CASINO_CACHE_PAUSE)
            log.warning(
                "the shared cache did not answer (%s); not asked for %s s",
                exc,
                settings.CASINO_CACHE_PAUSE,
            )
            raise CacheUnavailable(str(exc)) from exc

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).add(*args, **kwargs))

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).get(*args, **kwargs))

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).set(*args, **kwargs))

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).touch(*args, **kwargs))

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).delete(*args, **kwargs))

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).get_many(*args, **kwargs))

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).has_key(*args, **kwargs))

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).incr(*args, **kwargs))

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).set_many(*args, **kwargs))

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._guard(lambda: super(RedisCache, self).delete_many(*args, **kwargs))

    def clear(self) -> Any:
        return self._guard(lambda: super(RedisCache, self).clear())
