"""SQLite: an insert never replaces a guarded row; both databases: a lost head row is recovered
from the chain's last event (SQL frozen here).

- `INSERT OR REPLACE` deletes the row it collides with and, unless `PRAGMA recursive_triggers`
  is on (audit/apps.py turns it on for every connection), fires no delete trigger: a refused
  DELETE could be done as a REPLACE. Each guarded table gets a `casino_<table>_no_replace`
  trigger that refuses an insert whose id, or any unique key (a partial one under its
  condition), already exists, so the guards hold even on a connection with the pragma off.
  PostgreSQL has no REPLACE (`ON CONFLICT DO UPDATE` fires the update guards).
- The head: inserted only where there is none, at the genesis when the chain is empty, or at
  the chain's last event (seq and hash) when it has events, never anywhere else, so that a
  deleted head row is recovered (audit.services) rather than restarted at #1.
Every trigger is named `casino_*` (audit/triggers.py lifts and restores them).
"""

import importlib

from django.db import migrations

GENESIS = "0" * 64

# Each guarded table's keys when this was written: (columns, the partial index's condition
# with {} for the row, or ""). A test compares them with the unique indexes of the database.
KEYS = {
    "audit_auditevent": [(("id",), ""), (("seq",), ""), (("hash",), "")],
    "audit_auditcheckpoint": [(("id",), ""), (("signature",), "")],
}


def no_replace(table, keys):
    """The SQLite trigger refusing an insert that collides with an existing row of `table`."""
    short = table.split("_", 1)[1]
    exists = []
    for columns, condition in keys:
        match = " AND ".join(f"o.{c} = NEW.{c}" for c in columns)
        if condition:
            match += f" AND {condition.format('o')} AND {condition.format('NEW')}"
        exists.append(f"EXISTS (SELECT 1 FROM {table} o WHERE {match})")
    return (
        f"CREATE TRIGGER casino_{short}_no_replace BEFORE INSERT ON {table} "
        f"WHEN {' OR '.join(exists)} "
        f"BEGIN SELECT RAISE(ABORT, '{table}: a row with this id or unique key exists, and an "
        "insert never replaces one'); END;"
    )


SQLITE_HEAD = (
    "CREATE TRIGGER casino_audithead_one_row BEFORE INSERT ON audit_audithead "
    "WHEN EXISTS (SELECT 1 FROM audit_audithead) OR NOT ("
    f"(NEW.seq = 0 AND NEW.hash = '{GENESIS}' AND NOT EXISTS (SELECT 1 FROM audit_auditevent)) "
    "OR (NEW.seq = (SELECT MAX(e.seq) FROM audit_auditevent e) "
    "AND NEW.hash IS (SELECT e.hash FROM audit_auditevent e WHERE e.seq = NEW.seq))) "
    "BEGIN SELECT RAISE(ABORT, 'the audit head is one row, at the genesis or at the chain''s "
    "last event'); END;"
)
SQLITE = [no_replace(table, keys) for table, keys in KEYS.items()]
DROP_SQLITE = [f"DROP TRIGGER IF EXISTS {s.split()[2]};" for s in SQLITE]

POSTGRESQL_GUARD = f"""CREATE OR REPLACE FUNCTION casino_audit_guard() RETURNS trigger AS $$
    DECLARE
      head record;
      last_signature text;
      last_seq bigint;
    BEGIN
      IF TG_TABLE_NAME = 'audit_auditevent' THEN
        SELECT seq, hash INTO head FROM audit_audithead WHERE id = 1;
        IF head IS NULL OR NEW.seq <> head.seq + 1 OR NEW.prev_hash <> head.hash THEN
          RAISE EXCEPTION 'an audit event must follow the head (seq + 1, its hash)'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'audit_audithead' AND TG_OP = 'INSERT' THEN
        SELECT MAX(e.seq) INTO last_seq FROM audit_auditevent e;
        IF EXISTS (SELECT 1 FROM audit_audithead)
           OR (last_seq IS NULL AND (NEW.seq <> 0 OR NEW.hash <> '{GENESIS}'))
           OR (last_seq IS NOT NULL AND (NEW.seq <> last_seq OR NEW.hash IS DISTINCT FROM
               (SELECT e.hash FROM audit_auditevent e WHERE e.seq = last_seq))) THEN
          RAISE EXCEPTION 'the audit head is one row, at the genesis or at the chain''s last event'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'audit_audithead' THEN
        IF NEW.id <> OLD.id OR NEW.seq <> OLD.seq + 1 OR NEW.hash IS DISTINCT FROM
           (SELECT e.hash FROM audit_auditevent e WHERE e.seq = NEW.seq) THEN
          RAISE EXCEPTION 'the audit head only moves forward to the event just written'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'audit_auditcheckpoint' THEN
        SELECT c.signature INTO last_signature FROM audit_auditcheckpoint c
          WHERE c.prev_signature <> '' ORDER BY c.seq DESC, c.id DESC LIMIT 1;
        SELECT MAX(c.seq) INTO last_seq FROM audit_auditcheckpoint c;
        IF NEW.prev_signature <> COALESCE(last_signature, '{GENESIS}')
           OR NEW.seq < COALESCE(last_seq, 0)
           OR NEW.seq > COALESCE((SELECT h.seq FROM audit_audithead h WHERE h.id = 1), -1)
           OR (NEW.seq <> 0 AND NEW.hash IS DISTINCT FROM
               (SELECT e.hash FROM audit_auditevent e WHERE e.seq = NEW.seq)) THEN
          RAISE EXCEPTION 'a checkpoint must chain to the last one and match the chain'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      END IF;
      RETURN NEW;
    END; $$ LANGUAGE plpgsql;"""


def _before():
    return importlib.import_module("audit.migrations.0006_chained_checkpoints_and_guards")


def _run(schema_editor, statements):
    """Without parameters: PL/pgSQL's % is not a placeholder here."""
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        drop_head = "DROP TRIGGER IF EXISTS casino_audithead_one_row;"
        _run(schema_editor, [*DROP_SQLITE, *SQLITE, drop_head, SQLITE_HEAD])
    elif vendor == "postgresql":
        _run(schema_editor, [POSTGRESQL_GUARD])


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    before = _before()
    if vendor == "sqlite":
        old_head = next(s for s in before.SQLITE if "casino_audithead_one_row" in s)
        drop_head = "DROP TRIGGER IF EXISTS casino_audithead_one_row;"
        _run(schema_editor, [*DROP_SQLITE, drop_head, old_head])
    elif vendor == "postgresql":
        _run(schema_editor, [before.POSTGRESQL[1]])


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0009_event_table_kind_index"),
    ]
    operations = [migrations.RunPython(install, remove)]
