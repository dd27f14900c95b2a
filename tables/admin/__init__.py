"""The Django admin for the floor's configuration, and read-only views of what was played.

Writes a service owns go through it, so they are checked and audited in one place:
drafting a paytable version (`paytable_draft`), approving it (`paytable_approve`, the
"Approve selected drafts" action), putting it in force at a table (`paytable_assign`) and
correcting a progressive meter (`meter_correct`). A saved paytable version is never edited (a
change is a new version drafted from it); meter entries, rounds, settlement lines and dealer
sign-ins are never changed or deleted here. Plain configuration (pits, tables, meter settings)
is saved by the admin column by column, and recorded in the audit trail too.

Who may write: the Django model permissions of the role groups (`core.roles`) *and* the admin
role, because the services refuse anyone else; pit bosses and auditors only view. A service's
refusal is shown as a message (and a refused permission is audited), never a server error.

    common.py     money fields, the service-call wrapper, the base admins
    versions.py   an approved version (paytables, table settings): approve, draft from
    paytables.py  paytable versions: their draft form, lines, figures and comparison
    floor.py      pits and tables (assigning a paytable version)
    meters.py     progressive meters and their entries (corrections)
    records.py    rounds, settlement lines, dealer sign-ins, hands (read-only)
    table_settings.py  player-vs-player table settings: their draft form
    limits.py     amount limits per kind of slip and the poker buy-in (`limit_set`)
"""

from __future__ import annotations

from . import floor, limits, meters, paytables, records, table_settings

__all__ = ["floor", "limits", "meters", "paytables", "records", "table_settings"]
