"""Separation of duties on the floor: nobody signs off, voids or corrects a round, approves or
withdraws its void, nor voids a hand, that they took part in, whatever roles their account
holds (one person may be both a dealer and a pit boss); nobody approves a void they asked for.

Taking part in a round means having dealt it (opened it or entered any of its steps at the
table), entered it (a correction), or signed off its payout. Who did what is read from the
round's own fields (its dealer, who approved it) and from its record on the audit chain (the
actor of each step), so a dealer who took over a round at the table counts as its dealer too.

The services call these checks, so the rule holds on every path (API, dashboard, tablet, the
trail's pages, the correction form). A refusal is `core.errors.SeparationOfDuties` (403 on the
API, the message on the pages), raised before anything is written, and recorded as a refused
permission by whoever answers the request. `rounds_allowed` says, for a user and rounds, which
of these actions the rule lets them take: the pages show a button only for those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from audit.kinds import EventKind
from audit.models import AuditEvent
from core.errors import SeparationOfDuties
from core.roles import Role, has_role
from tables.models import Hand, Round

DEALT = "dealt"
ENTERED = "entered"
SIGNED_OFF = "signed off"

# What a pit boss does to a round, each refused to whoever took part in it (and a void's
# approval to whoever asked for it): the words of the refusal ("another pit boss must <verb>
# <it>").
APPROVE = "approve"
VOID = "void"
CORRECT = "correct"
APPROVE_VOID = "approve_void"
WITHDRAW_VOID = "withdraw_void"
_WORDS = {
    APPROVE: ("approve", "it"),
    VOID: ("void", "it"),
    CORRECT: ("correct", "it"),
    APPROVE_VOID: ("approve", "its void"),
    WITHDRAW_VOID: ("withdraw", "its void"),
}

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
_ROUND_KINDS = (*_DEALER_STEPS, EventKind.ROUND_CORRECTED, EventKind.ROUND_APPROVED)
_HAND_STEPS = (
    EventKind.HAND_OPENED,
    EventKind.HAND_STEP,
    EventKind.HAND_UNDONE,
    EventKind.HAND_MISDEAL,
    EventKind.HAND_FINISHED,
)

Parts = dict[str, set[int]]


def _actors(label: str, pk: int, kinds: Iterable[str]) -> list[tuple[str, int]]:
    return [
        (kind, actor)
        for kind, actor in AuditEvent.objects.filter(
            object_type=label, object_id=str(pk), kind__in=list(kinds), actor_id__isnull=False
        ).values_list("kind", "actor_id")
    ]


def rounds_parts(rounds: Sequence[Round]) -> dict[int, Parts]:
    """Who took part in each round, by how: `dealt`, `entered` (a correction) and `signed off`
    (by round id). A correction's dealers are also those of the round it corrects. The rounds'
    events are read in one statement, after the rounds they correct (one more per level of
    correction: nearly always none or one)."""
    rows: dict[int, tuple[int, int | None, int | None]] = {
        r.pk: (r.dealer_id, r.approved_by_id, r.corrects_id) for r in rounds
    }
    missing = {c for _d, _a, c in rows.values() if c is not None and c not in rows}
    while missing:
        for pk, dealer, approved, corrects in Round.objects.filter(pk__in=missing).values_list(
            "pk", "dealer_id", "approved_by_id", "corrects_id"
        ):
            rows[pk] = (dealer, approved, corrects)
        missing = {c for _d, _a, c in rows.values() if c is not None and c not in rows}
    own: dict[int, Parts] = {
        pk: {
            DEALT: {dealer},
            ENTERED: set(),
            SIGNED_OFF: {approved} if approved is not None else set(),
        }
        for pk, (dealer, approved, _c) in rows.items()
    }
    events = AuditEvent.objects.filter(
        object_type="tables.round",
        object_id__in=[str(pk) for pk in rows],
        kind__in=list(_ROUND_KINDS),
        actor_id__isnull=False,
    ).values_list("object_id", "kind", "actor_id")
    for object_id, kind, actor in events:
        parts = own[int(object_id)]
        if kind == EventKind.ROUND_CORRECTED:
            parts[ENTERED].add(actor)
        elif kind == EventKind.ROUND_APPROVED:
            parts[SIGNED_OFF].add(actor)
        else:
            parts[DEALT].add(actor)

    def dealt(pk: int) -> set[int]:
        corrects = rows[pk][2]
        return own[pk][DEALT] | (dealt(corrects) if corrects is not None else set())

    return {r.pk: {**own[r.pk], DEALT: dealt(r.pk)} for r in rounds}


def round_parts(round_: Round) -> Parts:
    """Who took part in the round, by how: `dealt`, `entered` (a correction) and `signed off`.
    A correction's dealers are also those of the round it corrects."""
    return rounds_parts([round_])[round_.pk]


def correction_entered_by(round_: Round) -> int | None:
    """The id of the pit boss who entered this correction (the actor of its entry's event)."""
    found = _actors("tables.round", round_.pk, (EventKind.ROUND_CORRECTED,))
    return found[0][1] if found else None


def _named(round_: Round) -> str:
    if round_.corrects_id is not None:
        return f"the correction of round {round_.table.name} #{round_.number}"
    return f"round {round_.table.name} #{round_.number}"


def _refusal(round_: Round, parts: Parts, user_id: Any, action: str) -> str | None:
    """Why `user_id` may not take `action` on the round (None: the rule lets them)."""
    verb, it = _WORDS[action]
    if action == WITHDRAW_VOID and user_id == round_.void_requested_by_id:
        return None  # whoever asked for a void may withdraw it
    if action == APPROVE_VOID and user_id == round_.void_requested_by_id:
        return f"You asked for the void of {_named(round_)}; another pit boss must {verb} it"
    for how in (ENTERED, DEALT, SIGNED_OFF):
        if user_id not in parts[how]:
            continue
        if how == DEALT:
            what = f"You dealt round {round_.table.name} #{round_.number}"
            if round_.corrects_id is not None:
                it = "its correction" if it == "it" else "the void of its correction"
        elif how == ENTERED:
            what = f"You entered {_named(round_)}"
        else:
            what = f"You signed off the payout of {_named(round_)}"
        return f"{what}; another pit boss must {verb} {it}"
    return None


def require_apart_from_round(round_: Round, user: AbstractBaseUser, *, action: str) -> None:
    """Refuse `user` for `action` (`approve`, `void`, `correct`, `approve_void`,
    `withdraw_void`) on a round they took part in (dealt, entered or signed off), and the
    approval of a void to whoever asked for it."""
    refusal = _refusal(round_, round_parts(round_), user.pk, action)
    if refusal is not None:
        raise SeparationOfDuties(
            refusal,
            action=action,
            about={"round_id": round_.pk, "round": str(round_)},
            table_name=round_.table.name,
        )


@dataclass(frozen=True)
class Allowed:
    """What one user may do to one round on the pages: `may[action]` for each action the
    round's state offers to a pit boss and the duties rule lets this user take; `why[action]`
    the rule's refusal, in words, for one it offers but refuses them."""

    may: dict[str, bool] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)


def _offered(round_: Round) -> tuple[str, ...]:
    if round_.awaiting_approval:
        return (APPROVE,)
    if round_.void_waiting:
        return (APPROVE_VOID, WITHDRAW_VOID)
    if round_.status == Round.Status.SETTLED:
        return (VOID,)
    if round_.status == Round.Status.VOIDED:
        return (CORRECT,)
    return ()


def rounds_allowed(
    user: AbstractBaseUser | AnonymousUser, rounds: Sequence[Round]
) -> dict[int, Allowed]:
    """For each round (by id, its table read with it), what `user` may do to it: the one
    answer the pages' buttons follow (a pit boss who took part sees why instead). Reads who
    took part in every round at once (`rounds_parts`)."""
    if not rounds or not has_role(user, Role.PIT_BOSS):
        return {r.pk: Allowed() for r in rounds}
    parts = rounds_parts(rounds)
    allowed = {}
    for r in rounds:
        result = Allowed()
        for action in _offered(r):
            refusal = _refusal(r, parts[r.pk], user.pk, action)
            result.may[action] = refusal is None
            if refusal is not None:
                result.why[action] = refusal
        allowed[r.pk] = result
    return allowed


def require_apart_from_hand(hand: Hand, user: AbstractBaseUser, *, action: str) -> None:
    """Refuse `user` for `action` on a hand they dealt (opened it or entered any of its steps)."""
    dealt = {hand.dealer_id} | {actor for _, actor in _actors("tables.hand", hand.pk, _HAND_STEPS)}
    if user.pk in dealt:
        raise SeparationOfDuties(
            f"You dealt {hand}; another pit boss must {action} it",
            action=action,
            about={"hand_id": hand.pk, "hand": str(hand)},
            table_name=hand.table.name,
        )
