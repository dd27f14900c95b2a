"""Player-vs-player hands and table settings, with their guards as triggers (SQL frozen here),
on PostgreSQL and SQLite, as 0005 does for rounds:

- A finished hand changes only by its void, and the void changes only the void's own fields
  (an allow-list: every other column, present or future on PostgreSQL, must stay as it was); a
  voided hand never changes; neither is deleted. A hand is opened only under approved settings.
- A hand finishes only when every player has a payoff and the payoffs sum to minus its rake
  (chips are conserved: the pot less the rake goes back to the players).
- A player of a finished or voided hand is never added, changed or deleted.
- Approved table settings never change; settings assignments are append-only.
- PostgreSQL: TRUNCATE (which skips row triggers) is refused on every one of these tables.
Every trigger is named `casino_*` (audit/triggers.py lifts and restores them).
"""

import django.db.models.deletion
import django.db.models.expressions
from django.conf import settings
from django.db import migrations, models

import tables.games

# tables_hand's columns when this was written; the SQLite allow-list compares every one but the
# void's fields (a test checks the model has no column missing from it).
HAND_COLUMNS = (
    "id",
    "table_id",
    "number",
    "dealer_id",
    "game",
    "settings_version_id",
    "status",
    "record",
    "pot_cents",
    "rake_cents",
    "result",
    "opened_at",
    "finished_at",
    "gaming_day",
    "shift",
    "voided_at",
    "voided_by_id",
    "void_reason",
)
VOID_FIELDS = ("status", "voided_at", "voided_by_id", "void_reason")
_UNCHANGED = " AND ".join(f"NEW.{c} IS OLD.{c}" for c in HAND_COLUMNS if c not in VOID_FIELDS)
_PAYOFFS_WRONG = (
    "(EXISTS (SELECT 1 FROM tables_handplayer p WHERE p.hand_id = NEW.id AND p.payoff_cents IS NULL) "
    "OR NOT EXISTS (SELECT 1 FROM tables_handplayer p WHERE p.hand_id = NEW.id) "
    "OR (SELECT SUM(p.payoff_cents) FROM tables_handplayer p WHERE p.hand_id = NEW.id) "
    "<> -NEW.rake_cents)"
)
_PAYOFFS_MESSAGE = "a finished hand''s payoffs must sum to minus its rake, one for every player"
_NOT_APPROVED = (
    "NOT EXISTS (SELECT 1 FROM tables_tablesettingsversion v "
    "WHERE v.id = NEW.settings_version_id AND v.status = 'approved')"
)
_HAND_CLOSED = "EXISTS (SELECT 1 FROM tables_hand h WHERE h.id = {}.hand_id AND h.status <> 'open')"

SQLITE = [
    "CREATE TRIGGER casino_hand_void_only BEFORE UPDATE ON tables_hand "
    f"WHEN OLD.status != 'open' AND NOT (OLD.status = 'finished' AND NEW.status = 'voided' "
    f"AND {_UNCHANGED}) "
    "BEGIN SELECT RAISE(ABORT, 'a finished hand is never edited: a void changes only status, "
    "voided_at, voided_by and void_reason, and a voided hand never changes'); END;",
    "CREATE TRIGGER casino_hand_no_delete BEFORE DELETE ON tables_hand WHEN OLD.status != 'open' "
    "BEGIN SELECT RAISE(ABORT, 'a finished or voided hand is never deleted'); END;",
    "CREATE TRIGGER casino_hand_payoffs_on_finish BEFORE UPDATE ON tables_hand "
    f"WHEN NEW.status = 'finished' AND OLD.status = 'open' AND {_PAYOFFS_WRONG} "
    f"BEGIN SELECT RAISE(ABORT, '{_PAYOFFS_MESSAGE}'); END;",
    "CREATE TRIGGER casino_hand_settings_approved BEFORE INSERT ON tables_hand "
    f"WHEN {_NOT_APPROVED} "
    "BEGIN SELECT RAISE(ABORT, 'a hand is played only under approved table settings'); END;",
    "CREATE TRIGGER casino_handplayer_no_insert BEFORE INSERT ON tables_handplayer "
    f"WHEN {_HAND_CLOSED.format('NEW')} "
    "BEGIN SELECT RAISE(ABORT, 'a finished or voided hand gets no more players'); END;",
    "CREATE TRIGGER casino_handplayer_no_update BEFORE UPDATE ON tables_handplayer "
    f"WHEN {_HAND_CLOSED.format('OLD')} "
    "BEGIN SELECT RAISE(ABORT, 'a player of a finished or voided hand never changes'); END;",
    "CREATE TRIGGER casino_handplayer_no_delete BEFORE DELETE ON tables_handplayer "
    f"WHEN {_HAND_CLOSED.format('OLD')} "
    "BEGIN SELECT RAISE(ABORT, 'a player of a finished or voided hand is never deleted'); END;",
    "CREATE TRIGGER casino_tablesettingsversion_no_update BEFORE UPDATE ON "
    "tables_tablesettingsversion WHEN OLD.status = 'approved' "
    "BEGIN SELECT RAISE(ABORT, 'approved table settings are never edited'); END;",
    "CREATE TRIGGER casino_tablesettingsversion_no_delete BEFORE DELETE ON "
    "tables_tablesettingsversion WHEN OLD.status = 'approved' "
    "BEGIN SELECT RAISE(ABORT, 'approved table settings are never deleted'); END;",
    "CREATE TRIGGER casino_tablesettingsassignment_no_update BEFORE UPDATE ON "
    "tables_tablesettingsassignment "
    "BEGIN SELECT RAISE(ABORT, 'tables_tablesettingsassignment is append-only: UPDATE refused'); "
    "END;",
    "CREATE TRIGGER casino_tablesettingsassignment_no_delete BEFORE DELETE ON "
    "tables_tablesettingsassignment "
    "BEGIN SELECT RAISE(ABORT, 'tables_tablesettingsassignment is append-only: DELETE refused'); "
    "END;",
]

POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION casino_hand_guard() RETURNS trigger AS $$
    DECLARE
      void_fields text[] := ARRAY['status', 'voided_at', 'voided_by_id', 'void_reason'];
      players bigint;
      missing bigint;
      total bigint;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF NOT EXISTS (SELECT 1 FROM tables_tablesettingsversion v
                       WHERE v.id = NEW.settings_version_id AND v.status = 'approved') THEN
          RAISE EXCEPTION 'a hand is played only under approved table settings'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END IF;
      IF OLD.status <> 'open' AND NOT (OLD.status = 'finished' AND NEW.status = 'voided'
         AND (to_jsonb(NEW) - void_fields) = (to_jsonb(OLD) - void_fields)) THEN
        RAISE EXCEPTION 'a finished hand is never edited: a void changes only status, '
          'voided_at, voided_by and void_reason, and a voided hand never changes'
          USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      IF OLD.status = 'open' AND NEW.status = 'finished' THEN
        SELECT COUNT(*), COUNT(*) FILTER (WHERE p.payoff_cents IS NULL), SUM(p.payoff_cents)
          INTO players, missing, total FROM tables_handplayer p WHERE p.hand_id = NEW.id;
        IF players = 0 OR missing > 0 OR total <> -NEW.rake_cents THEN
          RAISE EXCEPTION 'hand id %: a finished hand''s payoffs (sum %) must sum to minus its '
            'rake (%), one for every player', NEW.id, total, NEW.rake_cents
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      END IF;
      RETURN NEW;
    END; $$ LANGUAGE plpgsql;""",
    """CREATE OR REPLACE FUNCTION casino_handplayer_guard() RETURNS trigger AS $$
    DECLARE
      hid bigint;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        hid := NEW.hand_id;
      ELSE
        hid := OLD.hand_id;
      END IF;
      IF EXISTS (SELECT 1 FROM tables_hand h WHERE h.id = hid AND h.status <> 'open') THEN
        RAISE EXCEPTION 'a player of a finished or voided hand is never added, changed or '
          'deleted' USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      IF TG_OP = 'DELETE' THEN
        RETURN OLD;
      END IF;
      RETURN NEW;
    END; $$ LANGUAGE plpgsql;""",
    "CREATE TRIGGER casino_hand_guard BEFORE INSERT OR UPDATE ON tables_hand "
    "FOR EACH ROW EXECUTE FUNCTION casino_hand_guard();",
    "CREATE TRIGGER casino_hand_no_delete BEFORE DELETE ON tables_hand FOR EACH ROW "
    "WHEN (OLD.status <> 'open') EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_handplayer_guard BEFORE INSERT OR UPDATE OR DELETE ON "
    "tables_handplayer FOR EACH ROW EXECUTE FUNCTION casino_handplayer_guard();",
    "CREATE TRIGGER casino_tablesettingsversion_frozen BEFORE UPDATE OR DELETE ON "
    "tables_tablesettingsversion FOR EACH ROW WHEN (OLD.status = 'approved') "
    "EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_tablesettingsassignment_no_change BEFORE UPDATE OR DELETE ON "
    "tables_tablesettingsassignment FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
]
for _table in (
    "tables_hand",
    "tables_handplayer",
    "tables_tablesettingsversion",
    "tables_tablesettingsassignment",
):
    POSTGRESQL.append(
        f"CREATE TRIGGER casino_{_table.removeprefix('tables_')}_no_truncate BEFORE TRUNCATE ON "
        f"{_table} FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();"
    )

DROP_SQLITE = [f"DROP TRIGGER IF EXISTS {s.split()[2]};" for s in SQLITE]
DROP_POSTGRESQL = [
    f"DROP TRIGGER IF EXISTS {s.split()[2]} ON {s.split(' ON ')[1].split()[0]};"
    for s in POSTGRESQL
    if not s.startswith("CREATE OR REPLACE FUNCTION")
] + [
    "DROP FUNCTION IF EXISTS casino_hand_guard();",
    "DROP FUNCTION IF EXISTS casino_handplayer_guard();",
]


def _run(schema_editor, statement):
    """Without parameters: PL/pgSQL's % is not a placeholder here."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(statement)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"sqlite": SQLITE, "postgresql": POSTGRESQL}.get(vendor, []):
        _run(schema_editor, statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}.get(vendor, []):
        _run(schema_editor, statement)


def role_permissions(apps, schema_editor):
    """The role groups get the new models' permissions (core.roles.ROLE_PERMISSIONS)."""
    from django.contrib.auth.management import create_permissions

    from core.roles import ensure_role_groups

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_game_choices_from_the_registry"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="TableSettingsVersion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game", models.CharField(choices=tables.games.choices, max_length=20)),
                ("name", models.CharField(max_length=60)),
                ("version", models.PositiveIntegerField()),
                (
                    "values",
                    models.JSONField(
                        help_text="the settings, as the game's check_settings keeps them"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[("draft", "Draft"), ("approved", "Approved")],
                        default="draft",
                        max_length=10,
                    ),
                ),
                ("drafted_at", models.DateTimeField(auto_now_add=True)),
                ("approved_at", models.DateTimeField(blank=True, null=True)),
                (
                    "approved_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="table_settings_approved",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "based_on",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        to="tables.tablesettingsversion",
                    ),
                ),
                (
                    "drafted_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="table_settings_drafted",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "table settings version",
                "ordering": ["game", "name", "-version"],
            },
        ),
        migrations.CreateModel(
            name="TableSettingsAssignment",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, to=settings.AUTH_USER_MODEL
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="settings_assignments",
                        to="tables.table",
                    ),
                ),
                (
                    "settings_version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="assignments",
                        to="tables.tablesettingsversion",
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
            },
        ),
        migrations.CreateModel(
            name="Hand",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField()),
                ("game", models.CharField(choices=tables.games.choices, max_length=20)),
                (
                    "status",
                    models.CharField(
                        choices=[("open", "Open"), ("finished", "Finished"), ("voided", "Voided")],
                        default="open",
                        max_length=10,
                    ),
                ),
                ("record", models.JSONField(default=dict)),
                ("pot_cents", models.BigIntegerField(default=0)),
                ("rake_cents", models.BigIntegerField(default=0)),
                ("result", models.JSONField(blank=True, null=True)),
                ("opened_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("gaming_day", models.DateField(blank=True, db_index=True, null=True)),
                ("shift", models.CharField(blank=True, max_length=5)),
                ("voided_at", models.DateTimeField(blank=True, null=True)),
                ("void_reason", models.TextField(blank=True)),
                (
                    "dealer",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hands",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hands",
                        to="tables.table",
                    ),
                ),
                (
                    "voided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hand_voids",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "settings_version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="hands",
                        to="tables.tablesettingsversion",
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
            },
        ),
        migrations.CreateModel(
            name="HandPlayer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "position",
                    models.PositiveSmallIntegerField(help_text="the player's index in the record"),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                ("buy_in_cents", models.BigIntegerField()),
                ("payoff_cents", models.BigIntegerField(blank=True, null=True)),
                ("stack_after_cents", models.BigIntegerField(blank=True, null=True)),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="players",
                        to="tables.hand",
                    ),
                ),
            ],
            options={
                "ordering": ["hand", "position"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("hand", "position"), name="hand_player_position"
                    ),
                    models.UniqueConstraint(fields=("hand", "seat"), name="hand_player_seat"),
                    models.CheckConstraint(
                        condition=models.Q(("buy_in_cents__gt", 0)), name="hand_buy_in_positive"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("payoff_cents__isnull", True), ("stack_after_cents__isnull", True)
                            ),
                            models.Q(
                                ("payoff_cents__isnull", False),
                                (
                                    "stack_after_cents",
                                    django.db.models.expressions.CombinedExpression(
                                        models.F("buy_in_cents"), "+", models.F("payoff_cents")
                                    ),
                                ),
                                ("stack_after_cents__gte", 0),
                            ),
                            _connector="OR",
                        ),
                        name="hand_player_stack_after",
                    ),
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="tablesettingsversion",
            constraint=models.UniqueConstraint(
                fields=("game", "name", "version"), name="table_settings_version_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="tablesettingsversion",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("approved_at__isnull", True),
                        ("approved_by__isnull", True),
                        ("status", "draft"),
                    ),
                    models.Q(
                        ("approved_at__isnull", False),
                        ("approved_by__isnull", False),
                        ("status", "approved"),
                    ),
                    _connector="OR",
                ),
                name="table_settings_approval_complete",
            ),
        ),
        migrations.AddConstraint(
            model_name="tablesettingsversion",
            constraint=models.CheckConstraint(
                condition=models.Q(("approved_by", models.F("drafted_by")), _negated=True),
                name="table_settings_approver_is_not_author",
            ),
        ),
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(fields=["gaming_day", "table"], name="hand_day_table"),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                fields=("table", "number"), name="hand_number_per_table"
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("table",),
                name="one_open_hand_per_table",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["open", "finished", "voided"])),
                name="hand_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("finished_at__isnull", True), ("result__isnull", True), ("status", "open")
                    ),
                    models.Q(
                        ("finished_at__isnull", False),
                        ("gaming_day__isnull", False),
                        ("result__isnull", False),
                        ("status", "finished"),
                    ),
                    models.Q(
                        ("status", "voided"),
                        ("voided_at__isnull", False),
                        ("voided_by__isnull", False),
                        models.Q(("void_reason", ""), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="hand_result_matches_status",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("pot_cents__gte", models.F("rake_cents")), ("rake_cents__gte", 0)
                ),
                name="hand_rake_within_pot",
            ),
        ),
        migrations.RunPython(install, remove),
        migrations.RunPython(role_permissions, migrations.RunPython.noop),
    ]
