"""System checks of the floor's settings: `manage.py check` (and every start) refuses a bad
gaming day or shift setting, instead of the first round that settles."""

from __future__ import annotations

from typing import Any

from django.core.checks import Error, register

from .gaming_day import settings_errors


@register()
def gaming_day_settings(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    return [
        Error(
            message,
            hint="Times are HH:MM in the casino's time zone (CASINO_TIME_ZONE).",
            id="casino.E010",
        )
        for message in settings_errors()
    ]
