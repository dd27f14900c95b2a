"""A hand cancelled as a misdeal: the status `misdeal`, its time, dealer and reason in the void's
fields. The database's guards (0007) already treat every status but `open` as closed.

On SQLite the new checks rebuild tables_hand, and a trigger naming a table being rebuilt stops
the rebuild: every trigger that names tables_hand (its own and its players') is lifted first and
put back after exactly as it was (its SQL read from the database). PostgreSQL keeps its triggers.
"""

from django.conf import settings
from django.db import migrations, models

_LIFTED: list[tuple[str, str]] = []


def lift_sqlite_guards(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
            "AND (tbl_name LIKE 'tables_hand%' OR sql LIKE '%tables_hand%') ORDER BY name"
        )
        _LIFTED[:] = list(cursor.fetchall())
        for name, _sql in _LIFTED:
            cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')


def reinstall_sqlite_guards(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        for name, sql in _LIFTED:
            cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')
            cursor.execute(sql)
    _LIFTED.clear()


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0017_meter_only_where_taken"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(lift_sqlite_guards, reinstall_sqlite_guards),
        migrations.RemoveConstraint(
            model_name="hand",
            name="hand_status_valid",
        ),
        migrations.RemoveConstraint(
            model_name="hand",
            name="hand_result_matches_status",
        ),
        migrations.AlterField(
            model_name="hand",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "Open"),
                    ("finished", "Finished"),
                    ("voided", "Voided"),
                    ("misdeal", "Misdeal"),
                ],
                default="open",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["open", "finished", "voided", "misdeal"])),
                name="hand_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("finished_at__isnull", True), ("result__isnull", True), ("status", "open")
                    ),
                    models.Q(
                        ("finished_at__isnull", False),
                        ("gaming_day__isnull", False),
                        ("result__isnull", False),
                        ("status", "finished"),
                    ),
                    models.Q(
                        ("status__in", ["voided", "misdeal"]),
                        ("voided_at__isnull", False),
                        ("voided_by__isnull", False),
                        models.Q(("void_reason", ""), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="hand_result_matches_status",
            ),
        ),
        migrations.RunPython(reinstall_sqlite_guards, lift_sqlite_guards),
    ]
