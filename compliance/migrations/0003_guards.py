"""Cash compliance's guards in the database (SQL frozen here; audit/guards.py lists them).

A cash transaction, an MTL entry and a CTR are history: appended, never changed or deleted. A
patron and a patron's day are changed only by the services (an identification, a new sum) and
never deleted. SQLite: an insert never replaces a row (`casino_<table>_no_replace`, built as
audit 0010 builds its own). PostgreSQL: TRUNCATE is refused on each table.
"""

import importlib

from django.db import migrations

APPEND_ONLY = ("cashtransaction", "mtlentry", "ctr")
NO_DELETE = ("patron", "patronday")
# Each guarded table's keys when this was written: (columns, the partial index's condition).
KEYS = {
    "compliance_patron": [(("id",), ""), (("number",), ""), (("player_id",), "")],
    "compliance_cashtransaction": [(("id",), ""), (("slip_id",), "")],
    "compliance_patronday": [(("id",), ""), (("patron_id", "gaming_day"), "")],
    "compliance_mtlentry": [(("id",), ""), (("transaction_id",), "")],
    "compliance_ctr": [
        (("id",), ""),
        (("opened_by_transaction_id",), ""),
        (("patron_id", "gaming_day", "direction"), ""),
    ],
}


def _sqlite():
    audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
    statements = []
    for short in APPEND_ONLY:
        table = f"compliance_{short}"
        statements += [
            f"CREATE TRIGGER casino_{short}_no_update BEFORE UPDATE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END;",
            f"CREATE TRIGGER casino_{short}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END;",
        ]
    for short in NO_DELETE:
        table = f"compliance_{short}"
        statements.append(
            f"CREATE TRIGGER casino_{short}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is kept: DELETE refused'); END;"
        )
    return statements + [audit.no_replace(table, keys) for table, keys in KEYS.items()]


def _postgresql():
    statements = []
    for short in APPEND_ONLY:
        statements.append(
            f"CREATE TRIGGER casino_{short}_no_change BEFORE UPDATE OR DELETE ON "
            f"compliance_{short} FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();"
        )
    for short in NO_DELETE:
        statements.append(
            f"CREATE TRIGGER casino_{short}_no_delete BEFORE DELETE ON compliance_{short} "
            "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();"
        )
    for short in APPEND_ONLY + NO_DELETE:
        statements.append(
            f"CREATE TRIGGER casino_{short}_no_truncate BEFORE TRUNCATE ON compliance_{short} "
            "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();"
        )
    return statements


def _statements(vendor):
    return {"sqlite": _sqlite, "postgresql": _postgresql}.get(vendor, list)()


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
        ("compliance", "0002_compliance_role"),
        ("audit", "0010_insert_guards_and_head_recovery"),
    ]
    operations = [migrations.RunPython(install, remove)]
