"""A cash transaction's kind: a buy-in at a table, or the cage's chips bought or redeemed and
front money deposited or withdrawn.

The column is added with ALTER TABLE ADD COLUMN and a default of the buy-in's kind, so every
row already recorded (all of them buy-ins) holds it without an UPDATE (the table is
append-only) and without SQLite rebuilding the table (which would drop its guards)."""

from django.db import migrations, models

SQL = "ALTER TABLE compliance_cashtransaction ADD COLUMN kind varchar(20) NOT NULL DEFAULT 'buy_in'"


class Migration(migrations.Migration):
    dependencies = [("compliance", "0003_guards")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(SQL, reverse_sql=migrations.RunSQL.noop)],
            state_operations=[
                migrations.AddField(
                    model_name="cashtransaction",
                    name="kind",
                    field=models.CharField(
                        choices=[
                            ("buy_in", "Buy-in at a table"),
                            ("chips_bought", "Chips bought with cash"),
                            ("chips_redeemed", "Chips redeemed for cash"),
                            ("front_money_in", "Front money deposited"),
                            ("front_money_out", "Front money withdrawn"),
                        ],
                        default="buy_in",
                        max_length=20,
                    ),
                    preserve_default=False,
                )
            ],
        )
    ]
