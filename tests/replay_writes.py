"""Build a fixture's data once, then write the very same rows again for each test.

Seeding the demo floor goes through the services (users, role groups, approved paytables,
meters, the audit chain, the players' demo): hundreds of statements with Python around each,
and most database tests start from it. `replayed(key, build)` runs `build` once with a recorder
on the connection that keeps every write (INSERT, UPDATE, DELETE, a savepoint's step, a call of
a database function that writes) with its parameters, in order. A later test whose database is
in the same state (every table's row count and highest id, the audit chain's head, the same
settings) gets those
statements executed again in the same order, PostgreSQL's sequences set back to where they
stood, so the rows, their ids, the audit chain's hashes and the guard triggers' checks come
out as the services wrote them.

A recording is kept for `FRESH_SECONDS` only: the rows carry the time they were written, and a
test reads them against the clock (the anchor's grace for a checkpoint, sessions' idle time, the
checkpoint interval, the gaming day). A test outside a transaction (a live server, a real
worker) always builds for real: its writes are committed and the database is emptied after it,
so nothing recorded would fit it.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.apps import apps
from django.conf import settings
from django.db import connection, models

T = TypeVar("T")

# Well inside the anchor's grace (AUDIT_ANCHOR_GRACE_SECONDS, 60): a checkpoint the test's
# anchor file does not hold yet passes `verify_audit` only while it is that young.
FRESH_SECONDS = 10.0
WRITES = ("INSERT", "UPDATE", "DELETE", "SAVEPO", "RELEAS", "ROLLBA")


def _writes(sql: str) -> bool:
    """A write, a savepoint's step (a write undone inside the build stays undone), or one of
    the database functions that write (PostgreSQL's audit append is a SELECT of one)."""
    head = sql.lstrip()[:6].upper()
    return head in WRITES or (head == "SELECT" and "casino_" in sql)


@dataclass
class Recording:
    at: float
    statements: list[tuple[str, Any, bool]] = field(default_factory=list)
    sequences: dict[str, tuple[int, bool]] = field(default_factory=dict)
    value: Any = None


_recordings: dict[tuple[str, str], Recording] = {}
_tables: list[tuple[str, str | None]] | None = None


def _table_keys() -> list[tuple[str, str | None]]:
    """Every table with its integer primary key column, if it has one."""
    global _tables
    if _tables is None:
        found = []
        with connection.cursor() as cursor:
            for table in sorted(connection.introspection.table_names(cursor)):
                if table == "django_migrations":
                    continue
                pk = connection.introspection.get_primary_key_column(cursor, table)
                columns = {
                    c.name: c for c in connection.introspection.get_table_description(cursor, table)
                }
                integer = (
                    pk is not None
                    and pk in columns
                    and "int"
                    in str(
                        connection.introspection.get_field_type(columns[pk].type_code, columns[pk])
                    ).lower()
                )
                found.append((table, pk if integer else None))
        _tables = found
    return _tables


def _state() -> str:
    """The database's state: every table's row count and highest id, the audit chain's head,
    and the settings."""
    q = connection.ops.quote_name
    parts = [
        f"SELECT '{t}', COUNT(*), {f'MAX({q(pk)})' if pk else '0'} FROM {q(t)}"
        for t, pk in _table_keys()
    ]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        rows = sorted(cursor.fetchall())
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name, seq FROM sqlite_sequence ORDER BY name")
            rows.extend(cursor.fetchall())
        # The rows' content, which counts and ids do not show: the audit chain's head hashes
        # every event (and its time), so a build recorded on one seeding of the floor is never
        # written over another.
        cursor.execute("SELECT seq, hash FROM audit_audithead")
        rows.extend(cursor.fetchall())
    wanted = {
        name: getattr(settings, name)
        for name in dir(settings)
        if name.isupper() and name != "AUDIT_ANCHOR_PATH"
    }
    return hashlib.sha256(repr((rows, sorted(wanted.items(), key=str))).encode()).hexdigest()


def _sequences() -> dict[str, tuple[int, bool]]:
    if connection.vendor != "postgresql":
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename), last_value "
            "FROM pg_sequences WHERE schemaname = current_schema()"
        )
        return {
            name: (value, True) if value is not None else (1, False)
            for name, value in cursor.fetchall()
        }


def _kept(value: Any) -> Any:
    """What `build` returned, with each row as its model and id (read again after a replay)."""
    if isinstance(value, models.Model):
        return ("__row__", value._meta.label, value.pk)
    if isinstance(value, dict):
        return {k: _kept(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_kept(v) for v in value)
    return value


def _read_again(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 3 and value[0] == "__row__":
        return apps.get_model(value[1])._default_manager.get(pk=value[2])
    if isinstance(value, dict):
        return {k: _read_again(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_read_again(v) for v in value)
    return value


def replayed(key: str, build: Callable[[], T]) -> T:
    """Run `build`, or write again what it wrote when this database is where it was then; the
    rows `build` returned (alone or in dicts, lists, tuples) are read again from the database."""
    if not connection.in_atomic_block:
        return build()
    state = _state()
    recording = _recordings.get((key, state))
    if recording is not None and time.monotonic() - recording.at < FRESH_SECONDS:
        _replay(recording)
        return _read_again(recording.value)  # type: ignore[no-any-return]
    before = _sequences()
    recording = Recording(at=time.monotonic())

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if _writes(sql):
            recording.statements.append((sql, list(params) if many else params, many))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        value = build()
    after = _sequences()
    recording.sequences = {name: at for name, at in before.items() if after.get(name) != at}
    recording.value = _kept(value)
    _recordings[(key, state)] = recording
    return value


def _replay(recording: Recording) -> None:
    with connection.cursor() as cursor:
        if recording.sequences:
            cursor.execute(
                "SELECT " + ", ".join("setval(%s, %s, %s)" for _ in recording.sequences) + "",
                [
                    v
                    for name, (value, called) in recording.sequences.items()
                    for v in (name, value, called)
                ],
            )
        for sql, params, many in recording.statements:
            if many:
                cursor.executemany(sql, params)
            elif params is None:
                cursor.execute(sql)
            else:
                cursor.execute(sql, params)
