"""A progressive meter only at a table whose game takes a progressive: the check is named for
the rule, and lists the games that declare `takes_progressive` (`Table.clean` asks the
registry as it is)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0016_round_void_request"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="table",
            name="table_meter_only_for_lowball",
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("meter__isnull", True), ("game__in", ["lowball"]), _connector="OR"
                ),
                name="table_meter_only_where_taken",
            ),
        ),
    ]
