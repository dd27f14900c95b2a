from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class AccountingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounting"
    verbose_name = "Table accounting"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from tables.signals import round_closed

        round_closed.connect(reconcile_on_change, dispatch_uid="accounting.reconcile")
        # After migrate and after flush (a development or test database): the usual chips, as
        # contenttypes and permissions come back after a flush.
        post_migrate.connect(
            usual_chips_after_migrate, sender=self, dispatch_uid="accounting.chips"
        )


def usual_chips_after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    from .services import ensure_usual_chips

    ensure_usual_chips(using=using)


def reconcile_on_change(sender: Any, round: Any, **kwargs: Any) -> None:
    """A round voided or corrected after its shift was counted changes the hands' win: compare
    again, in the void's (or correction's) transaction, and raise an alert past the tolerance."""
    if round.gaming_day is None or not (round.status == "voided" or round.corrects_id):
        return
    from .services import reconcile

    reconcile(table=round.table, gaming_day=round.gaming_day, shift=round.shift)
