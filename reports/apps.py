from django.apps import AppConfig


class ReportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "reports"
    verbose_name = "Hold reports"

    def ready(self) -> None:
        from audit.search import set_text_builder
        from audit.verify import register_derived_check
        from tables.signals import hand_closed, round_closed

        from . import tasks  # noqa: F401  (registers the tasks the services send by name)

        # A settled, voided or corrected round marks its (day, table) report stale in its own
        # transaction: the round services send the signal and know nothing of the reports.
        round_closed.connect(mark_stale_on_close, dispatch_uid="reports.mark_stale")
        hand_closed.connect(mark_hand_stale_on_close, dispatch_uid="reports.mark_hand_stale")
        # The hold summaries are summed from bound rows: `verify_audit` sums them again.
        register_derived_check("hold summaries", hold_summary_problems)
        # The trail's search matches each event's words as the auditor's pages say them.
        set_text_builder(search_words)


def search_words(event: object) -> str:
    from .replay import search_words as words

    return words(event)  # type: ignore[arg-type]


def hold_summary_problems() -> list[str]:
    from .reporting import summary_problems

    return summary_problems()


def mark_stale_on_close(
    sender: object, *, round: object, settled: bool = False, **kwargs: object
) -> None:
    from .reporting import mark_stale

    mark_stale(round, settled=settled)  # type: ignore[arg-type]


def mark_hand_stale_on_close(sender: object, *, hand: object, **kwargs: object) -> None:
    """A finished or voided player-vs-player hand: its (day, table) report is stale."""
    from .reporting import mark_stale

    mark_stale(hand)  # type: ignore[arg-type]
