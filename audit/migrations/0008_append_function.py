"""One statement appends an event on PostgreSQL: `casino_audit_append` (SQL frozen here).

It locks the chain's head, fixes the event's time (the writer's, or the previous event's if
that is later, so that times never go back along the chain), hashes the event's canonical text (the caller sends
it in three pieces, `audit.chain.canonical_parts`; the function fills in the time, the head's
hash and the next number), inserts the event and moves the head, and returns the event's id,
seq, at, prev_hash and hash. The guards (0006) check the insert and the head's move as they
check any other writer's. A writer then holds the head from this one statement to its commit,
with no round trip and no Python in between (audit.services.audit_record).
"""

from django.db import migrations

FUNCTION = """CREATE OR REPLACE FUNCTION casino_audit_append(
    p_actor_id bigint, p_actor_name text, p_kind text, p_object_type text, p_object_id text,
    p_table_name text, p_data jsonb, p_head text, p_middle text, p_tail text, p_at timestamptz)
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
    RETURN;  -- no head row (an emptied database): the caller makes it and writes again
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
     hash)
    VALUES (n, t, p_actor_id, p_actor_name, p_kind, p_object_type, p_object_id, p_table_name,
            p_data, h_hash, digest)
    RETURNING audit_auditevent.id INTO new_id;
  UPDATE audit_audithead SET seq = n, hash = digest WHERE audit_audithead.id = 1;
  RETURN QUERY SELECT new_id, n, t, h_hash, digest;
END; $$ LANGUAGE plpgsql;"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(FUNCTION)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(
                "DROP FUNCTION IF EXISTS casino_audit_append("
                "bigint, text, text, text, text, text, jsonb, text, text, text, timestamptz)"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0007_hold_reports_moved_to_reports"),
    ]
    operations = [migrations.RunPython(install, remove)]
