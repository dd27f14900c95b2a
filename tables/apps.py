from django.apps import AppConfig


class TablesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = "Casino floor"

    def ready(self) -> None:
        from . import (
            checks,  # noqa: F401  (the gaming day and shift settings)
            tasks,  # noqa: F401  (registers the tasks the services send by name)
        )
