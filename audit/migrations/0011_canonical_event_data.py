"""SQLite: every stored event's data rewritten in its canonical form (compact JSON, keys
sorted, as the hash covers it), which the writer now stores and `verify_chain` requires.

Django's JSONField wrote it with spaces, in insertion order and with non-ASCII escaped; the
parsed data, hence every hash, is unchanged. The guards are lifted for the rewrite (with
audit/triggers.py, which puts back exactly what was there). PostgreSQL's jsonb keeps no text
form: nothing to do there. The canonical form is frozen here rather than imported.
"""

import json

from django.db import migrations

CHUNK = 5000


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rewrite(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    from audit import triggers

    with triggers.lifted(connection), connection.cursor() as cursor:
        last = 0
        while True:
            cursor.execute(
                "SELECT id, data FROM audit_auditevent WHERE id > %s ORDER BY id LIMIT %s",
                [last, CHUNK],
            )
            rows = cursor.fetchall()
            if not rows:
                return
            changed = [
                (canonical(json.loads(text)), pk)
                for pk, text in rows
                if canonical(json.loads(text)) != text
            ]
            if changed:
                cursor.executemany("UPDATE audit_auditevent SET data = %s WHERE id = %s", changed)
            last = rows[-1][0]


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0010_insert_guards_and_head_recovery"),
    ]
    operations = [migrations.RunPython(rewrite, migrations.RunPython.noop)]
