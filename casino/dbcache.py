"""The database cache with a one-statement `set`.

Django's `DatabaseCache.set` counts the whole table (to cull it), then selects the key and
updates or inserts it in a transaction of its own: five statements, on every API request (the
throttles keep their counts in the cache). Here a `set` is one upsert (`INSERT ... ON CONFLICT
DO UPDATE`, SQLite and PostgreSQL alike), inside a savepoint only when it runs in a caller's
transaction, and the table is counted and culled every `CULL_EVERY` sets of a process instead
of every set. What is stored, and how it is read, is Django's own.

Its writes are the throttles' counts and the settlement kept for a confirm page, made on the
side of a request: on SQLite they wait for the database's lock briefly
(core.db.brief_lock_wait) and fail quietly when it is taken, as Django's cache fails a `set`
that the database refuses; a reader never waits behind a writer for them.

On PostgreSQL it also counts the API throttles' sliding windows in one statement
(`hit_window`, a function of the database's: accounts/migrations/0004_cache_window.py) in a
table of their own that `clear()` empties with the cache.
"""

from __future__ import annotations

import base64
import pickle
import threading
from contextlib import nullcontext
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

from core.db import brief_lock_wait

CULL_EVERY = 100


class DatabaseCache(DjangoDatabaseCache):
    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets = 0
        self._hits = 0
        self._sets_lock = threading.Lock()

    def _cull_due(self) -> bool:
        with self._sets_lock:
            self._sets += 1
            return (self._sets - 1) % CULL_EVERY == 0  # the first set, then every CULL_EVERY

    def _base_set(self, mode: str, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT) -> bool:
        with brief_lock_wait(router.db_for_write(self.cache_model_class)):
            return self._base_set_now(mode, key, value, timeout)

    def _base_delete_many(self, keys: Any) -> bool:
        try:
            with brief_lock_wait(router.db_for_write(self.cache_model_class)):
                return bool(super()._base_delete_many(keys))
        except DatabaseError:
            return False  # an expired entry left for later: reads still see it as expired

    def _base_set_now(self, mode: str, key: str, value: Any, timeout: Any) -> bool:
        if mode != "set":  # add and touch: Django's own (rare here)
            return bool(super()._base_set(mode, key, value, timeout))
        timeout = self.get_backend_timeout(timeout)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table = quote_name(self._table)
        if timeout is None:
            expires = datetime.max
        else:
            expires = datetime.fromtimestamp(timeout, tz=UTC if settings.USE_TZ else None)
        expires = connection.ops.adapt_datetimefield_value(expires.replace(microsecond=0))
        encoded = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        key_col, value_col, expires_col = (
            quote_name("cache_key"),
            quote_name("value"),
            quote_name("expires"),
        )
        sql = (
            f"INSERT INTO {table} ({key_col}, {value_col}, {expires_col}) VALUES (%s, %s, %s) "
            f"ON CONFLICT ({key_col}) DO UPDATE SET {value_col} = excluded.{value_col}, "
            f"{expires_col} = excluded.{expires_col}"
        )
        try:
            with connection.cursor() as cursor:
                if self._cull_due():
                    cursor.execute(f"SELECT COUNT(*) FROM {table}")
                    num = cursor.fetchone()[0]
                    if num > self._max_entries:
                        self._cull(db, cursor, tz_now().replace(microsecond=0), num)
                if connection.in_atomic_block:  # a failure must not break the caller's
                    with transaction.atomic(using=db):
                        cursor.execute(sql, [key, encoded, expires])
                else:
                    cursor.execute(sql, [key, encoded, expires])
        except DatabaseError:
            return False  # as Django's: a set may fail silently
        return True

    # Sliding windows (the API throttles): on PostgreSQL one statement, see
    # accounts/migrations/0004_cache_window.py; elsewhere the caller counts with get and set.

    _WINDOW_HIT = "SELECT allowed, wait FROM casino_window_hit(%s, %s, %s, %s)"
    _WINDOW_CULL = "DELETE FROM casino_cache_window WHERE expires < %s"

    def hit_window(
        self, key: str, now: float, duration: float, limit: int
    ) -> tuple[bool, float | None] | None:
        """Count a request at `now` in the window `key` (at most `limit` requests in any
        `duration` seconds), as Django REST framework's throttles count: (True, None) when it
        is let through and counted; (False, seconds to wait, or None) when it is refused and
        not counted. One statement under the key's row lock on PostgreSQL; None on another
        database (the caller then reads and writes the list itself)."""
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        if connection.vendor != "postgresql":
            return None
        params = [self.make_and_validate_key(key), now, duration, limit]
        cull = self._window_cull_due()
        # In a caller's transaction, a savepoint: a failure here leaves it usable.
        savepoint = transaction.atomic(using=db) if connection.in_atomic_block else nullcontext()
        with connection.cursor() as cursor, savepoint:
            if cull:
                cursor.execute(self._WINDOW_CULL, [now])
            cursor.execute(self._WINDOW_HIT, params)
            allowed, wait = cursor.fetchone()
        return bool(allowed), wait

    def window_key_prefix(self, prefix: str) -> str | None:
        """For a statement that counts a window itself (the API token's read names the key of
        its user's window, accounts.authentication): the stored key of `prefix` + any suffix is
        this + the suffix. None when the keys are not made that way (a KEY_FUNCTION of one's
        own) or the windows are not counted in the database (not PostgreSQL)."""
        connection = connections[router.db_for_write(self.cache_model_class)]
        if connection.vendor != "postgresql":
            return None
        stored = self.make_key(prefix)
        if self.make_key(prefix + "0") != stored + "0":
            return None
        return stored

    def cull_windows_if_due(self, now: float) -> None:
        """For a caller that counts a window in its own statement: every CULL_EVERY hits of a
        process the quiet windows are deleted first, as `hit_window` does."""
        if not self._window_cull_due():
            return
        connection = connections[router.db_for_write(self.cache_model_class)]
        with connection.cursor() as cursor:
            cursor.execute(self._WINDOW_CULL, [now])

    def _window_cull_due(self) -> bool:
        """The windows of clients gone quiet are deleted every CULL_EVERY hits of a process
        (a window past its period holds nothing the next hit would count)."""
        with self._sets_lock:
            self._hits += 1
            return self._hits % CULL_EVERY == 0

    def clear(self) -> None:
        super().clear()
        connection = connections[router.db_for_write(self.cache_model_class)]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM casino_cache_window")
