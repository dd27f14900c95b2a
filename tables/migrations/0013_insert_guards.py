"""SQLite: an insert never replaces a guarded row of the floor (SQL frozen here).

`INSERT OR REPLACE` deletes the row it collides with without firing a delete trigger unless
`PRAGMA recursive_triggers` is on: each table with an update or delete guard gets a
`casino_<table>_no_replace` trigger refusing an insert whose id, or any unique key (a partial
one under its condition), already exists. The trigger's SQL is built as audit 0010 builds its
own (`no_replace`, frozen there). PostgreSQL has no REPLACE.
"""

import importlib

from django.db import migrations

# Each guarded table's keys when this was written: (columns, the partial index's condition
# with {} for the row, or ""). A test compares them with the unique indexes of the database.
KEYS = {
    "tables_round": [
        (("id",), ""),
        (("idempotency_key",), ""),
        (("table_id", "number"), "{}.corrects_id IS NULL"),
        (("table_id",), "{0}.corrects_id IS NULL AND {0}.status = 'open'"),
    ],
    "tables_settlementline": [(("id",), ""), (("round_id", "seat", "wager"), "")],
    "tables_meterentry": [(("id",), "")],
    "tables_progressivemeter": [(("id",), ""), (("name",), "")],
    "tables_paytableversion": [(("id",), ""), (("game", "name", "version"), "")],
    "tables_paytableedge": [(("id",), ""), (("version_id", "strategy"), "")],
    "tables_hand": [
        (("id",), ""),
        (("table_id", "number"), ""),
        (("table_id",), "{}.status = 'open'"),
    ],
    "tables_handplayer": [(("id",), ""), (("hand_id", "seat"), ""), (("hand_id", "position"), "")],
    "tables_tablesettingsversion": [(("id",), ""), (("game", "name", "version"), "")],
    "tables_tablesettingsassignment": [(("id",), "")],
}


def _statements():
    audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
    return [audit.no_replace(table, keys) for table, keys in KEYS.items()]


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        with schema_editor.connection.cursor() as cursor:
            for statement in _statements():
                cursor.execute(statement)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        with schema_editor.connection.cursor() as cursor:
            for statement in _statements():
                cursor.execute(f"DROP TRIGGER IF EXISTS {statement.split()[2]};")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0012_round_indexes_for_opening"),
        ("audit", "0010_insert_guards_and_head_recovery"),
    ]
    operations = [migrations.RunPython(install, remove)]
