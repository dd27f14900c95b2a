"""Sign-in failures go to the audit trail (who tried, from where; never the password)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.dispatch import receiver

from .services import audit_record


@receiver(user_login_failed)
def _login_failed(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
) -> None:
    audit_record(
        actor=None,
        actor_name=str(credentials.get("username", ""))[:150],
        kind="auth.login_failed",
        data={
            "username": credentials.get("username", ""),
            "ip": request.META.get("REMOTE_ADDR", "") if request is not None else "",
        },
    )


@receiver(user_logged_in)
def _logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    audit_record(
        actor=user,
        kind="auth.logged_in",
        data={"ip": request.META.get("REMOTE_ADDR", "") if request is not None else ""},
    )


@receiver(user_logged_out)
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        audit_record(actor=user, kind="auth.logged_out", data={})
