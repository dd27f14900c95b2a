"""PostgreSQL: a trigram index on the search's words (`pg_trgm`), so a word anywhere in them is
found without reading every row (docs/trail.md). SQLite has no such index: nothing to do."""

from typing import Any

from django.db import migrations


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS audit_eventtext_trgm "
        "ON audit_auditeventtext USING gin (text gin_trgm_ops)"
    )


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS audit_eventtext_trgm")


class Migration(migrations.Migration):
    dependencies = [("audit", "0014_event_search_text")]

    operations = [migrations.RunPython(create, drop)]
