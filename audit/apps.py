from django.apps import AppConfig


class AuditConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "audit"
    verbose_name = "Audit trail"
    # Sign-in, account, role and token events are written by accounts.signals.

    def ready(self) -> None:
        from . import checks  # noqa: F401  (the anchor's witness off the machine, --deploy)
