"""Chained checkpoints, and the audit tables' guards as database triggers (SQL frozen here).

- Events: never updated, deleted or truncated; a new event must be the head's next (seq + 1,
  prev_hash = the head's hash).
- The head: one row that only moves forward, one event at a time, to the event just written;
  never deleted or truncated.
- Checkpoints: never updated, deleted or truncated; a new one must chain to the last one and
  name an event the chain holds.
Every trigger is named `casino_*` (see audit/triggers.py, which lifts and restores them for a
development `flush` and for the tamper tests).
"""

from django.db import migrations, models

GENESIS = "0" * 64

OLD_SQLITE = [
    "DROP TRIGGER IF EXISTS audit_auditevent_update_guard;",
    "DROP TRIGGER IF EXISTS audit_auditevent_delete_guard;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_update_guard;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_delete_guard;",
]
OLD_POSTGRESQL = [
    "DROP TRIGGER IF EXISTS audit_auditevent_guard ON audit_auditevent;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_guard ON audit_auditcheckpoint;",
]

SQLITE = [
    # events
    "CREATE TRIGGER casino_auditevent_no_update BEFORE UPDATE ON audit_auditevent "
    "BEGIN SELECT RAISE(ABORT, 'audit_auditevent is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_auditevent_no_delete BEFORE DELETE ON audit_auditevent "
    "BEGIN SELECT RAISE(ABORT, 'audit_auditevent is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_auditevent_next BEFORE INSERT ON audit_auditevent "
    "WHEN NOT EXISTS (SELECT 1 FROM audit_audithead h WHERE h.seq + 1 = NEW.seq "
    "AND h.hash = NEW.prev_hash) "
    "BEGIN SELECT RAISE(ABORT, 'an audit event must follow the head (seq + 1, its hash)'); END;",
    # the head
    "CREATE TRIGGER casino_audithead_forward BEFORE UPDATE ON audit_audithead "
    "WHEN NOT (NEW.id = OLD.id AND NEW.seq = OLD.seq + 1 AND NEW.hash IS "
    "(SELECT e.hash FROM audit_auditevent e WHERE e.seq = NEW.seq)) "
    "BEGIN SELECT RAISE(ABORT, 'the audit head only moves forward to the event just written'); "
    "END;",
    "CREATE TRIGGER casino_audithead_no_delete BEFORE DELETE ON audit_audithead "
    "BEGIN SELECT RAISE(ABORT, 'the audit head is never deleted'); END;",
    "CREATE TRIGGER casino_audithead_one_row BEFORE INSERT ON audit_audithead "
    f"WHEN EXISTS (SELECT 1 FROM audit_audithead) OR NEW.seq != 0 OR NEW.hash != '{GENESIS}' "
    "BEGIN SELECT RAISE(ABORT, 'the audit head is one row that starts at the genesis'); END;",
    # checkpoints
    "CREATE TRIGGER casino_auditcheckpoint_no_update BEFORE UPDATE ON audit_auditcheckpoint "
    "BEGIN SELECT RAISE(ABORT, 'audit_auditcheckpoint is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_auditcheckpoint_no_delete BEFORE DELETE ON audit_auditcheckpoint "
    "BEGIN SELECT RAISE(ABORT, 'audit_auditcheckpoint is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_auditcheckpoint_chained BEFORE INSERT ON audit_auditcheckpoint "
    "WHEN NOT (NEW.prev_signature IS COALESCE((SELECT c.signature FROM audit_auditcheckpoint c "
    f"WHERE c.prev_signature != '' ORDER BY c.seq DESC, c.id DESC LIMIT 1), '{GENESIS}') "
    "AND NEW.seq >= COALESCE((SELECT MAX(c.seq) FROM audit_auditcheckpoint c), 0) "
    "AND NEW.seq <= COALESCE((SELECT h.seq FROM audit_audithead h), -1) "
    "AND (NEW.seq = 0 OR NEW.hash IS (SELECT e.hash FROM audit_auditevent e WHERE e.seq = NEW.seq)))"
    " BEGIN SELECT RAISE(ABORT, 'a checkpoint must chain to the last one and match the chain'); "
    "END;",
]

POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
    END; $$ LANGUAGE plpgsql;""",
    f"""CREATE OR REPLACE FUNCTION casino_audit_guard() RETURNS trigger AS $$
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
        IF EXISTS (SELECT 1 FROM audit_audithead) OR NEW.seq <> 0
           OR NEW.hash <> '{GENESIS}' THEN
          RAISE EXCEPTION 'the audit head is one row that starts at the genesis'
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
    END; $$ LANGUAGE plpgsql;""",
]
for _table in ("audit_auditevent", "audit_auditcheckpoint", "audit_audithead"):
    _short = _table.removeprefix("audit_")
    POSTGRESQL += [
        f"CREATE TRIGGER casino_{_short}_no_change BEFORE DELETE"
        + (" OR UPDATE" if _table != "audit_audithead" else "")
        + f" ON {_table} FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
        f"CREATE TRIGGER casino_{_short}_no_truncate BEFORE TRUNCATE ON {_table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();",
        f"CREATE TRIGGER casino_{_short}_guard BEFORE INSERT"
        + (" OR UPDATE" if _table == "audit_audithead" else "")
        + f" ON {_table} FOR EACH ROW EXECUTE FUNCTION casino_audit_guard();",
    ]

DROP_SQLITE = [
    f"DROP TRIGGER IF EXISTS {s.split()[2]};" for s in SQLITE if s.startswith("CREATE TRIGGER")
]
DROP_POSTGRESQL = [
    f"DROP TRIGGER IF EXISTS {s.split()[2]} ON {s.split(' ON ')[1].split()[0]};"
    for s in POSTGRESQL
    if s.startswith("CREATE TRIGGER")
]


def _run(schema_editor, statement):
    """Without parameters: PL/pgSQL's % is not a placeholder here."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(statement)


def install(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"sqlite": OLD_SQLITE + SQLITE, "postgresql": OLD_POSTGRESQL + POSTGRESQL}.get(
        vendor, []
    ):
        _run(schema_editor, statement)


def remove(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"sqlite": DROP_SQLITE, "postgresql": DROP_POSTGRESQL}.get(vendor, []):
        _run(schema_editor, statement)
    # 0004's triggers come back with 0004 when migrating further back.


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0005_holdalertrule_holdsummary_stalereport"),
    ]
    operations = [
        migrations.AddField(
            model_name="auditcheckpoint",
            name="prev_signature",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AlterField(
            model_name="auditcheckpoint",
            name="signature",
            field=models.CharField(max_length=64, unique=True),
        ),
        migrations.AddIndex(
            model_name="auditcheckpoint",
            index=models.Index(fields=["seq", "id"], name="checkpoint_seq"),
        ),
        migrations.RunPython(install, remove),
    ]
