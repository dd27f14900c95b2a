"""The property's signature rules for fills and credits: which roles sign, in order (the cage
issues, security carries, the pit supervisor receives, the dealer confirms; a credit the other
way), set by two admins on the record.

One admin proposes a rule for a kind with a reason (`rule_propose`); a second, different admin
approves it (`rule_approve`): never the proposer, nor an account linked to the proposer's (the
two-person rule of paytables and of the compliance thresholds). Both are rows of their own,
appended and bound to the record. A fill or credit entered from the approval on carries that
rule (`SlipSteps`); one entered before keeps the rule it was made under. With no approval for a
kind, `rules.SIGN_STEPS` is in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.roles import ADMINS, Role, require
from core.strict import text
from tables.services.versions import refuse_linked_accounts

from . import rules
from .models import SignatureRuleApproval, SignatureRuleProposal, Slip

RULE_KINDS = (rules.FILL, rules.CREDIT)


@dataclass(frozen=True)
class Step:
    roles: tuple[Role, ...]
    meaning: str


def default_steps(kind: str) -> list[Step]:
    return [
        Step(tuple(allowed), rules.STEP_NAMES[kind][i])
        for i, allowed in enumerate(rules.SIGN_STEPS[kind])
    ]


def rule_steps(kind: str, roles: list[str]) -> list[Step]:
    return [Step((Role(r),), rules.RULE_MEANINGS[kind][r]) for r in roles]


def in_force(kind: str) -> SignatureRuleApproval | None:
    """The latest approval of a rule for `kind` (None: `rules.SIGN_STEPS`)."""
    if kind not in RULE_KINDS:
        return None
    return (
        SignatureRuleApproval.objects.filter(proposal__kind=kind)
        .select_related("proposal", "proposal__proposed_by", "approved_by")
        .order_by("-approved_at", "-id")
        .first()
    )


def steps_for_new(kind: str) -> tuple[list[Step], SignatureRuleApproval | None]:
    """The steps a slip of `kind` entered now signs by, and the approval behind them."""
    approval = in_force(kind)
    if approval is None:
        return default_steps(kind), None
    return rule_steps(kind, approval.proposal.steps), approval


def steps_of(slip: Slip) -> list[Step]:
    """The steps this slip signs by: the rule it was entered under, else the default."""
    if slip.kind in RULE_KINDS:
        try:
            made_under = slip.rule_steps
        except Slip.rule_steps.RelatedObjectDoesNotExist:
            made_under = None
        if made_under is not None:
            return rule_steps(slip.kind, made_under.steps)
    return default_steps(slip.kind)


def describe(kind: str, roles: list[str]) -> str:
    """["cage", "security"] -> "cage (issued by the cage), then security (carried by security)"."""
    return ", then ".join(
        f"{Role(r).label.lower()} ({rules.RULE_MEANINGS[kind][r]})" for r in roles
    )


def _parse_steps(kind: Any, steps: Any) -> tuple[str, list[str]]:
    if kind not in RULE_KINDS:
        raise ServiceError(
            f"kind: a signature rule is for a fill or a credit, not {kind!r}", field="kind"
        )
    allowed = {r.value: r for r in rules.RULE_ROLES}
    names = ", ".join(str(r.label).lower() for r in rules.RULE_ROLES)
    if not isinstance(steps, list | tuple) or not steps:
        raise ServiceError(
            f"steps: name the roles that sign a {kind}, in order (of {names})", field="steps"
        )
    if len(steps) > len(rules.RULE_ROLES):
        raise ServiceError(f"steps: at most {len(rules.RULE_ROLES)} signatures", field="steps")
    seen: list[str] = []
    for i, value in enumerate(steps, start=1):
        if value not in allowed:
            raise ServiceError(
                f"steps: signature {i} must be one of {names}, not {value!r}", field="steps"
            )
        if value in seen:
            raise ServiceError(
                f"steps: {allowed[value].label.lower()} signs a {kind} once, not twice",
                field="steps",
            )
        seen.append(value)
    return kind, seen


@transaction.atomic
def rule_propose(
    *, kind: Any, steps: Any, reason: Any, by: AbstractBaseUser
) -> SignatureRuleProposal:
    """Propose the roles that sign a fill or a credit, in order; in force once approved."""
    require(by, ADMINS, "propose a slip signature rule")
    kind, roles = _parse_steps(kind, steps)
    said = text(reason, "reason").strip()
    if not said:
        raise ServiceError("reason: say why the signatures change", field="reason")
    if len(said) > 500:
        raise ServiceError("reason: at most 500 characters", field="reason")
    proposal = SignatureRuleProposal.objects.create(
        kind=kind, steps=roles, reason=said, proposed_by=by, proposed_at=timezone.now()
    )
    audit_record(
        actor=by,
        kind=EventKind.SIGNATURE_RULE_PROPOSED,
        obj=proposal,
        data={"kind": kind, "steps": roles, "reason": said},
    )
    return proposal


@transaction.atomic
def rule_approve(*, proposal: SignatureRuleProposal, by: AbstractBaseUser) -> SignatureRuleApproval:
    """Approve a proposal: a second admin, never its proposer nor an account linked to the
    proposer's. A proposal made before the kind's rule last changed is stale (409)."""
    require(by, ADMINS, "approve a slip signature rule")
    proposal = SignatureRuleProposal.objects.select_for_update().get(pk=proposal.pk)
    if SignatureRuleApproval.objects.filter(proposal=proposal).exists():
        raise ServiceError(
            "proposal: this signature rule is already approved",
            field="proposal",
            code="already_approved",
            status=409,
        )
    if SignatureRuleApproval.objects.filter(
        proposal__kind=proposal.kind, approved_at__gt=proposal.proposed_at
    ).exists():
        raise ServiceError(
            f"proposal: the {proposal.kind} signature rule changed after this was proposed; "
            "propose again",
            field="proposal",
            code="stale",
            status=409,
        )
    if proposal.proposed_by_id == by.pk:
        raise PermissionDenied(
            f"{by.get_username()} proposed this signature rule: a second admin approves it"
        )
    refuse_linked_accounts(
        drafter=proposal.proposed_by, approver=by, what="this signature rule", did="proposed"
    )
    approval = SignatureRuleApproval.objects.create(
        proposal=proposal, approved_by=by, approved_at=timezone.now()
    )
    audit_record(
        actor=by,
        kind=EventKind.SIGNATURE_RULE_APPROVED,
        obj=approval,
        data={
            "kind": proposal.kind,
            "steps": proposal.steps,
            "proposed_by": proposal.proposed_by.get_username(),
        },
    )
    return approval
