"""Database triggers that keep history append-only, on PostgreSQL and SQLite.

- Audit events, checkpoints, settlement lines and meter entries: no UPDATE, no DELETE.
- A settled round: only the void may change it (status settled -> voided with who, when, why);
  a voided round never changes again. An approved paytable version never changes.
The ORM's checks give friendly messages; these make it true for anyone with a SQL prompt.
(PostgreSQL's TRUNCATE bypasses row triggers: `verify_audit` and the signed checkpoints catch it.)
"""

from __future__ import annotations

from typing import Any

APPEND_ONLY = [
    "audit_auditevent",
    "audit_auditcheckpoint",
    "tables_settlementline",
    "tables_meterentry",
]

_ROUND_FROZEN = (
    "OLD.status <> 'open' AND NOT ("
    "OLD.status = 'settled' AND NEW.status = 'voided' "
    "AND NEW.entry = OLD.entry AND NEW.settlement = OLD.settlement "
    "AND NEW.handle_cents = OLD.handle_cents AND NEW.players_net_cents = OLD.players_net_cents "
    "AND NEW.table_id = OLD.table_id AND NEW.number = OLD.number "
    "AND NEW.paytable_version_id = OLD.paytable_version_id AND NEW.settled_at = OLD.settled_at)"
)
_PAYTABLE_FROZEN = "OLD.status = 'approved'"


def _sqlite(table: str, when: str, op: str, message: str) -> str:
    return (
        f"CREATE TRIGGER IF NOT EXISTS {table}_{op.lower()}_guard BEFORE {op} ON {table} "
        f"FOR EACH ROW WHEN {when} BEGIN SELECT RAISE(ABORT, '{message}'); END;"
    )


def install_sql(vendor: str) -> list[str]:
    if vendor == "sqlite":
        sql = []
        for table in APPEND_ONLY:
            for op in ("UPDATE", "DELETE"):
                sql.append(_sqlite(table, "1", op, f"{table} is append-only: {op} refused"))
        sql.append(
            _sqlite(
                "tables_round",
                _ROUND_FROZEN.replace("<>", "!="),
                "UPDATE",
                "a settled round is never edited (only voided)",
            )
        )
        sql.append(
            _sqlite(
                "tables_round", "OLD.status != 'open'", "DELETE", "a settled round is never deleted"
            )
        )
        sql.append(
            _sqlite(
                "tables_paytableversion",
                _PAYTABLE_FROZEN,
                "UPDATE",
                "an approved paytable version is never edited",
            )
        )
        sql.append(
            _sqlite(
                "tables_paytableversion",
                _PAYTABLE_FROZEN,
                "DELETE",
                "an approved paytable version is never deleted",
            )
        )
        return sql
    if vendor == "postgresql":
        sql = [
            """CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger AS $$
            BEGIN
              RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
            END; $$ LANGUAGE plpgsql;""",
        ]
        for table in APPEND_ONLY:
            sql.append(f"DROP TRIGGER IF EXISTS {table}_guard ON {table};")
            sql.append(
                f"CREATE TRIGGER {table}_guard BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();"
            )
        for table, when, ops in (
            ("tables_round", _ROUND_FROZEN, "UPDATE"),
            ("tables_round", "OLD.status <> 'open'", "DELETE"),
            ("tables_paytableversion", _PAYTABLE_FROZEN, "UPDATE"),
            ("tables_paytableversion", _PAYTABLE_FROZEN, "DELETE"),
        ):
            name = f"{table}_{ops.lower()}_guard"
            sql.append(f"DROP TRIGGER IF EXISTS {name} ON {table};")
            pg_when = when.replace(
                "NEW.entry = OLD.entry", "NEW.entry::jsonb = OLD.entry::jsonb"
            ).replace(
                "NEW.settlement = OLD.settlement", "NEW.settlement::jsonb = OLD.settlement::jsonb"
            )
            sql.append(
                f"CREATE TRIGGER {name} BEFORE {ops} ON {table} FOR EACH ROW "
                f"WHEN ({pg_when}) EXECUTE FUNCTION casino_refuse_change();"
            )
        return sql
    return []


def remove_sql(vendor: str) -> list[str]:
    names = [(t, f"{t}_update_guard") for t in APPEND_ONLY] + [
        (t, f"{t}_delete_guard") for t in APPEND_ONLY
    ]
    names += [
        (t, f"{t}_{op}_guard")
        for t in ("tables_round", "tables_paytableversion")
        for op in ("update", "delete")
    ]
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name};" for _t, name in names]
    if vendor == "postgresql":
        pg = [(t, f"{t}_guard") for t in APPEND_ONLY] + names
        return [f"DROP TRIGGER IF EXISTS {name} ON {t};" for t, name in pg]
    return []


def install(connection: Any) -> None:
    with connection.cursor() as cursor:
        for statement in install_sql(connection.vendor):
            cursor.execute(statement)


def remove(connection: Any) -> None:
    with connection.cursor() as cursor:
        for statement in remove_sql(connection.vendor):
            cursor.execute(statement)
