"""The security role's group (and the admin role's group without the account permissions), and
the database cache table that the API throttles share when no Redis cache is configured."""

from django.conf import settings
from django.core.management import call_command
from django.db import migrations


def roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from core.roles import ensure_role_groups

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def cache_table(apps, schema_editor):
    if any(c["BACKEND"].endswith("DatabaseCache") for c in settings.CACHES.values()):
        call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("tables", "0004_round_gaming_day_round_shift_round_round_day_table"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(roles, migrations.RunPython.noop),
        migrations.RunPython(cache_table, migrations.RunPython.noop),
    ]
