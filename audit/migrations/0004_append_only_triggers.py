"""Append-only triggers (see audit/triggers.py), on PostgreSQL and SQLite."""

from django.db import migrations


def install(apps, schema_editor):
    from audit import triggers

    triggers.install(schema_editor.connection)


def remove(apps, schema_editor):
    from audit import triggers

    triggers.remove(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_auditcheckpoint"),
        ("tables", "0003_remove_round_round_settlement_matches_status_and_more"),
    ]
    operations = [migrations.RunPython(install, remove)]
