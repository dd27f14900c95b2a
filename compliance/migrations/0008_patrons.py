"""Patron merges, voided cash transactions and the thresholds two compliance officers set:
four tables of history, appended and never changed or deleted (the guards of compliance 0003,
built the same way: audit/guards.py lists them)."""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

APPEND_ONLY = ("patronmerge", "cashvoid", "thresholdproposal", "thresholdapproval")
# Each guarded table's keys when this was written: (columns, the partial index's condition).
KEYS = {
    "compliance_patronmerge": [(("id",), ""), (("merged_id",), "")],
    "compliance_cashvoid": [(("id",), ""), (("transaction_id",), "")],
    "compliance_thresholdproposal": [(("id",), "")],
    "compliance_thresholdapproval": [(("id",), ""), (("proposal_id",), "")],
}


# The guards' SQL is compliance 0006's, for these tables.
GUARDS = importlib.import_module("compliance.migrations.0006_markers").Guards(APPEND_ONLY, KEYS)


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0007_filing"),
        ("audit", "0010_insert_guards_and_head_recovery"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CashVoid",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField()),
                ("reason", models.TextField()),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "transaction",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="void",
                        to="compliance.cashtransaction",
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.CreateModel(
            name="ThresholdProposal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("mtl_cents", models.BigIntegerField()),
                ("ctr_cents", models.BigIntegerField()),
                ("proposed_at", models.DateTimeField()),
                ("reason", models.CharField(max_length=500)),
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
            name="ThresholdApproval",
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
                        to="compliance.thresholdproposal",
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
            },
        ),
        migrations.CreateModel(
            name="PatronMerge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField()),
                ("reason", models.CharField(max_length=500)),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "into",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="merged_from",
                        to="compliance.patron",
                    ),
                ),
                (
                    "merged",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="merged_into",
                        to="compliance.patron",
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("merged", models.F("into")), _negated=True),
                        name="patron_merge_not_itself",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="patron_merge_has_reason",
                    ),
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="thresholdproposal",
            constraint=models.CheckConstraint(
                condition=models.Q(("mtl_cents__gt", 0), ("mtl_cents__lte", models.F("ctr_cents"))),
                name="threshold_mtl_within_ctr",
            ),
        ),
        migrations.RunPython(GUARDS.install, GUARDS.remove),
    ]
