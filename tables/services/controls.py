"""The controls a casino requires around a round's money: a pit boss's sign-off for a large
payout, a misdeal's cancel, and going back a step to fix the cards before the round is paid.

Each is audited in its own transaction; a refusal changes nothing.
"""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.roles import DEALERS, PIT_BOSSES, Role, has_role, require
from tables import games
from tables.models import Round
from tables.selectors import STEP_CARDS, STEP_CONFIRM, STEP_DEALER, STEP_DECISIONS, round_state

from . import ServiceError
from .corrections import correction_approve
from .duties import require_apart_from_round
from .rounds import refuse_correction, require_dealer_at, settle_locked

CANCELLERS = (*DEALERS, *PIT_BOSSES)
# The steps a dealer may go back to, in the order the round is played.
BACK_STEPS = (STEP_CARDS, STEP_DECISIONS, STEP_DEALER)
_ORDER = (STEP_CARDS, STEP_DECISIONS, STEP_DEALER, STEP_CONFIRM)


def _locked(round_: Round) -> Round:
    return Round.objects.select_for_update(of=("self",)).select_related("table").get(pk=round_.pk)


@transaction.atomic(durable=True)
def round_approve(*, round: Round, by: AbstractBaseUser) -> Round:
    """A pit boss signs off the round waiting for it: it is settled and paid now, the meter
    moved, under the approver's name (the dealer's settle stays on the record). A correction
    waiting for its sign-off is paid the same way. Never by someone who dealt the round or
    entered the correction, whatever roles they hold."""
    require(by, PIT_BOSSES, "approve a payout")
    round_ = _locked(round)
    if round_.status != Round.Status.OPEN:
        raise ServiceError(
            f"round {round_} is already {round_.get_status_display().lower()}",
            code="not_open",
            status=409,
        )
    if round_.approval_requested_at is None:
        raise ServiceError(
            f"round {round_} is not waiting for a sign-off", code="not_awaiting", status=409
        )
    if round_state(round_)["step"] != STEP_CONFIRM:
        raise ServiceError("the round is not complete yet", code="not_complete", status=409)
    require_apart_from_round(round_, by, action="approve")
    if round_.corrects_id is not None:
        return correction_approve(round_, by=by)
    settled = settle_locked(round_, actor=round_.dealer, approved_by=by)
    assert isinstance(settled, Round)
    return settled


@transaction.atomic(durable=True)
def round_cancel(*, round: Round, by: AbstractBaseUser, reason: str) -> Round:
    """Cancel an open round (a misdeal), with a reason: nothing is paid, the meter does not
    move, and the table is free for its next round. The dealer signed in at the table or a
    pit boss; a correction waiting for its sign-off is withdrawn so by a pit boss only."""
    require(by, CANCELLERS, "cancel a round")
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("say why the round is cancelled (e.g. misdeal)", field="reason")
    if len(reason) > 500:
        raise ServiceError("the reason may have at most 500 characters", field="reason")
    round_ = _locked(round)
    if round_.corrects_id is not None:
        require(by, PIT_BOSSES, "withdraw a correction")
    elif not has_role(by, Role.PIT_BOSS):
        require_dealer_at(round_.table, by)
    if round_.status != Round.Status.OPEN:
        raise ServiceError(
            f"round {round_} is {round_.get_status_display().lower()}: only an open round "
            "can be cancelled",
            code="not_open",
            status=409,
        )
    now = timezone.now()
    Round.objects.filter(pk=round_.pk, status=Round.Status.OPEN).update(
        status=Round.Status.CANCELLED, cancelled_at=now, cancelled_by=by, cancel_reason=reason
    )
    round_.refresh_from_db()
    audit_record(
        actor=by,
        kind=EventKind.ROUND_CANCELLED,
        obj=round_,
        table_name=round_.table.name,
        data={"number": round_.number, "reason": reason, "entry": round_.entry},
    )
    return round_


@transaction.atomic(durable=True)
def round_step_back(*, round: Round, dealer: AbstractBaseUser, to: str) -> Round:
    """Go back to an earlier step of an open round to fix it before it is paid: `cards` (the
    deal is entered again, and so everything after it), `decisions` (every seat decides
    again), `dealer` (the dealer's draw again). What is removed stays on the audit record."""
    require(dealer, DEALERS, "fix a round")
    round_ = _locked(round)
    require_dealer_at(round_.table, dealer)
    refuse_correction(round_)
    if round_.status != Round.Status.OPEN:
        raise ServiceError(
            f"round {round_} is {round_.get_status_display().lower()}: it can no longer be changed",
            code="not_open",
            status=409,
        )
    if to not in BACK_STEPS:
        raise ServiceError(
            f"{to!r} is not a step to go back to (cards, decisions or dealer)", field="to"
        )
    now = round_state(round_)["step"]
    if _ORDER.index(to) >= _ORDER.index(now):
        raise ServiceError(
            f"the round is at the {now} step: it can only go back to an earlier one",
            field="to",
            code="not_back",
            status=409,
        )
    before = copy.deepcopy(round_.entry)
    data = copy.deepcopy(round_.entry)
    dealer_hand: dict[str, Any] = data.get("dealer", {})
    dealer_hand.pop("draw", None)
    dealer_hand.pop("discard", None)
    data.pop("dealer_done", None)
    if to in (STEP_CARDS, STEP_DECISIONS):
        keys = games.banked(round_.game).decision_keys
        for seat in data["seats"]:
            for key in keys:
                seat.pop(key, None)
        data["decided"] = []
    if to == STEP_CARDS:
        dealer_hand.pop("cards", None)
        for seat in data["seats"]:
            seat.pop("cards", None)
    round_.entry = data
    round_.house_way = {}
    round_.approval_requested_at = None
    round_.approval_reasons = []
    round_.save(update_fields=["entry", "house_way", "approval_requested_at", "approval_reasons"])
    audit_record(
        actor=dealer,
        kind=EventKind.ROUND_STEP_BACK,
        obj=round_,
        table_name=round_.table.name,
        data={"number": round_.number, "to": to, "from": now, "before": before},
    )
    return round_
