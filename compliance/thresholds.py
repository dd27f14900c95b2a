"""The MTL and CTR thresholds, set by two compliance officers on the record (docs/compliance.md).

One compliance officer proposes new thresholds with a reason (`threshold_propose`); a second,
different one approves them (`threshold_approve`): never the proposer, nor an account the
proposer created or changed, nor the one who created or changed the proposer's account (the
two-person rule of paytables, `tables.services.versions.refuse_linked_accounts`). Both are
rows of their own, appended and bound to the record. The thresholds of the latest approval
decide every cash transaction written from the approval on; what was decided before (an MTL
entry, a CTR) stays as it was. With no approval, the environment's settings
(`CASINO_MTL_THRESHOLD_CENTS`, `CASINO_CTR_THRESHOLD_CENTS`) are in force.

Reading the thresholds in force is one indexed row (the latest approval, by its key, joined to
its proposal); a cash transaction reads them once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.money import dollars
from core.roles import THRESHOLD_SETTERS, Role, has_role, require
from core.strict import text
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.services.versions import refuse_linked_accounts

from .models import ThresholdApproval, ThresholdProposal

# FinCEN's CTR threshold: a casino may report from less (a stricter policy), never from more.
FINCEN_CTR_CENTS = 10_000_00


@dataclass(frozen=True)
class Thresholds:
    mtl_cents: int
    ctr_cents: int
    approval: ThresholdApproval | None = None  # None: the environment's settings


def current() -> Thresholds:
    """The thresholds in force now: the latest approval's, else the settings'. Read on every
    cash transaction, in plain SQL (not compiled anew by the ORM each time)."""
    approval, proposal = ThresholdApproval._meta.db_table, ThresholdProposal._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT p.mtl_cents, p.ctr_cents FROM {approval} a "
            f"JOIN {proposal} p ON p.id = a.proposal_id ORDER BY a.id DESC LIMIT 1"
        )
        row = cursor.fetchone()
    if row is None:
        return Thresholds(
            int(settings.CASINO_MTL_THRESHOLD_CENTS), int(settings.CASINO_CTR_THRESHOLD_CENTS)
        )
    return Thresholds(int(row[0]), int(row[1]))


def in_force() -> Thresholds:
    """The thresholds in force with the approval behind them (for the page)."""
    approval = (
        ThresholdApproval.objects.select_related("proposal", "proposal__proposed_by", "approved_by")
        .order_by("-id")
        .first()
    )
    if approval is None:
        return current()
    return Thresholds(approval.proposal.mtl_cents, approval.proposal.ctr_cents, approval)


def proposals() -> list[ThresholdProposal]:
    """Every proposal, newest first, with its approval (if any)."""
    return list(
        ThresholdProposal.objects.select_related(
            "proposed_by", "approval", "approval__approved_by"
        ).order_by("-proposed_at", "-id")
    )


def _cents(value: Any, field: str) -> int:
    try:
        return parse_cents(value, where=field)
    except EngineError as e:
        raise ServiceError(e.message, field=field) from None


def _forbid_security(by: AbstractBaseUser) -> None:
    if has_role(by, Role.SECURITY):
        raise PermissionDenied("the security role does not set the compliance thresholds")


@transaction.atomic
def threshold_propose(
    *, mtl: Any, ctr: Any, reason: Any, by: AbstractBaseUser
) -> ThresholdProposal:
    """Propose new thresholds (amounts as decimal strings: "3000.00"): the MTL positive and at
    most the CTR threshold, the CTR at most FinCEN's $10,000.00. In force once approved."""
    _forbid_security(by)
    require(by, THRESHOLD_SETTERS, "propose the MTL and CTR thresholds")
    mtl_cents = _cents(mtl, "mtl")
    ctr_cents = _cents(ctr, "ctr")
    if ctr_cents > FINCEN_CTR_CENTS:
        raise ServiceError(
            f"ctr: a CTR is filed from more than {dollars(FINCEN_CTR_CENTS)} (FinCEN); the "
            f"threshold may be lower, not {dollars(ctr_cents)}",
            field="ctr",
        )
    if mtl_cents > ctr_cents:
        raise ServiceError(
            f"mtl: the MTL threshold ({dollars(mtl_cents)}) must be at most the CTR threshold "
            f"({dollars(ctr_cents)})",
            field="mtl",
        )
    said = text(reason, "reason").strip()
    if not said:
        raise ServiceError("reason: say why the thresholds change", field="reason")
    if len(said) > 500:
        raise ServiceError("reason: at most 500 characters", field="reason")
    proposal = ThresholdProposal.objects.create(
        mtl_cents=mtl_cents,
        ctr_cents=ctr_cents,
        proposed_by=by,
        proposed_at=timezone.now(),
        reason=said,
    )
    audit_record(
        actor=by,
        kind=EventKind.THRESHOLDS_PROPOSED,
        obj=proposal,
        data={"mtl_cents": mtl_cents, "ctr_cents": ctr_cents, "reason": said},
    )
    return proposal


@transaction.atomic
def threshold_approve(*, proposal: ThresholdProposal, by: AbstractBaseUser) -> ThresholdApproval:
    """Approve a proposal: a second compliance officer, never its proposer nor an account linked
    to the proposer's. A proposal made before the thresholds last changed is stale (409)."""
    _forbid_security(by)
    require(by, THRESHOLD_SETTERS, "approve the MTL and CTR thresholds")
    proposal = ThresholdProposal.objects.select_for_update().get(pk=proposal.pk)
    if ThresholdApproval.objects.filter(proposal=proposal).exists():
        raise ServiceError(
            "proposal: these thresholds are already approved",
            field="proposal",
            code="already_approved",
            status=409,
        )
    if ThresholdApproval.objects.filter(approved_at__gt=proposal.proposed_at).exists():
        raise ServiceError(
            "proposal: the thresholds changed after this was proposed; propose again",
            field="proposal",
            code="stale",
            status=409,
        )
    if proposal.proposed_by_id == by.pk:
        raise PermissionDenied(
            f"{by.get_username()} proposed these thresholds: a second compliance officer "
            "approves them"
        )
    refuse_linked_accounts(
        drafter=proposal.proposed_by,
        approver=by,
        what="these thresholds",
        who="another compliance officer",
        did="proposed",
    )
    approval = ThresholdApproval.objects.create(
        proposal=proposal, approved_by=by, approved_at=timezone.now()
    )
    audit_record(
        actor=by,
        kind=EventKind.THRESHOLDS_APPROVED,
        obj=approval,
        data={
            "mtl_cents": proposal.mtl_cents,
            "ctr_cents": proposal.ctr_cents,
            "proposed_by": proposal.proposed_by.get_username(),
        },
    )
    return approval
