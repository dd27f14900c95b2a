"""Money controls on a round: sign-off (approval), misdeal (cancelled), a correction keeping the
number of the round it corrects, the table's and the meter's sign-off thresholds.

Every guard of 0005 stays. On SQLite, changing tables_round's checks rebuilds the table, which
drops its triggers: they are created again below from SQL frozen here, the void's allow-list
naming every column of a round as it is now (a cancelled round, like a settled or voided one,
is never changed or deleted: `OLD.status != 'open'`). PostgreSQL's guard compares whole rows
less the void's fields, so new columns are covered there without a change.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# tables_round's columns now; the allow-list compares every one but the void's fields.
ROUND_COLUMNS = (
    "id",
    "table_id",
    "number",
    "dealer_id",
    "paytable_version_id",
    "game",
    "status",
    "entry",
    "house_way",
    "settlement",
    "idempotency_key",
    "handle_cents",
    "players_net_cents",
    "opened_at",
    "settled_at",
    "corrects_id",
    "gaming_day",
    "shift",
    "voided_at",
    "voided_by_id",
    "void_reason",
    "approval_requested_at",
    "approval_reasons",
    "approved_at",
    "approved_by_id",
    "cancelled_at",
    "cancelled_by_id",
    "cancel_reason",
)
VOID_FIELDS = ("status", "voided_at", "voided_by_id", "void_reason")
_UNCHANGED = " AND ".join(f"NEW.{c} IS OLD.{c}" for c in ROUND_COLUMNS if c not in VOID_FIELDS)
_LINE_SUMS = (
    "(NEW.handle_cents IS NOT (SELECT COALESCE(SUM(l.stake_cents), 0) FROM tables_settlementline l "
    "WHERE l.round_id = NEW.id) OR NEW.players_net_cents IS NOT (SELECT COALESCE(SUM(l.net_cents), 0) "
    "FROM tables_settlementline l WHERE l.round_id = NEW.id))"
)
_SUMS_MESSAGE = (
    "a closed round''s handle and players net must equal the sums of its settlement lines"
)
_LAST_ENTRY = (
    "(SELECT e.value_after_cents FROM tables_meterentry e WHERE e.meter_id = NEW.{} "
    "ORDER BY e.id DESC LIMIT 1)"
)

SQLITE = [
    "CREATE TRIGGER casino_round_void_only BEFORE UPDATE ON tables_round "
    f"WHEN OLD.status != 'open' AND NOT (OLD.status = 'settled' AND NEW.status = 'voided' AND {_UNCHANGED}) "
    "BEGIN SELECT RAISE(ABORT, 'a settled round is never edited: a void changes only status, "
    "voided_at, voided_by and void_reason, and a voided round never changes'); END;",
    "CREATE TRIGGER casino_round_no_delete BEFORE DELETE ON tables_round WHEN OLD.status != 'open' "
    "BEGIN SELECT RAISE(ABORT, 'a settled round is never deleted'); END;",
    "CREATE TRIGGER casino_round_sums_on_close BEFORE UPDATE ON tables_round "
    f"WHEN OLD.status = 'open' AND NEW.status != 'open' AND {_LINE_SUMS} "
    f"BEGIN SELECT RAISE(ABORT, '{_SUMS_MESSAGE}'); END;",
    "CREATE TRIGGER casino_round_sums_on_insert AFTER INSERT ON tables_round "
    f"WHEN NEW.status != 'open' AND {_LINE_SUMS} "
    f"BEGIN SELECT RAISE(ABORT, '{_SUMS_MESSAGE}'); END;",
    "CREATE TRIGGER casino_meter_starts_at_zero BEFORE INSERT ON tables_progressivemeter "
    "WHEN NEW.value_cents != 0 "
    "BEGIN SELECT RAISE(ABORT, 'a meter starts at 0: its opening value is its first entry'); END;",
    "CREATE TRIGGER casino_meter_value_is_ledger BEFORE UPDATE ON tables_progressivemeter "
    "WHEN NEW.value_cents IS NOT OLD.value_cents AND NEW.value_cents IS NOT "
    + _LAST_ENTRY.format("id")
    + " BEGIN SELECT RAISE(ABORT, 'a meter''s value changes only with a meter entry'); END;",
    "CREATE TRIGGER casino_settlementline_round_open BEFORE INSERT ON tables_settlementline "
    "WHEN EXISTS (SELECT 1 FROM tables_round r WHERE r.id = NEW.round_id AND r.status != 'open') "
    "BEGIN SELECT RAISE(ABORT, 'a closed round gets no more settlement lines'); END;",
]
DROP_SQLITE = [f"DROP TRIGGER IF EXISTS {s.split()[2]};" for s in SQLITE]


def lift(apps, schema_editor):
    """SQLite refuses to rebuild a table that another table's trigger names: lifted first."""
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        for statement in DROP_SQLITE:
            cursor.execute(statement)


def install(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        for statement in DROP_SQLITE + SQLITE:
            cursor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0007_paytable_edge"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(lift, install),
        migrations.RemoveConstraint(
            model_name="round",
            name="round_number_per_table",
        ),
        migrations.RemoveConstraint(
            model_name="round",
            name="round_status_valid",
        ),
        migrations.RemoveConstraint(
            model_name="round",
            name="round_settlement_matches_status",
        ),
        migrations.AddField(
            model_name="progressivemeter",
            name="approval_award_cents",
            field=models.BigIntegerField(
                blank=True,
                help_text="a progressive award of this much or more waits for a pit boss's sign-off (empty: the jackpot, the one-colour award paid from the meter)",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="approval_reasons",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="round",
            name="approval_requested_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="approved_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="approved_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="round_approvals",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="cancel_reason",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="round",
            name="cancelled_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="cancelled_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="round_cancels",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="approval_threshold_cents",
            field=models.BigIntegerField(
                default=100000,
                help_text="a seat paid this much or more in one round waits for a pit boss's sign-off",
            ),
        ),
        migrations.AlterField(
            model_name="round",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "Open"),
                    ("settled", "Settled"),
                    ("voided", "Voided"),
                    ("cancelled", "Cancelled (misdeal)"),
                ],
                default="open",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                condition=models.Q(("corrects__isnull", True)),
                fields=("table", "number"),
                name="round_number_per_table",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["open", "settled", "voided", "cancelled"])),
                name="round_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("settled_at__isnull", True),
                        ("settlement__isnull", True),
                        ("status", "open"),
                    ),
                    models.Q(
                        ("settled_at__isnull", False),
                        ("settlement__isnull", False),
                        ("status", "settled"),
                    ),
                    models.Q(
                        ("status", "voided"),
                        ("voided_at__isnull", False),
                        ("voided_by__isnull", False),
                        models.Q(("void_reason", ""), _negated=True),
                    ),
                    models.Q(
                        ("cancelled_at__isnull", False),
                        ("cancelled_by__isnull", False),
                        ("settlement__isnull", True),
                        ("status", "cancelled"),
                        models.Q(("cancel_reason", ""), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="round_settlement_matches_status",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("approved_at__isnull", True), ("approved_by__isnull", True)),
                    models.Q(("approved_at__isnull", False), ("approved_by__isnull", False)),
                    _connector="OR",
                ),
                name="round_approval_complete",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("approval_threshold_cents__gt", 0)),
                name="table_approval_threshold_positive",
            ),
        ),
        migrations.RunPython(install, lift),
    ]
