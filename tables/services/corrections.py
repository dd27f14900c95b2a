"""Voids and corrections. A settled round is never edited: a pit boss voids it with a reason,
and the corrected round is entered and settled as a new round that references it. Both are in
the audit trail, and the hold reports count the void and the correction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from audit.chain import AuditDataError, check_data
from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import (
    PIT_BOSSES,
    require,
)
from tables.engine import contract
from tables.models import Round, SettlementLine, Table
from tables.selectors import engine_paytable, meter_config
from tables.signals import round_closed

from . import ServiceError
from .rounds import _engine_call, _settlement_lines, validate_round_entry


def _require_pit_boss(user: AbstractBaseUser, action: str) -> None:
    require(user, PIT_BOSSES, action)


@transaction.atomic(durable=True)
def round_void(*, round: Round, by: AbstractBaseUser, reason: str) -> Round:
    """Void a settled round (pit boss, with a reason). Its record stays as it was settled."""
    _require_pit_boss(by, "void a round")
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("a void needs a reason", field="reason")
    round_ = Round.objects.select_for_update(of=("self",)).select_related("table").get(pk=round.pk)
    if round_.status != Round.Status.SETTLED:
        raise ServiceError(
            f"round {round_} is {round_.status}: only a settled round can be voided",
            code="not_settled",
            status=409,
        )
    now = timezone.now()
    Round.objects.filter(pk=round_.pk, status=Round.Status.SETTLED).update(
        status=Round.Status.VOIDED, voided_at=now, voided_by=by, void_reason=reason
    )
    round_.refresh_from_db()
    round_closed.send(sender=Round, round=round_)
    audit_record(
        actor=by,
        kind=EventKind.ROUND_VOIDED,
        obj=round_,
        table_name=round_.table.name,
        data={
            "number": round_.number,
            "reason": reason,
            "handle_cents": round_.handle_cents,
            "players_net_cents": round_.players_net_cents,
        },
    )
    return round_


@transaction.atomic(durable=True)
def round_correct(*, voided: Round, by: AbstractBaseUser, entry: dict[str, Any]) -> Round:
    """Enter and settle the corrected version of a voided round, under its paytable version.

    `entry` is the whole round in the settle contract's input form. The progressive meter is
    not moved again (the voided round's contributions stand; a meter correction is separate).
    """
    _require_pit_boss(by, "correct a round")
    voided = Round.objects.select_for_update(of=("self",)).select_related("table").get(pk=voided.pk)
    if voided.status != Round.Status.VOIDED:
        raise ServiceError(
            f"round {voided} is {voided.status}: void it before correcting it", status=409
        )
    if voided.corrections.exists():
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
    settlement = _engine_call(
        contract.settle,
        data,
        paytable=engine_paytable(voided.paytable_version),
        meter=meter_config(table.meter) if table.meter is not None else None,
    )
    number = voided.number  # shown as the correction of #N, never a new live number
    now = timezone.now()
    corrected = Round(
        table=table,
        number=number,
        dealer=voided.dealer,
        paytable_version=voided.paytable_version,
        game=voided.game,
        entry=data,
        corrects=voided,
    )
    # Entered open, its lines written, then closed: the database checks the closing round
    # against its lines (a correction is exempt from the one-open-round-per-table rule).
    corrected.save()
    lines = _settlement_lines(corrected, settlement)
    SettlementLine.objects.bulk_create(lines)
    corrected.status = Round.Status.SETTLED
    corrected.settlement = contract.settlement_to_json(settlement)
    corrected.settled_at = now
    # A correction counts on the gaming day and shift of the round it corrects.
    corrected.gaming_day = voided.gaming_day
    corrected.shift = voided.shift
    corrected.handle_cents = sum(line.stake_cents for line in lines)
    corrected.players_net_cents = settlement.net_cents
    corrected.save()
    round_closed.send(sender=Round, round=corrected)
    audit_record(
        actor=by,
        kind=EventKind.ROUND_CORRECTED,
        obj=corrected,
        table_name=table.name,
        data={
            "corrects_round_id": voided.pk,
            "corrects_number": voided.number,
            "number": number,
            "entry": data,
            "settlement": corrected.settlement,
            "handle_cents": corrected.handle_cents,
            "players_net_cents": settlement.net_cents,
        },
        bind=lines,
    )
    return corrected
