"""The property's signature rules for fills and credits: one admin proposes the roles in order,
a second approves; in force from the approval on, for slips entered from then; a slip entered
before keeps the rule it was made under; each step signed only by its role, nobody twice, never
the slip's creator; refused proposals save nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, transaction

from accounting import signature_rules as sr
from accounting.models import SignatureRuleApproval, SignatureRuleProposal, Slip, SlipSteps
from accounting.services import slip_create, slip_sign, slip_void
from audit.models import AuditEvent
from core.errors import SeparationOfDuties, ServiceError
from tests.helpers import client_for, ok, person, refused, signed_in

pytestmark = pytest.mark.django_db

CHIPS = {"25.00": 8}
FULL_FILL = ["cage", "security", "pit_boss", "dealer"]


def _refused(fn: Any, **kwargs: Any) -> BaseException:
    with pytest.raises((ServiceError, PermissionDenied)) as refusal:
        fn(**kwargs)
    return refusal.value


def _in_force(pit: dict[str, Any], kind: str, steps: list[str]) -> SignatureRuleApproval:
    proposal = sr.rule_propose(
        kind=kind, steps=steps, reason="the property's rules", by=pit["admin"]
    )
    return sr.rule_approve(proposal=proposal, by=pit["admin2"])


def test_two_admins_set_the_rule(pit: dict[str, Any]) -> None:
    proposal = sr.rule_propose(
        kind="fill", steps=FULL_FILL, reason="security carries the chips", by=pit["admin"]
    )
    assert sr.in_force("fill") is None  # not before the approval
    error = _refused(sr.rule_approve, proposal=proposal, by=pit["admin"])
    assert "admin proposed this signature rule: a second admin approves it" in str(error)
    for outsider in ("pitboss", "cage", "security", "auditor"):
        _refused(sr.rule_approve, proposal=proposal, by=pit[outsider])
        _refused(sr.rule_propose, kind="fill", steps=FULL_FILL, reason="x", by=pit[outsider])
    assert not SignatureRuleApproval.objects.exists()
    approval = sr.rule_approve(proposal=proposal, by=pit["admin2"])
    assert sr.in_force("fill") == approval and sr.in_force("credit") is None
    error = _refused(sr.rule_approve, proposal=proposal, by=pit["admin2"])
    assert "already approved" in str(error)
    kinds = list(
        AuditEvent.objects.filter(kind__startswith="signature_rule.").values_list("kind", flat=True)
    )
    assert kinds == ["signature_rule.proposed", "signature_rule.approved"]
    with pytest.raises(DatabaseError), transaction.atomic():
        SignatureRuleProposal.objects.filter(pk=proposal.pk).update(steps=["dealer"])


def test_a_stale_proposal_is_refused(pit: dict[str, Any]) -> None:
    old = sr.rule_propose(kind="credit", steps=["dealer", "cage"], reason="a", by=pit["admin"])
    _in_force(pit, "credit", ["dealer", "security", "cage"])
    error = _refused(sr.rule_approve, proposal=old, by=pit["admin2"])
    assert isinstance(error, ServiceError) and error.code == "stale"


@pytest.mark.parametrize(
    ("kind", "steps", "words"),
    [
        ("drop", ["count"], "a fill or a credit"),
        ("fill", [], "name the roles"),
        ("fill", ["cage", "count"], "signature 2 must be one of"),
        ("fill", ["cage", "cage"], "cage signs a fill once"),
        ("fill", "cage", "name the roles"),
    ],
)
def test_a_wrong_rule_is_refused_naming_it(
    pit: dict[str, Any], kind: str, steps: Any, words: str
) -> None:
    error = _refused(sr.rule_propose, kind=kind, steps=steps, reason="r", by=pit["admin"])
    assert words in str(error)
    assert not SignatureRuleProposal.objects.exists()
    assert "say why" in str(
        _refused(sr.rule_propose, kind="fill", steps=["cage"], reason=" ", by=pit["admin"])
    )


def test_a_fill_signs_by_the_rule_in_force_when_entered(pit: dict[str, Any]) -> None:
    before = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=CHIPS)
    approval = _in_force(pit, "fill", FULL_FILL)
    after = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=CHIPS)
    assert before.signatures_required == 2 and not SlipSteps.objects.filter(slip=before).exists()
    assert after.signatures_required == 4
    assert SlipSteps.objects.get(slip=after).approval == approval
    # The slip made before keeps its rule: the cage, then the dealer.
    slip_sign(slip=before, by=pit["cage"])
    assert slip_sign(slip=before, by=pit["dealer"]).status == Slip.Status.SIGNED
    # The new one: the cage issues, security carries, a pit supervisor receives (not the one
    # who requested it), the dealer confirms; each step only by its role.
    boss2 = pit["pitboss_b"]
    _refused(slip_sign, slip=after, by=pit["security"])  # not yet: the cage first
    slip_sign(slip=after, by=pit["cage"])
    _refused(slip_sign, slip=after, by=pit["dealer"])
    slip_sign(slip=after, by=pit["security"])
    error = _refused(slip_sign, slip=after, by=pit["pitboss"])
    assert isinstance(error, ServiceError) and error.code == "creator_cannot_sign"
    slip_sign(slip=after, by=boss2)
    after = slip_sign(slip=after, by=pit["dealer"])
    assert after.status == Slip.Status.SIGNED
    assert list(after.signatures.values_list("role", flat=True)) == FULL_FILL
    signed = AuditEvent.objects.filter(kind="slip.signed", object_id=str(after.pk))
    assert [e.data["meaning"] for e in signed.order_by("seq")] == [
        "issued by the cage",
        "carried by security",
        "received by the pit supervisor",
        "received at the table",
    ]
    # A newer rule leaves the signed slips as they were made.
    _in_force(pit, "fill", ["cage", "dealer"])
    assert len(sr.steps_of(after)) == 4 and len(sr.steps_of(before)) == 2


def test_one_person_with_several_roles_signs_once(pit: dict[str, Any]) -> None:
    _in_force(pit, "credit", ["dealer", "pit_boss", "cage"])
    both = person("boss_and_cage", "pit_boss", "cage")
    credit = slip_create(table=pit["SC-1"], kind="credit", by=pit["pitboss"], chips=CHIPS)
    slip_sign(slip=credit, by=pit["dealer"])
    slip_sign(slip=credit, by=both)  # as the pit supervisor
    error = _refused(slip_sign, slip=credit, by=both)
    assert isinstance(error, ServiceError) and error.code == "already_signed"
    assert slip_sign(slip=credit, by=pit["cage"]).status == Slip.Status.SIGNED
    # Nobody who signed it confirms its void, whichever role they signed in.
    slip_void(slip=credit, by=pit["cage"], reason="wrong chips")
    with pytest.raises(SeparationOfDuties, match="boss_and_cage signed slip"):
        slip_void(slip=credit, by=both, reason="wrong chips")


def test_security_signs_through_the_api(pit: dict[str, Any]) -> None:
    _in_force(pit, "fill", FULL_FILL)
    fill = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=CHIPS)
    slip_sign(slip=fill, by=pit["cage"])
    seen = ok(client_for(pit["cage"]).get(f"/api/slips/{fill.pk}/"))
    assert seen["next_signature"] == {
        "step": 2,
        "roles": ["security"],
        "meaning": "carried by security",
    }
    body = ok(client_for(pit["security"]).post(f"/api/slips/{fill.pk}/sign/"))
    assert body["signatures"][-1]["meaning"] == "carried by security"
    refused(client_for(pit["security"]).post(f"/api/slips/{fill.pk}/sign/"), 403)


def test_the_page_two_admins_use(pit: dict[str, Any]) -> None:
    admin, admin2 = signed_in("admin"), signed_in("admin2")
    url = "/accounting/signature-rules/"
    page = admin.get(url).content.decode()
    assert "issued by the cage" in page and "the default" in page
    form = {"action": "propose", "kind": "fill", "step_1": "cage", "step_2": "cage", "reason": "r"}
    page = admin.post(url, form)
    assert page.status_code == 400 and "cage signs a fill once" in page.content.decode()
    assert not SignatureRuleProposal.objects.exists()
    form = {**form, "step_2": "security", "step_3": "dealer"}
    assert admin.post(url, form).status_code == 303
    proposal = SignatureRuleProposal.objects.get()
    assert proposal.steps == ["cage", "security", "dealer"]
    mine = admin.post(url, {"action": "approve", "proposal": str(proposal.pk)})
    assert mine.status_code == 403 and "a second admin approves it" in mine.content.decode()
    assert admin2.post(url, {"action": "approve", "proposal": str(proposal.pk)}).status_code == 303
    assert "carried by security" in admin2.get(url).content.decode()
    for outsider in ("pitboss", "cage", "security", "count"):
        assert signed_in(outsider).get(url).status_code == 403
