"""Rounds at a table, step by step: open (wagers), deal (cards), each seat's decision, the
dealer's draw by the house way, then settle. Each step is checked by the engine and refused
whole with a message naming the seat, card or wager; each accepted step is audited.

`round_state` (a selector) says what the dealer must do next; `round_preview` shows every
seat's payout before the dealer confirms; `round_settle` is idempotent with a key and can
never settle one round twice (the round row is locked and its status checked).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone

from audit.binding import check_as_recorded
from audit.kinds import EventKind
from audit.services import audit_record
from core.money import dollars
from core.prepared import PreparedQuery
from core.roles import (
    DEALERS,
    require,
)
from tables import display as show
from tables import games
from tables.engine import contract, entry
from tables.engine.money import format_cents, parse_cents
from tables.engine.progressive import JACKPOT
from tables.engine.settlement import Settlement
from tables.games.base import engine_call
from tables.games.wagers import check_limit as _check_limit
from tables.games.wagers import only as _only
from tables.gaming_day import gaming_day_of, shift_of
from tables.models import (
    DealerSession,
    PaytableVersion,
    ProgressiveMeter,
    Round,
    SettlementLine,
    Table,
)
from tables.selectors import STEP_CONFIRM, keep_preview, round_state, settle_round
from tables.signals import play_starting, round_closed

from . import ServiceError
from .meters import meter_apply_round

# Reads of a round (what is next, the preview, the rebet) are selectors: `tables.selectors`.


# --- permissions ---------------------------------------------------------------------------


def require_dealer_at(
    table: Table, dealer: AbstractBaseUser, *, signed_in: bool | None = None
) -> None:
    """Only a dealer, signed in at this very table, plays its rounds. `signed_in`: the session
    check already made in the statement that read the table (`locked_round`)."""
    require(
        dealer,
        DEALERS,
        "play a round",
        message="only the dealer signed in at the table plays its rounds",
    )
    if signed_in is None:
        signed_in = DealerSession.objects.filter(
            table=table, dealer=dealer, ended_at__isnull=True
        ).exists()
    if not signed_in:
        raise PermissionDenied(f"{dealer.get_username()} is not signed in at {table}")


def refuse_correction(round_: Round) -> None:
    """A correction is entered and approved by pit bosses, never played at the table."""
    if round_.corrects_id is not None:
        raise ServiceError(
            f"round {round_} is a correction: it is not played at the table (a pit boss "
            "approves or withdraws it)",
            code="correction",
            status=409,
        )


def locked_round(pk: int, dealer: AbstractBaseUser) -> Round:
    """The round, its row locked, with what a step reads (table, dealer, paytable version) and
    whether `dealer` is signed in at its table, in one statement; then the dealer check."""
    locked = _LOCKED_ROUND.first(pk=pk, dealer=dealer.pk)
    if locked is None:
        raise Round.DoesNotExist(f"no round {pk}")
    require_dealer_at(locked.table, dealer, signed_in=locked.dealer_signed_in)
    refuse_correction(locked)
    return locked


def _locked_round_query(pk: int, dealer: int) -> QuerySet[Round]:
    signed_in = DealerSession.objects.filter(
        table_id=OuterRef("table_id"), dealer_id=dealer, ended_at__isnull=True
    )
    return (
        Round.objects.select_for_update(of=("self",))
        .select_related("table", "dealer", "paytable_version")
        .annotate(dealer_signed_in=Exists(signed_in))
        .filter(pk=pk)
    )


_LOCKED_ROUND = PreparedQuery(_locked_round_query, pk=int, dealer=int)
_KEY_USED_ELSEWHERE = PreparedQuery(
    lambda key, pk: Round.objects.filter(idempotency_key=key).exclude(pk=pk).values_list("pk")[:1],
    key=str,
    pk=int,
)


def _locked_table_query(pk: int, dealer: int) -> QuerySet[Table]:
    """The table locked to open its next round, with its paytable version and meter, whether
    `dealer` is signed in there, its open round (if any) and its last round's number.

    FOR NO KEY UPDATE: one opening at a table at a time, while rows that merely refer to the
    table (a report rebuild's summary, checking its key) are written meanwhile."""
    rounds = Round.objects.filter(table_id=OuterRef("pk"))
    return (
        Table.objects.select_for_update(of=("self",), no_key=True)
        .select_related("paytable_version", "meter")
        .annotate(
            dealer_signed_in=Exists(
                DealerSession.objects.filter(
                    table_id=OuterRef("pk"), dealer_id=dealer, ended_at__isnull=True
                )
            ),
            open_round_id=Subquery(
                rounds.filter(status=Round.Status.OPEN, corrects__isnull=True)
                .order_by("pk")
                .values("pk")[:1]
            ),
            last_number=Subquery(rounds.order_by("-number").values("number")[:1]),
        )
        .filter(pk=pk)
    )


_LOCKED_TABLE = PreparedQuery(_locked_table_query, pk=int, dealer=int)


def _locked_open(round_: Round, dealer: AbstractBaseUser) -> Round:
    locked = locked_round(round_.pk, dealer)
    if locked.status != Round.Status.OPEN:
        raise ServiceError(
            f"round {locked} is already {locked.status}", code="not_open", status=409
        )
    return locked


# --- wagers --------------------------------------------------------------------------------


_SEAT_NUMBER = re.compile(r"[0-9]{1,2}", re.ASCII)


def seat_number(key: Any, field: str) -> int:
    """A seat number given as a whole number or its ASCII digits ("1"; "01" is seat 1 too)."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and _SEAT_NUMBER.fullmatch(key):
        return int(key)
    raise ServiceError(f"{key!r} is not a seat number", field=field, code="bad_seat")


def seat_map(given: dict[Any, Any], field: str) -> dict[int, Any]:
    """Seat number -> value, each seat once ("1" and "01" are the same seat)."""
    seats: dict[int, Any] = {}
    for key, value in given.items():
        n = seat_number(key, field)
        if n in seats:
            raise ServiceError(f"seat {n} is given twice", field=f"seat {n}", code="bad_seat")
        seats[n] = value
    return seats


def _wager_words(game: games.BankedGame, wager: str) -> str:
    """A wager in a sentence, in the game's words: "ante", "side bet"."""
    return game.wager_label(wager).lower()


def _article(words: str) -> str:
    return f"{'an' if words[:1] in 'aeiou' else 'a'} {words}"


def validate_wagers(
    table: Table, wagers: dict[Any, Any], *, version: PaytableVersion | None = None
) -> list[dict[str, Any]]:
    """The seats' wagers in the contract's form, checked against the limits of `version` (by
    default the table's paytable version in force)."""
    version = version or table.paytable_version
    assert version is not None
    limits = version.limits
    game = games.banked(table.game)
    main = _wager_words(game, game.hand_wager)
    nothing = f"no seat has a wager: enter at least one seat's {main}"
    if not isinstance(wagers, dict) or not wagers:
        raise ServiceError(nothing, field="wagers")
    seats: list[dict[str, Any]] = []
    for n, given in seat_map(wagers, "wagers").items():
        if not 1 <= n <= table.seats:
            raise ServiceError(
                f"seat {n} does not exist at {table} (seats 1 to {table.seats})", field=f"seat {n}"
            )
        if not isinstance(given, dict):
            raise ServiceError(f"seat {n}'s wagers must be an object", field=f"seat {n}")
        given = {k: v for k, v in given.items() if v not in (None, "", 0, "0", "0.00")}
        if not given:
            continue  # an empty seat
        allowed = game.seat_wagers
        for name in given:
            if name not in allowed:
                raise ServiceError(
                    f"seat {n} may not wager {name!r} at {table}",
                    field=f"seat {n} {name}",
                    code="bad_wager",
                )
        for required in game.required_wagers:
            if required not in given:
                raise ServiceError(
                    f"seat {n} needs {_article(_wager_words(game, required))}",
                    field=f"seat {n} {required}",
                    code="bad_wager",
                )
        cents = {
            name: engine_call(parse_cents, value, where=f"seat {n}'s {name}")
            for name, value in given.items()
        }
        for wager in game.limited_wagers:
            if wager in cents:
                _check_limit(cents[wager], limits, wager, f"seat {n} {wager}")
        game.check_wagers(n, cents)
        if "progressive" in cents:  # only a game that takes a progressive lists the wager
            if table.meter is None:
                raise ServiceError(
                    f"{table} has no progressive",
                    field=f"seat {n} progressive",
                    code="bad_wager",
                )
            if cents["progressive"] != table.meter.wager_cents:
                raise ServiceError(
                    f"seat {n}'s progressive must be {format_cents(table.meter.wager_cents)}",
                    field=f"seat {n} progressive",
                    code="bad_wager",
                )
        order = [w for w in allowed if w in cents]
        seats.append({"seat": n, "wagers": {w: format_cents(cents[w]) for w in order}})
    if not seats:
        raise ServiceError(nothing, field="wagers")
    return sorted(seats, key=lambda s: s["seat"])


# --- steps ---------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def round_open(*, table: Table, dealer: AbstractBaseUser, wagers: dict[Any, Any]) -> Round:
    """Open the next round at a table with the seats' wagers (pinning the paytable in force)."""
    table_id = table.pk
    table = _LOCKED_TABLE.first(pk=table_id, dealer=dealer.pk)
    if table is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    require_dealer_at(table, dealer, signed_in=table.dealer_signed_in)
    if not table.is_open:
        raise ServiceError(f"{table} is closed", code="table_closed", status=409)
    play_starting.send(sender=Table, table=table, what="a round")
    version = table.paytable_version
    if version is None or not version.is_approved:
        raise ServiceError(
            f"{table} has no approved paytable in force", code="no_paytable", status=409
        )
    if table.open_round_id is not None:
        open_round = Round.objects.select_related("table").get(pk=table.open_round_id)
        raise ServiceError(
            f"round {open_round} is still open: settle it first", code="round_open", status=409
        )
    if not isinstance(games.get(table.game), games.BankedGame):
        raise ServiceError(
            f"{table} plays {games.get(table.game).label}: its hands are not banked rounds",
            code="not_banked",
            status=409,
        )
    seats = validate_wagers(table, wagers)
    number = (table.last_number or 0) + 1
    round_ = Round.objects.create(
        table=table,
        number=number,
        dealer=dealer,
        paytable_version=version,
        game=table.game,
        entry={"game": table.game, "dealer": {}, "seats": seats, "decided": []},
    )
    audit_record(
        actor=dealer,
        kind=EventKind.ROUND_OPENED,
        obj=round_,
        table_name=table.name,
        data={"number": number, "paytable_version_id": version.pk, "seats": seats},
    )
    return round_


def _seat(data: dict[str, Any], n: int) -> dict[str, Any]:
    for seat in data["seats"]:
        if seat["seat"] == n:
            return seat  # type: ignore[no-any-return]
    raise ServiceError(f"seat {n} is not in this round", field=f"seat {n}")


@transaction.atomic(durable=True)
def round_deal(
    *, round: Round, dealer: AbstractBaseUser, seat_cards: dict[Any, Any], dealer_cards: Any
) -> Round:
    """Enter the deal: three cards for every seat in the round and the dealer's three."""
    round_ = _locked_open(round, dealer)
    data = copy.deepcopy(round_.entry)
    if data["dealer"].get("cards"):
        raise ServiceError(
            "the cards of this round are already entered", code="already_dealt", status=409
        )
    wanted = {s["seat"] for s in data["seats"]}
    if not isinstance(seat_cards, dict):
        raise ServiceError("cards must map each seat number to its three cards", field="cards")
    given = seat_map(seat_cards, "cards")
    for n in sorted(wanted | set(given)):
        if n not in wanted:
            raise ServiceError(f"seat {n} has no wager in this round", field=f"seat {n} cards")
        if n not in given or not given[n]:
            raise ServiceError(
                f"seat {n}'s cards are missing", field=f"seat {n} cards", code="card_count"
            )
        cards = engine_call(entry.parse_cards, given[n], where=f"seat {n}'s cards")
        _seat(data, n)["cards"] = [str(c) for c in cards]
    if not dealer_cards:
        raise ServiceError(
            "the dealer's cards are missing", field="dealer cards", code="card_count"
        )
    data["dealer"]["cards"] = [
        str(c) for c in engine_call(entry.parse_cards, dealer_cards, where="the dealer's cards")
    ]
    engine_call(games.banked(round_.game).check_partial, data)
    round_.entry = data
    round_.save(update_fields=["entry"])
    audit_record(
        actor=dealer,
        kind=EventKind.ROUND_CARDS_ENTERED,
        obj=round_,
        table_name=round_.table.name,
        data={
            "dealer": data["dealer"]["cards"],
            "seats": {s["seat"]: s["cards"] for s in data["seats"]},
        },
    )
    return round_


@transaction.atomic(durable=True)
def round_decide(
    *, round: Round, dealer: AbstractBaseUser, seat: int, decision: dict[str, Any]
) -> Round:
    """Record one seat's decision, in the game's form (`BankedGame.decision`: e.g. stand, or
    discard and draw), replacing the fields of any decision it made before."""
    round_ = _locked_open(round, dealer)
    data = copy.deepcopy(round_.entry)
    if not data["dealer"].get("cards"):
        raise ServiceError("enter the deal first", code="not_dealt", status=409)
    if data["dealer"].get("draw") or data.get("dealer_done"):
        raise ServiceError(
            "the dealer has already played: decisions are closed",
            code="decisions_closed",
            status=409,
        )
    n = seat_number(seat, "seat")
    target = _seat(data, n)
    game = games.banked(round_.game)
    decided = game.decision(n, target, decision, round_.paytable_version.limits)
    for key in game.decision_keys:
        target.pop(key, None)
    target.update(decided.fields)
    engine_call(game.check_partial, data)
    if n not in data["decided"]:
        data["decided"].append(n)
    round_.entry = data
    round_.save(update_fields=["entry"])
    recorded = decided.recorded or dict(decided.fields)
    audit_record(
        actor=dealer,
        kind=EventKind.ROUND_DECISION,
        obj=round_,
        table_name=round_.table.name,
        data={"seat": n, "decision": recorded},
    )
    return round_


@transaction.atomic(durable=True)
def round_dealer(
    *, round: Round, dealer: AbstractBaseUser, draw: Any = None, discard: Any = None
) -> Round:
    """The dealer's hand by the house way: the replacement cards (and, where the house way
    proposes equivalent discards, which were discarded). The whole round is then checked."""
    round_ = _locked_open(round, dealer)
    data = copy.deepcopy(round_.entry)
    pending = [s["seat"] for s in data["seats"] if s["seat"] not in data["decided"]]
    if not data["dealer"].get("cards"):
        raise ServiceError("enter the deal first", code="not_dealt", status=409)
    if pending:
        raise ServiceError(
            f"seat {pending[0]} has not decided yet", field=f"seat {pending[0]}", status=409
        )
    game = games.banked(round_.game)
    advice = game.dealer_advice(data["dealer"]["cards"])
    draw_cards = [
        str(c) for c in engine_call(entry.parse_cards, draw or [], where="the dealer's draw")
    ]
    data["dealer"].pop("draw", None)
    data["dealer"].pop("discard", None)
    if draw_cards:
        data["dealer"]["draw"] = draw_cards
    chosen = game.dealer_discard(data["dealer"]["cards"], advice, discard)
    if chosen is not None:
        data["dealer"]["discard"] = chosen
    data["dealer_done"] = True
    round_.entry = data
    # Refuses a draw against the house way; the confirm page shows this very settlement.
    keep_preview(round_, round_.table.meter, settle_round(round_, round_.table.meter))
    round_.house_way = {
        **advice,
        "applied_discard": data["dealer"].get("discard", advice["discard"]),
        "draw": draw_cards,
    }
    round_.save(update_fields=["entry", "house_way"])
    audit_record(
        actor=dealer,
        kind=EventKind.ROUND_HOUSE_WAY,
        obj=round_,
        table_name=round_.table.name,
        data=round_.house_way,
    )
    return round_


def settlement_lines(round_: Round, settlement: Settlement) -> list[SettlementLine]:
    lines = []
    for seat in settlement.seats:
        for line in seat.lines:
            breakage = Fraction(line.breakage) / 100
            lines.append(
                SettlementLine(
                    round=round_,
                    seat=seat.seat,
                    wager=line.wager,
                    stake_cents=line.stake_cents,
                    result=line.result.value,
                    net_cents=line.net_cents,
                    breakage=Decimal(breakage.numerator) / Decimal(breakage.denominator),
                    award=line.award or "",
                    odds=str(line.odds) if line.odds is not None else "",
                )
            )
    return lines


def _close(
    round_: Round, settlement: Settlement, **extra: Any
) -> tuple[Round, list[SettlementLine]]:
    """Write the settlement lines, then close the round in one conditional UPDATE (open ->
    settled). In that order: the database checks a closing round against its lines."""
    lines = settlement_lines(round_, settlement)
    handle = sum(line.stake_cents for line in lines)
    SettlementLine.objects.bulk_create(lines)
    now = timezone.now()
    updated = Round.objects.filter(pk=round_.pk, status=Round.Status.OPEN).update(
        status=Round.Status.SETTLED,
        settlement=contract.settlement_to_json(settlement),
        settled_at=now,
        gaming_day=gaming_day_of(now),
        shift=shift_of(now),
        handle_cents=handle,
        players_net_cents=settlement.net_cents,
        **extra,
    )
    if updated != 1:  # cannot happen under the row lock; the database has the last word
        raise ServiceError(
            f"round {round_} was settled meanwhile", code="already_settled", status=409
        )
    # As stored: the answer to a repeated settle, and what the settle's event binds.
    return _ROUND_AS_STORED.first(pk=round_.pk), lines


def _round_as_stored_query(pk: int) -> QuerySet[Round]:
    return Round.objects.select_related("table", "dealer", "paytable_version").filter(pk=pk)


_ROUND_AS_STORED = PreparedQuery(_round_as_stored_query, pk=int)


class PaidLine(Protocol):
    """A settled wager as the sign-off rule reads it: the engine's line or a stored one."""

    @property
    def wager(self) -> str: ...

    @property
    def award(self) -> str | None: ...

    @property
    def stake_cents(self) -> int: ...

    @property
    def net_cents(self) -> int: ...


def award_words(n: int, line: PaidLine) -> str:
    """A progressive award in words that name what the meter (or the award table) pays and the
    seat's net on the wager apart (`display.award_text`)."""
    return f"seat {n} " + show.award_text(line.award or "", line.stake_cents, line.net_cents)


def payout_reasons(
    table: Table,
    seats: Iterable[tuple[int, Iterable[PaidLine]]],
    meter: ProgressiveMeter | None,
) -> list[str]:
    """Why these seats' payouts (each seat's number and lines) need a pit boss's sign-off
    (empty: they do not): a progressive award at or above the meter's sign-off amount (by
    default the jackpot itself), or a seat paid the table's threshold or more in the round."""
    reasons = []
    threshold = table.approval_threshold_cents
    for n, seat_lines in seats:
        lines = list(seat_lines)
        for line in lines:
            if line.wager != "progressive" or not line.award:
                continue
            large = (
                line.award == JACKPOT
                if meter is None or meter.approval_award_cents is None
                else line.net_cents >= meter.approval_award_cents
            )
            if large:
                reasons.append(award_words(n, line))
        paid = sum(line.net_cents for line in lines if line.net_cents > 0)
        if paid >= threshold:
            reasons.append(f"seat {n} is paid {dollars(paid)} (sign-off from {dollars(threshold)})")
    return reasons


def approval_reasons(
    round_: Round, settlement: Settlement, meter: ProgressiveMeter | None
) -> list[str]:
    """Why this settlement waits for a pit boss's sign-off (empty: it does not):
    `payout_reasons` of its seats at the round's table."""
    return payout_reasons(round_.table, ((s.seat, s.lines) for s in settlement.seats), meter)


class ApprovalRequired(ServiceError):
    """The settle waits for a pit boss: nothing was paid and the meter did not move."""

    def __init__(self, round_: Round, reasons: list[str]):
        super().__init__(
            f"round {round_} needs a pit boss's sign-off before it is paid: " + "; ".join(reasons),
            code="approval_required",
            status=409,
        )
        self.round = round_
        self.reasons = reasons


def settle_locked(
    round_: Round,
    *,
    actor: AbstractBaseUser,
    idempotency_key: str | None = None,
    approved_by: AbstractBaseUser | None = None,
) -> Round | list[str]:
    """Settle the locked, complete, open round; the sign-off reasons instead if it needs a pit
    boss and `approved_by` is none (then only the request is recorded)."""
    meter = None
    if round_.table.meter_id is not None:
        meter = ProgressiveMeter.objects.select_for_update().get(pk=round_.table.meter_id)
        # A meter changed outside the application would be paid from, then bound as genuine.
        check_as_recorded(meter, f"the progressive meter {meter}")
    settlement = settle_round(round_, meter)
    reasons = approval_reasons(round_, settlement, meter)
    if reasons and approved_by is None:
        if round_.approval_requested_at is None or round_.approval_reasons != reasons:
            round_.approval_requested_at = timezone.now()
            round_.approval_reasons = reasons
            round_.save(update_fields=["approval_requested_at", "approval_reasons"])
            audit_record(
                actor=actor,
                kind=EventKind.ROUND_APPROVAL_REQUESTED,
                obj=round_,
                table_name=round_.table.name,
                data={
                    "number": round_.number,
                    "reasons": reasons,
                    "players_net_cents": settlement.net_cents,
                },
            )
        return reasons
    extra: dict[str, Any] = {"idempotency_key": idempotency_key}
    if approved_by is not None:
        extra.update(approved_by=approved_by, approved_at=timezone.now())
    # No savepoint: a key another round took meanwhile fails the whole transaction here (the
    # key is unique), and `round_settle` tells the dealer once it has rolled back.
    round_, lines = _close(round_, settlement, **extra)
    # Before the meter's audit event: from the first event on, every writer waits for this
    # transaction (the chain's head is locked until it commits), so the other work goes first.
    round_closed.send(sender=Round, round=round_, settled=True)
    if meter is not None and settlement.progressive is not None:
        meter_apply_round(meter=meter, result=settlement.progressive, round_=round_)
    if approved_by is not None:
        audit_record(
            actor=approved_by,
            kind=EventKind.ROUND_APPROVED,
            obj=round_,
            table_name=round_.table.name,
            data={"number": round_.number, "reasons": reasons or round_.approval_reasons},
        )
    audit_record(
        actor=actor,
        kind=EventKind.ROUND_SETTLED,
        obj=round_,
        table_name=round_.table.name,
        data={
            "number": round_.number,
            "settlement": round_.settlement,
            "handle_cents": round_.handle_cents,
            "players_net_cents": round_.players_net_cents,
            "idempotency_key": idempotency_key,
            "approved_by": approved_by.get_username() if approved_by is not None else None,
        },
        bind=lines,
    )
    return round_


def _clean_key(idempotency_key: Any) -> str | None:
    """The idempotency key as stored: stripped, None when empty, at most 100 characters."""
    if idempotency_key is None:
        return None
    key = str(idempotency_key).strip() or None
    if key and len(key) > 100:
        raise ServiceError(
            "the idempotency key may have at most 100 characters",
            field="idempotency_key",
            code="bad_idempotency_key",
        )
    return key


def _key_used_elsewhere(key: str, pk: int) -> bool:
    return bool(_KEY_USED_ELSEWHERE.column(key=key, pk=pk))


def _key_conflict() -> ServiceError:
    return ServiceError(
        "this idempotency key was already used for another round",
        field="idempotency_key",
        code="idempotency_conflict",
        status=409,
    )


@transaction.atomic(durable=True)
def _settle_step(
    *, round: Round, dealer: AbstractBaseUser, idempotency_key: str | None
) -> Round | list[str]:
    round_ = locked_round(round.pk, dealer)
    if round_.status != Round.Status.OPEN:
        if idempotency_key and round_.idempotency_key == idempotency_key:
            return round_
        if idempotency_key and _key_used_elsewhere(idempotency_key, round_.pk):
            raise _key_conflict()
        raise ServiceError(
            f"round {round_} is already {round_.status}", code="already_settled", status=409
        )
    # An open round: a key another round has is refused by the database when this round
    # takes it (unique), without a read of its own on every settle.
    if round_state(round_)["step"] != STEP_CONFIRM:
        raise ServiceError("the round is not complete yet", code="not_complete", status=409)
    return settle_locked(round_, actor=dealer, idempotency_key=idempotency_key)


def round_settle(
    *, round: Round, dealer: AbstractBaseUser, idempotency_key: str | None = None
) -> Round:
    """Settle and close the round. The same idempotency key again returns the same round.

    A round paying a large award is not settled: the request for a pit boss's sign-off is
    recorded (committed) and `ApprovalRequired` (409 `approval_required`) raised."""
    key = _clean_key(idempotency_key)
    try:
        settled = _settle_step(round=round, dealer=dealer, idempotency_key=key)
    except IntegrityError:
        # Rolled back. The key's other round has committed (a unique index waits for it).
        if key and _key_used_elsewhere(key, round.pk):
            raise _key_conflict() from None
        raise
    if isinstance(settled, list):
        raise ApprovalRequired(Round.objects.select_related("table").get(pk=round.pk), settled)
    return settled


ENTRY_KEYS = frozenset({"game", "dealer", "seats"})
DEALER_KEYS = frozenset({"cards", "draw", "discard"})


def validate_round_entry(table: Table, version: PaytableVersion, given: Any) -> dict[str, Any]:
    """A whole round in the settle contract's input form, checked exactly as a round opened at
    `table` under `version` is: known fields only, each seat once and at the table, wagers by
    the game's rules and the version's limits (a decision's own stakes too). The cards and
    decisions are then checked by the engine when it settles."""
    if not isinstance(given, dict):
        raise ServiceError("the round must be a JSON object", field="entry")
    _only(given, ENTRY_KEYS, "")
    if given.get("game", table.game) != table.game:
        raise ServiceError(f"the round must be a {table.get_game_display()} round", field="game")
    dealer = given.get("dealer")
    if not isinstance(dealer, dict):
        raise ServiceError("the dealer's hand must be an object", field="dealer")
    _only(dealer, DEALER_KEYS, "dealer")
    raw_seats = given.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise ServiceError("a round needs a list of at least one seat", field="seats")
    by_number: dict[Any, Any] = {}
    for i, seat in enumerate(raw_seats):
        if not isinstance(seat, dict):
            raise ServiceError(f"seat entry {i + 1} must be an object", field="seats")
        n = seat_number(seat.get("seat"), "seats")
        if n in by_number:
            raise ServiceError(f"seat {n} is given twice", field=f"seat {n}", code="bad_seat")
        _only(seat, games.banked(table.game).seat_keys, f"seat {n}")
        by_number[n] = seat
    wagers = {n: seat.get("wagers") for n, seat in by_number.items()}
    checked = {s["seat"]: s["wagers"] for s in validate_wagers(table, wagers, version=version)}
    if set(checked) != set(by_number):
        empty = min(set(by_number) - set(checked))
        game = games.banked(table.game)
        raise ServiceError(f"seat {empty} has no wager", field=f"seat {empty} {game.hand_wager}")
    seats = []
    for n in sorted(by_number):
        seat = {**by_number[n], "seat": n, "wagers": checked[n]}
        seat = games.banked(table.game).check_seat_entry(n, seat, version.limits)
        seats.append(seat)
    return {"game": table.game, "dealer": dict(dealer), "seats": seats}
