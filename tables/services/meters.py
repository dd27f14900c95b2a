"""Progressive meters: the engine's view of a meter, settling a round's effect, corrections."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.binding import check_as_recorded
from audit.kinds import EventKind
from audit.services import audit_record
from core.money import dollars
from core.roles import (
    ADMINS,
    require,
)
from tables.engine.money import parse_cents
from tables.engine.settlement import ProgressiveResult
from tables.models import MeterEntry, ProgressiveMeter, Round

from . import ServiceError


def meter_apply_round(
    *,
    meter: ProgressiveMeter,
    result: ProgressiveResult,
    round_: Round,
    actor: AbstractBaseUser | None = None,
) -> None:
    """Write a settled round's contributions, overflow and jackpot to a locked meter, exactly as
    its settlement says (`actor`: who settled it; by default the round's dealer)."""
    if meter.value_cents != result.meter_before_cents:  # settled against another meter state
        raise AssertionError(
            f"meter {meter} is at {meter.value_cents}, the settlement's before is "
            f"{result.meter_before_cents}"
        )
    value = meter.value_cents
    entries = []
    if result.contributions_cents:
        value += result.contributions_cents
        entry = MeterEntry.objects.create(
            meter=meter,
            kind=MeterEntry.Kind.CONTRIBUTION,
            amount_cents=result.contributions_cents,
            value_after_cents=value,
            round=round_,
        )
        entries.append(entry)
    if result.overflow_cents:
        meter.overflow_cents += result.overflow_cents
        entry = MeterEntry.objects.create(
            meter=meter,
            kind=MeterEntry.Kind.OVERFLOW,
            amount_cents=0,
            value_after_cents=value,
            round=round_,
            reason=f"{result.overflow_cents} cents past the cap went to overflow",
        )
        entries.append(entry)
    if result.jackpot_seats:
        entry = MeterEntry.objects.create(
            meter=meter,
            kind=MeterEntry.Kind.JACKPOT,
            amount_cents=result.meter_after_cents - value,
            value_after_cents=result.meter_after_cents,
            round=round_,
            reason=f"jackpot {result.paid_cents} cents to seats "
            + ", ".join(str(s) for s in result.jackpot_seats),
        )
        entries.append(entry)
        value = result.meter_after_cents
    if value != result.meter_after_cents:  # the engine and the ledger must agree to the cent
        raise AssertionError(f"meter arithmetic mismatch: {value} != {result.meter_after_cents}")
    meter.value_cents = value
    meter.save(update_fields=["value_cents", "overflow_cents"])
    audit_record(
        actor=actor or round_.dealer,
        kind=EventKind.METER_ROUND,
        obj=meter,
        table_name=round_.table.name,
        data={
            "round_id": round_.pk,
            "meter_before_cents": result.meter_before_cents,
            "contributions_cents": result.contributions_cents,
            "overflow_cents": result.overflow_cents,
            "paid_cents": result.paid_cents,
            "jackpot_seats": list(result.jackpot_seats),
            "meter_after_cents": value,
        },
        bind=entries,
    )


def _void_amounts(
    round_: Round, entries: list[MeterEntry], meter: ProgressiveMeter
) -> tuple[int, int, int]:
    """What a void of `round_` takes off `meter` (its jackpot, contributions, overflow), refused
    when it would leave the meter below zero."""
    contributions = sum(e.amount_cents for e in entries if e.kind == MeterEntry.Kind.CONTRIBUTION)
    jackpot = sum(e.amount_cents for e in entries if e.kind == MeterEntry.Kind.JACKPOT)
    overflow = 0
    if any(e.kind == MeterEntry.Kind.OVERFLOW for e in entries):
        progressive = (round_.settlement or {}).get("progressive") or {}
        overflow = parse_cents(
            progressive.get("overflow", "0"), where="the round's overflow", allow_zero=True
        )
    before = meter.value_cents
    if before - jackpot - contributions < 0:
        raise ServiceError(
            f"the meter {meter} holds {dollars(before)}: taking back round {round_}'s "
            f"{dollars(contributions)} of contributions would leave it below zero; an admin "
            "corrects the meter first",
            field="meter",
            code="meter_below_zero",
            status=409,
        )
    return jackpot, contributions, overflow


def meter_void_check(*, round_: Round) -> None:
    """Refuse (`meter_below_zero`) a void that would leave the round's meter below zero, as
    the meter stands now; changes nothing (a void asked for is checked so, and again when it
    is carried out)."""
    entries = list(MeterEntry.objects.filter(round=round_).order_by("id"))
    if entries:
        _void_amounts(round_, entries, ProgressiveMeter.objects.get(pk=entries[0].meter_id))


def meter_void_round(*, round_: Round, by: AbstractBaseUser) -> None:
    """Take a voided round's effect off its meter, on the record: the jackpot it paid is put
    back and the contributions (and overflow) it added are taken back, each as a `void` entry,
    so the meter stands as if the round had not been played (its correction, if any, is then
    settled onto the meter like a new round). Call it inside the void's transaction, with the
    round locked; a round that never moved a meter changes nothing."""
    entries = list(MeterEntry.objects.filter(round=round_).order_by("id"))
    if not entries:
        return
    meter = ProgressiveMeter.objects.select_for_update().get(pk=entries[0].meter_id)
    check_as_recorded(meter, f"the progressive meter {meter}")
    jackpot, contributions, overflow = _void_amounts(round_, entries, meter)
    before = meter.value_cents
    what = f"round {round_} voided"
    written: list[MeterEntry] = []
    value = before

    def void_entry(amount: int, reason: str) -> None:
        written.append(
            MeterEntry(
                meter=meter,
                kind=MeterEntry.Kind.VOID,
                amount_cents=amount,
                value_after_cents=value,
                round=round_,
                by=by,
                reason=f"{what}: {reason}",
            )
        )

    if jackpot:
        value -= jackpot
        void_entry(-jackpot, f"the jackpot's {dollars(-jackpot)} put back")
    if contributions:
        value -= contributions
        void_entry(-contributions, f"its {dollars(contributions)} of contributions taken back")
    if overflow:
        void_entry(0, f"its {dollars(overflow)} past the cap taken off the overflow")
    for entry in written:  # one by one: the database checks each against the one before
        entry.save()
    meter.value_cents = value
    meter.overflow_cents = max(0, meter.overflow_cents - overflow)
    meter.save(update_fields=["value_cents", "overflow_cents"])
    audit_record(
        actor=by,
        kind=EventKind.METER_ROUND_VOIDED,
        obj=meter,
        table_name=round_.table.name,
        data={
            "round_id": round_.pk,
            "number": round_.number,
            "meter_before_cents": before,
            "jackpot_put_back_cents": -jackpot,
            "contributions_taken_back_cents": contributions,
            "overflow_taken_back_cents": overflow,
            "meter_after_cents": value,
        },
        bind=written,
    )


@transaction.atomic
def meter_open(
    *, meter: ProgressiveMeter, by: AbstractBaseUser | None, value_cents: int
) -> MeterEntry:
    """Record a new meter's opening value as its first entry (a meter is created at 0: the
    database lets its value change only together with an entry)."""
    if value_cents < 0:
        raise ServiceError("a meter cannot open below zero", field="value_cents")
    meter = ProgressiveMeter.objects.select_for_update().get(pk=meter.pk)
    check_as_recorded(meter, f"the progressive meter {meter}")
    if meter.entries.exists():
        raise ServiceError(f"meter {meter} is already open", code="already_open", status=409)
    entry = MeterEntry.objects.create(
        meter=meter,
        kind=MeterEntry.Kind.OPENING,
        amount_cents=value_cents,
        value_after_cents=value_cents,
        by=by,
        reason="opening value",
    )
    meter.value_cents = value_cents
    meter.save(update_fields=["value_cents"])
    audit_record(
        actor=by,
        kind=EventKind.METER_OPENED,
        obj=meter,
        data={"value_cents": value_cents},
        bind=[entry],
    )
    return entry


@transaction.atomic
def meter_correct(
    *, meter: ProgressiveMeter, by: AbstractBaseUser, amount_cents: int, reason: str
) -> MeterEntry:
    """An authorised correction (admin only, with a reason), recorded as its own entry."""
    require(by, ADMINS, "correct a progressive meter")
    if not reason.strip():
        raise ServiceError("a meter correction needs a reason", field="reason")
    if amount_cents == 0:
        raise ServiceError("a correction of zero changes nothing", field="amount_cents")
    meter = ProgressiveMeter.objects.select_for_update().get(pk=meter.pk)
    check_as_recorded(meter, f"the progressive meter {meter}")
    after = meter.value_cents + amount_cents
    if after < 0:
        raise ServiceError("a correction may not make the meter negative", field="amount_cents")
    entry = MeterEntry.objects.create(
        meter=meter,
        kind=MeterEntry.Kind.CORRECTION,
        amount_cents=amount_cents,
        value_after_cents=after,
        by=by,
        reason=reason.strip(),
    )
    before = meter.value_cents
    meter.value_cents = after
    meter.save(update_fields=["value_cents"])
    audit_record(
        actor=by,
        kind=EventKind.METER_CORRECTED,
        obj=meter,
        data={
            "before_cents": before,
            "amount_cents": amount_cents,
            "after_cents": after,
            "reason": reason,
        },
        bind=[entry],
    )
    return entry
