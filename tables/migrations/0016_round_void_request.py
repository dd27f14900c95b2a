"""A void that waits for a second pit boss: who asked for it and when (its reason is the void's
`void_reason`), on a round that stays settled until the void is approved.

The round's guard (0005, 0008) lets a settled round change only by its void. It now also lets
a settled round stay settled while only its void's request changes (asked for: when, by whom
and why; withdrawn: all three cleared, the two set together), every other column as it was.
The SQL is frozen here: SQLite's allow-list names every column of a round as it is now;
PostgreSQL's guard function (which also guards the meters and their entries, as in 0005)
compares whole rows less those fields.
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# tables_round's columns now; the allow-lists compare every one but the fields named.
ROUND_COLUMNS = (
    "id",
    "table_id",
    "number",
    "dealer_id",
    "paytable_version_id",
    "game",
    "status",
    "entry",
    "house_way",
    "settlement",
    "idempotency_key",
    "handle_cents",
    "players_net_cents",
    "opened_at",
    "settled_at",
    "corrects_id",
    "gaming_day",
    "shift",
    "voided_at",
    "voided_by_id",
    "void_reason",
    "approval_requested_at",
    "approval_reasons",
    "approved_at",
    "approved_by_id",
    "cancelled_at",
    "cancelled_by_id",
    "cancel_reason",
    "void_requested_at",
    "void_requested_by_id",
)
VOID_FIELDS = ("status", "voided_at", "voided_by_id", "void_reason")
REQUEST_FIELDS = ("void_requested_at", "void_requested_by_id", "void_reason")


def _unchanged(but: tuple[str, ...]) -> str:
    return " AND ".join(f"NEW.{c} IS OLD.{c}" for c in ROUND_COLUMNS if c not in but)


_REQUEST_WHOLE = "((NEW.void_requested_at IS NULL) = (NEW.void_requested_by_id IS NULL))"
_MESSAGE = (
    "a settled round is never edited: a void changes only status, voided_at, voided_by and "
    "void_reason, a void''s request only void_requested_at, void_requested_by and void_reason, "
    "and a voided round never changes"
)

SQLITE = [
    "CREATE TRIGGER casino_round_void_only BEFORE UPDATE ON tables_round "
    "WHEN OLD.status != 'open' "
    f"AND NOT (OLD.status = 'settled' AND NEW.status = 'voided' AND {_unchanged(VOID_FIELDS)}) "
    "AND NOT (OLD.status = 'settled' AND NEW.status = 'settled' "
    f"AND {_REQUEST_WHOLE} AND {_unchanged(REQUEST_FIELDS)}) "
    f"BEGIN SELECT RAISE(ABORT, '{_MESSAGE}'); END;",
]
DROP_SQLITE = ["DROP TRIGGER IF EXISTS casino_round_void_only;"]

POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION casino_floor_guard() RETURNS trigger AS $$
    DECLARE
      void_fields text[] := ARRAY['status', 'voided_at', 'voided_by_id', 'void_reason'];
      request_fields text[] := ARRAY['void_requested_at', 'void_requested_by_id', 'void_reason'];
      last_value bigint;
    BEGIN
      IF TG_TABLE_NAME = 'tables_round' THEN
        IF OLD.status <> 'open'
           AND NOT (OLD.status = 'settled' AND NEW.status = 'voided'
             AND (to_jsonb(NEW) - void_fields) = (to_jsonb(OLD) - void_fields))
           AND NOT (OLD.status = 'settled' AND NEW.status = 'settled'
             AND (NEW.void_requested_at IS NULL) = (NEW.void_requested_by_id IS NULL)
             AND (to_jsonb(NEW) - request_fields) = (to_jsonb(OLD) - request_fields)) THEN
          RAISE EXCEPTION 'a settled round is never edited: a void changes only status, '
            'voided_at, voided_by and void_reason, a void''s request only void_requested_at, '
            'void_requested_by and void_reason, and a voided round never changes'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'tables_meterentry' THEN
        SELECT e.value_after_cents INTO last_value FROM tables_meterentry e
          WHERE e.meter_id = NEW.meter_id ORDER BY e.id DESC LIMIT 1;
        IF NEW.value_after_cents <> COALESCE(last_value, 0) + NEW.amount_cents THEN
          RAISE EXCEPTION 'a meter entry''s value after must be the previous entry''s plus '
            'its amount' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'tables_progressivemeter' AND TG_OP = 'INSERT' THEN
        IF NEW.value_cents <> 0 THEN
          RAISE EXCEPTION 'a meter starts at 0: its opening value is its first entry'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'tables_progressivemeter' THEN
        IF NEW.value_cents <> OLD.value_cents THEN
          SELECT e.value_after_cents INTO last_value FROM tables_meterentry e
            WHERE e.meter_id = NEW.id ORDER BY e.id DESC LIMIT 1;
          IF last_value IS DISTINCT FROM NEW.value_cents THEN
            RAISE EXCEPTION 'a meter''s value changes only with a meter entry'
              USING ERRCODE = 'integrity_constraint_violation';
          END IF;
        END IF;
      END IF;
      RETURN NEW;
    END; $$ LANGUAGE plpgsql;""",
]


def _run(schema_editor, statements):
    """Without parameters: PL/pgSQL's % is not a placeholder here."""
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    _run(schema_editor, {"sqlite": DROP_SQLITE + SQLITE, "postgresql": POSTGRESQL}.get(vendor, []))


def restore(apps, schema_editor):
    """The guards as 0005 (PostgreSQL's function) and 0008 (SQLite's allow-list) left them."""
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        before = importlib.import_module("tables.migrations.0008_round_controls")
        kept = [s for s in before.SQLITE if s.split()[2] == "casino_round_void_only"]
        _run(schema_editor, DROP_SQLITE + kept)
    elif vendor == "postgresql":
        before = importlib.import_module("tables.migrations.0005_integrity_guards")
        kept = [s for s in before.POSTGRESQL if "FUNCTION casino_floor_guard()" in s.split("\n")[0]]
        _run(schema_editor, kept)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0015_amount_limits"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="void_requested_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="round",
            name="void_requested_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="round_void_requests",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.RunPython(install, restore),
    ]
