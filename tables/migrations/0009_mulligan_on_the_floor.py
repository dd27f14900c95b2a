"""Mulligan registered: the database's lists of games (tables, table settings and hands of
player-vs-player games) take it in. On SQLite the checks rebuild tables_hand and
tables_tablesettingsversion, so 0007's guards are lifted first and put back after, exactly as
0008 does."""

import importlib

from django.conf import settings
from django.db import migrations, models

_RI = importlib.import_module("tables.migrations.0008_rhode_island_on_the_floor")


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_rhode_island_on_the_floor"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_RI.lift_sqlite_guards, _RI.reinstall_sqlite_guards),
        migrations.RemoveConstraint(
            model_name="hand",
            name="hand_game_valid",
        ),
        migrations.RemoveConstraint(
            model_name="table",
            name="table_game_valid",
        ),
        migrations.RemoveConstraint(
            model_name="tablesettingsversion",
            name="table_settings_game_valid",
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("game__in", ["rhode_island", "mulligan"])),
                name="hand_game_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "game__in",
                        ["second_chance", "lowball", "pyramid", "rhode_island", "mulligan"],
                    )
                ),
                name="table_game_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tablesettingsversion",
            constraint=models.CheckConstraint(
                condition=models.Q(("game__in", ["rhode_island", "mulligan"])),
                name="table_settings_game_valid",
            ),
        ),
        migrations.RunPython(_RI.reinstall_sqlite_guards, _RI.lift_sqlite_guards),
    ]
