"""The database cache with a one-statement `set`.

Django's `DatabaseCache.set` counts the whole table (to cull it), then selects the key and
updates or inserts it in a transaction of its own: five statements, on every API request (the
throttles keep their counts in the cache). Here a `set` is one upsert (`INSERT ... ON CONFLICT
DO UPDATE`, SQLite and PostgreSQL alike), inside a savepoint only when it runs in a caller's
transaction, and the table is counted and culled every `CULL_EVERY` sets of a process instead
of every set. What is stored, and how it is read, is Django's own.
"""

from __future__ import annotations

import base64
import pickle
import threading
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache as DjangoDatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

CULL_EVERY = 100


class DatabaseCache(DjangoDatabaseCache):
    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._sets = 0
        self._sets_lock = threading.Lock()

    def _cull_due(self) -> bool:
        with self._sets_lock:
            self._sets += 1
            return (self._sets - 1) % CULL_EVERY == 0  # the first set, then every CULL_EVERY

    def _base_set(self, mode: str, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT) -> bool:
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
