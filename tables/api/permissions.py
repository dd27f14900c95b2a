"""Who may call what: each view lists the roles allowed per action, checked up front.

`ActionRoles` refuses a caller without one of the roles the view lists for the action (an
action missing from the list is refused to everyone: fail closed). `RoundAccess` adds the
per-round rule: playing a round needs the dealer signed in at its table, and a dealer reads
only the rounds of the table they are signed in to. The services check the dealer again under
the row lock, so a sign-out between the two checks still refuses the step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from core.roles import FLOOR_ROLES, OVERSIGHT, Role, has_any_role, has_role, require, role_names
from tables.models import DealerSession, Hand, Round, Table

# Round and hand actions that change them: only the dealer signed in at the table.
PLAY_ACTIONS = frozenset({"deal", "decide", "dealer", "settle", "back", "step", "finish"})
# Round actions a pit boss takes at any table (the services check the role again).
PIT_BOSS_ACTIONS = frozenset({"approve", "cancel", "void", "void_approve", "void_withdraw"})


def action_key(view: Any, request: Request) -> str:
    """The viewset action (`list`, `settle`, ...) or, for a plain APIView, the HTTP method."""
    return getattr(view, "action", None) or (request.method or "").lower()


def is_signed_in_at(user: AbstractBaseUser | AnonymousUser, table: Table | int) -> bool:
    if not has_role(user, Role.DEALER):
        return False
    table_id = table.pk if isinstance(table, Table) else table
    return DealerSession.objects.filter(
        table_id=table_id, dealer_id=user.pk, ended_at__isnull=True
    ).exists()


class ActionRoles(BasePermission):
    """The caller holds one of `view.roles[action]` (see `action_key`); `view.action_names`
    may name the action in words for the refusal message. OPTIONS is open to every role; a
    method the view does not have is left to answer 405."""

    message = "you may not do this"

    def has_permission(self, request: Request, view: Any) -> bool:
        if not hasattr(view, (request.method or "").lower()):
            return True  # no such method here: the view answers 405
        roles_by_action: Mapping[str, tuple[Role, ...]] = getattr(view, "roles", {})
        key = action_key(view, request)
        if key in ("metadata", "options"):  # the floor, and whoever may call one of its actions
            mentioned = [r for rs in roles_by_action.values() for r in rs]
            allowed = tuple(dict.fromkeys([*FLOOR_ROLES, *mentioned]))
        else:
            allowed = roles_by_action.get(key, ())
        what = getattr(view, "action_names", {}).get(key, key.replace("_", " "))
        try:
            require(
                request.user,
                allowed,
                what,
                message=(
                    f"{what}: only for the {role_names(allowed)} role"
                    if allowed
                    else f"{what}: not allowed"
                ),
            )
        except PermissionDenied as refused:
            self.message = str(refused)  # the API's error handler records the refusal
            return False
        return True


class RoundAccess(BasePermission):
    """Per round: play only as the dealer signed in at its table; read as pit boss, admin,
    auditor, or as the dealer signed in at its table."""

    message = "you may not access this round"

    def has_object_permission(self, request: Request, view: Any, obj: Round | Hand) -> bool:
        user = request.user
        key = action_key(view, request)
        if key in PIT_BOSS_ACTIONS and has_role(user, Role.PIT_BOSS):
            return True
        if key not in PLAY_ACTIONS | PIT_BOSS_ACTIONS and has_any_role(user, OVERSIGHT):
            return True
        signed_in = getattr(obj, "caller_signed_in", None)  # annotated by `round_to_play`
        if signed_in is None:
            signed_in = is_signed_in_at(user, obj.table_id)
        elif signed_in:
            signed_in = has_role(user, Role.DEALER)
        if signed_in:
            return True
        self.message = f"{user.get_username()} is not signed in at {obj.table}"
        return False
