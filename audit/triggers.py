"""Lifting and restoring the database's guard triggers (a development `flush`, tamper tests).

The guards themselves are defined, as frozen SQL, in the migrations that install them
(`audit` 0006, `tables` 0005): every one is named `casino_*`. This module reads whatever guards
the database has from its own catalogue, drops them, and puts the very same definitions back,
so it never holds a second copy of the SQL that could drift from the migrations.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PREFIX = "casino_"


def installed(connection: Any) -> list[tuple[str, str, str]]:
    """(name, table, CREATE statement) of every guard trigger in the database."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' "
                "AND name LIKE 'casino\\_%' ESCAPE '\\' ORDER BY name"
            )
        elif connection.vendor == "postgresql":
            cursor.execute(
                "SELECT t.tgname, c.relname, pg_get_triggerdef(t.oid) FROM pg_trigger t "
                "JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal "
                "AND t.tgname LIKE 'casino\\_%%' ORDER BY t.tgname"
            )
        else:
            return []
        return [(name, table, sql) for name, table, sql in cursor.fetchall()]


def _drop(connection: Any, name: str, table: str) -> str:
    if connection.vendor == "sqlite":
        return f'DROP TRIGGER IF EXISTS "{name}"'
    return f'DROP TRIGGER IF EXISTS "{name}" ON "{table}"'


@contextmanager
def lifted(connection: Any) -> Iterator[list[tuple[str, str, str]]]:
    """Drop every guard for the block, then create the same ones again."""
    saved = installed(connection)
    with connection.cursor() as cursor:
        for name, table, _sql in saved:
            cursor.execute(_drop(connection, name, table))
    try:
        yield saved
    finally:
        with connection.cursor() as cursor:
            for _name, _table, sql in saved:
                cursor.execute(sql)
