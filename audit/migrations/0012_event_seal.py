"""Every event sealed: its content signed with the checkpoint key (`audit.chain.seal`), so that
nobody without the key can append a well-formed event at the head.

The column is added; on PostgreSQL `casino_audit_append` takes the seal (the writer computes it
from the content it already encodes before locking the head) and stores it with the event; and
every event already in the chain is sealed now, with the guards lifted for the write (audit/
triggers.py puts back exactly what was there). The verifier then requires a valid seal on every
event. Sealing needs the key: in production `AUDIT_CHECKPOINT_KEY` is set when migrating.
"""

from django.db import migrations, models

FUNCTION = """CREATE OR REPLACE FUNCTION casino_audit_append(
    p_actor_id bigint, p_actor_name text, p_kind text, p_object_type text, p_object_id text,
    p_table_name text, p_data jsonb, p_head text, p_middle text, p_tail text, p_at timestamptz,
    p_seal text)
  RETURNS TABLE (e_id bigint, e_seq bigint, e_at timestamptz, e_prev text, e_hash text)
AS $$
DECLARE
  h_seq bigint;
  h_hash text;
  n bigint;
  t timestamptz;
  digest text;
  new_id bigint;
BEGIN
  SELECT a.seq, a.hash INTO h_seq, h_hash FROM audit_audithead a WHERE a.id = 1 FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;  -- no head row: the caller recovers it and writes again
  END IF;
  n := h_seq + 1;
  -- The writer's time, taken as it asked for the lock; never before the event it follows.
  SELECT GREATEST(p_at, e.at) INTO t FROM audit_auditevent e WHERE e.seq = h_seq;
  t := COALESCE(t, p_at);
  digest := encode(sha256(convert_to(
    p_head
    || to_json(to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') || '+00:00')::text
    || p_middle || to_json(h_hash)::text || ',"seq":' || n::text || p_tail,
    'UTF8')), 'hex');
  INSERT INTO audit_auditevent
    (seq, at, actor_id, actor_name, kind, object_type, object_id, table_name, data, prev_hash,
     hash, seal)
    VALUES (n, t, p_actor_id, p_actor_name, p_kind, p_object_type, p_object_id, p_table_name,
            p_data, h_hash, digest, p_seal)
    RETURNING audit_auditevent.id INTO new_id;
  UPDATE audit_audithead SET seq = n, hash = digest WHERE audit_audithead.id = 1;
  RETURN QUERY SELECT new_id, n, t, h_hash, digest;
END; $$ LANGUAGE plpgsql;"""

OLD_SIGNATURE = "bigint, text, text, text, text, text, jsonb, text, text, text, timestamptz"
CHUNK = 2000


def seal_existing(apps, schema_editor):
    from django.conf import settings

    from audit import triggers
    from audit.chain import canonical_parts, json_text, seal

    connection = schema_editor.connection
    key = str(settings.AUDIT_CHECKPOINT_KEY).encode()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"DROP FUNCTION IF EXISTS casino_audit_append({OLD_SIGNATURE})")
            cursor.execute(FUNCTION)
    Event = apps.get_model("audit", "AuditEvent")
    if not Event.objects.exists():
        return
    columns = ("actor_id", "actor_name", "kind", "object_type", "object_id", "table_name")
    with triggers.lifted(connection), connection.cursor() as cursor:
        last = 0
        while True:
            rows = list(
                Event.objects.filter(id__gt=last, seal="")
                .order_by("id")
                .values_list("id", *columns, "data")[:CHUNK]
            )
            if not rows:
                return
            sealed = []
            for row in rows:
                fields = dict(zip(columns, row[1:7], strict=True))
                parts = canonical_parts(fields, json_text(row[7]))
                sealed.append((seal(parts, key), row[0]))
            cursor.executemany("UPDATE audit_auditevent SET seal = %s WHERE id = %s", sealed)
            last = rows[-1][0]


def restore_function(apps, schema_editor):
    """Back to 0008's function (the seal column goes with the field's removal)."""
    import importlib

    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    previous = importlib.import_module("audit.migrations.0008_append_function")
    with connection.cursor() as cursor:
        cursor.execute(f"DROP FUNCTION IF EXISTS casino_audit_append({OLD_SIGNATURE}, text)")
        cursor.execute(previous.FUNCTION)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0011_canonical_event_data"),
    ]
    operations = [
        # A plain ADD COLUMN on both databases: SQLite's rebuild of a table would trip the
        # guards of the tables whose triggers read this one.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(
                    model_name="auditevent",
                    name="seal",
                    field=models.CharField(blank=True, default="", max_length=100),
                )
            ],
            database_operations=[
                migrations.RunSQL(
                    "ALTER TABLE audit_auditevent ADD COLUMN seal varchar(100) NOT NULL DEFAULT ''",
                    "ALTER TABLE audit_auditevent DROP COLUMN seal",
                )
            ],
        ),
        migrations.RunPython(seal_existing, restore_function),
    ]
