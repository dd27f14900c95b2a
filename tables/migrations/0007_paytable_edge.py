"""A paytable version's theoretical figures, append-only: triggers refuse UPDATE,
DELETE and (PostgreSQL) TRUNCATE, like the settlement lines of 0005. Frozen SQL: never edit."""

import django.db.models.deletion
from django.db import migrations, models

SQLITE = [
    "CREATE TRIGGER casino_paytableedge_no_update BEFORE UPDATE ON tables_paytableedge "
    "BEGIN SELECT RAISE(ABORT, 'tables_paytableedge is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_paytableedge_no_delete BEFORE DELETE ON tables_paytableedge "
    "BEGIN SELECT RAISE(ABORT, 'tables_paytableedge is append-only: DELETE refused'); END;",
]
POSTGRESQL = [
    "CREATE TRIGGER casino_paytableedge_no_change BEFORE UPDATE OR DELETE ON "
    "tables_paytableedge FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_paytableedge_no_truncate BEFORE TRUNCATE ON tables_paytableedge "
    "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
]


def install(apps, schema_editor):
    statements = {"sqlite": SQLITE, "postgresql": POSTGRESQL}
    with schema_editor.connection.cursor() as cursor:
        for statement in statements.get(schema_editor.connection.vendor, []):
            cursor.execute(statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    with schema_editor.connection.cursor() as cursor:
        for statement in {"sqlite": SQLITE, "postgresql": POSTGRESQL}.get(vendor, []):
            name = statement.split()[2]
            on = "" if vendor == "sqlite" else " ON tables_paytableedge"
            cursor.execute(f"DROP TRIGGER IF EXISTS {name}{on};")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_game_choices_from_the_registry"),
    ]

    operations = [
        migrations.CreateModel(
            name="PaytableEdge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("strategy", models.CharField(max_length=20)),
                (
                    "method",
                    models.CharField(
                        choices=[
                            ("exact", "Exact"),
                            ("monte_carlo", "Monte Carlo"),
                            ("mixed", "Exact and Monte Carlo"),
                        ],
                        max_length=12,
                    ),
                ),
                ("figures", models.JSONField()),
                ("computed_at", models.DateTimeField(auto_now_add=True)),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="edges",
                        to="tables.paytableversion",
                    ),
                ),
            ],
            options={
                "ordering": ["version", "strategy"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("version", "strategy"), name="paytable_edge_once"
                    )
                ],
            },
        ),
        migrations.RunPython(install, remove),
    ]
