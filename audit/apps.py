from typing import Any

from django.apps import AppConfig
from django.db.backends.signals import connection_created


def recursive_triggers(sender: Any, connection: Any, **kwargs: Any) -> None:
    """SQLite: every connection fires delete triggers for the rows a REPLACE removes, so an
    `INSERT OR REPLACE` meets the same no-delete guards as a DELETE (the `casino_*_no_replace`
    triggers refuse it on a connection that turned this off)."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA recursive_triggers = ON")


class AuditConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "audit"
    verbose_name = "Audit trail"
    # Sign-in, account, role and token events are written by accounts.signals.

    def ready(self) -> None:
        from . import checks  # noqa: F401  (the witness off the machine; the guard triggers)

        connection_created.connect(recursive_triggers, dispatch_uid="audit.recursive_triggers")
