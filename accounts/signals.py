"""Every account, role, password and token change on the audit chain, whoever makes it (the
admin's user pages, a management command, the API), with who did it and from where; sign-in
failures counted for the lockout; tokens revoked on sign-out.

The actor is the signed-in user of the current request (accounts.middleware), or nobody (a
command run on the server, recorded as "system"). A change made by another account is also
remembered in `AccountChange`, for the paytable approval rule.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save
from django.dispatch import receiver

from audit.kinds import EventKind
from audit.services import audit_record

from .authentication import revoke_tokens
from .clientip import client_ip
from .lockout import clear_failures, record_failure
from .middleware import current_request
from .models import AccountChange, ApiToken

User = get_user_model()
WATCHED = ("username", "first_name", "last_name", "email", "is_active", "is_staff", "is_superuser")


def _actor() -> tuple[Any, dict[str, Any]]:
    """(the acting user or None, the request's context for the event's data)."""
    request = current_request.get()
    if request is None:
        return None, {"via": "system"}
    user = getattr(request, "user", None)
    acting = user if user is not None and user.is_authenticated else None
    return acting, {"via": request.path, "ip": client_ip(request)}


def _record(account: Any, kind: str, event: str, data: dict[str, Any]) -> None:
    actor, context = _actor()
    # The change the two-person rule reads is bound to its event, so it cannot be deleted or
    # re-attributed unseen.
    change = AccountChange.objects.create(account=account, by=actor, kind=kind)
    audit_record(
        actor=actor,
        actor_name=None if actor is not None else "system" if context["via"] == "system" else "",
        kind=event,
        obj=account,
        data={"username": account.get_username(), **data, **context},
        bind=[change],
    )


# --- accounts and roles -------------------------------------------------------------------------


@receiver(pre_save, sender=User)
def _remember_before(sender: Any, instance: Any, **kwargs: Any) -> None:
    before = None
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return  # signing in: nothing to compare
    if instance.pk is not None:
        before = sender.objects.filter(pk=instance.pk).values(*WATCHED, "password").first()
    instance._audit_before = before


@receiver(post_save, sender=User)
def _account_saved(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return  # signing in is recorded as auth.logged_in
    before = getattr(instance, "_audit_before", None)
    instance._audit_before = None
    if created or before is None:
        _record(
            instance,
            AccountChange.Kind.CREATED,
            EventKind.ACCOUNT_CREATED,
            {f: getattr(instance, f) for f in WATCHED if f != "username"}
            | {"usable_password": instance.has_usable_password()},
        )
        return
    changed = {
        f: [before[f], getattr(instance, f)] for f in WATCHED if before[f] != getattr(instance, f)
    }
    if changed:
        _record(
            instance, AccountChange.Kind.CHANGED, EventKind.ACCOUNT_CHANGED, {"changed": changed}
        )
    if before["password"] != instance.password:
        _record(
            instance,
            AccountChange.Kind.PASSWORD,
            EventKind.ACCOUNT_PASSWORD_SET,
            {"usable_password": instance.has_usable_password()},
        )
        revoke_tokens(instance, "password changed")


@receiver(m2m_changed, sender=User.groups.through)
def _roles_changed(sender: Any, instance: Any, action: str, reverse: bool, **kwargs: Any) -> None:
    if action == "pre_clear":
        instance._roles_before = sorted(instance.groups.values_list("name", flat=True))
        return
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if reverse:  # a group's members changed (group.user_set): audit each account
        for user in User.objects.filter(pk__in=kwargs.get("pk_set") or ()):
            _roles_event(user, action, [instance.name])
        return
    names = list(
        Group.objects.filter(pk__in=kwargs.get("pk_set") or ()).values_list("name", flat=True)
    )
    if action == "post_clear":
        names = getattr(instance, "_roles_before", [])
    _roles_event(instance, action, names)


def _roles_event(user: Any, action: str, names: list[str]) -> None:
    if not names:
        return
    if hasattr(user, "_role_names"):
        del user._role_names  # core.roles.has_role's cache
    roles = sorted(user.groups.values_list("name", flat=True))
    change = {"added": sorted(names)} if action == "post_add" else {"removed": sorted(names)}
    _record(
        user, AccountChange.Kind.ROLES, EventKind.ACCOUNT_ROLES_CHANGED, {**change, "roles": roles}
    )


# --- tokens ----------------------------------------------------------------------------------


@receiver(post_save, sender=ApiToken)
def _token_issued(sender: Any, instance: ApiToken, created: bool, **kwargs: Any) -> None:
    # The event binds the token's row (its digest, user, issue time): the authentication
    # accepts a token only as this event records it. A token is never changed after.
    if created:
        actor, context = _actor()
        audit_record(
            actor=actor or instance.user,
            kind=EventKind.TOKEN_ISSUED,
            obj=instance,
            data={"username": instance.user.get_username(), **context},
        )


@receiver(post_delete, sender=ApiToken)
def _token_revoked(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
    actor, context = _actor()
    audit_record(
        actor=actor,
        actor_name=None if actor is not None else "system",
        kind=EventKind.TOKEN_REVOKED,
        obj=instance,
        bind_obj=False,
        unbind=[instance],  # the row is gone: the record says so
        data={
            "username": instance.user.get_username(),
            "reason": getattr(instance, "_revoke_reason", "revoked"),
            **context,
        },
    )


# --- signing in and out ----------------------------------------------------------------------


@receiver(user_login_failed)
def _login_failed(
    sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
) -> None:
    record_failure(credentials.get("username", ""), client_ip(request) if request else "")


@receiver(user_logged_in)
def _logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    clear_failures(user.get_username())
    audit_record(
        actor=user,
        kind=EventKind.AUTH_LOGGED_IN,
        data={"ip": client_ip(request) if request is not None else ""},
    )


@receiver(user_logged_out)
def _logged_out(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        audit_record(actor=user, kind=EventKind.AUTH_LOGGED_OUT, data={})
        revoke_tokens(user, "signed out")
