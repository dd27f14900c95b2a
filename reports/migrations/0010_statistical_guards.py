"""The statistical investigations and their explanations are history: appended, never changed
or deleted (SQLite: triggers refusing UPDATE and DELETE and an insert that would replace a row;
PostgreSQL: row triggers refusing UPDATE and DELETE, and TRUNCATE refused; the SQL of the
compliance guards). audit/guards.py lists them."""

import importlib

from django.db import migrations

TABLES = ("reports_statisticalinvestigation", "reports_statisticalexplanation")
# Each table's keys when this was written: (columns, the partial index's condition).
KEYS = {
    "reports_statisticalinvestigation": [
        (("id",), ""),
        (("table_id", "period", "gaming_day"), "{}.table_id IS NOT NULL"),
        (("game", "period", "gaming_day"), "{}.table_id IS NULL"),
    ],
    "reports_statisticalexplanation": [(("id",), ""), (("investigation_id",), "")],
}


def _statements(vendor):
    if vendor == "sqlite":
        audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
        statements = []
        for table in TABLES:
            short = table.split("_", 1)[1]
            statements += [
                f"CREATE TRIGGER casino_{short}_no_update BEFORE UPDATE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END;",
                f"CREATE TRIGGER casino_{short}_no_delete BEFORE DELETE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END;",
            ]
        return statements + [audit.no_replace(table, k) for table, k in KEYS.items()]
    if vendor == "postgresql":
        statements = []
        for table in TABLES:
            short = table.split("_", 1)[1]
            statements += [
                f"CREATE TRIGGER casino_{short}_no_change BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
                f"CREATE TRIGGER casino_{short}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
            ]
        return statements
    return []


def install(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        for statement in _statements(schema_editor.connection.vendor):
            cursor.execute(statement)


def remove(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        for statement in _statements(connection.vendor):
            words = statement.split()
            name, table = words[2], words[words.index("ON") + 1]
            on = "" if connection.vendor == "sqlite" else f" ON {table}"
            cursor.execute(f"DROP TRIGGER IF EXISTS {name}{on};")


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0009_statistical_investigations"),
        ("audit", "0010_insert_guards_and_head_recovery"),  # casino_refuse_change()
    ]

    operations = [migrations.RunPython(install, remove)]
