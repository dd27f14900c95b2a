"""The chain's head row exists from the start, so concurrent first writers lock one row."""

from django.db import migrations

GENESIS = "0" * 64


def create_head(apps, schema_editor):
    AuditHead = apps.get_model("audit", "AuditHead")
    AuditHead.objects.get_or_create(pk=1, defaults={"seq": 0, "hash": GENESIS})


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(create_head, migrations.RunPython.noop)]
