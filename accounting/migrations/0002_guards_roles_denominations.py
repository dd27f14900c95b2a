"""Table accounting's invariants as database triggers (SQL frozen here), on PostgreSQL and SQLite,
the cage and count role groups, and the usual chip denominations.

- Slip numbers run in one sequence: a new slip's number is the last one's plus one.
- A slip is never edited nor deleted: only its status moves (pending -> signed, once every
  signature it needs is there; pending or signed -> voided, once a second person confirmed the
  void), with its time; a voided slip never changes. A slip is inserted pending, or signed
  when it needs no signature (a buy-in). A replacement points at a voided slip of the same
  table and kind.
- A signature is never by the slip's creator, comes in step order, only on a pending slip, and
  never beyond the signatures the slip needs; signatures and voids are never changed nor
  deleted; a void is asked (step 1) and confirmed (step 2) by two people, never on a voided slip.
- A variance alert is acknowledged once (only its acknowledgement fields change) and never
  deleted; a chip denomination keeps its value and is never deleted (it is deactivated).
- PostgreSQL: TRUNCATE is refused on every one of these tables.
Every trigger is named `casino_*` (audit/triggers.py lifts and restores them).
"""

from django.db import migrations

SLIP_COLUMNS = (
    "id",
    "number",
    "table_id",
    "kind",
    "gaming_day",
    "shift",
    "chips",
    "cash_cents",
    "markers_cents",
    "amount_cents",
    "created_by_id",
    "created_at",
    "signatures_required",
    "status",
    "signed_at",
    "voided_at",
    "replaces_id",
    "note",
)
STATUS_FIELDS = ("status", "signed_at", "voided_at")
_UNCHANGED = " AND ".join(f"NEW.{c} IS OLD.{c}" for c in SLIP_COLUMNS if c not in STATUS_FIELDS)
ALERT_COLUMNS = (
    "id",
    "table_id",
    "gaming_day",
    "shift",
    "count_win_cents",
    "hands_win_cents",
    "variance_cents",
    "tolerance_cents",
    "raised_at",
)
_ALERT_UNCHANGED = " AND ".join(f"NEW.{c} IS OLD.{c}" for c in ALERT_COLUMNS)

_SIGNATURES = "(SELECT COUNT(*) FROM accounting_slipsignature s WHERE s.slip_id = NEW.id)"
_SLIP_OF = "(SELECT {} FROM accounting_slip p WHERE p.id = NEW.slip_id)"

SQLITE = [
    # slips
    "CREATE TRIGGER casino_slip_in_sequence BEFORE INSERT ON accounting_slip "
    "WHEN NEW.number IS NOT COALESCE((SELECT MAX(number) FROM accounting_slip), 0) + 1 "
    "BEGIN SELECT RAISE(ABORT, 'slip numbers run in sequence: a new slip takes the next "
    "number'); END;",
    "CREATE TRIGGER casino_slip_inserted_unsigned BEFORE INSERT ON accounting_slip "
    "WHEN NOT ((NEW.status = 'pending' AND NEW.signatures_required > 0) "
    "OR (NEW.status = 'signed' AND NEW.signatures_required = 0)) "
    "BEGIN SELECT RAISE(ABORT, 'a slip is entered awaiting its signatures (a buy-in, which "
    "needs none, counts at once)'); END;",
    "CREATE TRIGGER casino_slip_replaces_voided BEFORE INSERT ON accounting_slip "
    "WHEN NEW.replaces_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM accounting_slip o "
    "WHERE o.id = NEW.replaces_id AND o.status = 'voided' AND o.table_id = NEW.table_id "
    "AND o.kind = NEW.kind) "
    "BEGIN SELECT RAISE(ABORT, 'a slip replaces only a voided slip of the same table and "
    "kind'); END;",
    "CREATE TRIGGER casino_slip_frozen BEFORE UPDATE ON accounting_slip "
    f"WHEN OLD.status = 'voided' OR NEW.status = 'pending' AND OLD.status != 'pending' "
    f"OR NOT ({_UNCHANGED}) "
    "BEGIN SELECT RAISE(ABORT, 'a slip is never edited: it is signed, or voided by two people "
    "and replaced'); END;",
    "CREATE TRIGGER casino_slip_signed_complete BEFORE UPDATE ON accounting_slip "
    "WHEN NEW.status = 'signed' AND OLD.status != 'signed' "
    f"AND (OLD.status != 'pending' OR {_SIGNATURES} != NEW.signatures_required) "
    "BEGIN SELECT RAISE(ABORT, 'a slip counts only once every signature it needs is on it'); "
    "END;",
    "CREATE TRIGGER casino_slip_void_confirmed BEFORE UPDATE ON accounting_slip "
    "WHEN NEW.status = 'voided' AND OLD.status != 'voided' AND NOT EXISTS (SELECT 1 FROM "
    "accounting_slipvoid v WHERE v.slip_id = NEW.id AND v.step = 2) "
    "BEGIN SELECT RAISE(ABORT, 'a slip is voided only when a second person confirmed the "
    "void'); END;",
    "CREATE TRIGGER casino_slip_no_delete BEFORE DELETE ON accounting_slip "
    "BEGIN SELECT RAISE(ABORT, 'accounting_slip is append-only: DELETE refused'); END;",
    # signatures
    "CREATE TRIGGER casino_slipsignature_no_update BEFORE UPDATE ON accounting_slipsignature "
    "BEGIN SELECT RAISE(ABORT, 'accounting_slipsignature is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_slipsignature_no_delete BEFORE DELETE ON accounting_slipsignature "
    "BEGIN SELECT RAISE(ABORT, 'accounting_slipsignature is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_slipsignature_not_creator BEFORE INSERT ON accounting_slipsignature "
    f"WHEN NEW.by_id IS {_SLIP_OF.format('p.created_by_id')} "
    "BEGIN SELECT RAISE(ABORT, 'the creator of a slip cannot sign it: a second person signs'); "
    "END;",
    "CREATE TRIGGER casino_slipsignature_in_order BEFORE INSERT ON accounting_slipsignature "
    f"WHEN {_SLIP_OF.format('p.status')} IS NOT 'pending' OR NEW.step IS NOT (SELECT COUNT(*) "
    "FROM accounting_slipsignature s WHERE s.slip_id = NEW.slip_id) + 1 OR NEW.step > "
    f"{_SLIP_OF.format('p.signatures_required')} "
    "BEGIN SELECT RAISE(ABORT, 'a slip is signed in step order, while it awaits signatures, and "
    "no more than it needs'); END;",
    # voids
    "CREATE TRIGGER casino_slipvoid_no_update BEFORE UPDATE ON accounting_slipvoid "
    "BEGIN SELECT RAISE(ABORT, 'accounting_slipvoid is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER casino_slipvoid_no_delete BEFORE DELETE ON accounting_slipvoid "
    "BEGIN SELECT RAISE(ABORT, 'accounting_slipvoid is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_slipvoid_in_order BEFORE INSERT ON accounting_slipvoid "
    f"WHEN {_SLIP_OF.format('p.status')} IS 'voided' OR NEW.step IS NOT (SELECT COUNT(*) "
    "FROM accounting_slipvoid v WHERE v.slip_id = NEW.slip_id) + 1 "
    "BEGIN SELECT RAISE(ABORT, 'a void is asked, then confirmed by a second person, on a slip "
    "not yet voided'); END;",
    # variance alerts and denominations
    "CREATE TRIGGER casino_variancealert_ack_once BEFORE UPDATE ON accounting_variancealert "
    f"WHEN OLD.acknowledged_at IS NOT NULL OR NOT ({_ALERT_UNCHANGED}) "
    "BEGIN SELECT RAISE(ABORT, 'a variance alert is acknowledged once, and never edited'); END;",
    "CREATE TRIGGER casino_variancealert_no_delete BEFORE DELETE ON accounting_variancealert "
    "BEGIN SELECT RAISE(ABORT, 'accounting_variancealert is append-only: DELETE refused'); END;",
    "CREATE TRIGGER casino_chipdenomination_frozen BEFORE UPDATE ON accounting_chipdenomination "
    "WHEN NEW.value_cents IS NOT OLD.value_cents "
    "BEGIN SELECT RAISE(ABORT, 'a chip denomination keeps its value: add a new one'); END;",
    "CREATE TRIGGER casino_chipdenomination_no_delete BEFORE DELETE ON "
    "accounting_chipdenomination "
    "BEGIN SELECT RAISE(ABORT, 'a chip denomination is deactivated, never deleted'); END;",
]

POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION casino_accounting_guard() RETURNS trigger AS $$
    DECLARE
      status_fields text[] := ARRAY['status', 'signed_at', 'voided_at'];
      ack_fields text[] := ARRAY['acknowledged_by_id', 'acknowledged_at', 'note'];
      slip record;
      n bigint;
    BEGIN
      IF TG_TABLE_NAME = 'accounting_slip' AND TG_OP = 'INSERT' THEN
        SELECT COALESCE(MAX(number), 0) INTO n FROM accounting_slip;
        IF NEW.number <> n + 1 THEN
          RAISE EXCEPTION 'slip numbers run in sequence: a new slip takes the next number (%)',
            n + 1 USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NOT ((NEW.status = 'pending' AND NEW.signatures_required > 0)
                OR (NEW.status = 'signed' AND NEW.signatures_required = 0)) THEN
          RAISE EXCEPTION 'a slip is entered awaiting its signatures (a buy-in, which needs '
            'none, counts at once)' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.replaces_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM accounting_slip o
           WHERE o.id = NEW.replaces_id AND o.status = 'voided' AND o.table_id = NEW.table_id
           AND o.kind = NEW.kind) THEN
          RAISE EXCEPTION 'a slip replaces only a voided slip of the same table and kind'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'accounting_slip' THEN
        IF OLD.status = 'voided' OR (NEW.status = 'pending' AND OLD.status <> 'pending')
           OR (to_jsonb(NEW) - status_fields) <> (to_jsonb(OLD) - status_fields) THEN
          RAISE EXCEPTION 'a slip is never edited: it is signed, or voided by two people and '
            'replaced' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.status = 'signed' AND OLD.status <> 'signed' THEN
          SELECT COUNT(*) INTO n FROM accounting_slipsignature s WHERE s.slip_id = NEW.id;
          IF OLD.status <> 'pending' OR n <> NEW.signatures_required THEN
            RAISE EXCEPTION 'a slip counts only once every signature it needs is on it'
              USING ERRCODE = 'integrity_constraint_violation';
          END IF;
        END IF;
        IF NEW.status = 'voided' AND OLD.status <> 'voided' AND NOT EXISTS (SELECT 1 FROM
           accounting_slipvoid v WHERE v.slip_id = NEW.id AND v.step = 2) THEN
          RAISE EXCEPTION 'a slip is voided only when a second person confirmed the void'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'accounting_slipsignature' THEN
        SELECT * INTO slip FROM accounting_slip WHERE id = NEW.slip_id FOR UPDATE;
        IF NEW.by_id = slip.created_by_id THEN
          RAISE EXCEPTION 'the creator of a slip cannot sign it: a second person signs'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        SELECT COUNT(*) INTO n FROM accounting_slipsignature s WHERE s.slip_id = NEW.slip_id;
        IF slip.status <> 'pending' OR NEW.step <> n + 1
           OR NEW.step > slip.signatures_required THEN
          RAISE EXCEPTION 'a slip is signed in step order, while it awaits signatures, and no '
            'more than it needs' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'accounting_slipvoid' THEN
        SELECT * INTO slip FROM accounting_slip WHERE id = NEW.slip_id FOR UPDATE;
        SELECT COUNT(*) INTO n FROM accounting_slipvoid v WHERE v.slip_id = NEW.slip_id;
        IF slip.status = 'voided' OR NEW.step <> n + 1 THEN
          RAISE EXCEPTION 'a void is asked, then confirmed by a second person, on a slip not '
            'yet voided' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'accounting_variancealert' THEN
        IF OLD.acknowledged_at IS NOT NULL
           OR (to_jsonb(NEW) - ack_fields) <> (to_jsonb(OLD) - ack_fields) THEN
          RAISE EXCEPTION 'a variance alert is acknowledged once, and never edited'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      ELSIF TG_TABLE_NAME = 'accounting_chipdenomination' THEN
        IF NEW.value_cents <> OLD.value_cents THEN
          RAISE EXCEPTION 'a chip denomination keeps its value: add a new one'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
      END IF;
      RETURN NEW;
    END; $$ LANGUAGE plpgsql;""",
    "CREATE TRIGGER casino_slip_guard BEFORE INSERT OR UPDATE ON accounting_slip "
    "FOR EACH ROW EXECUTE FUNCTION casino_accounting_guard();",
    "CREATE TRIGGER casino_slip_no_delete BEFORE DELETE ON accounting_slip "
    "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_slipsignature_guard BEFORE INSERT ON accounting_slipsignature "
    "FOR EACH ROW EXECUTE FUNCTION casino_accounting_guard();",
    "CREATE TRIGGER casino_slipsignature_no_change BEFORE UPDATE OR DELETE ON "
    "accounting_slipsignature FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_slipvoid_guard BEFORE INSERT ON accounting_slipvoid "
    "FOR EACH ROW EXECUTE FUNCTION casino_accounting_guard();",
    "CREATE TRIGGER casino_slipvoid_no_change BEFORE UPDATE OR DELETE ON accounting_slipvoid "
    "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_variancealert_guard BEFORE UPDATE ON accounting_variancealert "
    "FOR EACH ROW EXECUTE FUNCTION casino_accounting_guard();",
    "CREATE TRIGGER casino_variancealert_no_delete BEFORE DELETE ON accounting_variancealert "
    "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
    "CREATE TRIGGER casino_chipdenomination_guard BEFORE UPDATE ON accounting_chipdenomination "
    "FOR EACH ROW EXECUTE FUNCTION casino_accounting_guard();",
    "CREATE TRIGGER casino_chipdenomination_no_delete BEFORE DELETE ON "
    "accounting_chipdenomination FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();",
]
for _table in ("slip", "slipsignature", "slipvoid", "variancealert", "chipdenomination"):
    POSTGRESQL.append(
        f"CREATE TRIGGER casino_{_table}_no_truncate BEFORE TRUNCATE ON accounting_{_table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();"
    )

DROP_SQLITE = [f"DROP TRIGGER IF EXISTS {s.split()[2]};" for s in SQLITE]
DROP_POSTGRESQL = [
    f"DROP TRIGGER IF EXISTS {s.split()[2]} ON {s.split(' ON ')[1].split()[0]};"
    for s in POSTGRESQL
    if s.startswith("CREATE TRIGGER")
] + ["DROP FUNCTION IF EXISTS casino_accounting_guard();"]

# The usual chips (value in cents, colour); the admin adds or deactivates others.
DENOMINATIONS = [
    (50, "half-dollar (3 to 2 payouts)"),
    (100, "white"),
    (500, "red"),
    (2500, "green"),
    (10000, "black"),
    (50000, "purple"),
    (100000, "yellow"),
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


def roles(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from core.roles import ensure_role_groups

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def denominations(apps, schema_editor):
    Denomination = apps.get_model("accounting", "ChipDenomination")
    for value_cents, label in DENOMINATIONS:
        Denomination.objects.get_or_create(value_cents=value_cents, defaults={"label": label})


class Migration(migrations.Migration):
    dependencies = [
        ("accounting", "0001_initial"),
        ("accounts", "0002_security_role_and_cache"),
        ("audit", "0006_chained_checkpoints_and_guards"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(roles, migrations.RunPython.noop),
        migrations.RunPython(denominations, migrations.RunPython.noop),
        migrations.RunPython(install, remove),
    ]
