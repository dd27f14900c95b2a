"""The MTL and CTR thresholds, proposed by one compliance officer and approved by a second on
the record: in force from the approval for what is written from then on (what was decided
before stays), the settings the default until then, each refusal naming the field with
nothing saved, and nobody else proposing or approving."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings

from audit.models import AuditEvent
from audit.verify import verify_record
from compliance import thresholds
from compliance.models import Ctr, MtlEntry, ThresholdApproval, ThresholdProposal
from compliance.services import ctr_threshold, mtl_threshold
from compliance.thresholds import threshold_approve, threshold_propose
from core.errors import ServiceError
from tests.compliance.conftest import buy_in, described, identify
from tests.helpers import person

URL = "/compliance/thresholds/"


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def second(cash: dict[str, Any]) -> Any:
    return person("compliance2", "compliance")


def test_two_officers_change_the_thresholds_from_the_approval_on(
    cash: dict[str, Any], second: Any
) -> None:
    patron = described(cash)
    buy_in(cash, "SC-1", "2500.00", seat=1, patron=patron.number)
    assert not MtlEntry.objects.exists()  # under the setting's $3,000.00
    officer = _client(cash["compliance"])
    response = officer.post(
        URL, {"action": "propose", "mtl": "$2,000.00", "ctr": "8000.00", "reason": "policy"}
    )
    assert response.status_code == 303
    proposal = ThresholdProposal.objects.get()
    assert (proposal.mtl_cents, proposal.ctr_cents) == (2_000_00, 8_000_00)
    assert mtl_threshold() == 3_000_00  # proposed, not in force
    page = officer.get(URL).content.decode()
    assert "waits for a second compliance officer" in page
    with pytest.raises(PermissionDenied, match="a second compliance officer"):
        threshold_approve(proposal=proposal, by=cash["compliance"])
    response = _client(second).post(URL, {"action": "approve", "proposal": str(proposal.pk)})
    assert response.status_code == 303
    assert (mtl_threshold(), ctr_threshold()) == (2_000_00, 8_000_00)
    page = officer.get(URL).content.decode()
    assert '<dd id="mtl">$2,000.00</dd>' in page and '<dd id="ctr">$8,000.00</dd>' in page
    assert "approved by compliance2" in page
    # the earlier buy-in is not logged after the fact; the next ones are decided anew
    assert not MtlEntry.objects.exists()
    buy_in(cash, "LB-1", "100.00", seat=1, patron=patron.number)  # the day: $2,600.00
    assert MtlEntry.objects.count() == 1
    buy_in(cash, "PY-1", "5500.00", seat=1, patron=patron.number)  # $8,100.00: past $8,000.00
    assert Ctr.objects.count() == 1
    kinds = list(AuditEvent.objects.filter(kind__startswith="compliance.thresholds"))
    assert [e.kind for e in kinds] == [
        "compliance.thresholds_proposed",
        "compliance.thresholds_approved",
    ]
    assert verify_record().problems == ()


@override_settings(CASINO_MTL_THRESHOLD_CENTS=2_500_00, CASINO_CTR_THRESHOLD_CENTS=9_000_00)
def test_the_settings_are_in_force_until_an_approval(cash: dict[str, Any]) -> None:
    assert (mtl_threshold(), ctr_threshold()) == (2_500_00, 9_000_00)
    page = _client(cash["compliance"]).get(URL).content.decode()
    assert "$2,500.00" in page and "the casino's settings" in page


def test_reading_the_thresholds_is_one_query(
    cash: dict[str, Any], second: Any, django_assert_num_queries: Any
) -> None:
    proposal = threshold_propose(mtl="2000.00", ctr="9000.00", reason="x", by=cash["compliance"])
    threshold_approve(proposal=proposal, by=second)
    with django_assert_num_queries(1):
        assert thresholds.current().mtl_cents == 2_000_00


def test_a_stale_or_approved_proposal_is_refused(cash: dict[str, Any], second: Any) -> None:
    old = threshold_propose(mtl="2000.00", ctr="9000.00", reason="a", by=cash["compliance"])
    new = threshold_propose(mtl="2500.00", ctr="9500.00", reason="b", by=cash["compliance"])
    threshold_approve(proposal=new, by=second)
    for proposal, code in ((old, "stale"), (new, "already_approved")):
        with pytest.raises(ServiceError) as refused:
            threshold_approve(proposal=proposal, by=second)
        assert refused.value.status == 409 and refused.value.code == code
    assert ThresholdApproval.objects.count() == 1 and mtl_threshold() == 2_500_00


@pytest.mark.parametrize(
    ("given", "field", "words"),
    [
        ({"mtl": "0.00", "ctr": "10000.00"}, "mtl", "mtl"),
        ({"mtl": "-5.00", "ctr": "10000.00"}, "mtl", "mtl"),
        ({"mtl": "abc", "ctr": "10000.00"}, "mtl", "decimal string"),
        ({"mtl": "3000.001", "ctr": "10000.00"}, "mtl", "mtl"),
        ({"mtl": "", "ctr": "10000.00"}, "mtl", "mtl"),
        ({"mtl": "3000.00", "ctr": "xyz"}, "ctr", "decimal string"),
        ({"mtl": "5000.00", "ctr": "4000.00"}, "mtl", "at most the CTR threshold"),
        ({"mtl": "3000.00", "ctr": "12000.00"}, "ctr", "FinCEN"),
        ({"mtl": "3000.00", "ctr": "10000.00", "reason": " "}, "reason", "say why"),
    ],
)
def test_a_refused_proposal_names_the_field_and_saves_nothing(
    cash: dict[str, Any], given: dict[str, str], field: str, words: str
) -> None:
    officer = _client(cash["compliance"])
    events = AuditEvent.objects.count()
    body = {"action": "propose", "reason": "policy", **given}
    response = officer.post(URL, body)
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{field}" in page and words in page
    assert f'name="reason" value="{body["reason"]}"' in page  # the typed values kept
    with pytest.raises(ServiceError) as refused:
        threshold_propose(
            mtl=given["mtl"], ctr=given["ctr"], reason=body["reason"], by=cash["compliance"]
        )
    assert refused.value.field == field
    assert not ThresholdProposal.objects.exists()
    assert AuditEvent.objects.count() == events


def test_an_amount_is_a_decimal_string_never_a_float(cash: dict[str, Any]) -> None:
    for mtl in (3000.5, 3000.0):
        with pytest.raises(ServiceError) as refused:
            threshold_propose(mtl=mtl, ctr="10000.00", reason="x", by=cash["compliance"])
        assert refused.value.field == "mtl"
    assert not ThresholdProposal.objects.exists()


@pytest.mark.parametrize(
    "who", ["dealer", "pitboss", "auditor", "host", "admin", "cage", "count", "security"]
)
def test_only_compliance_officers_set_the_thresholds(
    cash: dict[str, Any], second: Any, who: str
) -> None:
    proposal = threshold_propose(mtl="2000.00", ctr="9000.00", reason="x", by=second)
    client = _client(cash[who])
    assert client.get(URL).status_code == 403
    body = {"action": "propose", "mtl": "1.00", "ctr": "2.00", "reason": "x"}
    assert client.post(URL, body).status_code == 403
    assert client.post(URL, {"action": "approve", "proposal": proposal.pk}).status_code == 403
    with pytest.raises(PermissionDenied):
        threshold_approve(proposal=proposal, by=cash[who])
    assert ThresholdProposal.objects.count() == 1 and not ThresholdApproval.objects.exists()


def test_structuring_is_judged_by_the_thresholds_in_force(
    cash: dict[str, Any], second: Any
) -> None:
    """An approved MTL of $2,000: buy-ins just under it are structuring, and ones just under
    the settings' $3,000 (now over the MTL) are not."""
    from compliance.models import Alert, AlertKind

    proposal = threshold_propose(mtl="2000.00", ctr="9000.00", reason="x", by=cash["compliance"])
    threshold_approve(proposal=proposal, by=second)
    over = identify(cash, described(cash))
    buy_in(cash, "SC-1", "2900.00", seat=1, patron=over.number)
    buy_in(cash, "LB-1", "2950.00", seat=2, patron=over.number)
    assert not Alert.objects.filter(patron=over).exists()
    under = identify(cash, described(cash), id_number="D7654321")
    buy_in(cash, "SC-1", "1900.00", seat=3, patron=under.number)
    buy_in(cash, "LB-1", "1950.00", seat=4, patron=under.number)
    [alert] = Alert.objects.filter(patron=under)
    assert alert.kind == AlertKind.STRUCTURING and "$2,000.00" in alert.detail
