"""API tokens kept by their keys' SHA-256 and bound to the audit record (`accounts.ApiToken`),
in place of Django REST framework's `authtoken_token`, which kept every key in clear.

Each existing token moves with its key's digest, its user and its issue time (so it expires
when it would have), and is put on the record by an event of its own (`token.kept_by_digest`,
whose object is the token: the authentication reads a token's latest event by its object), so
the keys in use keep working. The old table is then dropped, and with it every key in clear;
the framework's authtoken app is no longer installed, and its rows in `django_migrations` go too.
The security role's permissions are set again (the tokens' page is the new model's).

The events are written with the application's own models and `audit_record`: the record binds
a row as the live code reads it, and only the key can seal an event. A database with no old
tokens (a new one) writes none.
"""

from datetime import UTC

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils.dateparse import parse_datetime

OLD_TABLE = "authtoken_token"


def _aware(value):
    if isinstance(value, str):  # SQLite gives the stored text
        value = parse_datetime(value)
    if value.tzinfo is None:  # stored in UTC
        value = value.replace(tzinfo=UTC)
    return value


def move_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {OLD_TABLE} ORDER BY created, key")
        rows = cursor.fetchall()
    if rows:
        from accounts.models import ApiToken as LiveToken
        from accounts.models import token_digest
        from audit.kinds import EventKind
        from audit.services import audit_record

        ApiToken = apps.get_model("accounts", "ApiToken")
        for key, user_id, created in rows:
            moved = ApiToken.objects.create(user_id=user_id, digest=token_digest(key))
            # auto_now_add stamped it now: it keeps the time it was issued (and its expiry)
            ApiToken.objects.filter(pk=moved.pk).update(created=_aware(created))
            token = LiveToken.objects.select_related("user").get(pk=moved.pk)
            audit_record(
                actor=None,
                actor_name="system",
                kind=EventKind.TOKEN_KEPT_BY_DIGEST,
                obj=token,
                data={
                    "username": token.user.get_username(),
                    "why": "the token's key is kept by its SHA-256 only (accounts 0005)",
                    "via": "system",
                },
            )
    schema_editor.execute(f"DROP TABLE {OLD_TABLE}")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = 'authtoken'")


def roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from core.roles import ensure_role_groups

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_cache_window"),
        ("audit", "0013_event_object_seq_index"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("created", models.DateTimeField(auto_now_add=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"verbose_name": "API token"},
        ),
        migrations.RunPython(move_tokens, migrations.RunPython.noop),
        migrations.RunPython(roles, migrations.RunPython.noop),
    ]
