"""SQLite: an insert never replaces a guarded row of table accounting (SQL frozen here).

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
    "accounting_slip": [
        (("id",), ""),
        (("number",), ""),
        (("replaces_id",), ""),
        (
            ("table_id", "gaming_day", "shift", "kind"),
            "{0}.kind IN ('opener', 'closer', 'drop') AND {0}.status IN ('pending', 'signed')",
        ),
    ],
    "accounting_slipsignature": [
        (("id",), ""),
        (("slip_id", "by_id"), ""),
        (("slip_id", "step"), ""),
    ],
    "accounting_slipvoid": [(("id",), ""), (("slip_id", "by_id"), ""), (("slip_id", "step"), "")],
    "accounting_variancealert": [(("id",), "")],
    "accounting_chipdenomination": [(("id",), ""), (("value_cents",), "")],
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
        ("accounting", "0002_guards_roles_denominations"),
        ("audit", "0010_insert_guards_and_head_recovery"),
    ]
    operations = [migrations.RunPython(install, remove)]
