"""On PostgreSQL the database cache's table is UNLOGGED: its writes (the API throttles' counts,
on every request) skip the write-ahead log and so wait for no disk flush. A crash empties it,
which a cache may be: the throttles start counting again, a kept preview is computed again.
Nothing of the record is there."""

from django.conf import settings
from django.db import migrations


def _cache_tables():
    return [
        c["LOCATION"] for c in settings.CACHES.values() if c["BACKEND"].endswith("DatabaseCache")
    ]


def _set(schema_editor, persistence):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    existing = set(connection.introspection.table_names())
    for name in _cache_tables():
        if name in existing:
            schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(name)} SET {persistence}")


def unlogged(apps, schema_editor):
    _set(schema_editor, "UNLOGGED")


def logged(apps, schema_editor):
    _set(schema_editor, "LOGGED")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_security_role_and_cache")]

    operations = [migrations.RunPython(unlogged, logged)]
