from __future__ import annotations

from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "compliance"
    verbose_name = "Cash compliance"

    def ready(self) -> None:
        from accounting.cash import register_cash_check
        from audit.binding import register

        from . import tasks  # noqa: F401  (registers the nightly alerts' task)
        from .models import CaseDecision, CaseNote, Patron
        from .services import buy_in_check, identification_digest

        # Every cash buy-in passes the compliance check before its slip is written.
        register_cash_check(buy_in_check)
        # A patron's identification is bound only as its salted digest: no event's data (so no
        # search word, no export) holds a name, a date of birth or an ID number.
        register(Patron, Patron.AUDIT_BOUND, computed={"identification": identification_digest})
        # A case's notes and reasons are the officer's free text (which may name the person):
        # bound by their digest, so they never reach an event's data or search words.
        register(CaseNote, CaseNote.AUDIT_BOUND, hashed={"text"})
        register(CaseDecision, CaseDecision.AUDIT_BOUND, hashed={"reason"})
