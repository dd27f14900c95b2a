"""A pit boss's sign-off typed at a dealer's tablet: name and password checked without telling
anything about any account, on a limit of its own.

The dealer stays signed in; a pit boss types their name and password to approve a large
payout. Every failure gets one answer (`REFUSED`), whatever failed: a name that is no account
or an inactive one, a wrong password, an account that is not a pit boss, the dealer at the
tablet, a pit boss who dealt the round, a locked account. So the form cannot be used to learn
whose password is right or who holds which role.

Its failures are not sign-ins: they never go through Django's `authenticate` and never count
toward the named account's lockout (a dealer typing wrong names cannot lock the pit boss out of
everything). They count on their own limit instead, per dealer at the tablet and per client
address (accounts.lockout's store, under keys no account can have): after
CASINO_SIGN_OFF_FAILURES failures within CASINO_LOCKOUT_WINDOW_MINUTES the sign-off at that
tablet is refused without checking anything until the window has passed; the pit boss can
still approve from the dashboard, signed in as themselves. Each failure is on the audit chain,
once: a wrong or unfit account as `round.approval_refused` (at most the limit per window and
dealer); a pit boss whose name and password are right but who took part in the round (the
service's separation-of-duties refusal) as a refused permission naming them, the action and the
round (`duties_refused`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import models, transaction
from django.http import HttpRequest

from audit.kinds import EventKind
from audit.services import audit_record, audit_refused
from core.errors import SeparationOfDuties
from core.roles import Role, has_role

from .clientip import client_ip
from .lockout import count_failure, failures, is_locked

REFUSED = (
    "That name and password cannot sign off this payout: nothing was paid. "
    "The sign-off needs a pit boss's own name and password (not the dealer's)."
)


class SignOffRefused(Exception):
    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _keys(request: HttpRequest) -> tuple[str, str]:
    dealer = getattr(request.user, "pk", None)
    return f"sign-off:dealer:{dealer}", f"sign-off:ip:{client_ip(request)}"


def blocked_message() -> str:
    minutes = settings.CASINO_LOCKOUT_WINDOW_MINUTES
    return (
        f"Too many failed sign-offs at this tablet: it takes none for up to {minutes} minutes. "
        "Nothing was paid; a pit boss can approve the payout from the dashboard."
    )


def approver(
    request: HttpRequest,
    *,
    name: str,
    password: str,
    not_by: Iterable[Any],
    obj: models.Model,
) -> Any:
    """The active pit boss named `name` whose password is `password` and who is none of the
    accounts `not_by` (their ids); `SignOffRefused` otherwise (`REFUSED`, or the limit's
    message), after counting and recording the failure against `obj`."""
    keys = _keys(request)
    limit = settings.CASINO_SIGN_OFF_FAILURES
    if any(failures(key) >= limit for key in keys):
        raise SignOffRefused(blocked_message(), status=429)
    name = str(name or "")[:150]
    user = get_user_model().objects.filter(username=name, is_active=True).first() if name else None
    if user is None or is_locked(name):
        make_password(password)  # as long as a real check: the answer's time tells nothing
        right = False
    else:
        right = check_password(password, user.password)  # never upgrades (no write)
    excluded = {pk for pk in not_by if pk is not None}
    if right and user is not None and has_role(user, Role.PIT_BOSS) and user.pk not in excluded:
        return user
    ip = client_ip(request)
    with transaction.atomic():
        counted = max(count_failure(key, ip) for key in keys)
        audit_record(
            actor=request.user,
            kind=EventKind.ROUND_APPROVAL_REFUSED,
            obj=obj,
            bind_obj=False,  # the round is unchanged
            data={
                "approver": user.get_username() if user is not None else None,
                "ip": ip,
                "failures_in_window": counted,
                "limit": limit,
            },
        )
    raise SignOffRefused(REFUSED)


def duties_refused(
    request: HttpRequest, *, user: Any, refusal: SeparationOfDuties
) -> SignOffRefused:
    """The sign-off's answer when `user` (a pit boss whose name and password were right) took
    part in the round: counted on the sign-off's limit like any failure and recorded once, as
    a refused permission in `user`'s name with the action, the round and the tablet's dealer.
    Call it once the refused approval's transaction has rolled back."""
    ip = client_ip(request)
    with transaction.atomic():
        for key in _keys(request):
            count_failure(key, ip)
        audit_refused(
            actor=user,
            method=request.method or "",
            path=request.path,
            reason=refusal.message,
            action=refusal.action,
            about={**refusal.about, "at_tablet_of": request.user.get_username()},
            table_name=refusal.table_name,
        )
    return SignOffRefused(REFUSED)
