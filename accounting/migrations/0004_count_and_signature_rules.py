"""The count by its parts and the property's signature rules: drop boxes' moves, a drop slip's
count by part, the count sheet's signatures, the fill and credit signature rules (proposal and
approval) and the rule each slip was entered under. All history: appended, never changed or
deleted (guards named `casino_*`, listed in audit/guards.py)."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

APPEND_ONLY = (
    "dropboxmove",
    "dropcount",
    "countsheetsignature",
    "signatureruleproposal",
    "signatureruleapproval",
    "slipsteps",
)
# Each guarded table's keys when this was written: (columns, the partial index's condition).
KEYS = {
    "accounting_dropboxmove": [(("id",), ""), (("table_id", "gaming_day", "shift", "step"), "")],
    "accounting_dropcount": [(("id",), ""), (("slip_id",), "")],
    "accounting_countsheetsignature": [(("id",), ""), (("gaming_day", "slips", "by_id"), "")],
    "accounting_signatureruleproposal": [(("id",), "")],
    "accounting_signatureruleapproval": [(("id",), ""), (("proposal_id",), "")],
    "accounting_slipsteps": [(("id",), ""), (("slip_id",), "")],
}


def _statements(vendor):
    statements = []
    for short in APPEND_ONLY:
        table = f"accounting_{short}"
        if vendor == "sqlite":
            statements += [
                f"CREATE TRIGGER casino_{short}_no_update BEFORE UPDATE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END;",
                f"CREATE TRIGGER casino_{short}_no_delete BEFORE DELETE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END;",
            ]
        elif vendor == "postgresql":
            statements += [
                f"CREATE TRIGGER casino_{short}_no_change BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
                f"CREATE TRIGGER casino_{short}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
            ]
    if vendor == "sqlite":
        audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
        statements += [audit.no_replace(table, keys) for table, keys in KEYS.items()]
    return statements


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
        ("accounting", "0003_insert_guards"),
        ("audit", "0010_insert_guards_and_head_recovery"),
        ("tables", "0020_meter_awards_as_data"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SignatureRuleProposal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=10)),
                ("steps", models.JSONField()),
                ("reason", models.TextField()),
                ("proposed_at", models.DateTimeField()),
                (
                    "proposed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-proposed_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="SignatureRuleApproval",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("approved_at", models.DateTimeField()),
                (
                    "approved_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "proposal",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="approval",
                        to="accounting.signatureruleproposal",
                    ),
                ),
            ],
            options={
                "ordering": ["-approved_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="SlipSteps",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("steps", models.JSONField()),
                (
                    "approval",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="accounting.signatureruleapproval",
                    ),
                ),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rule_steps",
                        to="accounting.slip",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="CountSheetSignature",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("gaming_day", models.DateField()),
                ("slips", models.CharField(max_length=2000)),
                ("total_cents", models.BigIntegerField()),
                ("independent", models.BooleanField()),
                ("at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["gaming_day", "at", "id"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("gaming_day", "slips", "by"), name="countsheet_signed_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="DropBoxMove",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("gaming_day", models.DateField()),
                ("shift", models.CharField(max_length=5)),
                ("box_number", models.PositiveIntegerField()),
                (
                    "step",
                    models.CharField(
                        choices=[
                            ("removed", "Removed from the table"),
                            ("arrived", "Arrived in the count room"),
                        ],
                        max_length=10,
                    ),
                ),
                ("at", models.DateTimeField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="box_moves",
                        to="tables.table",
                    ),
                ),
                (
                    "witness",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["gaming_day", "shift", "table", "at"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("table", "gaming_day", "shift", "step"),
                        name="dropbox_one_move_per_step",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("box_number__gte", 1)), name="dropbox_number_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("witness__isnull", True),
                            models.Q(("witness", models.F("by")), _negated=True),
                            _connector="OR",
                        ),
                        name="dropbox_witness_is_another",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="DropCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("box_number", models.PositiveIntegerField(blank=True, null=True)),
                ("bills", models.JSONField(blank=True, default=dict)),
                ("match_play_cents", models.BigIntegerField(default=0)),
                ("promotional_cents", models.BigIntegerField(default=0)),
                (
                    "slip",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="drop_count",
                        to="accounting.slip",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("match_play_cents__gte", 0), ("promotional_cents__gte", 0)
                        ),
                        name="dropcount_coupons_nonnegative",
                    )
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="signatureruleproposal",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["fill", "credit"])), name="signaturerule_kind"
            ),
        ),
        migrations.RunPython(install, remove),
    ]
