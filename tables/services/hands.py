"""Hands of a player-vs-player game (a poker-room game): open, one step at a time
(a card or an action the dealer entered), finish, void.

The game (`tables.games.PlayerVsPlayerGame`) checks every step with its engine and keeps the
hand's record in its `replay` contract form; these services lock the hand, store the record,
and write one audit event per step in the same transaction. A refused step raises ServiceError
naming the card, player or action, and changes nothing. Finishing freezes the pot, the rake
(the house's win) and each player's payoff, recomputed from the record by the same engine code
`manage.py replay` runs. A pit boss voids a hand with a reason; its record stays.

A dealer's mistake is fixed as at the house games' tables, on the record: `hand_undo` takes the
last action back (the record rebuilt from the hand's steps on the audit chain without it) while
no card or street has come after it, and `hand_misdeal` cancels the hand early (before the flop,
before the first auction: the game says) with a reason, each buy-in returned and nothing paid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from audit.kinds import EventKind
from audit.models import AuditEvent
from audit.services import audit_record
from core.money import dollars
from core.roles import PIT_BOSSES, require
from core.strict import is_whole
from tables import games
from tables.gaming_day import gaming_day_of, shift_of
from tables.models import Hand, HandPlayer, LimitKind, Table, TableSettingsVersion
from tables.selectors import settings_in_force
from tables.signals import hand_closed, play_starting

from . import ServiceError
from .duties import require_apart_from_hand
from .limits import check_amount, limit_cents
from .rounds import require_dealer_at, seat_number


def _locked_open(hand: Hand, dealer: AbstractBaseUser) -> Hand:
    locked = Hand.objects.select_for_update(of=("self",)).select_related("table").get(pk=hand.pk)
    require_dealer_at(locked.table, dealer)
    if locked.status != Hand.Status.OPEN:
        raise ServiceError(f"{locked} is already {locked.status}", code="not_open", status=409)
    return locked


def _seats(hand: Hand) -> list[int]:
    """Each player's seat, in the record's order (the game names its players by them)."""
    return list(hand.players.order_by("position").values_list("seat", flat=True))


def hand_steps(hand: Hand) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The hand's record as opened and the steps in force, in order, from its audit events:
    each step entered, less each one taken back."""
    opened: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []
    events = AuditEvent.objects.filter(
        object_type=Hand._meta.label_lower,
        object_id=str(hand.pk),
        kind__in=[EventKind.HAND_OPENED, EventKind.HAND_STEP, EventKind.HAND_UNDONE],
    ).order_by("seq")
    for kind, data in events.values_list("kind", "data"):
        if kind == EventKind.HAND_OPENED:
            opened = dict(data["record"])
        elif kind == EventKind.HAND_STEP:
            steps.append(dict(data["step"]))
        elif steps:
            steps.pop()
    if opened is None:
        raise ServiceError(f"{hand}: its opening is not on the audit record", field="hand")
    return opened, steps


def _players(table: Table, given: Any, version: TableSettingsVersion) -> list[tuple[int, int]]:
    """[(seat, buy-in cents)] in seat order, checked: seats of the table, each once, buy-ins
    whole cents (numbers) of at least the game's minimum and at most the poker buy-in limit an
    admin sets (`limits`), as many players as the settings allow."""
    game = games.player_vs_player(table.game)
    if not isinstance(given, Mapping) or not given:
        raise ServiceError("enter each player's buy-in, by seat", field="players")
    seats: dict[int, int] = {}
    most = limit_cents(LimitKind.POKER_BUY_IN)
    for key, raw in given.items():
        n = seat_number(key, "players")
        if n in seats:
            raise ServiceError(f"seat {n} is given twice", field=f"seat {n}", code="bad_seat")
        if not 1 <= n <= table.seats:
            raise ServiceError(
                f"seat {n} does not exist at {table} (seats 1 to {table.seats})",
                field=f"seat {n}",
                code="bad_seat",
            )
        if raw is None or (is_whole(raw) and raw == 0):
            continue  # an empty seat
        if not is_whole(raw):
            raise ServiceError(
                f"seat {n}'s buy-in must be whole cents (a number), not {raw!r}",
                field=f"seat {n} buy_in",
                code="bad_buy_in",
            )
        least = game.min_buy_in(version.values)
        if raw < least:
            raise ServiceError(
                f"seat {n}'s buy-in must be at least {dollars(least)}, not {dollars(raw)}",
                field=f"seat {n} buy_in",
                code="bad_buy_in",
            )
        check_amount(
            LimitKind.POKER_BUY_IN,
            raw,
            field=f"seat {n} buy_in",
            what=f"seat {n}'s buy-in",
            most=most,
        )
        seats[n] = raw
    most = game.max_players(version.values)
    if not 2 <= len(seats) <= most:
        raise ServiceError(
            f"a hand needs 2 to {most} players with a buy-in, not {len(seats)}",
            field="players",
            code="bad_players",
        )
    return sorted(seats.items())


@transaction.atomic(durable=True)
def hand_open(
    *, table: Table, dealer: AbstractBaseUser, players: Mapping[Any, Any], first: int | None = None
) -> Hand:
    """Open the table's next hand under its settings in force: the players by seat with their
    buy-ins (cents). `first` (a player index) acts first; by default it moves round the players
    one place per hand, as the button does."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    require_dealer_at(table, dealer)
    game = games.player_vs_player(table.game)
    if not table.is_open:
        raise ServiceError(f"{table} is closed", field="table", code="table_closed", status=409)
    play_starting.send(sender=Table, table=table, what="a hand")
    version = settings_in_force(table)
    if version is None:
        raise ServiceError(
            f"{table} has no approved table settings in force: an admin assigns them",
            field="table",
            code="no_settings",
            status=409,
        )
    if Hand.objects.filter(table=table, status=Hand.Status.OPEN).exists():
        raise ServiceError(
            f"{table} already has an open hand", field="table", code="hand_open", status=409
        )
    seated = _players(table, players, version)
    number = (Hand.objects.filter(table=table).aggregate(m=Max("number"))["m"] or 0) + 1
    if first is None:
        first = (number - 1) % len(seated)
    elif isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(seated):
        raise ServiceError(
            f"first must be a player from 0 to {len(seated) - 1}, not {first!r}", field="first"
        )
    record = game.setup_record(version.values, [cents for _, cents in seated], first)
    try:
        hand = Hand.objects.create(
            table=table,
            number=number,
            dealer=dealer,
            game=table.game,
            settings_version=version,
            record=record,
        )
    except IntegrityError:
        raise ServiceError(
            f"{table} already has an open hand", field="table", code="conflict", status=409
        ) from None
    players = HandPlayer.objects.bulk_create(
        HandPlayer(hand=hand, position=i, seat=seat, buy_in_cents=cents)
        for i, (seat, cents) in enumerate(seated)
    )
    audit_record(
        actor=dealer,
        kind=EventKind.HAND_OPENED,
        obj=hand,
        table_name=table.name,
        data={
            "number": number,
            "game": table.game,
            "settings_version_id": version.pk,
            "players": [{"seat": s, "buy_in_cents": c} for s, c in seated],
            "record": record,
        },
        bind=players,
    )
    return hand


@transaction.atomic(durable=True)
def hand_act(*, hand: Hand, dealer: AbstractBaseUser, step: Mapping[str, Any]) -> Hand:
    """One step the dealer entered (a card dealt, a player's action), checked by the game's
    engine against the whole record; refused whole, naming the card, player or action."""
    hand = _locked_open(hand, dealer)
    game = games.player_vs_player(hand.game)
    if not isinstance(step, Mapping):
        raise ServiceError("a step must be an object", field="step")
    # The game speaks of its players by their seats (the record numbers them from 0).
    seats = _seats(hand)
    record = game.apply(hand.record, step, seats=seats)
    text = game.step_text(hand.record, step, seats=seats)
    hand.record = record
    hand.save(update_fields=["record"])
    audit_record(
        actor=dealer,
        kind=EventKind.HAND_STEP,
        obj=hand,
        table_name=hand.table.name,
        data={"number": hand.number, "step": dict(step), "text": text},
    )
    return hand


@transaction.atomic(durable=True)
def hand_undo(*, hand: Hand, dealer: AbstractBaseUser) -> Hand:
    """Take back the hand's last step, a player's action, while no card or street has come
    after it (the game says what it takes back): the record is rebuilt from the hand's steps
    without it. The step stays on the audit record; the undo is an event of its own."""
    hand = _locked_open(hand, dealer)
    game = games.player_vs_player(hand.game)
    seats = _seats(hand)
    opened, steps = hand_steps(hand)
    if not steps:
        raise ServiceError(
            f"{hand} has no step to take back yet", field="hand", code="nothing_to_undo", status=409
        )
    last = steps.pop()
    why = game.undo_refusal(last, seats=seats)
    if why:
        raise ServiceError(
            f"nothing was taken back: {why}", field="hand", code="not_undoable", status=409
        )
    record = opened
    for step in steps:
        record = game.apply(record, step, seats=seats)
    text = game.step_text(record, last, seats=seats)
    hand.record = record
    hand.save(update_fields=["record"])
    audit_record(
        actor=dealer,
        kind=EventKind.HAND_UNDONE,
        obj=hand,
        table_name=hand.table.name,
        data={"number": hand.number, "step": last, "text": f"taken back: {text}"},
    )
    return hand


@transaction.atomic(durable=True)
def hand_misdeal(*, hand: Hand, dealer: AbstractBaseUser, reason: str) -> Hand:
    """Cancel an open hand as a misdeal, early enough (the game says: before the flop, before
    the first auction), with a reason: nothing is paid, each player keeps the buy-in, and the
    table is free for its next hand. The dealer signed in at the table."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("say why the hand is a misdeal (e.g. a card exposed)", field="reason")
    if len(reason) > 500:
        raise ServiceError("the reason may have at most 500 characters", field="reason")
    hand = _locked_open(hand, dealer)
    game = games.player_vs_player(hand.game)
    why = game.misdeal_refusal(hand.record, seats=_seats(hand))
    if why:
        raise ServiceError(
            f"{hand} is not cancelled: {why}", field="hand", code="too_late", status=409
        )
    now = timezone.now()
    Hand.objects.filter(pk=hand.pk, status=Hand.Status.OPEN).update(
        status=Hand.Status.MISDEAL, voided_at=now, voided_by=dealer, void_reason=reason
    )
    hand.refresh_from_db()
    players = list(hand.players.order_by("position"))
    audit_record(
        actor=dealer,
        kind=EventKind.HAND_MISDEAL,
        obj=hand,
        table_name=hand.table.name,
        data={
            "number": hand.number,
            "reason": reason,
            "buy_ins_returned": [{"seat": p.seat, "buy_in_cents": p.buy_in_cents} for p in players],
        },
    )
    return hand


@transaction.atomic(durable=True)
def hand_finish(*, hand: Hand, dealer: AbstractBaseUser) -> Hand:
    """Close a hand that is over: the pot, the rake and each player's payoff, as the engine
    works them out from the record (refused while the hand needs a card or an action)."""
    hand = _locked_open(hand, dealer)
    game = games.player_vs_player(hand.game)
    outcome = game.outcome(hand.record)
    if outcome is None:
        raise ServiceError(
            f"{hand} is not over yet: enter the next card or action",
            field="hand",
            code="incomplete",
        )
    players = list(hand.players.order_by("position"))
    if len(outcome.payoffs) != len(players) or sum(outcome.payoffs) != -outcome.rake:
        raise ServiceError(f"{hand}: the payoffs do not add up to the rake", field="hand")
    for player, payoff, stack in zip(players, outcome.payoffs, outcome.stacks, strict=True):
        player.payoff_cents = payoff
        player.stack_after_cents = stack
    HandPlayer.objects.bulk_update(players, ["payoff_cents", "stack_after_cents"])
    now = timezone.now()
    hand.status = Hand.Status.FINISHED
    hand.pot_cents = outcome.pot
    hand.rake_cents = outcome.rake
    hand.result = {
        "pot": outcome.pot,
        "rake": outcome.rake,
        "payoffs": list(outcome.payoffs),
        "stacks": list(outcome.stacks),
        **dict(outcome.detail),
    }
    hand.finished_at = now
    hand.gaming_day = gaming_day_of(now)
    hand.shift = shift_of(now)
    hand.save(
        update_fields=[
            "status",
            "pot_cents",
            "rake_cents",
            "result",
            "finished_at",
            "gaming_day",
            "shift",
        ]
    )
    hand_closed.send(sender=Hand, hand=hand)
    audit_record(
        actor=dealer,
        kind=EventKind.HAND_FINISHED,
        obj=hand,
        table_name=hand.table.name,
        data={
            "number": hand.number,
            "pot_cents": outcome.pot,
            "rake_cents": outcome.rake,
            "payoffs": [{"seat": p.seat, "payoff_cents": p.payoff_cents} for p in players],
            "result": hand.result,
        },
        bind=players,
    )
    return hand


@transaction.atomic(durable=True)
def hand_void(*, hand: Hand, by: AbstractBaseUser, reason: str) -> Hand:
    """Void a hand, open or finished (pit boss, with a reason; not one who dealt it). Its record
    stays as it was; a voided finished hand leaves the hold reports."""
    require(by, PIT_BOSSES, "void a hand")
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("a void needs a reason", field="reason")
    hand = Hand.objects.select_for_update(of=("self",)).select_related("table").get(pk=hand.pk)
    if hand.status == Hand.Status.VOIDED:
        raise ServiceError(f"{hand} is already voided", code="not_voidable", status=409)
    if hand.status == Hand.Status.MISDEAL:
        raise ServiceError(
            f"{hand} was cancelled as a misdeal: nothing was paid, nothing to void",
            code="not_voidable",
            status=409,
        )
    require_apart_from_hand(hand, by, action="void")
    was = hand.status
    now = timezone.now()
    Hand.objects.filter(pk=hand.pk, status=was).update(
        status=Hand.Status.VOIDED, voided_at=now, voided_by=by, void_reason=reason
    )
    hand.refresh_from_db()
    if was == Hand.Status.FINISHED:
        hand_closed.send(sender=Hand, hand=hand)
    audit_record(
        actor=by,
        kind=EventKind.HAND_VOIDED,
        obj=hand,
        table_name=hand.table.name,
        data={
            "number": hand.number,
            "was": was,
            "reason": reason,
            "pot_cents": hand.pot_cents,
            "rake_cents": hand.rake_cents,
        },
    )
    return hand
