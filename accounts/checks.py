"""System checks: with DEBUG off the secret and audit keys must be set (an empty one would
sign sessions or checkpoints with a key anyone knows)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register


@register()
def keys_are_set(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    return [
        Error(
            f"{name} is not set",
            hint=f"DEBUG is off: set the {name} environment variable (a long random value).",
            id="casino.E001",
        )
        for name in getattr(settings, "MISSING_KEYS", [])
    ]
