"""The alert rules a floor has out of the box: every table's hold for the gaming day outside
-20 % to 60 % once it took $2,000 of handle (a pit boss changes or switches it off; the
dashboard's large-payout and jackpot alerts need no rule: every one waits for a sign-off)."""

from decimal import Decimal

from django.db import migrations


def seed(apps, schema_editor):
    Rule = apps.get_model("reports", "HoldAlertRule")
    if not Rule.objects.exists():
        Rule.objects.create(
            table=None,
            game="",
            min_hold_percent=Decimal("-20.00"),
            max_hold_percent=Decimal("60.00"),
            min_handle_cents=200_000,
            is_active=True,
        )


class Migration(migrations.Migration):
    dependencies = [("reports", "0001_initial")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
