"""Amount limits per kind of entry (each kind of slip, a poker player's buy-in), set by admins.

No row is installed here: a kind with no row has its default (`AmountLimit.DEFAULT_MAX_CENTS`:
$1,000,000 a tray count or a drop, $250,000 a fill or a credit, $50,000 a buy-in or a poker
buy-in). A row is bound to the audit record, so each is written by `limit_set` with its event;
one inserted here would have none. The admin role's group gets the model's permissions.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def role_permissions(apps, schema_editor):
    """The role groups get the new model's permissions (core.roles.ROLE_PERMISSIONS)."""
    from django.contrib.auth.management import create_permissions

    from core.roles import ensure_role_groups

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


KINDS = ["opener", "closer", "fill", "credit", "drop", "buy_in", "poker_buy_in"]


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0014_meter_entry_void_kind"),
        ("accounts", "0002_security_role_and_cache"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AmountLimit",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("opener", "Opener (the tray counted)"),
                            ("closer", "Closer (the tray counted)"),
                            ("fill", "Fill"),
                            ("credit", "Credit"),
                            ("drop", "Drop (the box's count)"),
                            ("buy_in", "Buy-in (cash at a table)"),
                            ("poker_buy_in", "Poker buy-in (a player's stack)"),
                        ],
                        max_length=20,
                        unique=True,
                    ),
                ),
                ("max_cents", models.BigIntegerField()),
                ("changed_at", models.DateTimeField()),
                (
                    "changed_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["kind"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("max_cents__gt", 0)), name="amount_limit_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", KINDS)), name="amount_limit_kind_valid"
                    ),
                ],
            },
        ),
        migrations.RunPython(role_permissions, migrations.RunPython.noop),
    ]
