from typing import Any

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model

        from audit.binding import register

        from . import checks, signals  # noqa: F401  (key checks; account and sign-in auditing)

        # An account's sign-in and roles decide who may approve and sign money: the record
        # binds them (the password by its hash's hash, never the hash itself).
        register(
            get_user_model(),
            ("username", "is_active", "is_staff", "is_superuser", "password"),
            hashed=("password",),
            computed={"roles": _roles},
            reread=True,
        )


def _roles(user: Any) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))
