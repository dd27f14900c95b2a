"""Separation of duties on the floor: nobody signs off, voids or corrects a round, nor voids a
hand, that they took part in, whatever roles their account holds (one person may be both a
dealer and a pit boss).

Taking part in a round means having dealt it (opened it or entered any of its steps at the
table), entered it (a correction), or signed off its payout. Who did what is read from the
round's own fields (its dealer, who approved it) and from its record on the audit chain (the
actor of each step), so a dealer who took over a round at the table counts as its dealer too.

The services call these checks, so the rule holds on every path (API, dashboard, tablet, the
trail's pages, the correction form). A refusal is `core.errors.SeparationOfDuties` (403 on the
API, the message on the pages), raised before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from audit.kinds import EventKind
from audit.models import AuditEvent
from core.errors import SeparationOfDuties
from tables.models import Hand, Round

DEALT = "dealt"
ENTERED = "entered"
SIGNED_OFF = "signed off"

# The events whose actor dealt the round: every step entered at the table. For a correction the
# sign-off request and the settle are written under the name of the pit boss who entered it.
_DEALER_STEPS = (
    EventKind.ROUND_OPENED,
    EventKind.ROUND_CARDS_ENTERED,
    EventKind.ROUND_DECISION,
    EventKind.ROUND_HOUSE_WAY,
    EventKind.ROUND_STEP_BACK,
    EventKind.ROUND_APPROVAL_REQUESTED,
    EventKind.ROUND_SETTLED,
)
_HAND_STEPS = (EventKind.HAND_OPENED, EventKind.HAND_STEP, EventKind.HAND_FINISHED)


def _actors(label: str, pk: int, kinds: Iterable[str]) -> list[tuple[str, int]]:
    return [
        (kind, actor)
        for kind, actor in AuditEvent.objects.filter(
            object_type=label, object_id=str(pk), kind__in=list(kinds), actor_id__isnull=False
        ).values_list("kind", "actor_id")
    ]


def round_parts(round_: Round) -> dict[str, set[int]]:
    """Who took part in the round, by how: `dealt`, `entered` (a correction) and `signed off`.
    A correction's dealers are also those of the round it corrects."""
    parts: dict[str, set[int]] = {DEALT: {round_.dealer_id}, ENTERED: set(), SIGNED_OFF: set()}
    if round_.approved_by_id is not None:
        parts[SIGNED_OFF].add(round_.approved_by_id)
    kinds = (*_DEALER_STEPS, EventKind.ROUND_CORRECTED, EventKind.ROUND_APPROVED)
    for kind, actor in _actors("tables.round", round_.pk, kinds):
        if kind == EventKind.ROUND_CORRECTED:
            parts[ENTERED].add(actor)
        elif kind == EventKind.ROUND_APPROVED:
            parts[SIGNED_OFF].add(actor)
        else:
            parts[DEALT].add(actor)
    if round_.corrects_id is not None:
        corrected = Round.objects.only("pk", "dealer_id", "approved_by_id", "corrects_id").get(
            pk=round_.corrects_id
        )
        parts[DEALT] |= round_parts(corrected)[DEALT]
    return parts


def correction_entered_by(round_: Round) -> int | None:
    """The id of the pit boss who entered this correction (the actor of its entry's event)."""
    found = _actors("tables.round", round_.pk, (EventKind.ROUND_CORRECTED,))
    return found[0][1] if found else None


def _named(round_: Round) -> str:
    if round_.corrects_id is not None:
        return f"the correction of round {round_.table.name} #{round_.number}"
    return f"round {round_.table.name} #{round_.number}"


def require_apart_from_round(
    round_: Round,
    user: AbstractBaseUser,
    *,
    action: str,
    refuse: Iterable[str] = (ENTERED, DEALT, SIGNED_OFF),
) -> None:
    """Refuse `user` for `action` ("approve", "void", "correct") on a round they took part in
    in one of the ways of `refuse`."""
    refuse = tuple(refuse)
    parts = round_parts(round_)
    for how in (ENTERED, DEALT, SIGNED_OFF):
        if how not in refuse or user.pk not in parts[how]:
            continue
        it = "it"
        if how == DEALT:
            what = f"You dealt round {round_.table.name} #{round_.number}"
            if round_.corrects_id is not None:
                it = "its correction"
        elif how == ENTERED:
            what = f"You entered {_named(round_)}"
        else:
            what = f"You signed off the payout of {_named(round_)}"
        raise SeparationOfDuties(f"{what}; another pit boss must {action} {it}")


def require_apart_from_hand(hand: Hand, user: AbstractBaseUser, *, action: str) -> None:
    """Refuse `user` for `action` on a hand they dealt (opened it or entered any of its steps)."""
    dealt = {hand.dealer_id} | {actor for _, actor in _actors("tables.hand", hand.pk, _HAND_STEPS)}
    if user.pk in dealt:
        raise SeparationOfDuties(f"You dealt {hand}; another pit boss must {action} it")
