from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class AccountingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounting"
    verbose_name = "Table accounting"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from tables.signals import hand_closed, play_starting, round_closed

        round_closed.connect(reconcile_on_change, dispatch_uid="accounting.reconcile")
        hand_closed.connect(reconcile_on_hand, dispatch_uid="accounting.reconcile_hand")
        play_starting.connect(refuse_unless_open, dispatch_uid="accounting.open_for_play")
        # After migrate and after flush (a development or test database): the usual chips, as
        # contenttypes and permissions come back after a flush.
        post_migrate.connect(
            usual_chips_after_migrate, sender=self, dispatch_uid="accounting.chips"
        )


def usual_chips_after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    from .services import ensure_usual_chips

    ensure_usual_chips(using=using)


def reconcile_on_change(sender: Any, round: Any, **kwargs: Any) -> None:
    """A round settled, voided or corrected after its shift was counted changes the hands' win:
    compare again, in the settle's (void's, correction's) transaction, and raise an alert past
    the tolerance."""
    if round.gaming_day is None:
        return
    from .services import reconcile_after_play

    reconcile_after_play(table_id=round.table_id, gaming_day=round.gaming_day, shift=round.shift)


def reconcile_on_hand(sender: Any, hand: Any, **kwargs: Any) -> None:
    """A poker hand finished or voided after its shift was counted changes the hands' win (its
    rake): compare again, in the same transaction."""
    if hand.gaming_day is None:
        return
    from .services import reconcile_after_play

    reconcile_after_play(table_id=hand.table_id, gaming_day=hand.gaming_day, shift=hand.shift)


def refuse_unless_open(sender: Any, table: Any, what: str, **kwargs: Any) -> None:
    """A round or a hand opens only at a table open for play in the current gaming day and
    shift (its opener signed, its closer not): a ServiceError otherwise (409, `table_closed`)."""
    from .opening import require_open

    require_open(table=table, what=what)
