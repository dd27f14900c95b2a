"""Suspicious activity: alerts and the compliance officer's cases, notes and decisions.

Every table is history: appended, never changed or deleted (SQLite: triggers refusing UPDATE and
DELETE and an insert that would replace a row, built as compliance 0003 builds its own;
PostgreSQL: row triggers refusing UPDATE and DELETE, and TRUNCATE refused). audit/guards.py
lists them. An index on the patrons' days by gaming day lets a new transaction find the day's
described patrons alike without reading every day."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

APPEND_ONLY = ("alert", "case", "casealert", "casenote", "casedecision")
# Each guarded table's keys when this was written: (columns, the partial index's condition).
KEYS = {
    "compliance_alert": [(("id",), ""), (("key",), "")],
    "compliance_case": [(("id",), "")],
    "compliance_casealert": [(("id",), ""), (("alert_id",), "")],
    "compliance_casenote": [(("id",), "")],
    "compliance_casedecision": [(("id",), ""), (("case_id",), "")],
}
DAY_INDEX = "CREATE INDEX compliance_patronday_by_day ON compliance_patronday (gaming_day)"


# The guards' SQL is compliance 0006's, for these tables.
GUARDS = importlib.import_module("compliance.migrations.0006_markers").Guards(APPEND_ONLY, KEYS)


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0008_patrons"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("audit", "0010_insert_guards_and_head_recovery"),
    ]

    operations = [
        migrations.CreateModel(
            name="Alert",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.CharField(max_length=120, unique=True)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("structuring", "Structuring: cash just under a threshold"),
                            ("split", "A CTR avoided by splitting between tables and the cage"),
                            (
                                "lookalike",
                                "Described patrons alike, together past the CTR threshold",
                            ),
                            ("chip_walking", "Chip walking: cash in, little play, chips redeemed"),
                            ("beyond_play", "Cash in far beyond the patron's play"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "direction",
                    models.CharField(
                        choices=[("in", "Cash in"), ("out", "Cash out")], max_length=3
                    ),
                ),
                ("first_day", models.DateField(help_text="the first gaming day of the pattern")),
                ("gaming_day", models.DateField(db_index=True)),
                ("amount_cents", models.BigIntegerField(help_text="the cash the pattern holds")),
                ("wagered_cents", models.BigIntegerField(blank=True, null=True)),
                (
                    "detail",
                    models.CharField(
                        help_text="what was found, in the floor's words", max_length=200
                    ),
                ),
                ("raised_at", models.DateTimeField()),
                ("raised_by_night", models.BooleanField(default=False)),
                (
                    "patron",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="alerts",
                        to="compliance.patron",
                    ),
                ),
                (
                    "transaction",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="compliance.cashtransaction",
                    ),
                ),
            ],
            options={
                "ordering": ["-raised_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Case",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("first_day", models.DateField()),
                ("last_day", models.DateField()),
                (
                    "detected_on",
                    models.DateField(help_text="the first alert's detection (or the opening)"),
                ),
                ("opened_at", models.DateTimeField()),
                (
                    "opened_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "patron",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="cases",
                        to="compliance.patron",
                    ),
                ),
            ],
            options={
                "ordering": ["-opened_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="CaseAlert",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "alert",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="case_alert",
                        to="compliance.alert",
                    ),
                ),
                (
                    "case",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="case_alerts",
                        to="compliance.case",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="CaseDecision",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("file_sar", models.BooleanField()),
                ("reason", models.TextField()),
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
                    "case",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="decision",
                        to="compliance.case",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="CaseNote",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("text", models.TextField()),
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
                    "case",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="notes",
                        to="compliance.case",
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.AddIndex(
            model_name="alert",
            index=models.Index(fields=["patron", "gaming_day"], name="alert_patron_day"),
        ),
        migrations.AddConstraint(
            model_name="alert",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="alert_amount_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="alert",
            constraint=models.CheckConstraint(
                condition=models.Q(("first_day__lte", models.F("gaming_day"))),
                name="alert_days_in_order",
            ),
        ),
        migrations.AddConstraint(
            model_name="case",
            constraint=models.CheckConstraint(
                condition=models.Q(("first_day__lte", models.F("last_day"))),
                name="case_days_in_order",
            ),
        ),
        migrations.AddConstraint(
            model_name="casedecision",
            constraint=models.CheckConstraint(
                condition=models.Q(("reason", ""), _negated=True), name="case_reason_given"
            ),
        ),
        migrations.AddConstraint(
            model_name="casenote",
            constraint=models.CheckConstraint(
                condition=models.Q(("text", ""), _negated=True), name="case_note_text"
            ),
        ),
        migrations.RunSQL(DAY_INDEX, "DROP INDEX IF EXISTS compliance_patronday_by_day"),
        migrations.RunPython(GUARDS.install, GUARDS.remove),
    ]
