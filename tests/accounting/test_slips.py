"""Slips: the two-person rule on every kind (the creator cannot sign; only the allowed role signs
each step; only signed slips count), voids by two people and replacements, slip numbers in
sequence, refused input naming the field, and the database refusing what the services refuse."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from accounting.models import ChipDenomination, Slip, SlipSignature, SlipVoid, VarianceAlert
from accounting.services import (
    denomination_save,
    slip_create,
    slip_sign,
    slip_void,
)
from audit.models import AuditEvent
from core.errors import SeparationOfDuties, ServiceError
from tests.helpers import person

pytestmark = pytest.mark.django_db

CHIPS = {"25.00": 8}
# kind: (creator, [the signer of each step, in order], creation arguments)
FLOWS: dict[str, tuple[str, list[str], dict[str, Any]]] = {
    "opener": ("dealer", ["pitboss"], {"chips": CHIPS}),
    "closer": ("pitboss", ["dealer"], {"chips": CHIPS}),
    "fill": ("pitboss", ["cage", "dealer"], {"chips": CHIPS}),
    "credit": ("pitboss", ["dealer", "cage"], {"chips": CHIPS}),
    "drop": ("count", ["count2"], {"amount": "1234.00"}),
    "buy_in": ("dealer", [], {"amount": "200.00"}),
}
# Who else tries each step (and must be refused): every other floor role.
OTHERS = ["dealer", "pitboss", "cage", "count", "count2", "admin", "auditor", "security"]


def _is_error(fn: Any, **kwargs: Any) -> BaseException:
    with pytest.raises((ServiceError, PermissionDenied)) as refused:
        fn(**kwargs)
    return refused.value


@pytest.mark.parametrize("kind", list(FLOWS))
def test_two_people_on_every_slip_and_the_creator_cannot_sign(
    pit: dict[str, Any], kind: str
) -> None:
    creator, signers, args = FLOWS[kind]
    slip = slip_create(table=pit["SC-1"], kind=kind, by=pit[creator], **args)
    if not signers:  # a buy-in: the dealer alone, and it counts at once
        assert slip.status == Slip.Status.SIGNED and slip.signatures_required == 0
        error = _is_error(lambda: slip_sign(slip=slip, by=pit["pitboss"]))
        assert "nothing to sign" in str(error)
        return
    assert slip.status == Slip.Status.PENDING
    for step, signer in enumerate(signers, start=1):
        # The creator never signs ...
        error = _is_error(slip_sign, slip=slip, by=pit[creator])
        assert isinstance(error, ServiceError) and error.code == "creator_cannot_sign"
        # ... nor anyone of a role this step does not allow ...
        for other in OTHERS:
            if other in (signer, creator) or (
                kind in ("opener", "closer") and other in ("dealer", "pitboss")
            ):
                continue
            if other in signers[: step - 1]:
                continue
            _is_error(slip_sign, slip=slip, by=pit[other])
        slip.refresh_from_db()
        assert slip.status == Slip.Status.PENDING and slip.signatures.count() == step - 1
        slip = slip_sign(slip=slip, by=pit[signer])
    assert slip.status == Slip.Status.SIGNED and slip.signed_at is not None
    assert list(slip.signatures.values_list("by__username", flat=True)) == signers
    events = AuditEvent.objects.filter(object_type="accounting.slip", object_id=str(slip.pk))
    assert [e.kind for e in events.order_by("seq")] == ["slip.created"] + ["slip.signed"] * len(
        signers
    )
    # And the database refuses a signature by the creator even past the services.
    other = (
        slip_create(table=pit["LB-1"], kind=kind, by=pit[creator], **args)
        if kind not in ("opener", "closer", "buy_in")
        else None
    )
    if other is not None:
        with pytest.raises(IntegrityError), transaction.atomic():
            SlipSignature.objects.create(
                slip=other, step=1, role="x", by=pit[creator], at=timezone.now()
            )


def test_creators_by_kind(pit: dict[str, Any]) -> None:
    """Who may enter each kind: the dealer only at the table they are signed in at."""
    sc, lb = pit["SC-1"], pit["LB-1"]
    assert "not signed in at LB-1" in str(
        _is_error(lambda: slip_create(table=lb, kind="buy_in", by=pit["dealer"], amount="5.00"))
    )
    for kind, refused in {
        "fill": ["cage", "dealer", "count", "auditor", "admin"],
        "credit": ["cage", "dealer", "count"],
        "drop": ["pitboss", "cage", "dealer", "auditor"],
        "buy_in": ["pitboss", "cage", "count"],
        "opener": ["cage", "count", "auditor", "admin", "security"],
    }.items():
        args = FLOWS[kind][2]
        for who in refused:
            error = _is_error(slip_create, table=sc, kind=kind, by=pit[who], **args)
            assert isinstance(error, PermissionDenied), (kind, who)
    assert not Slip.objects.exists()


def test_a_dealer_signs_a_fill_only_at_their_table(pit: dict[str, Any]) -> None:
    slip = slip_create(table=pit["LB-1"], kind="fill", by=pit["pitboss"], chips=CHIPS)
    slip_sign(slip=slip, by=pit["cage"])
    error = _is_error(lambda: slip_sign(slip=slip, by=pit["dealer"]))
    assert "dealer is not signed in at LB-1" in str(error)


def test_a_wrong_slip_is_voided_by_two_people_and_replaced(pit: dict[str, Any]) -> None:
    fill = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"100.00": 10})
    slip_sign(slip=fill, by=pit["cage"])
    slip_sign(slip=fill, by=pit["dealer"])
    assert _is_error(lambda: slip_void(slip=fill, by=pit["pitboss"], reason="")).field == "reason"
    _is_error(lambda: slip_void(slip=fill, by=pit["count"], reason="wrong"))  # not their slip
    slip_void(slip=fill, by=pit["pitboss"], reason="the cage sent $500 chips, not $100")
    fill.refresh_from_db()
    assert fill.status == Slip.Status.SIGNED  # still counts until a second person confirms
    error = _is_error(lambda: slip_void(slip=fill, by=pit["pitboss"], reason="again"))
    assert isinstance(error, ServiceError) and error.code == "void_needs_second_person"
    # the cage that issued it signed it: another person confirms
    error = _is_error(lambda: slip_void(slip=fill, by=pit["cage"], reason="confirmed"))
    assert isinstance(error, SeparationOfDuties)
    slip_void(slip=fill, by=person("cage2", "cage"), reason="confirmed: $500 chips went out")
    fill.refresh_from_db()
    assert fill.status == Slip.Status.VOIDED and fill.voided_at is not None
    kinds = list(
        AuditEvent.objects.filter(object_id=str(fill.pk), object_type="accounting.slip")
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds[-2:] == ["slip.void_requested", "slip.voided"]
    # Never edited: the replacement is a new slip pointing at the void.
    new = slip_create(
        table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"500.00": 10}, replaces=fill
    )
    assert new.number == fill.number + 1 and new.replaces == fill
    with pytest.raises(ServiceError):
        slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=CHIPS, replaces=fill)
    with pytest.raises(ServiceError):  # only a voided slip is replaced
        slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=CHIPS, replaces=new)


def test_one_live_count_per_shift(pit: dict[str, Any]) -> None:
    opener = slip_create(table=pit["SC-1"], kind="opener", by=pit["dealer"], chips=CHIPS)
    error = _is_error(
        lambda: slip_create(table=pit["SC-1"], kind="opener", by=pit["pitboss"], chips=CHIPS)
    )
    assert isinstance(error, ServiceError) and error.status == 409
    slip_void(slip=opener, by=pit["dealer"], reason="miscounted the reds")
    slip_void(slip=opener, by=pit["pitboss"], reason="agreed")
    slip_create(table=pit["SC-1"], kind="opener", by=pit["pitboss"], chips=CHIPS, replaces=opener)


@pytest.mark.parametrize(
    ("kind", "args", "field", "words"),
    [
        ("fill", {"chips": {"7.00": 3}}, "chips.7.00", "no active $7.00 chip"),
        ("fill", {"chips": {"5.00": -1}}, "chips.5.00", "whole number"),
        ("fill", {"chips": {"5.00": 2.5}}, "chips.5.00", "whole number"),
        ("fill", {"chips": {"abc": 2}}, "chips.abc", "amount"),
        ("fill", {"chips": {}}, "chips", "at least one chip"),
        ("fill", {"amount": "100.00"}, "amount", "by denomination"),
        ("buy_in", {"amount": "-5"}, "amount", "more than zero"),
        ("buy_in", {"amount": 1.5}, "amount", "decimal string"),
        ("buy_in", {}, "amount", "needs its amount"),
        ("drop", {}, "amount", "needs its amount"),
        ("opener", {"chips": "lots"}, "chips", "map chip values"),
        ("tip", {}, "kind", "kind must be one of"),
    ],
)
def test_refused_input_names_the_field_and_changes_nothing(
    pit: dict[str, Any], kind: str, args: dict[str, Any], field: str, words: str
) -> None:
    creator = {"drop": "count", "buy_in": "dealer", "opener": "dealer"}.get(kind, "pitboss")
    events = AuditEvent.objects.count()
    with pytest.raises(ServiceError) as refused:
        slip_create(table=pit["SC-1"], kind=kind, by=pit[creator], **args)
    assert refused.value.field == field and words in refused.value.message
    assert not Slip.objects.exists() and AuditEvent.objects.count() == events


def test_the_database_keeps_slips_as_written(pit: dict[str, Any]) -> None:
    """Past the services: no edit, no delete, numbers in sequence, counts only when signed."""
    slip = slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips=CHIPS)
    refused = (IntegrityError, DatabaseError)
    for change in (
        lambda: Slip.objects.filter(pk=slip.pk).update(amount_cents=1),
        lambda: Slip.objects.filter(pk=slip.pk).update(chips={"2500": 9}),
        lambda: Slip.objects.filter(pk=slip.pk).update(status="signed", signed_at=timezone.now()),
        lambda: Slip.objects.filter(pk=slip.pk).delete(),
        lambda: Slip.objects.create(
            number=slip.number + 2,
            table=pit["SC-1"],
            kind="buy_in",
            gaming_day=slip.gaming_day,
            shift=slip.shift,
            amount_cents=100,
            cash_cents=100,
            created_by=pit["dealer"],
            created_at=timezone.now(),
            signatures_required=0,
            status="signed",
            signed_at=timezone.now(),
        ),
        lambda: Slip.objects.create(
            number=slip.number + 1,
            table=pit["SC-1"],
            kind="fill",
            gaming_day=slip.gaming_day,
            shift=slip.shift,
            amount_cents=100,
            created_by=pit["pitboss"],
            created_at=timezone.now(),
            signatures_required=2,
            status="signed",
            signed_at=timezone.now(),
        ),
        lambda: SlipSignature.objects.create(
            slip=slip, step=2, role="dealer", by=pit["dealer"], at=timezone.now()
        ),
        lambda: SlipVoid.objects.create(
            slip=slip, step=2, by=pit["cage"], reason="skip the ask", at=timezone.now()
        ),
    ):
        with pytest.raises(refused), transaction.atomic():
            change()
    signed = slip_sign(slip=slip, by=pit["cage"])
    signed = slip_sign(slip=signed, by=pit["dealer"])
    for change in (
        lambda: SlipSignature.objects.filter(slip=slip).update(by=pit["auditor"]),
        lambda: SlipSignature.objects.filter(slip=slip).delete(),
        lambda: Slip.objects.filter(pk=slip.pk).update(status="pending", signed_at=None),
        lambda: Slip.objects.filter(pk=slip.pk).update(status="voided", voided_at=timezone.now()),
    ):
        with pytest.raises(refused), transaction.atomic():
            change()
    slip_void(slip=signed, by=pit["pitboss"], reason="wrong table")
    slip_void(slip=signed, by=person("cage2", "cage"), reason="agreed")  # not the cage that signed
    for change in (
        lambda: SlipVoid.objects.filter(slip=slip).delete(),
        lambda: Slip.objects.filter(pk=slip.pk).update(note="tidy up"),
    ):
        with pytest.raises(refused), transaction.atomic():
            change()


def test_a_variance_alert_is_acknowledged_once_in_the_database(pit: dict[str, Any]) -> None:
    alert = VarianceAlert.objects.create(
        table=pit["SC-1"],
        gaming_day=timezone.localdate(),
        shift="06:00",
        count_win_cents=0,
        hands_win_cents=2500,
        variance_cents=-2500,
        tolerance_cents=500,
        raised_at=timezone.now(),
    )
    with pytest.raises((IntegrityError, DatabaseError)), transaction.atomic():
        VarianceAlert.objects.filter(pk=alert.pk).update(variance_cents=0, hands_win_cents=0)
    VarianceAlert.objects.filter(pk=alert.pk).update(
        acknowledged_by=pit["pitboss"], acknowledged_at=timezone.now(), note="ok"
    )
    with pytest.raises((IntegrityError, DatabaseError)), transaction.atomic():
        VarianceAlert.objects.filter(pk=alert.pk).update(note="rewritten")
    with pytest.raises((IntegrityError, DatabaseError)), transaction.atomic():
        VarianceAlert.objects.filter(pk=alert.pk).delete()


def test_chip_denominations_are_configured_by_admins_and_never_deleted(
    pit: dict[str, Any],
) -> None:
    with pytest.raises(PermissionDenied):
        denomination_save(by=pit["pitboss"], value_cents=250, label="pink")
    chip = denomination_save(by=pit["admin"], value_cents=250, label="pink")
    assert AuditEvent.objects.filter(kind="chip_denomination.saved").count() == 1
    slip = slip_create(table=pit["SC-1"], kind="opener", by=pit["dealer"], chips={"2.50": 4})
    assert slip.amount_cents == 1000 and slip.chips == {"250": 4}
    denomination_save(by=pit["admin"], value_cents=250, label="pink", is_active=False)
    with pytest.raises(ServiceError):
        slip_create(table=pit["SC-1"], kind="fill", by=pit["pitboss"], chips={"2.50": 4})
    for change in (
        lambda: ChipDenomination.objects.filter(pk=chip.pk).update(value_cents=300),
        lambda: ChipDenomination.objects.filter(pk=chip.pk).delete(),
    ):
        with pytest.raises((IntegrityError, DatabaseError)), transaction.atomic():
            change()
    assert connection.vendor in ("sqlite", "postgresql")


def test_the_sqlite_allow_lists_name_every_column() -> None:
    """SQLite's guards list the columns a slip (and an alert) must keep: a new column must be
    added there too (PostgreSQL's compare whole rows)."""
    import importlib

    guards = importlib.import_module("accounting.migrations.0002_guards_roles_denominations")
    slip_columns = {f.column for f in Slip._meta.concrete_fields}
    assert set(guards.SLIP_COLUMNS) == slip_columns
    alert_columns = {f.column for f in VarianceAlert._meta.concrete_fields}
    ack = {"acknowledged_by_id", "acknowledged_at", "note"}
    assert set(guards.ALERT_COLUMNS) | ack == alert_columns
