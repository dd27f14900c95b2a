"""The floor's invariants as database triggers (SQL frozen here), on PostgreSQL and SQLite.

- A settled round changes only by its void, and the void changes only the void's own fields
  (an allow-list: every other column, present or future on PostgreSQL, must stay as it was);
  a voided round never changes; neither is deleted.
- A settled (or voided) round's handle and players' net equal the sums of its settlement lines:
  on PostgreSQL a deferred constraint trigger checks it at commit, whatever the order of the
  writes (as double-entry ledgers do); SQLite cannot defer, so there the lines must be written
  while the round is open (or before a round inserted closed) and the sums are checked when it
  closes.
- Settlement lines and meter entries are never updated or deleted; each meter entry's value
  after is the previous entry's plus its amount, a meter starts at 0 and its value is always
  its last entry's, so the entries add up to the value (the opening value is an entry too).
- An approved paytable version never changes.
- PostgreSQL: TRUNCATE (which skips row triggers) is refused on every one of these tables.
Every trigger is named `casino_*` (audit/triggers.py lifts and restores them for a development
`flush` and the tamper tests). Migration 0005 also records the opening value of meters made
before it as their first entry.
"""

from django.conf import settings
from django.db import migrations, models

# tables_round's columns when this was written; the SQLite allow-list compares every one but the
# void's fields (a test checks the model has no column missing from it).
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
)
VOID_FIELDS = ("status", "voided_at", "voided_by_id", "void_reason")
_UNCHANGED = " AND ".join(f"NEW.{c} IS OLD.{c}" for c in ROUND_COLUMNS if c not in VOID_FIELDS)

OLD_SQLITE = [
    "DROP TRIGGER IF EXISTS tables_settlementline_update_guard;",
    "DROP TRIGGER IF EXISTS tables_settlementline_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_meterentry_update_guard;",
    "DROP TRIGGER IF EXISTS tables_meterentry_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_round_update_guard;",
    "DROP TRIGGER IF EXISTS tables_round_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_update_guard;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_delete_guard;",
]
OLD_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS tables_settlementline_guard ON tables_settlementline;",
    "DROP TRIGGER IF EXISTS tables_meterentry_guard ON tables_meterentry;",
    "DROP TRIGGER IF EXISTS tables_round_update_guard ON tables_round;",
    "DROP TRIGGER IF EXISTS tables_round_delete_guard ON tables_round;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_update_guard ON tables_paytableversion;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_delete_guard ON tables_paytableversion;",
]

_LINE_SUMS = (
    "(NEW.handle_cents IS NOT (SELECT COALESCE(SUM(l.stake_cents), 0) FROM tables_settlementline l "
    "WHERE l.round_id = NEW.id) OR NEW.players_net_cents IS NOT (SELECT COALESCE(SUM(l.net_cents), 0) "
    "FROM tables_settlementline l WHERE l.round_id = NEW.id))"
)
_SUMS_MESSAGE = (
    "a closed round''s handle and players net must equal the sums of its settlement lines"
)
_LAST_ENTRY = (
    "(SELECT e.value_after_cents FROM tables_meterentry e WHERE e.meter_id = NEW.{} "
    "ORDER BY e.id DESC LIMIT 1)"
)

SQLITE = [
    # rounds
    "CREATE TRIGGER casino_round_void_only BEFORE UPDATE ON tables_round "
    f"WHEN OLD.status != 'open' AND NOT (OLD.status = 'settled' AND NEW.status = 'voided' AND {_UNCHANGED}) "
    "BEGIN SELECT RAISE(ABORT, 'a settled round is never edited: a void changes only status, "
    "voided_at, voided_by and void_reason, and a voided round never changes'); END;",
    "CREATE TRIGGER casino_round_no_delete BEFORE DELETE ON tables_round WHEN OLD.status != 'open' "
    "BEGIN SELECT RAISE(ABORT, 'a settled round is never deleted'); END;",
    "CREATE TRIGGER casino_round_sums_on_close BEFORE UPDATE ON tables_round "
    f"WHEN OLD.status = 'open' AND NEW.status != 'open' AND {_LINE_SUMS} "
    f"BEGIN SELECT RAISE(ABORT, '{_SUMS_MESSAGE}'); END;",
    "CREATE TRIGGER casino_round_sums_on_insert AFTER INSERT ON tables_round "
    f"WHEN NEW.status != 'open' AND {_LINE_SUMS} "
    f"BEGIN SELECT RAISE(ABORT, '{_SUMS_MESSAGE}'); END;",
    # settlement lines
    "CREATE TRIGGER casino_settlementline_no_update BEFORE UPDATE ON tables_settlementline "
    "BEGIN SELECT RAISE(ABORT, 'tables_settlementline is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_settlementline_no_delete BEFORE DELETE ON tables_settlementline "
    "BEGIN SELECT RAISE(ABORT, 'tables_settlementline is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_settlementline_round_open BEFORE INSERT ON tables_settlementline "
    "WHEN EXISTS (SELECT 1 FROM tables_round r WHERE r.id = NEW.round_id AND r.status != 'open') "
    "BEGIN SELECT RAISE(ABORT, 'a closed round gets no more settlement lines'); END;",
    # meters and their entries
    "CREATE TRIGGER casino_meterentry_no_update BEFORE UPDATE ON tables_meterentry "
    "BEGIN SELECT RAISE(ABORT, 'tables_meterentry is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_meterentry_no_delete BEFORE DELETE ON tables_meterentry "
    "BEGIN SELECT RAISE(ABORT, 'tables_meterentry is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_meterentry_ledger BEFORE INSERT ON tables_meterentry "
    "WHEN NEW.value_after_cents IS NOT COALESCE(" + _LAST_ENTRY.format("meter_id") + ", 0) "
    "+ NEW.amount_cents "
    "BEGIN SELECT RAISE(ABORT, 'a meter entry''s value after must be the previous entry''s plus "
    "its amount'); END;",
    "CREATE TRIGGER casino_meter_starts_at_zero BEFORE INSERT ON tables_progressivemeter "
    "WHEN NEW.value_cents != 0 "
    "BEGIN SELECT RAISE(ABORT, 'a meter starts at 0: its opening value is its first entry'); END;",
    "CREATE TRIGGER casino_meter_value_is_ledger BEFORE UPDATE ON tables_progressivemeter "
    "WHEN NEW.value_cents IS NOT OLD.value_cents AND NEW.value_cents IS NOT "
    + _LAST_ENTRY.format("id")
    + " BEGIN SELECT RAISE(ABORT, 'a meter''s value changes only with a meter entry'); END;",
    # paytables
    "CREATE TRIGGER casino_paytableversion_no_update BEFORE UPDATE ON tables_paytableversion "
    "WHEN OLD.status = 'approved' "
    "BEGIN SELECT RAISE(ABORT, 'an approved paytable version is never edited'); END;",
    "CREATE TRIGGER casino_paytableversion_no_delete BEFORE DELETE ON tables_paytableversion "
    "WHEN OLD.status = 'approved' "
    "BEGIN SELECT RAISE(ABORT, 'an approved paytable version is never deleted'); END;",
]

POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION casino_floor_guard() RETURNS trigger AS $$
    DECLARE
      void_fields text[] := ARRAY['status', 'voided_at', 'voided_by_id', 'void_reason'];
      last_value bigint;
    BEGIN
      IF TG_TABLE_NAME = 'tables_round' THEN
        IF OLD.status <> 'open' AND NOT (OLD.status = 'settled' AND NEW.status = 'voided'
           AND (to_jsonb(NEW) - void_fields) = (to_jsonb(OLD) - void_fields)) THEN
          RAISE EXCEPTION 'a settled round is never edited: a void changes only status, '
            'voided_at, voided_by and void_reason, and a voided round never changes'
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
    """CREATE OR REPLACE FUNCTION casino_round_sums() RETURNS trigger AS $$
    DECLARE
      rid bigint;
      r record;
      stakes bigint;
      nets bigint;
    BEGIN
      IF TG_TABLE_NAME = 'tables_round' THEN
        rid := NEW.id;
      ELSE
        rid := NEW.round_id;
      END IF;
      SELECT status, handle_cents, players_net_cents INTO r FROM tables_round WHERE id = rid;
      IF NOT FOUND OR r.status = 'open' THEN
        RETURN NULL;
      END IF;
      SELECT COALESCE(SUM(l.stake_cents), 0), COALESCE(SUM(l.net_cents), 0) INTO stakes, nets
        FROM tables_settlementline l WHERE l.round_id = rid;
      IF stakes <> r.handle_cents OR nets <> r.players_net_cents THEN
        RAISE EXCEPTION 'round id %: handle % and players net % must equal the sums of its '
          'settlement lines (% and %)', rid, r.handle_cents, r.players_net_cents,
          stakes, nets USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NULL;
    END; $$ LANGUAGE plpgsql;""",
    # rounds
    "CREATE TRIGGER casino_round_void_only BEFORE UPDATE ON tables_round "
    "FOR EACH ROW EXECUTE FUNCTION casino_floor_guard();",
    "CREATE TRIGGER casino_round_no_delete BEFORE DELETE ON tables_round FOR EACH ROW "
    "WHEN (OLD.status <> 'open') EXECUTE FUNCTION casino_refuse_change();",
    "CREATE CONSTRAINT TRIGGER casino_round_sums AFTER INSERT OR UPDATE ON tables_round "
    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status <> 'open') "
    "EXECUTE FUNCTION casino_round_sums();",
    # settlement lines
    "CREATE TRIGGER casino_settlementline_no_change BEFORE UPDATE OR DELETE ON "
    "tables_settlementline FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE CONSTRAINT TRIGGER casino_settlementline_sums AFTER INSERT ON tables_settlementline "
    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION casino_round_sums();",
    # meters and their entries
    "CREATE TRIGGER casino_meterentry_no_change BEFORE UPDATE OR DELETE ON tables_meterentry "
    "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_meterentry_ledger BEFORE INSERT ON tables_meterentry "
    "FOR EACH ROW EXECUTE FUNCTION casino_floor_guard();",
    "CREATE TRIGGER casino_meter_value_is_ledger BEFORE INSERT OR UPDATE ON "
    "tables_progressivemeter FOR EACH ROW EXECUTE FUNCTION casino_floor_guard();",
    # paytables
    "CREATE TRIGGER casino_paytableversion_frozen BEFORE UPDATE OR DELETE ON "
    "tables_paytableversion FOR EACH ROW WHEN (OLD.status = 'approved') "
    "EXECUTE FUNCTION casino_refuse_change();",
]
for _table in (
    "tables_round",
    "tables_settlementline",
    "tables_meterentry",
    "tables_progressivemeter",
    "tables_paytableversion",
):
    POSTGRESQL.append(
        f"CREATE TRIGGER casino_{_table.removeprefix('tables_')}_no_truncate BEFORE TRUNCATE ON "
        f"{_table} FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();"
    )

DROP_SQLITE = [f"DROP TRIGGER IF EXISTS {s.split()[2]};" for s in SQLITE]
DROP_POSTGRESQL = [
    f"DROP TRIGGER IF EXISTS {s.split()[3 if ' CONSTRAINT ' in s else 2]} "
    f"ON {s.split(' ON ')[1].split()[0]};"
    for s in POSTGRESQL
    if not s.startswith("CREATE OR REPLACE FUNCTION")
]


def record_opening_values(apps, schema_editor):
    """Meters made before entries were their ledger: one entry brings the entries' sum to the
    value (it is the opening value where the meter has no entry yet)."""
    Meter = apps.get_model("tables", "ProgressiveMeter")
    Entry = apps.get_model("tables", "MeterEntry")
    for meter in Meter.objects.all():
        total = sum(Entry.objects.filter(meter=meter).values_list("amount_cents", flat=True))
        if total != meter.value_cents:
            Entry.objects.create(
                meter=meter,
                kind="opening",
                amount_cents=meter.value_cents - total,
                value_after_cents=meter.value_cents,
                reason="opening value recorded when meter entries became the meter's ledger",
            )


def _run(schema_editor, statement):
    """Without parameters: PL/pgSQL's % is not a placeholder here."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(statement)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = {"sqlite": OLD_SQLITE + SQLITE, "postgresql": OLD_POSTGRESQL + POSTGRESQL}
    for statement in statements.get(vendor, []):
        _run(schema_editor, statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}.get(vendor, []):
        _run(schema_editor, statement)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0004_round_gaming_day_round_shift_round_round_day_table"),
        ("audit", "0006_chained_checkpoints_and_guards"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="round",
            name="one_open_round_per_table",
        ),
        migrations.AlterField(
            model_name="meterentry",
            name="kind",
            field=models.CharField(
                choices=[
                    ("opening", "Opening value"),
                    ("contribution", "Contribution"),
                    ("jackpot", "Jackpot paid"),
                    ("overflow", "Overflow (past the cap)"),
                    ("correction", "Authorised correction"),
                ],
                max_length=12,
            ),
        ),
        migrations.AddIndex(
            model_name="meterentry",
            index=models.Index(fields=["meter", "id"], name="meter_entry_ledger"),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(
                condition=models.Q(("corrects__isnull", True), ("status", "open")),
                fields=("table",),
                name="one_open_round_per_table",
            ),
        ),
        migrations.RunPython(record_opening_values, migrations.RunPython.noop),
        migrations.RunPython(install, remove),
    ]
