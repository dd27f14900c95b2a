"""Voids and corrections. A settled round is never edited: a pit boss voids it with a reason,
and the corrected round is entered as a new round that references it and settled as one.

- A void takes the round's effect off its progressive meter (its jackpot put back, its
  contributions taken back: `meters.meter_void_round`), on the record.
- A void of a round whose payout needed a sign-off (or would need one under the table's
  thresholds now; every jackpot) goes through the same sign-off as its settle: it is asked
  for, and a second pit boss approves it (`round_void_approve`) or it is withdrawn.
- A correction is settled under the sign-off rules of any settle: one that pays a jackpot or a
  seat the table's threshold waits, open, for another pit boss's approval (`correction_approve`,
  through `controls.round_approve`); its progressive moves the meter exactly as its settlement
  says, when it is paid.
- Nobody voids, corrects or approves a round, or approves its void, that they took part in,
  nor approves a void they asked for (`duties`).

All of it is on the audit trail, and the hold reports count the void and the correction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from audit.binding import check_as_recorded
from audit.chain import AuditDataError, check_data
from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import (
    PIT_BOSSES,
    require,
)
from tables.engine import contract
from tables.engine.progressive import JACKPOT
from tables.engine.settlement import Settlement
from tables.models import ProgressiveMeter, Round, SettlementLine, Table
from tables.selectors import settle_round
from tables.signals import round_closed

from . import ServiceError
from .duties import (
    APPROVE_VOID,
    CORRECT,
    VOID,
    WITHDRAW_VOID,
    correction_entered_by,
    require_apart_from_round,
)
from .meters import meter_apply_round, meter_void_check, meter_void_round
from .rounds import (
    approval_reasons,
    award_words,
    payout_reasons,
    settlement_lines,
    validate_round_entry,
)

REASON_MAX = 500


def _require_pit_boss(user: AbstractBaseUser, action: str) -> None:
    require(user, PIT_BOSSES, action)


def _locked_round(round_: Round) -> Round:
    return Round.objects.select_for_update(of=("self",)).select_related("table").get(pk=round_.pk)


def void_reasons(round_: Round) -> list[str]:
    """Why a void of this settled round waits for a second pit boss (empty: it is voided at
    once): its payout was signed off when it was settled, or its stored lines pay what a
    settle would need a sign-off for under the table's thresholds and its meter's sign-off
    amount as they stand (`payout_reasons`, the settle's own rule), and a jackpot always."""
    reasons = []
    if round_.approved_by_id is not None:
        assert round_.approved_by is not None
        reasons.append(f"its payout was signed off by {round_.approved_by.get_username()}")
    by_seat: dict[int, list[SettlementLine]] = {}
    for line in SettlementLine.objects.filter(round_id=round_.pk).order_by("seat", "id"):
        by_seat.setdefault(line.seat, []).append(line)
    table = round_.table
    meter = table.meter if table.meter_id is not None else None
    reasons += payout_reasons(table, by_seat.items(), meter)
    for n, lines in by_seat.items():
        jackpot = next((line for line in lines if line.award == JACKPOT), None)
        said = f"seat {n} wins the progressive jackpot"
        if jackpot is not None and not any(r.startswith(said) for r in reasons):
            reasons.append(award_words(n, jackpot))
    return reasons


def _reason(reason: str, what: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(f"{what} needs a reason", field="reason")
    if len(reason) > REASON_MAX:
        raise ServiceError(f"the reason may have at most {REASON_MAX} characters", field="reason")
    return reason


def _refuse_void_waiting(round_: Round, what: str) -> None:
    if round_.void_requested_at is not None:
        asked = round_.void_requested_by
        raise ServiceError(
            f"the void of round {round_} asked for by "
            f"{asked.get_username() if asked is not None else 'a pit boss'} waits for another "
            f"pit boss's approval: {what}",
            code="void_waiting",
            status=409,
        )


@transaction.atomic(durable=True)
def round_void(*, round: Round, by: AbstractBaseUser, reason: str) -> Round:
    """Void a settled round (pit boss, with a reason; not one who dealt it, entered it or signed
    off its payout). Its record stays as it was settled; its effect on the meter is taken back.

    A round whose payout needed a sign-off, or would need one now (`void_reasons`: every
    jackpot), is not voided at once: the void is asked for (the round stays settled and in the
    hold reports, `round.void_requested` on the chain) and waits for another pit boss's
    approval (`round_void_approve`), or its withdrawal (`round_void_withdraw`)."""
    _require_pit_boss(by, "void a round")
    reason = _reason(reason, "a void")
    round_ = _locked_round(round)
    if round_.status != Round.Status.SETTLED:
        raise ServiceError(
            f"round {round_} is {round_.status}: only a settled round can be voided",
            code="not_settled",
            status=409,
        )
    _refuse_void_waiting(round_, "it is not voided twice")
    require_apart_from_round(round_, by, action=VOID)
    reasons = void_reasons(round_)
    if not reasons:
        return _void(round_, by=by, reason=reason)
    meter_void_check(round_=round_)
    now = timezone.now()
    Round.objects.filter(
        pk=round_.pk, status=Round.Status.SETTLED, void_requested_at__isnull=True
    ).update(void_requested_at=now, void_requested_by=by, void_reason=reason)
    round_.refresh_from_db()
    audit_record(
        actor=by,
        kind=EventKind.ROUND_VOID_REQUESTED,
        obj=round_,
        table_name=round_.table.name,
        data={
            "number": round_.number,
            "reason": reason,
            "reasons": reasons,
            "handle_cents": round_.handle_cents,
            "players_net_cents": round_.players_net_cents,
        },
    )
    return round_


@transaction.atomic(durable=True)
def round_void_approve(*, round: Round, by: AbstractBaseUser) -> Round:
    """A second pit boss approves the void waiting on a settled round: it is voided now, its
    effect taken off the meter (refused, nothing changed, if that would leave the meter below
    zero), under the approver's name and the requester's reason. Never by the pit boss who
    asked for it, nor by anyone who dealt the round, entered it or signed off its payout."""
    _require_pit_boss(by, "approve a void")
    round_ = _locked_round(round)
    if round_.status != Round.Status.SETTLED or round_.void_requested_at is None:
        raise ServiceError(
            f"round {round_} has no void waiting for approval",
            code="no_void_waiting",
            status=409,
        )
    require_apart_from_round(round_, by, action=APPROVE_VOID)
    return _void(round_, by=by, reason=round_.void_reason, requested_by=round_.void_requested_by)


@transaction.atomic(durable=True)
def round_void_withdraw(*, round: Round, by: AbstractBaseUser, reason: str) -> Round:
    """Withdraw the void waiting on a settled round, with a reason: the round stays settled, as
    it was, and may be voided again. By the pit boss who asked for it, or another pit boss who
    took no part in the round."""
    _require_pit_boss(by, "withdraw a void")
    reason = _reason(reason, "withdrawing a void")
    round_ = _locked_round(round)
    if round_.status != Round.Status.SETTLED or round_.void_requested_at is None:
        raise ServiceError(
            f"round {round_} has no void waiting to withdraw",
            code="no_void_waiting",
            status=409,
        )
    require_apart_from_round(round_, by, action=WITHDRAW_VOID)
    asked = round_.void_requested_by
    asked_reason = round_.void_reason
    Round.objects.filter(
        pk=round_.pk, status=Round.Status.SETTLED, void_requested_at__isnull=False
    ).update(void_requested_at=None, void_requested_by=None, void_reason="")
    round_.refresh_from_db()
    audit_record(
        actor=by,
        kind=EventKind.ROUND_VOID_WITHDRAWN,
        obj=round_,
        table_name=round_.table.name,
        data={
            "number": round_.number,
            "reason": reason,
            "requested_by": asked.get_username() if asked is not None else None,
            "void_reason": asked_reason,
        },
    )
    return round_


def _void(
    round_: Round,
    *,
    by: AbstractBaseUser,
    reason: str,
    requested_by: AbstractBaseUser | None = None,
) -> Round:
    """Void the locked, settled round now: its status, the hold reports (`round_closed`), its
    meter put back, and `round.voided` naming who voided it (and who asked, for a void that
    waited)."""
    now = timezone.now()
    Round.objects.filter(pk=round_.pk, status=Round.Status.SETTLED).update(
        status=Round.Status.VOIDED, voided_at=now, voided_by=by, void_reason=reason
    )
    round_.refresh_from_db()
    round_closed.send(sender=Round, round=round_)
    meter_void_round(round_=round_, by=by)
    data: dict[str, Any] = {
        "number": round_.number,
        "reason": reason,
        "handle_cents": round_.handle_cents,
        "players_net_cents": round_.players_net_cents,
    }
    if requested_by is not None:
        data["requested_by"] = requested_by.get_username()
        data["approved_by"] = by.get_username()
    audit_record(
        actor=by,
        kind=EventKind.ROUND_VOIDED,
        obj=round_,
        table_name=round_.table.name,
        data=data,
    )
    return round_


def _locked_meter(table: Table) -> ProgressiveMeter | None:
    if table.meter_id is None:
        return None
    meter = ProgressiveMeter.objects.select_for_update().get(pk=table.meter_id)
    # A meter changed outside the application would be paid from, then bound as genuine.
    check_as_recorded(meter, f"the progressive meter {meter}")
    return meter


def _settle(round_: Round, meter: ProgressiveMeter | None) -> Settlement:
    """Settled by its game's rules, as a round played step by step is (`settle_round`)."""
    return settle_round(round_, meter)


@transaction.atomic(durable=True)
def round_correct(*, voided: Round, by: AbstractBaseUser, entry: dict[str, Any]) -> Round:
    """Enter the corrected version of a voided round, under its paytable version, and settle it
    as a settle would: at once, or, when its payout needs a sign-off (a jackpot, a seat paid the
    table's threshold), left open awaiting another pit boss's approval (nothing paid, the meter
    unmoved until then). A pit boss who dealt the voided round or signed off its payout may not
    correct it.

    `entry` is the whole round in the settle contract's input form. Its progressive is settled
    against the meter as it stands (the void took the voided round's effect off it) and moves
    it exactly as the settlement says."""
    _require_pit_boss(by, "correct a round")
    voided = _locked_round(voided)
    if voided.status == Round.Status.SETTLED:
        _refuse_void_waiting(voided, "it is corrected once it is voided")
    if voided.status != Round.Status.VOIDED:
        raise ServiceError(
            f"round {voided} is {voided.status}: void it before correcting it", status=409
        )
    require_apart_from_round(voided, by, action=CORRECT)
    if voided.corrections.exclude(status=Round.Status.CANCELLED).exists():
        raise ServiceError(f"round {voided} already has a correction", status=409)
    try:
        check_data(entry, "entry")
    except AuditDataError as exc:  # it could not be kept on the record exactly as entered
        raise ServiceError(f"the correction's {exc.path} {exc.what}", field=exc.path) from exc
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("meter")
        .get(pk=voided.table_id)
    )
    # Checked exactly as a new round at that table, under the voided round's paytable version.
    data = validate_round_entry(table, voided.paytable_version, entry)
    corrected = Round(
        table=table,
        number=voided.number,  # shown as the correction of #N, never a new live number
        dealer=voided.dealer,
        paytable_version=voided.paytable_version,
        game=voided.game,
        entry=data,
        corrects=voided,
    )
    meter = _locked_meter(table)
    settlement = _settle(corrected, meter)
    reasons = approval_reasons(corrected, settlement, meter)
    if not reasons:
        # Entered open, its lines written, then closed: the database checks the closing round
        # against its lines (a correction is exempt from the one-open-round-per-table rule).
        corrected.save()
        return _close(corrected, voided, settlement, meter, actor=by)
    # Waits for a sign-off: complete (the settle contract's whole round) but open and unpaid.
    corrected.entry = {
        **data,
        "decided": [seat["seat"] for seat in data["seats"]],
        "dealer_done": True,
    }
    corrected.approval_requested_at = timezone.now()
    corrected.approval_reasons = reasons
    corrected.save()
    audit_record(
        actor=by,
        kind=EventKind.ROUND_CORRECTED,
        obj=corrected,
        table_name=table.name,
        data={
            "corrects_round_id": voided.pk,
            "corrects_number": voided.number,
            "number": corrected.number,
            "entry": data,
            "status": corrected.status,
        },
    )
    audit_record(
        actor=by,
        kind=EventKind.ROUND_APPROVAL_REQUESTED,
        obj=corrected,
        table_name=table.name,
        data={
            "number": corrected.number,
            "reasons": reasons,
            "players_net_cents": settlement.net_cents,
        },
    )
    return corrected


def correction_approve(round_: Round, *, by: AbstractBaseUser) -> Round:
    """Pay the correction waiting for `by`'s sign-off: settled against the meter as it stands now,
    which it moves as its settlement says. Called by `controls.round_approve`, in its
    transaction, with the round locked and checked (open, waiting, `by` a pit boss apart from
    it)."""
    voided = Round.objects.get(pk=round_.corrects_id)
    table = Table.objects.select_related("meter").get(pk=round_.table_id)
    meter = _locked_meter(table)
    settlement = _settle(round_, meter)
    reasons = approval_reasons(round_, settlement, meter) or round_.approval_reasons
    entered_by = correction_entered_by(round_)
    actor = get_user_model().objects.get(pk=entered_by) if entered_by is not None else by
    return _close(round_, voided, settlement, meter, actor=actor, approved_by=by, reasons=reasons)


def _close(
    corrected: Round,
    voided: Round,
    settlement: Settlement,
    meter: ProgressiveMeter | None,
    *,
    actor: AbstractBaseUser,
    approved_by: AbstractBaseUser | None = None,
    reasons: list[str] | None = None,
) -> Round:
    """Write the correction's lines and close it, on the voided round's gaming day and shift;
    then move the meter as the settlement says, and record it."""
    now = timezone.now()
    lines = settlement_lines(corrected, settlement)
    SettlementLine.objects.bulk_create(lines)
    corrected.status = Round.Status.SETTLED
    corrected.settlement = contract.settlement_to_json(settlement)
    corrected.settled_at = now
    # A correction counts on the gaming day and shift of the round it corrects.
    corrected.gaming_day = voided.gaming_day
    corrected.shift = voided.shift
    corrected.handle_cents = sum(line.stake_cents for line in lines)
    corrected.players_net_cents = settlement.net_cents
    if approved_by is not None:
        corrected.approved_by = approved_by
        corrected.approved_at = now
    corrected.save()
    round_closed.send(sender=Round, round=corrected)
    if meter is not None and settlement.progressive is not None:
        meter_apply_round(meter=meter, result=settlement.progressive, round_=corrected, actor=actor)
    if approved_by is None:
        audit_record(
            actor=actor,
            kind=EventKind.ROUND_CORRECTED,
            obj=corrected,
            table_name=corrected.table.name,
            data={
                "corrects_round_id": voided.pk,
                "corrects_number": voided.number,
                "number": corrected.number,
                "entry": corrected.entry,
                "settlement": corrected.settlement,
                "handle_cents": corrected.handle_cents,
                "players_net_cents": settlement.net_cents,
            },
            bind=lines,
        )
        return corrected
    audit_record(
        actor=approved_by,
        kind=EventKind.ROUND_APPROVED,
        obj=corrected,
        table_name=corrected.table.name,
        data={"number": corrected.number, "reasons": reasons or []},
    )
    audit_record(
        actor=actor,
        kind=EventKind.ROUND_SETTLED,
        obj=corrected,
        table_name=corrected.table.name,
        data={
            "number": corrected.number,
            "corrects_number": voided.number,
            "settlement": corrected.settlement,
            "handle_cents": corrected.handle_cents,
            "players_net_cents": corrected.players_net_cents,
            "approved_by": approved_by.get_username(),
        },
        bind=lines,
    )
    return corrected
