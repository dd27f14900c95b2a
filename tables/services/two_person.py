"""The two-person rule on what one admin drafts and a second approves (paytable versions, table
settings): one person holding two accounts is still one person.

Besides its author, an approver is refused when either account made or changed the other
(`accounts.AccountChange`, bound to the record: created it, changed its roles, details or
password), in either direction:

- the drafter created or changed the approver's account (a second account of the drafter's);
- the approver created or changed the drafter's account (a security officer made an account,
  was later made an admin, and would approve what that account drafts).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q

from accounts.models import AccountChange


def refuse_linked_accounts(
    *, drafter: AbstractBaseUser, approver: AbstractBaseUser, what: str
) -> None:
    """PermissionDenied, naming both accounts, when one made or changed the other."""
    links = set(
        AccountChange.objects.filter(
            Q(account_id=approver.pk, by_id=drafter.pk)
            | Q(account_id=drafter.pk, by_id=approver.pk)
        ).values_list("account_id", flat=True)
    )
    approver_name, drafter_name = approver.get_username(), drafter.get_username()
    if approver.pk in links:
        raise PermissionDenied(
            f"{approver_name}'s account was created or changed by {drafter_name}, who drafted "
            f"{what}: another admin must approve it"
        )
    if drafter.pk in links:
        raise PermissionDenied(
            f"{drafter_name}'s account, which drafted {what}, was created or changed by "
            f"{approver_name}: another admin must approve it"
        )
