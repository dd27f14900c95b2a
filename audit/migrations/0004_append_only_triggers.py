"""Append-only triggers, on PostgreSQL and SQLite, as they were first installed.

The SQL is frozen here (not imported from a module that can change later); 0006 replaces it.
"""

from django.db import migrations

SQLITE_INSTALL = [
    "CREATE TRIGGER IF NOT EXISTS audit_auditevent_update_guard BEFORE UPDATE ON audit_auditevent FOR "
    "EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'audit_auditevent is append-only: UPDATE refused'); "
    "END;",
    "CREATE TRIGGER IF NOT EXISTS audit_auditevent_delete_guard BEFORE DELETE ON audit_auditevent FOR "
    "EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'audit_auditevent is append-only: DELETE refused'); "
    "END;",
    "CREATE TRIGGER IF NOT EXISTS audit_auditcheckpoint_update_guard BEFORE UPDATE ON "
    "audit_auditcheckpoint FOR EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'audit_auditcheckpoint is "
    "append-only: UPDATE refused'); END;",
    "CREATE TRIGGER IF NOT EXISTS audit_auditcheckpoint_delete_guard BEFORE DELETE ON "
    "audit_auditcheckpoint FOR EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'audit_auditcheckpoint is "
    "append-only: DELETE refused'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_settlementline_update_guard BEFORE UPDATE ON "
    "tables_settlementline FOR EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'tables_settlementline is "
    "append-only: UPDATE refused'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_settlementline_delete_guard BEFORE DELETE ON "
    "tables_settlementline FOR EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'tables_settlementline is "
    "append-only: DELETE refused'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_meterentry_update_guard BEFORE UPDATE ON tables_meterentry "
    "FOR EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'tables_meterentry is append-only: UPDATE "
    "refused'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_meterentry_delete_guard BEFORE DELETE ON tables_meterentry "
    "FOR EACH ROW WHEN 1 BEGIN SELECT RAISE(ABORT, 'tables_meterentry is append-only: DELETE "
    "refused'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_round_update_guard BEFORE UPDATE ON tables_round FOR EACH "
    "ROW WHEN OLD.status != 'open' AND NOT (OLD.status = 'settled' AND NEW.status = 'voided' AND "
    "NEW.entry = OLD.entry AND NEW.settlement = OLD.settlement AND NEW.handle_cents = "
    "OLD.handle_cents AND NEW.players_net_cents = OLD.players_net_cents AND NEW.table_id = "
    "OLD.table_id AND NEW.number = OLD.number AND NEW.paytable_version_id = OLD.paytable_version_id "
    "AND NEW.settled_at = OLD.settled_at) BEGIN SELECT RAISE(ABORT, 'a settled round is never edited "
    "(only voided)'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_round_delete_guard BEFORE DELETE ON tables_round FOR EACH "
    "ROW WHEN OLD.status != 'open' BEGIN SELECT RAISE(ABORT, 'a settled round is never deleted'); "
    "END;",
    "CREATE TRIGGER IF NOT EXISTS tables_paytableversion_update_guard BEFORE UPDATE ON "
    "tables_paytableversion FOR EACH ROW WHEN OLD.status = 'approved' BEGIN SELECT RAISE(ABORT, 'an "
    "approved paytable version is never edited'); END;",
    "CREATE TRIGGER IF NOT EXISTS tables_paytableversion_delete_guard BEFORE DELETE ON "
    "tables_paytableversion FOR EACH ROW WHEN OLD.status = 'approved' BEGIN SELECT RAISE(ABORT, 'an "
    "approved paytable version is never deleted'); END;",
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS audit_auditevent_update_guard;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_update_guard;",
    "DROP TRIGGER IF EXISTS tables_settlementline_update_guard;",
    "DROP TRIGGER IF EXISTS tables_meterentry_update_guard;",
    "DROP TRIGGER IF EXISTS audit_auditevent_delete_guard;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_settlementline_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_meterentry_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_round_update_guard;",
    "DROP TRIGGER IF EXISTS tables_round_delete_guard;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_update_guard;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_delete_guard;",
]
POSTGRESQL_INSTALL = [
    "CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$\n"
    "            BEGIN\n"
    "              RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP\n"
    "                USING ERRCODE = 'integrity_constraint_violation';\n"
    "            END; $$ LANGUAGE plpgsql;",
    "DROP TRIGGER IF EXISTS audit_auditevent_guard ON audit_auditevent;",
    "CREATE TRIGGER audit_auditevent_guard BEFORE UPDATE OR DELETE ON audit_auditevent FOR EACH ROW "
    "EXECUTE FUNCTION casino_refuse_change();",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_guard ON audit_auditcheckpoint;",
    "CREATE TRIGGER audit_auditcheckpoint_guard BEFORE UPDATE OR DELETE ON audit_auditcheckpoint FOR "
    "EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "DROP TRIGGER IF EXISTS tables_settlementline_guard ON tables_settlementline;",
    "CREATE TRIGGER tables_settlementline_guard BEFORE UPDATE OR DELETE ON tables_settlementline FOR "
    "EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "DROP TRIGGER IF EXISTS tables_meterentry_guard ON tables_meterentry;",
    "CREATE TRIGGER tables_meterentry_guard BEFORE UPDATE OR DELETE ON tables_meterentry FOR EACH ROW "
    "EXECUTE FUNCTION casino_refuse_change();",
    "DROP TRIGGER IF EXISTS tables_round_update_guard ON tables_round;",
    "CREATE TRIGGER tables_round_update_guard BEFORE UPDATE ON tables_round FOR EACH ROW WHEN "
    "(OLD.status <> 'open' AND NOT (OLD.status = 'settled' AND NEW.status = 'voided' AND "
    "NEW.entry::jsonb = OLD.entry::jsonb AND NEW.settlement::jsonb = OLD.settlement::jsonb AND "
    "NEW.handle_cents = OLD.handle_cents AND NEW.players_net_cents = OLD.players_net_cents AND "
    "NEW.table_id = OLD.table_id AND NEW.number = OLD.number AND NEW.paytable_version_id = "
    "OLD.paytable_version_id AND NEW.settled_at = OLD.settled_at)) EXECUTE FUNCTION "
    "casino_refuse_change();",
    "DROP TRIGGER IF EXISTS tables_round_delete_guard ON tables_round;",
    "CREATE TRIGGER tables_round_delete_guard BEFORE DELETE ON tables_round FOR EACH ROW WHEN "
    "(OLD.status <> 'open') EXECUTE FUNCTION casino_refuse_change();",
    "DROP TRIGGER IF EXISTS tables_paytableversion_update_guard ON tables_paytableversion;",
    "CREATE TRIGGER tables_paytableversion_update_guard BEFORE UPDATE ON tables_paytableversion FOR "
    "EACH ROW WHEN (OLD.status = 'approved') EXECUTE FUNCTION casino_refuse_change();",
    "DROP TRIGGER IF EXISTS tables_paytableversion_delete_guard ON tables_paytableversion;",
    "CREATE TRIGGER tables_paytableversion_delete_guard BEFORE DELETE ON tables_paytableversion FOR "
    "EACH ROW WHEN (OLD.status = 'approved') EXECUTE FUNCTION casino_refuse_change();",
]
POSTGRESQL_REMOVE = [
    "DROP TRIGGER IF EXISTS audit_auditevent_guard ON audit_auditevent;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_guard ON audit_auditcheckpoint;",
    "DROP TRIGGER IF EXISTS tables_settlementline_guard ON tables_settlementline;",
    "DROP TRIGGER IF EXISTS tables_meterentry_guard ON tables_meterentry;",
    "DROP TRIGGER IF EXISTS audit_auditevent_update_guard ON audit_auditevent;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_update_guard ON audit_auditcheckpoint;",
    "DROP TRIGGER IF EXISTS tables_settlementline_update_guard ON tables_settlementline;",
    "DROP TRIGGER IF EXISTS tables_meterentry_update_guard ON tables_meterentry;",
    "DROP TRIGGER IF EXISTS audit_auditevent_delete_guard ON audit_auditevent;",
    "DROP TRIGGER IF EXISTS audit_auditcheckpoint_delete_guard ON audit_auditcheckpoint;",
    "DROP TRIGGER IF EXISTS tables_settlementline_delete_guard ON tables_settlementline;",
    "DROP TRIGGER IF EXISTS tables_meterentry_delete_guard ON tables_meterentry;",
    "DROP TRIGGER IF EXISTS tables_round_update_guard ON tables_round;",
    "DROP TRIGGER IF EXISTS tables_round_delete_guard ON tables_round;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_update_guard ON tables_paytableversion;",
    "DROP TRIGGER IF EXISTS tables_paytableversion_delete_guard ON tables_paytableversion;",
]

INSTALL = {"sqlite": SQLITE_INSTALL, "postgresql": POSTGRESQL_INSTALL}
REMOVE = {"sqlite": SQLITE_REMOVE, "postgresql": POSTGRESQL_REMOVE}


def _run(schema_editor, statement):
    """Without parameters: PL/pgSQL's % is not a placeholder here."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(statement)


def install(apps, schema_editor):
    for statement in INSTALL.get(schema_editor.connection.vendor, []):
        _run(schema_editor, statement)


def remove(apps, schema_editor):
    for statement in REMOVE.get(schema_editor.connection.vendor, []):
        _run(schema_editor, statement)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_auditcheckpoint"),
        ("tables", "0003_remove_round_round_settlement_matches_status_and_more"),
    ]
    operations = [migrations.RunPython(install, remove)]
