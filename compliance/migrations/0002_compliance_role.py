"""The compliance role's group (patrons, the MTL, the CTRs)."""

from django.db import migrations


def roles(apps, schema_editor):
    from core.roles import ensure_role_groups

    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("compliance", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(roles, migrations.RunPython.noop)]
