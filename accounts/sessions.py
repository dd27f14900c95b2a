"""Sessions in the database, renewed without holding a reader up.

Every request renews its session's idle time (SESSION_SAVE_EVERY_REQUEST): a write on every
page, and on SQLite a write waits for the database's lock, so a page that only reads would wait
behind a round being settled, then fail when the lock stayed taken. Here a session whose
content did not change is renewed only when its stored expiry is more than
CASINO_SESSION_RENEW_SECONDS older than the new one, by one UPDATE of its expiry that waits for
SQLite's lock briefly (core.db.brief_lock_wait); when the lock is taken or the database does
not answer, the renewal is let go (the session stays valid until its stored expiry, and the
next request renews it). A session whose content changed is saved as Django saves it. The
session's row is read on every request, by a statement compiled once (core.prepared).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import UpdateError
from django.contrib.sessions.models import Session
from django.db import DatabaseError, router
from django.utils import timezone

from core.db import brief_lock_wait, unavailable
from core.prepared import PreparedQuery

log = logging.getLogger(__name__)


def _session_query(key: str, now: datetime) -> Any:
    """What Django's database store reads: the session of that key, unless it has expired."""
    return Session.objects.filter(session_key=key, expire_date__gt=now)


_SESSION = PreparedQuery(_session_query, key=str, now=datetime)  # every request with a session


class SessionStore(db.SessionStore):
    _stored_expiry: datetime | None = None

    def _get_session_from_db(self) -> Any:
        if self.model is Session:
            key = self.session_key
            found = _SESSION.first(key=key, now=timezone.now()) if key is not None else None
            if found is None:
                self._session_key = None  # as Django's store: a new session is made
        else:
            found = super()._get_session_from_db()
        self._stored_expiry = found.expire_date if found is not None else None
        return found

    def save(self, must_create: bool = False) -> None:
        if must_create or self.session_key is None or self.modified:
            super().save(must_create=must_create)
            return
        self._get_session()  # loaded (and its stored expiry known) before deciding
        if self.modified or self.session_key is None or self._stored_expiry is None:
            super().save(must_create=must_create)
            return
        renewed = self.get_expiry_date()
        if renewed - self._stored_expiry < timedelta(seconds=settings.CASINO_SESSION_RENEW_SECONDS):
            return  # renewed a moment ago
        using = router.db_for_write(self.model)
        try:
            with brief_lock_wait(using):
                updated = (
                    self.model.objects.using(using)
                    .filter(session_key=self.session_key)
                    .update(expire_date=renewed)
                )
        except DatabaseError as exc:
            if not unavailable(exc):
                raise
            log.info("session renewal let go: %s", exc)
            return
        if not updated:
            raise UpdateError  # deleted meanwhile (signed out elsewhere): as Django's
        self._stored_expiry = renewed
