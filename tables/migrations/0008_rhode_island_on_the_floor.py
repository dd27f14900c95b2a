"""Rhode Island Hold 'Em registered: the database's lists of games (tables, table settings and
hands of player-vs-player games) take it in."""

import importlib

from django.conf import settings
from django.db import migrations, models

_GUARDS = importlib.import_module("tables.migrations.0007_pvp_hands_and_table_settings")


def lift_sqlite_guards(apps, schema_editor):
    """On SQLite the new checks rebuild tables_hand and tables_tablesettingsversion (a trigger
    naming a table being rebuilt stops the rebuild): lift 0007's guards first..."""
    if schema_editor.connection.vendor == "sqlite":
        for statement in _GUARDS.DROP_SQLITE:
            _GUARDS._run(schema_editor, statement)


def reinstall_sqlite_guards(apps, schema_editor):
    """...and put back exactly 0007's frozen SQL after (PostgreSQL keeps its triggers)."""
    if schema_editor.connection.vendor == "sqlite":
        for statement in _GUARDS.DROP_SQLITE + _GUARDS.SQLITE:
            _GUARDS._run(schema_editor, statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0007_pvp_hands_and_table_settings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(lift_sqlite_guards, reinstall_sqlite_guards),
        migrations.RemoveConstraint(
            model_name="table",
            name="table_game_valid",
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("game__in", ["rhode_island"])), name="hand_game_valid"
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("game__in", ["second_chance", "lowball", "pyramid", "rhode_island"])
                ),
                name="table_game_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tablesettingsversion",
            constraint=models.CheckConstraint(
                condition=models.Q(("game__in", ["rhode_island"])), name="table_settings_game_valid"
            ),
        ),
        migrations.RunPython(reinstall_sqlite_guards, lift_sqlite_guards),
    ]
