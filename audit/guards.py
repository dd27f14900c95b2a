"""The database's guard triggers as the migrations install them, and what differs from that.

Every guard is a trigger named `casino_*` (the migrations of audit, tables, accounting and
compliance hold their SQL). Someone with DDL rights can still drop one, or on PostgreSQL switch
it off (`ALTER TABLE ... DISABLE TRIGGER`); `guard_problems` names each guard that is missing or
disabled, with its table. `verify_audit` reports them and a system check (audit/checks.py)
refuses to start the site over them.

`EXPECTED` lists, once, every guard the migrations leave installed: a migration that adds or
drops one changes it (tests/audit/test_integrity.py checks it against a migrated database).
"""

from __future__ import annotations

from typing import Any

_AUDIT_TABLES = {"auditevent": "audit_auditevent", "auditcheckpoint": "audit_auditcheckpoint"}
_FLOOR_TABLES = {
    "round": "tables_round",
    "settlementline": "tables_settlementline",
    "meterentry": "tables_meterentry",
    "progressivemeter": "tables_progressivemeter",
    "paytableversion": "tables_paytableversion",
    "paytableedge": "tables_paytableedge",
    "hand": "tables_hand",
    "handplayer": "tables_handplayer",
    "tablesettingsversion": "tables_tablesettingsversion",
    "tablesettingsassignment": "tables_tablesettingsassignment",
}
_COMPLIANCE_FILING = ("ctrfiling",)  # compliance 0007
# compliance 0003; the credit lines, their approvals, markers and repayments: compliance 0006
_COMPLIANCE_APPEND_ONLY = ("cashtransaction", "mtlentry", "ctr") + (
    "creditline",
    "creditlineapproval",
    "marker",
    "markerrepayment",
)
_COMPLIANCE_KEPT = ("patron", "patronday")
# compliance 0008: merges, voided cash, the thresholds' proposals and approvals
_COMPLIANCE_HISTORY = ("patronmerge", "cashvoid", "thresholdproposal", "thresholdapproval")
# compliance 0009: suspicious activity's alerts and cases, all append-only
_SUSPICIOUS = ("alert", "case", "casealert", "casenote", "casedecision")
# reports 0010: the statistical report's investigations and their explanations
_STATISTICAL = ("statisticalinvestigation", "statisticalexplanation")
_ACCOUNTING_TABLES = {
    name: f"accounting_{name}"
    for name in (
        "slip",
        "slipsignature",
        "slipvoid",
        "variancealert",
        "chipdenomination",
        "handoveralert",
    )
}

# accounting 0004: the drop boxes' moves, the count by parts, the count sheet's signatures, the
# signature rules and the rule each slip was made under, all append-only
_ACCOUNTING_HISTORY = (
    "dropboxmove",
    "dropcount",
    "countsheetsignature",
    "signatureruleproposal",
    "signatureruleapproval",
    "slipsteps",
)


def _on(table: str, *names: str) -> dict[str, str]:
    return {f"casino_{name}": table for name in names}


_SQLITE: dict[str, str] = {
    # audit 0006, 0010
    **_on("audit_auditevent", "auditevent_no_update", "auditevent_no_delete", "auditevent_next"),
    **_on("audit_audithead", "audithead_forward", "audithead_no_delete", "audithead_one_row"),
    **_on(
        "audit_auditcheckpoint",
        "auditcheckpoint_no_update",
        "auditcheckpoint_no_delete",
        "auditcheckpoint_chained",
    ),
    # tables 0005, 0007, 0008
    **_on(
        "tables_round",
        "round_void_only",
        "round_no_delete",
        "round_sums_on_close",
        "round_sums_on_insert",
    ),
    **_on(
        "tables_settlementline",
        "settlementline_no_update",
        "settlementline_no_delete",
        "settlementline_round_open",
    ),
    **_on("tables_meterentry", "meterentry_no_update", "meterentry_no_delete", "meterentry_ledger"),
    **_on("tables_progressivemeter", "meter_starts_at_zero", "meter_value_is_ledger"),
    **_on("tables_paytableversion", "paytableversion_no_update", "paytableversion_no_delete"),
    **_on("tables_paytableedge", "paytableedge_no_update", "paytableedge_no_delete"),
    **_on(
        "tables_hand",
        "hand_void_only",
        "hand_no_delete",
        "hand_payoffs_on_finish",
        "hand_settings_approved",
    ),
    **_on(
        "tables_handplayer", "handplayer_no_insert", "handplayer_no_update", "handplayer_no_delete"
    ),
    **_on(
        "tables_tablesettingsversion",
        "tablesettingsversion_no_update",
        "tablesettingsversion_no_delete",
    ),
    **_on(
        "tables_tablesettingsassignment",
        "tablesettingsassignment_no_update",
        "tablesettingsassignment_no_delete",
    ),
    # accounting 0002
    **_on(
        "accounting_slip",
        "slip_in_sequence",
        "slip_inserted_unsigned",
        "slip_replaces_voided",
        "slip_frozen",
        "slip_signed_complete",
        "slip_void_confirmed",
        "slip_no_delete",
    ),
    **_on(
        "accounting_slipsignature",
        "slipsignature_no_update",
        "slipsignature_no_delete",
        "slipsignature_not_creator",
        "slipsignature_in_order",
    ),
    **_on("accounting_slipvoid", "slipvoid_no_update", "slipvoid_no_delete", "slipvoid_in_order"),
    **_on("accounting_variancealert", "variancealert_ack_once", "variancealert_no_delete"),
    **_on("accounting_chipdenomination", "chipdenomination_frozen", "chipdenomination_no_delete"),
    # accounting 0005 and 0006: the shift handover's alerts, append-only
    **_on("accounting_handoveralert", "handoveralert_no_update", "handoveralert_no_delete"),
    # compliance 0003
    **{
        f"casino_{short}_{what}": f"compliance_{short}"
        for short in _COMPLIANCE_APPEND_ONLY + _COMPLIANCE_FILING
        for what in ("no_update", "no_delete")
    },
    **{f"casino_{short}_no_delete": f"compliance_{short}" for short in _COMPLIANCE_KEPT},
    **{
        f"casino_{short}_no_replace": f"compliance_{short}"
        for short in _COMPLIANCE_APPEND_ONLY
        + _COMPLIANCE_KEPT
        + _COMPLIANCE_FILING
        + _COMPLIANCE_HISTORY
    },
    **{
        f"casino_{short}_{what}": f"compliance_{short}"
        for short in _COMPLIANCE_HISTORY
        for what in ("no_update", "no_delete")
    },
    # compliance 0009
    **{
        f"casino_{short}_{what}": f"compliance_{short}"
        for short in _SUSPICIOUS
        for what in ("no_update", "no_delete", "no_replace")
    },
    **{
        f"casino_{short}_{what}": f"reports_{short}"
        for short in _STATISTICAL
        for what in ("no_update", "no_delete", "no_replace")
    },
    # accounting 0004
    **{
        f"casino_{short}_{what}": f"accounting_{short}"
        for short in _ACCOUNTING_HISTORY
        for what in ("no_update", "no_delete", "no_replace")
    },
    # an insert never replaces a guarded row (audit 0010, tables 0013, accounting 0003)
    **{
        f"casino_{short}_no_replace": table
        for tables in (_AUDIT_TABLES, _FLOOR_TABLES, _ACCOUNTING_TABLES)
        for short, table in tables.items()
    },
}

_POSTGRESQL: dict[str, str] = {
    # audit 0006
    **{
        f"casino_{short}_{what}": f"audit_{short}"
        for short in ("auditevent", "auditcheckpoint", "audithead")
        for what in ("no_change", "no_truncate", "guard")
    },
    # tables 0005, 0007; accounting 0002: TRUNCATE refused
    **{
        f"casino_{short}_no_truncate": table
        for tables in (_FLOOR_TABLES, _ACCOUNTING_TABLES)
        for short, table in tables.items()
    },
    **_on("tables_progressivemeter", "progressivemeter_no_truncate", "meter_value_is_ledger"),
    **_on("tables_round", "round_void_only", "round_no_delete", "round_sums"),
    **_on("tables_settlementline", "settlementline_no_change", "settlementline_sums"),
    **_on("tables_meterentry", "meterentry_no_change", "meterentry_ledger"),
    **_on("tables_paytableversion", "paytableversion_frozen"),
    **_on("tables_paytableedge", "paytableedge_no_change"),
    **_on("tables_hand", "hand_guard", "hand_no_delete"),
    **_on("tables_handplayer", "handplayer_guard"),
    **_on("tables_tablesettingsversion", "tablesettingsversion_frozen"),
    **_on("tables_tablesettingsassignment", "tablesettingsassignment_no_change"),
    **_on("accounting_slip", "slip_guard", "slip_no_delete"),
    **_on("accounting_slipsignature", "slipsignature_guard", "slipsignature_no_change"),
    **_on("accounting_slipvoid", "slipvoid_guard", "slipvoid_no_change"),
    **_on("accounting_variancealert", "variancealert_guard", "variancealert_no_delete"),
    **_on("accounting_chipdenomination", "chipdenomination_guard", "chipdenomination_no_delete"),
    **_on("accounting_handoveralert", "handoveralert_no_change"),
    # compliance 0003
    **{
        f"casino_{short}_no_change": f"compliance_{short}"
        for short in _COMPLIANCE_APPEND_ONLY + _COMPLIANCE_FILING
    },
    **{f"casino_{short}_no_delete": f"compliance_{short}" for short in _COMPLIANCE_KEPT},
    **{
        f"casino_{short}_no_truncate": f"compliance_{short}"
        for short in _COMPLIANCE_APPEND_ONLY
        + _COMPLIANCE_KEPT
        + _COMPLIANCE_FILING
        + _COMPLIANCE_HISTORY
    },
    **{f"casino_{short}_no_change": f"compliance_{short}" for short in _COMPLIANCE_HISTORY},
    # compliance 0009
    **{
        f"casino_{short}_{what}": f"compliance_{short}"
        for short in _SUSPICIOUS
        for what in ("no_change", "no_truncate")
    },
    **{
        f"casino_{short}_{what}": f"reports_{short}"
        for short in _STATISTICAL
        for what in ("no_change", "no_truncate")
    },
    # accounting 0004
    **{
        f"casino_{short}_{what}": f"accounting_{short}"
        for short in _ACCOUNTING_HISTORY
        for what in ("no_change", "no_truncate")
    },
}

EXPECTED: dict[str, dict[str, str]] = {"sqlite": _SQLITE, "postgresql": _POSTGRESQL}

# pg_trigger.tgenabled: O fires in ordinary sessions, A always; D never, R only on replicas.
_OFF = {"D": "disabled (ALTER TABLE ... DISABLE TRIGGER)", "R": "enabled only for replication"}


def installed_state(connection: Any) -> dict[str, tuple[str, str]]:
    """{name: (table, state)} of the `casino_*` triggers the database has; state is
    pg_trigger.tgenabled on PostgreSQL, "O" on SQLite (a trigger there is on or absent)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name, tbl_name, 'O' FROM sqlite_master WHERE type = 'trigger' "
                "AND name LIKE 'casino\\_%' ESCAPE '\\'"
            )
        elif connection.vendor == "postgresql":
            cursor.execute(
                "SELECT t.tgname, c.relname, t.tgenabled FROM pg_trigger t "
                "JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal "
                "AND t.tgname LIKE 'casino\\_%%' AND pg_catalog.pg_table_is_visible(c.oid)"
            )
        else:
            return {}
        return {name: (table, str(state)) for name, table, state in cursor.fetchall()}


def guard_problems(connection: Any) -> list[str]:
    """Each guard the migrations install that the database lacks, has on another table, or
    (PostgreSQL) has switched off, naming the trigger and its table."""
    expected = EXPECTED.get(connection.vendor)
    if expected is None:
        return []
    have = installed_state(connection)
    problems = []
    for name, table in sorted(expected.items()):
        if name not in have:
            problems.append(f"guard trigger {name} on {table} is missing (dropped)")
            continue
        on, state = have[name]
        if on != table:
            problems.append(f"guard trigger {name} is on {on}, not on {table}")
        elif state in _OFF:
            problems.append(f"guard trigger {name} on {table} is {_OFF[state]}")
    return problems
