from django.apps import AppConfig


class ReportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "reports"
    verbose_name = "Hold reports"

    def ready(self) -> None:
        from tables.signals import round_closed

        # A settled, voided or corrected round marks its (day, table) report stale in its own
        # transaction: the round services send the signal and know nothing of the reports.
        round_closed.connect(mark_stale_on_close, dispatch_uid="reports.mark_stale")


def mark_stale_on_close(sender: object, *, round: object, **kwargs: object) -> None:
    from .reporting import mark_stale

    mark_stale(round)  # type: ignore[arg-type]
