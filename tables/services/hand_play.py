"""Playing a player-vs-player hand one step at a time, as the tablet and the API do: the step
through `hands.hand_act`, and (unless the caller confirms it apart, as the tablet does) the
hand finished as soon as its game is over (the system decides the winner; nobody types one).

A game's engine may check its assertions after every action (e.g. every card in one place,
the chips). One that fails is a bug, not a player's mistake: the step is refused and nothing
changes (`hand_act`'s transaction rolls back), the failure is logged at ERROR, and it is written
on the audit chain in a transaction of its own (`hand.assertion_failed`, naming the assertion,
the step and the hand), so the trail shows it even though the step left no trace.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from audit.kinds import EventKind
from audit.services import audit_record
from tables import games
from tables.engine.errors import GameAssertionError
from tables.models import Hand

from . import ServiceError
from .hands import hand_act, hand_finish

logger = logging.getLogger("tables.hands")


@transaction.atomic(durable=True)
def hand_assertion_failed(
    *, hand: Hand, dealer: AbstractBaseUser, step: Mapping[str, Any], error: GameAssertionError
) -> None:
    """Write a broken game assertion on the audit chain (the hand itself is unchanged)."""
    audit_record(
        actor=dealer,
        kind=EventKind.HAND_ASSERTION_FAILED,
        obj=hand,
        table_name=hand.table.name,
        data={
            "number": hand.number,
            "step": dict(step),
            "assertion": error.assertion,
            "message": error.message,
        },
    )


def hand_play(
    *, hand: Hand, dealer: AbstractBaseUser, step: Mapping[str, Any], finish: bool = True
) -> Hand:
    """One step of an open hand, then (with `finish`) its finish when the game is over; the
    tablet leaves the finish to the dealer's confirmation. Refused: ServiceError (nothing
    changed); a broken assertion: ServiceError `assertion_failed` (logged, audited, nothing
    changed)."""
    try:
        hand = hand_act(hand=hand, dealer=dealer, step=step)
    except GameAssertionError as err:
        logger.error(
            "game assertion failed at %s (hand %s): %s: %s; step refused: %r",
            hand.table.name,
            hand.number,
            err.assertion,
            err.message,
            dict(step),
        )
        hand_assertion_failed(hand=hand, dealer=dealer, step=step, error=err)
        seats = list(hand.players.order_by("position").values_list("seat", flat=True))
        said = games.player_vs_player(hand.game).floor_words(err.message, seats)
        raise ServiceError(
            f"The system refused this action: its check of the game ({err.assertion}) failed: "
            f"{said}. This is a bug in the system, not the players' "
            "mistake; it is logged and on the audit trail, and nothing changed. Call the pit boss.",
            field="step",
            code="assertion_failed",
            status=500,
        ) from None
    if finish and games.player_vs_player(hand.game).outcome(hand.record) is not None:
        hand = hand_finish(hand=hand, dealer=dealer)
    return hand


__all__ = ["hand_assertion_failed", "hand_play"]
