"""The four role groups and their model permissions (the Django admin uses them)."""

from django.db import migrations

VIEW_CHANGE_ADD = ("view", "change", "add")
ROLE_PERMISSIONS = {
    "dealer": {},
    "pit_boss": {
        "tables": {"pit": ("view",), "table": ("view",), "round": ("view",), "settlementline": ("view",),
                   "progressivemeter": ("view",), "meterentry": ("view",), "paytableversion": ("view",),
                   "dealersession": ("view",)},
    },
    "admin": {
        "tables": {"pit": VIEW_CHANGE_ADD, "table": VIEW_CHANGE_ADD, "paytableversion": VIEW_CHANGE_ADD,
                   "progressivemeter": VIEW_CHANGE_ADD, "meterentry": ("view", "add"), "round": ("view",),
                   "settlementline": ("view",), "dealersession": ("view",)},
        "auth": {"user": VIEW_CHANGE_ADD, "group": ("view",)},
    },
    "auditor": {
        "tables": {"pit": ("view",), "table": ("view",), "round": ("view",), "settlementline": ("view",),
                   "progressivemeter": ("view",), "meterentry": ("view",), "paytableversion": ("view",),
                   "dealersession": ("view",)},
        "audit": {"auditevent": ("view",)},
    },
}


def create_roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for role, apps_perms in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        for app_label, models in apps_perms.items():
            for model, actions in models.items():
                for action in actions:
                    perm = Permission.objects.get(content_type__app_label=app_label,
                                                  codename=f"{action}_{model}")
                    group.permissions.add(perm)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0001_initial"),
        ("audit", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
