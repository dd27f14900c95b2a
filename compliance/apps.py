from __future__ import annotations

from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "compliance"
    verbose_name = "Cash compliance"

    def ready(self) -> None:
        from accounting.cash import register_cash_check, register_markers_issued, register_void_hook
        from audit.binding import register
        from audit.verify import register_derived_check

        from . import tasks  # noqa: F401  (registers the nightly alerts' task)
        from .credit import markers_issued
        from .models import CaseDecision, CaseNote, CtrFiling, Patron
        from .services import buy_in_check, identification_digest
        from .voids import cash_void, patron_day_problems

        # Every cash buy-in passes the compliance check before its slip is written.
        register_cash_check(buy_in_check)
        # The markers issued at a table are in the drop its count expects.
        register_markers_issued(markers_issued)
        # A voided buy-in's cash stops counting in its patron's day (compliance.voids).
        register_void_hook(cash_void)
        # Each patron's day is summed again from its transactions (through merges and voids).
        register_derived_check("patrons' days", patron_day_problems)
        # A patron's identification is bound only as its salted digest: no event's data (so no
        # search word, no export) holds a name, a date of birth or an ID number.
        register(Patron, Patron.AUDIT_BOUND, computed={"identification": identification_digest})
        # A filing's note is free text an officer types (it may name the person): bound as
        # its digest only.
        register(CtrFiling, CtrFiling.AUDIT_BOUND, hashed=("note",))
        # A case's notes and reasons are the officer's free text (which may name the person):
        # bound by their digest, so they never reach an event's data or search words.
        register(CaseNote, CaseNote.AUDIT_BOUND, hashed={"text"})
        register(CaseDecision, CaseDecision.AUDIT_BOUND, hashed={"reason"})
