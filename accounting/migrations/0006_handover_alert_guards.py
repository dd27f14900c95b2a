"""A handover alert is appended, never changed nor deleted (the database refuses; SQL frozen
here, as migration 0002's guards). On SQLite an insert never replaces one either (0003's
`no_replace`, built by audit 0010's)."""

import importlib

from django.db import migrations

SQLITE = [
    "CREATE TRIGGER casino_handoveralert_no_update BEFORE UPDATE ON accounting_handoveralert "
    "BEGIN SELECT RAISE(ABORT, 'accounting_handoveralert is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_handoveralert_no_delete BEFORE DELETE ON accounting_handoveralert "
    "BEGIN SELECT RAISE(ABORT, 'accounting_handoveralert is append-only: DELETE refused'); END;",
]
POSTGRESQL = [
    "CREATE TRIGGER casino_handoveralert_no_change BEFORE UPDATE OR DELETE ON "
    "accounting_handoveralert FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_handoveralert_no_truncate BEFORE TRUNCATE ON accounting_handoveralert "
    "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
]
KEYS = {"accounting_handoveralert": [(("id",), ""), (("opener_id",), "")]}


def _sqlite():
    audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
    return SQLITE + [audit.no_replace(table, keys) for table, keys in KEYS.items()]


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = _sqlite() if vendor == "sqlite" else POSTGRESQL if vendor == "postgresql" else []
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = _sqlite() if vendor == "sqlite" else POSTGRESQL if vendor == "postgresql" else []
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            name = statement.split()[2]
            on = f" ON {statement.split(' ON ')[1].split()[0]}" if vendor == "postgresql" else ""
            cursor.execute(f"DROP TRIGGER IF EXISTS {name}{on};")


class Migration(migrations.Migration):
    dependencies = [
        ("accounting", "0005_handover_alert"),
        ("audit", "0010_insert_guards_and_head_recovery"),
    ]

    operations = [migrations.RunPython(install, remove)]
