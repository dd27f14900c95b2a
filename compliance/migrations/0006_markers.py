"""Markers (casino credit): a patron's credit lines and their approvals, the markers issued at
tables against them, the repayments at the cage; the credit manager's role; a cash
transaction's kind `marker_repaid` (a choice only: no column changes).

Lines, approvals, markers and repayments are history: appended, never changed or deleted (the
guards of compliance 0003, named `casino_*` and listed in audit/guards.py).
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

APPEND_ONLY = ("creditline", "creditlineapproval", "marker", "markerrepayment")
# Each guarded table's keys when this was written: (columns, the partial index's condition).
KEYS = {
    "compliance_creditline": [(("id",), ""), (("replaces_id",), "")],
    "compliance_creditlineapproval": [(("id",), ""), (("line_id",), "")],
    "compliance_marker": [(("id",), ""), (("number",), "")],
    "compliance_markerrepayment": [(("id",), ""), (("cash_transaction_id",), "")],
}


def _sqlite(append_only, keys):
    audit = importlib.import_module("audit.migrations.0010_insert_guards_and_head_recovery")
    statements = []
    for short in append_only:
        table = f"compliance_{short}"
        statements += [
            f"CREATE TRIGGER casino_{short}_no_update BEFORE UPDATE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END;",
            f"CREATE TRIGGER casino_{short}_no_delete BEFORE DELETE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END;",
        ]
    return statements + [audit.no_replace(table, k) for table, k in keys.items()]


def _postgresql(append_only, keys):
    statements = []
    for short in append_only:
        statements += [
            f"CREATE TRIGGER casino_{short}_no_change BEFORE UPDATE OR DELETE ON "
            f"compliance_{short} FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
            f"CREATE TRIGGER casino_{short}_no_truncate BEFORE TRUNCATE ON compliance_{short} "
            "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
        ]
    return statements


class Guards:
    """The append-only guards of compliance tables (`append_only`: short names; `keys`: each
    table's unique keys for SQLite's no-replace trigger), installed and removed; the later
    compliance migrations build theirs with it (their SQL is this one's)."""

    def __init__(self, append_only, keys):
        self.append_only, self.keys = append_only, keys

    def statements(self, vendor):
        build = {"sqlite": _sqlite, "postgresql": _postgresql}.get(vendor)
        return build(self.append_only, self.keys) if build else []

    def install(self, apps, schema_editor):
        with schema_editor.connection.cursor() as cursor:
            for statement in self.statements(schema_editor.connection.vendor):
                cursor.execute(statement)

    def remove(self, apps, schema_editor):
        connection = schema_editor.connection
        with connection.cursor() as cursor:
            for statement in self.statements(connection.vendor):
                words = statement.split()
                name, table = words[2], words[words.index("ON") + 1]
                on = "" if connection.vendor == "sqlite" else f" ON {table}"
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}{on};")


GUARDS = Guards(APPEND_ONLY, KEYS)


def roles(apps, schema_editor):
    from core.roles import ensure_role_groups

    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0004_cashtransaction_kind"),
        ("audit", "0010_insert_guards_and_head_recovery"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tables", "0020_meter_awards_as_data"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # A new choice: nothing changes in the database (the table keeps its guards).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="cashtransaction",
                    name="kind",
                    field=models.CharField(
                        choices=[
                            ("buy_in", "Buy-in at a table"),
                            ("chips_bought", "Chips bought with cash"),
                            ("chips_redeemed", "Chips redeemed for cash"),
                            ("front_money_in", "Front money deposited"),
                            ("front_money_out", "Front money withdrawn"),
                            ("marker_repaid", "Marker repaid in cash"),
                        ],
                        max_length=20,
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="CreditLine",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("amount_cents", models.BigIntegerField()),
                ("set_at", models.DateTimeField()),
                (
                    "patron",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="credit_lines",
                        to="compliance.patron",
                    ),
                ),
                (
                    "replaces",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="replaced_by",
                        to="compliance.creditline",
                    ),
                ),
                (
                    "set_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["set_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="CreditLineApproval",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
                    "line",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="approval",
                        to="compliance.creditline",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="Marker",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.CharField(max_length=12, unique=True)),
                ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("gaming_day", models.DateField(db_index=True)),
                ("shift", models.CharField(max_length=5)),
                ("amount_cents", models.BigIntegerField()),
                ("patron_signed", models.BooleanField()),
                ("at", models.DateTimeField()),
                (
                    "issued_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "line",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="markers",
                        to="compliance.creditline",
                    ),
                ),
                (
                    "patron",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="markers",
                        to="compliance.patron",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tables.table",
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.CreateModel(
            name="MarkerRepayment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "method",
                    models.CharField(
                        choices=[("cash", "Cash"), ("chips", "Chips"), ("cheque", "Cheque")],
                        max_length=6,
                    ),
                ),
                ("amount_cents", models.BigIntegerField()),
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
                    "cash_transaction",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="marker_repayment",
                        to="compliance.cashtransaction",
                    ),
                ),
                (
                    "marker",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="repayments",
                        to="compliance.marker",
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.AddConstraint(
            model_name="creditline",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="credit_line_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="marker",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="marker_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="marker",
            constraint=models.CheckConstraint(
                condition=models.Q(("patron_signed", True)), name="marker_patron_signed"
            ),
        ),
        migrations.AddConstraint(
            model_name="marker",
            constraint=models.CheckConstraint(
                condition=models.Q(("seat__isnull", True), ("seat__gte", 1), _connector="OR"),
                name="marker_seat_positive",
            ),
        ),
        migrations.AddConstraint(
            model_name="markerrepayment",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="repayment_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="markerrepayment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("cash_transaction__isnull", False), ("method", "cash")),
                    models.Q(
                        models.Q(("method", "cash"), _negated=True),
                        ("cash_transaction__isnull", True),
                    ),
                    _connector="OR",
                ),
                name="repayment_cash_is_a_transaction",
            ),
        ),
        migrations.RunPython(roles, migrations.RunPython.noop),
        migrations.RunPython(GUARDS.install, GUARDS.remove),
    ]
