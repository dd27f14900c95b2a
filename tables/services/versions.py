"""The one flow of an approved version (`tables.models.ApprovedVersion`: paytable versions,
table settings versions): drafted by one admin, approved by a second, then put in force at a
table for what starts from then on.

- A draft is the next version number of its name, checked by its kind's service before it gets
  here, and recorded with its content (`version_draft`).
- The approver is an admin other than its author, and not the security role; nor an account
  linked to the author's (below). An approved version is final (`version_approve`).
- Only an approved version of the table's game is put in force (`version_for_table`); what
  "in force" means is the kind's own (a paytable on the table's row, a settings assignment).

The two-person rule: one person holding two accounts is still one person. Besides its author,
an approver is refused when either account made or changed the other
(`accounts.AccountChange`, bound to the record: created it, changed its roles, details or
password), in either direction:

- the drafter created or changed the approver's account (a second account of the drafter's);
- the approver created or changed the drafter's account (a security officer made an account,
  was later made an admin, and would approve what that account drafts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q
from django.utils import timezone

from accounts.models import AccountChange
from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import ADMINS, Role, has_role, require
from tables.models import ApprovedVersion, Table

from . import ServiceError

V = TypeVar("V", bound=ApprovedVersion)


@dataclass(frozen=True)
class VersionKind(Generic[V]):
    """What one kind of approved version is called, and how it is recorded."""

    model: type[V]
    one: str  # in "draft <one>", "<one> must be approved by a second admin"
    many: str  # in "the security role does not approve <many>"
    its: str  # "its" or "their" author
    drafted: EventKind
    approved: EventKind
    field: str  # the field a refused assignment names
    wrong_game: str  # "{version} is not ... {game}"


def refuse_linked_accounts(
    *,
    drafter: AbstractBaseUser,
    approver: AbstractBaseUser,
    what: str,
    who: str = "another admin",
    did: str = "drafted",
) -> None:
    """PermissionDenied, naming both accounts, when one made or changed the other: the second
    person must not be someone the first set up (or the other way round). `who` names who may
    approve instead, `did` what the first did (drafted, entered)."""
    links = set(
        AccountChange.objects.filter(
            Q(account_id=approver.pk, by_id=drafter.pk)
            | Q(account_id=drafter.pk, by_id=approver.pk)
        ).values_list("account_id", flat=True)
    )
    approver_name, drafter_name = approver.get_username(), drafter.get_username()
    if approver.pk in links:
        raise PermissionDenied(
            f"{approver_name}'s account was created or changed by {drafter_name}, who {did} "
            f"{what}: {who} must approve it"
        )
    if drafter.pk in links:
        raise PermissionDenied(
            f"{drafter_name}'s account, which {did} {what}, was created or changed by "
            f"{approver_name}: {who} must approve it"
        )


def version_draft(
    kind: VersionKind[V],
    *,
    author: AbstractBaseUser,
    game: str,
    name: str,
    content: dict[str, Any],
    based_on: V | None,
) -> V:
    """Record a checked draft (its `content` fields), the next version of `name`. Call it in
    the drafting service's transaction, after its checks."""
    model = kind.model
    last = model.objects.filter(game=game, name=name).aggregate(m=Max("version"))["m"] or 0
    version = model.objects.create(
        game=game,
        name=name,
        version=last + 1,
        drafted_by=author,
        based_on=based_on,
        **content,
    )
    audit_record(
        actor=author,
        kind=kind.drafted,
        obj=version,
        data={"game": game, "name": name, "version": version.version, **content},
    )
    return version


def version_approve(kind: VersionKind[V], *, version: V, approver: AbstractBaseUser) -> V:
    """Approve a draft: a second admin, never its author, nor an account its author created or
    changed, nor the one who created or changed its author's account. The security role never
    approves. Call it in the approving service's transaction."""
    if has_role(approver, Role.SECURITY):
        raise PermissionDenied(f"the security role does not approve {kind.many}")
    require(approver, ADMINS, f"approve {kind.one}")
    version = kind.model.objects.select_for_update().get(pk=version.pk)
    if version.is_approved:
        raise ServiceError(f"{version} is already approved", code="already_approved", status=409)
    if version.drafted_by_id == approver.pk:  # type: ignore[attr-defined]
        raise PermissionDenied(
            f"{kind.one} must be approved by a second admin, not {kind.its} author"
        )
    drafter = version.drafted_by  # type: ignore[attr-defined]
    refuse_linked_accounts(drafter=drafter, approver=approver, what=str(version))
    version.status = ApprovedVersion.Status.APPROVED
    version.approved_by = approver  # type: ignore[attr-defined]
    version.approved_at = timezone.now()
    version.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        actor=approver,
        kind=kind.approved,
        obj=version,
        data={
            "game": version.game,
            "name": version.name,
            "version": version.version,
            "drafted_by": drafter.get_username(),
        },
    )
    return version


def version_for_table(
    kind: VersionKind[V], *, table: Table, version: V, by: AbstractBaseUser
) -> tuple[Table, V]:
    """The table (locked) and the version as stored, once checked: an admin puts an approved
    version of the table's game in force. Call it in the assigning service's transaction."""
    require(by, ADMINS, f"assign {kind.one}")
    table = Table.objects.select_for_update().get(pk=table.pk)
    version = kind.model.objects.get(pk=version.pk)  # the stored status, not a stale copy
    if not version.is_approved:
        raise ServiceError(f"{version} is not approved yet", field=kind.field)
    if version.game != table.game:
        raise ServiceError(
            kind.wrong_game.format(version=version, game=table.get_game_display()),
            field=kind.field,
        )
    return table, version
