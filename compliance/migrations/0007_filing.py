"""A CTR's filing with FinCEN (`CtrFiling`: when, by whom, the BSA ID, a note), with the
guards of the other compliance history (SQL frozen here; audit/guards.py lists them): a filing
is appended once per CTR and never updated or deleted. SQLite: no UPDATE, no DELETE, and an
insert never replaces a row (as compliance 0003 builds them). PostgreSQL: no UPDATE, DELETE or
TRUNCATE."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "compliance_ctrfiling"
# The table's keys when this was written: (columns, the partial index's condition).
KEYS = {TABLE: [(("id",), ""), (("ctr_id",), "")]}


def _sqlite():
    audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
    return [
        f"CREATE TRIGGER casino_ctrfiling_no_update BEFORE UPDATE ON {TABLE} "
        f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: UPDATE refused'); END;",
        f"CREATE TRIGGER casino_ctrfiling_no_delete BEFORE DELETE ON {TABLE} "
        f"BEGIN SELECT RAISE(ABORT, '{TABLE} is append-only: DELETE refused'); END;",
        audit.no_replace(TABLE, KEYS[TABLE]),
    ]


def _postgresql():
    return [
        f"CREATE TRIGGER casino_ctrfiling_no_change BEFORE UPDATE OR DELETE ON {TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
        f"CREATE TRIGGER casino_ctrfiling_no_truncate BEFORE TRUNCATE ON {TABLE} "
        "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
    ]


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
            name = statement.split()[2]
            on = "" if connection.vendor == "sqlite" else f" ON {TABLE}"
            cursor.execute(f"DROP TRIGGER IF EXISTS {name}{on};")


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0006_markers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CtrFiling",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("filed_at", models.DateTimeField()),
                (
                    "bsa_id",
                    models.CharField(
                        help_text="the BSA ID or acknowledgment number", max_length=40
                    ),
                ),
                ("note", models.CharField(blank=True, max_length=500)),
                (
                    "ctr",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="filing",
                        to="compliance.ctr",
                    ),
                ),
                (
                    "filed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "CTR filing",
                "ordering": ["filed_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("bsa_id", ""), _negated=True),
                        name="ctr_filing_bsa_id",
                    )
                ],
            },
        ),
        migrations.RunPython(install, remove),
    ]
