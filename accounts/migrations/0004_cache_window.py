"""On PostgreSQL an API throttle's window is counted in one statement: `casino_window_hit`
(SQL frozen here) and its UNLOGGED table `casino_cache_window`.

Django REST framework's throttles keep, per client, the times of its requests in the last
period (newest first) in the cache: a read of the whole list, then a write of the whole list,
two round trips and a pickle each way on every API request. The function does the same
reckoning where the list is kept, under the key's row lock: it drops the times that have left
the period from the end of the list, refuses when the list is full (and says how long to wait,
as the framework's `wait()` does: what is left of the oldest time's period over the requests
still to come, none when there are none), and otherwise puts the request's time first.
Refused requests are not counted, as in the framework. `casino.dbcache.DatabaseCache`
calls it (`hit_window`); `accounts.throttles` uses it where the cache offers it.

UNLOGGED for the reason the cache's own table is (0003): a count waits for no disk flush, and
a crash empties it, which a throttle's count may be. Nothing of the record is there.
"""

from django.db import migrations

TABLE = """CREATE UNLOGGED TABLE IF NOT EXISTS casino_cache_window (
    key varchar(255) PRIMARY KEY,
    history double precision[] NOT NULL,
    expires double precision NOT NULL
)"""

FUNCTION = """CREATE OR REPLACE FUNCTION casino_window_hit(
    p_key text, p_now double precision, p_duration double precision, p_limit integer,
    OUT allowed boolean, OUT wait double precision)
AS $$
DECLARE
  h double precision[];
  n integer;
  remaining double precision;
  available integer;
BEGIN
  SELECT w.history INTO h FROM casino_cache_window w WHERE w.key = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO casino_cache_window (key, history, expires) VALUES (p_key, '{}', p_now)
      ON CONFLICT (key) DO NOTHING;
    SELECT w.history INTO h FROM casino_cache_window w WHERE w.key = p_key FOR UPDATE;
  END IF;
  n := coalesce(cardinality(h), 0);
  -- Newest first: the times that have left the period are dropped from the end.
  WHILE n > 0 AND h[n] <= p_now - p_duration LOOP
    n := n - 1;
  END LOOP;
  IF n >= p_limit THEN
    allowed := false;
    IF n > 0 THEN
      remaining := p_duration - (p_now - h[n]);
    ELSE
      remaining := p_duration;
    END IF;
    available := p_limit - n + 1;
    IF available <= 0 THEN
      wait := NULL;
    ELSE
      wait := remaining / available;
    END IF;
    RETURN;
  END IF;
  UPDATE casino_cache_window w SET history = p_now || h[1:n], expires = p_now + p_duration
    WHERE w.key = p_key;
  allowed := true;
  wait := NULL;
END; $$ LANGUAGE plpgsql"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(TABLE)
            cursor.execute(FUNCTION)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(
                "DROP FUNCTION IF EXISTS casino_window_hit("
                "text, double precision, double precision, integer)"
            )
            cursor.execute("DROP TABLE IF EXISTS casino_cache_window")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_cache_table_unlogged")]

    operations = [migrations.RunPython(install, remove)]
