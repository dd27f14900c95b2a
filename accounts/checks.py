"""System checks: with DEBUG off the secret and audit keys must be set, and be neither the
development default nor (the audit key) shorter than 32 bytes: a missing or known key would
sign sessions or checkpoints with a key anyone knows. The settings decide (casino.settings
`_key`); these checks report it, and every command that runs them refuses to start."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register


@register()
def keys_are_set(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    problems: dict[str, str] = getattr(settings, "KEY_PROBLEMS", {})
    errors = []
    for name in getattr(settings, "MISSING_KEYS", []):
        problem = problems.get(name, "is not set")
        if problem == "is not set":
            errors.append(
                Error(
                    f"{name} is not set",
                    hint=f"DEBUG is off: set the {name} environment variable (a long random "
                    "value).",
                    id="casino.E001",
                )
            )
        else:
            errors.append(
                Error(
                    f"{name} {problem}",
                    hint=f"DEBUG is off: set {name} to a long random value of its own "
                    "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(48))'`).",
                    id="casino.E002",
                )
            )
    return errors
