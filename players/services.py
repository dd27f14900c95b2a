"""Rated play's writes (docs/ratings.md): players, seating and unseating by card, a rating's
adjustments and notes, the comp rates' two-person flow, redemptions, the refused-card alerts,
and the ratings' figures kept current as rounds settle, void and correct (`round_closed`) and
hands finish or void (`hand_closed`). Keyword-only, atomic, audited in the same transaction."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.roles import (
    ADMINS,
    PIT_BOSSES,
    PLAYER_MANAGERS,
    PLAYER_READERS,
    RATING_ADJUSTERS,
    SEATERS,
    Role,
    has_role,
    require,
)
from core.strict import form_whole, is_whole
from tables import games
from tables.gaming_day import gaming_day_of
from tables.models import DealerSession, Hand, Round, SettlementLine, Table
from tables.services.versions import refuse_linked_accounts

from . import figures as fig
from .models import (
    CompRateVersion,
    Player,
    Rating,
    RatingNote,
    Redemption,
    RefusedCardAlert,
    Tier,
)

CARD_MAX = 32


def _whole(value: Any, field: str, *, what: str) -> int:
    """A whole number given by code (an int) or typed in a form (ASCII digits, no longer than a
    column holds): "²" passes `str.isdigit()` but `int()` refuses it."""
    return int(value) if is_whole(value) else form_whole(value, field, what=what)


def approval_limit() -> int:
    """Points a host redeems alone; above it a second person approves."""
    return int(getattr(settings, "CASINO_COMP_APPROVAL_POINTS", 5000))


# --- players ---------------------------------------------------------------------------------


def _card(card: Any) -> str:
    """A card number as typed or scanned: letters and digits, kept in capitals, so that
    "ab123" and "AB123" are the same card everywhere."""
    text = str(card if card is not None else "").strip()
    if not text:
        raise ServiceError("card: the card number is required", field="card", code="required")
    if len(text) > CARD_MAX or not text.isascii() or not text.isalnum():
        raise ServiceError(
            f"card {text[:40]!r}: a card number is up to {CARD_MAX} letters and digits",
            field="card",
        )
    return text.upper()


def _tier(tier: Any) -> str:
    if tier not in Tier.values:
        raise ServiceError(
            f"tier {tier!r}: one of {', '.join(Tier.values)}", field="tier", code="invalid_choice"
        )
    return str(tier)


def _status(status: Any) -> str:
    if status not in Player.Status.values:
        raise ServiceError(
            f"status {status!r}: one of {', '.join(Player.Status.values)}",
            field="status",
            code="invalid_choice",
        )
    return str(status)


def _name(name: Any) -> str:
    text = " ".join(str(name or "").split())
    if not text or len(text) > 100:
        raise ServiceError("name: the player's name (up to 100 characters)", field="name")
    return text


@transaction.atomic
def player_create(*, by: AbstractBaseUser, card: Any, name: Any, tier: Any = Tier.BRONZE) -> Player:
    require(by, PLAYER_MANAGERS, "enrol players")
    card_text, name_text, tier_text = _card(card), _name(name), _tier(tier)
    if Player.objects.filter(card__iexact=card_text).exists():
        raise ServiceError(
            f"card {card_text} is already a player's", field="card", code="duplicate", status=409
        )
    now = timezone.now()
    player = Player.objects.create(
        card=card_text,
        name=name_text,
        tier=tier_text,
        created_at=now,
        created_by=by,
        changed_at=now,
        changed_by=by,
    )
    audit_record(
        actor=by,
        kind=EventKind.PLAYER_CREATED,
        obj=player,
        data={"card": card_text, "name": name_text, "tier": tier_text},
    )
    return player


@transaction.atomic
def player_change(
    *, player: Player, by: AbstractBaseUser, reason: str = "", **changes: Any
) -> Player:
    """Change a player's name, tier or status (barred, self-excluded, active again)."""
    require(by, PLAYER_MANAGERS, "change players")
    player = Player.objects.select_for_update().get(pk=player.pk)
    clean = {
        "name": _name,
        "tier": _tier,
        "status": _status,
    }
    given: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in clean:
            raise ServiceError(f"{key}: not a field of a player that changes", field=key)
        given[key] = clean[key](value)
    before = {k: getattr(player, k) for k in given}
    for key, value in given.items():
        setattr(player, key, value)
    player.changed_at, player.changed_by = timezone.now(), by
    player.save()
    audit_record(
        actor=by,
        kind=EventKind.PLAYER_CHANGED,
        obj=player,
        data={"card": player.card, "before": before, "after": given, "reason": reason},
    )
    return player


@transaction.atomic
def player_viewed(*, player: Player, by: AbstractBaseUser) -> None:
    """A player's page was read: on the record, whoever read it."""
    require(by, PLAYER_READERS, "read a player's page")
    audit_record(
        actor=by,
        kind=EventKind.PLAYER_VIEWED,
        obj=player,
        bind_obj=False,
        data={"card": player.card},
    )


# --- seating ---------------------------------------------------------------------------------


def _check_seater(by: AbstractBaseUser, table: Table) -> None:
    require(by, SEATERS, "seat rated players")
    if has_role(by, Role.PIT_BOSS):
        return
    if not DealerSession.objects.filter(table=table, dealer_id=by.pk, ended_at__isnull=True):
        raise PermissionDenied(f"you are not signed in at {table}")


def _check_seat(table: Table, seat: Any) -> int:
    game = games.get(table.game)
    if not isinstance(game, games.BankedGame | games.PlayerVsPlayerGame):
        raise ServiceError(f"{table} plays {game.label}: it has no rated seats", field="table")
    number = _whole(seat, "seat", what="a seat number")
    if not 1 <= number <= table.seats:
        raise ServiceError(
            f"Seat {number}: {table} has seats 1 to {table.seats}", field="seat", code="no_seat"
        )
    return number


def in_force_rates() -> CompRateVersion | None:
    return CompRateVersion.objects.filter(status=CompRateVersion.Status.APPROVED).first()


def seat_player(*, table: Table, seat: Any, card: Any, by: AbstractBaseUser) -> Rating:
    """Seat a rated player by card. A barred or self-excluded card is refused with a message to
    call the pit boss, and the attempt raises an alert (kept, though nothing is seated)."""
    _check_seater(by, table)
    number = _check_seat(table, seat)
    if not table.is_open:
        raise ServiceError(f"{table} is closed", field="table", code="table_closed", status=409)
    card_text = _card(card)
    player = Player.objects.filter(card__iexact=card_text).first()
    if player is None:
        raise ServiceError(f"card {card_text}: no such player", field="card", code="unknown_card")
    if player.status != Player.Status.ACTIVE:
        _refused(player=player, table=table, seat=number, by=by)
        raise ServiceError(
            f"card {card_text} cannot be rated at this table: call the pit boss",
            field="card",
            code="player_refused",
            status=403,
        )
    try:
        return _seat(player=player, table=table, seat=number, by=by)
    except IntegrityError as exc:  # a seating at the same moment took the seat or the card
        raise ServiceError(
            f"Seat {number} or card {card_text} was just rated elsewhere",
            field="seat",
            code="conflict",
            status=409,
        ) from exc


@transaction.atomic
def _seat(*, player: Player, table: Table, seat: int, by: AbstractBaseUser) -> Rating:
    Player.objects.select_for_update().filter(pk=player.pk).first()
    taken = Rating.objects.filter(table=table, seat=seat, ended_at__isnull=True).first()
    if taken is not None:
        raise ServiceError(
            f"Seat {seat} is already rated (card {taken.player.card}): end that rating first",
            field="seat",
            code="seat_rated",
            status=409,
        )
    elsewhere = Rating.objects.filter(player=player, ended_at__isnull=True).first()
    if elsewhere is not None:
        raise ServiceError(
            f"card {player.card} is already rated at {elsewhere.table} seat {elsewhere.seat}",
            field="card",
            code="already_seated",
            status=409,
        )
    now = timezone.now()
    rating = Rating.objects.create(
        player=player,
        table=table,
        seat=seat,
        gaming_day=gaming_day_of(now),
        started_at=now,
        seated_by=by,
        comp_rates=in_force_rates(),
        tier=player.tier,
    )
    audit_record(
        actor=by,
        kind=EventKind.PLAYER_SEATED,
        obj=rating,
        table_name=table.name,
        data={"card": player.card, "seat": seat},
    )
    return rating


@transaction.atomic
def _refused(*, player: Player, table: Table, seat: int, by: AbstractBaseUser) -> None:
    alert = RefusedCardAlert.objects.create(
        player=player, table=table, seat=seat, status=player.status, by=by, at=timezone.now()
    )
    audit_record(
        actor=by,
        kind=EventKind.PLAYER_REFUSED,
        obj=alert,
        table_name=table.name,
        data={"card": player.card, "seat": seat, "status": player.status},
    )


@transaction.atomic
def unseat_player(*, table: Table, seat: Any, by: AbstractBaseUser) -> Rating:
    """End the rating at a seat: the player left."""
    _check_seater(by, table)
    number = _check_seat(table, seat)
    rating = (
        Rating.objects.select_for_update()
        .filter(table=table, seat=number, ended_at__isnull=True)
        .first()
    )
    if rating is None:
        raise ServiceError(
            f"Seat {number} has no rated player", field="seat", code="not_rated", status=409
        )
    rating.ended_at, rating.ended_by = timezone.now(), by
    rating.save(update_fields=["ended_at", "ended_by"])
    fig.store(rating, fig.figures_of(rating))
    audit_record(
        actor=by,
        kind=EventKind.PLAYER_UNSEATED,
        obj=rating,
        table_name=table.name,
        data={"card": rating.player.card, "seat": number},
    )
    return rating


# --- a rating's adjustments ------------------------------------------------------------------


def seconds_played(rating: Rating, now: Any = None) -> int:
    if rating.adjusted_seconds is not None:
        return rating.adjusted_seconds
    end = rating.ended_at or now or timezone.now()
    return max(0, int((end - rating.started_at).total_seconds()))


def _reason(reason: Any) -> str:
    text = str(reason or "").strip()
    if not text:
        raise ServiceError("reason: say why", field="reason", code="required")
    return text


@transaction.atomic
def rating_adjust(*, rating: Rating, seconds: Any, reason: Any, by: AbstractBaseUser) -> Rating:
    """A pit boss sets the time a rating counts (with a reason, on the record)."""
    require(by, RATING_ADJUSTERS, "adjust a rating")
    why = _reason(reason)
    value = _whole(seconds, "seconds", what="a whole number of seconds")
    if not 0 <= value <= 86400:
        raise ServiceError("seconds: at most a day (86400)", field="seconds")
    rating = Rating.objects.select_for_update().get(pk=rating.pk)
    before = seconds_played(rating)
    rating.adjusted_seconds = value
    rating.save(update_fields=["adjusted_seconds"])
    note = RatingNote.objects.create(
        rating=rating,
        by=by,
        at=timezone.now(),
        note=why,
        seconds_before=before,
        seconds_after=value,
    )
    audit_record(
        actor=by,
        kind=EventKind.RATING_ADJUSTED,
        obj=rating,
        bind=[note],
        table_name=rating.table.name,
        data={"before": before, "after": value, "reason": why},
    )
    return rating


@transaction.atomic
def rating_note(*, rating: Rating, note: Any, by: AbstractBaseUser) -> RatingNote:
    require(by, RATING_ADJUSTERS, "note a rating")
    row = RatingNote.objects.create(rating=rating, by=by, at=timezone.now(), note=_reason(note))
    audit_record(
        actor=by,
        kind=EventKind.RATING_NOTE,
        obj=row,
        table_name=rating.table.name,
        data={"rating": rating.pk},
    )
    return row


# --- comps -----------------------------------------------------------------------------------


def _rates(rates: Any) -> dict[str, str]:
    if not isinstance(rates, dict):
        raise ServiceError("rates: one rate per tier", field="rates")
    out = {}
    for tier in Tier.values:
        value = rates.get(tier)
        try:
            rate = Decimal(str(value).strip())
        except (InvalidOperation, ValueError):
            raise ServiceError(
                f"{tier}: a rate in points per dollar of theoretical win", field=tier
            ) from None
        if not rate.is_finite() or rate < 0 or rate > 1000:
            raise ServiceError(f"{tier}: a rate from 0 to 1000", field=tier)
        out[tier] = str(rate)
    extra = set(rates) - set(Tier.values)
    if extra:
        raise ServiceError(f"{sorted(extra)[0]}: not a tier", field=sorted(extra)[0])
    return out


@transaction.atomic
def comp_rates_draft(*, rates: Any, by: AbstractBaseUser) -> CompRateVersion:
    require(by, ADMINS, "draft comp rates")
    clean = _rates(rates)
    last = CompRateVersion.objects.select_for_update().order_by("-version").first()
    version = CompRateVersion.objects.create(
        version=(last.version if last else 0) + 1,
        rates=clean,
        drafted_by=by,
        drafted_at=timezone.now(),
    )
    audit_record(
        actor=by,
        kind=EventKind.COMP_RATES_DRAFTED,
        obj=version,
        data={"version": version.version, "rates": clean},
    )
    return version


@transaction.atomic
def comp_rates_approve(*, version: CompRateVersion, by: AbstractBaseUser) -> CompRateVersion:
    """A second admin approves a draft; from then on it is in force for new ratings."""
    if has_role(by, Role.SECURITY):
        raise PermissionDenied("the security role does not approve comp rates")
    require(by, ADMINS, "approve comp rates")
    version = CompRateVersion.objects.select_for_update().get(pk=version.pk)
    if version.status == CompRateVersion.Status.APPROVED:
        raise ServiceError(f"{version} is already approved", code="already_approved", status=409)
    if version.drafted_by_id == by.pk:
        raise PermissionDenied("comp rates must be approved by a second admin, not their author")
    refuse_linked_accounts(drafter=version.drafted_by, approver=by, what=str(version))
    version.status = CompRateVersion.Status.APPROVED
    version.approved_by, version.approved_at = by, timezone.now()
    version.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        actor=by,
        kind=EventKind.COMP_RATES_APPROVED,
        obj=version,
        data={"version": version.version, "drafted_by": version.drafted_by.get_username()},
    )
    return version


def points_earned(player: Player) -> int:
    return int(Rating.objects.filter(player=player).aggregate(p=Sum("points"))["p"] or 0)


def points_redeemed(player: Player, *, with_pending: bool = False) -> int:
    rows = Redemption.objects.filter(player=player)
    if not with_pending:
        rows = rows.filter(status=Redemption.Status.APPROVED)
    return int(rows.aggregate(p=Sum("points"))["p"] or 0)


def balance(player: Player) -> int:
    """Accruals minus the redemptions that count."""
    return points_earned(player) - points_redeemed(player)


@transaction.atomic
def redemption_enter(
    *, player: Player, points: Any, reason: Any, by: AbstractBaseUser
) -> Redemption:
    """A host spends a player's points; above the approval limit it waits for a second person."""
    require(by, PLAYER_MANAGERS, "redeem comp points")
    why = _reason(reason)
    amount = _whole(points, "points", what="a whole number above 0")
    if amount < 1:
        raise ServiceError(f"points {amount}: a whole number above 0", field="points")
    player = Player.objects.select_for_update().get(pk=player.pk)
    available = points_earned(player) - points_redeemed(player, with_pending=True)
    if amount > available:
        raise ServiceError(
            f"points: {player.name} has {available} points to redeem, not {amount}",
            field="points",
            code="insufficient",
            status=409,
        )
    needs = amount > approval_limit()
    now = timezone.now()
    row = Redemption.objects.create(
        player=player,
        points=amount,
        reason=why,
        status=Redemption.Status.PENDING if needs else Redemption.Status.APPROVED,
        entered_by=by,
        entered_at=now,
    )
    audit_record(
        actor=by,
        kind=EventKind.COMP_REDEEMED,
        obj=row,
        data={"card": player.card, "points": amount, "reason": why, "needs_approval": needs},
    )
    return row


@transaction.atomic
def redemption_approve(*, redemption: Redemption, by: AbstractBaseUser) -> Redemption:
    require(by, PLAYER_MANAGERS, "approve a redemption")
    row = Redemption.objects.select_for_update().get(pk=redemption.pk)
    if row.status == Redemption.Status.APPROVED:
        raise ServiceError("this redemption already counts", code="already_approved", status=409)
    if row.entered_by_id == by.pk:
        raise PermissionDenied("a second person approves a redemption, not the one who entered it")
    refuse_linked_accounts(
        drafter=row.entered_by,
        approver=by,
        what=f"the redemption of {row.points} points for card {row.player.card}",
        who="another host or pit boss",
        did="entered",
    )
    row.status, row.approved_by, row.approved_at = Redemption.Status.APPROVED, by, timezone.now()
    row.save(update_fields=["status", "approved_by", "approved_at"])
    audit_record(
        actor=by,
        kind=EventKind.COMP_REDEMPTION_APPROVED,
        obj=row,
        data={"card": row.player.card, "points": row.points},
    )
    return row


@transaction.atomic
def alert_acknowledge(*, alert: RefusedCardAlert, by: AbstractBaseUser) -> RefusedCardAlert:
    require(by, PIT_BOSSES, "acknowledge a refused card")
    alert = RefusedCardAlert.objects.select_for_update().get(pk=alert.pk)
    if alert.acknowledged_at is None:
        alert.acknowledged_by, alert.acknowledged_at = by, timezone.now()
        alert.save(update_fields=["acknowledged_by", "acknowledged_at"])
        audit_record(
            actor=by,
            kind=EventKind.PLAYER_ALERT_ACKNOWLEDGED,
            obj=alert,
            table_name=alert.table.name,
            data={"card": alert.player.card},
        )
    return alert


# --- the figures, kept current ---------------------------------------------------------------


def round_closed(round_: Round, *, settled: bool) -> None:
    """In the settle's (void's, correction's) transaction: a newly settled round adds its seats'
    figures to the ratings that cover it; anything else sums those ratings again."""
    if settled and round_.corrects_id is None and round_.status == Round.Status.SETTLED:
        rated = list(_locked(fig.ratings_around(round_.table_id, round_.opened_at)))
        if not rated:  # nobody rated at the table then: one read, nothing more
            return
        by_seat: dict[int, list[tuple[str, int, int]]] = {}
        for seat, wager, stake, net in SettlementLine.objects.filter(round=round_).values_list(
            "seat", "wager", "stake_cents", "net_cents"
        ):
            by_seat.setdefault(seat, []).append((wager, stake, net))
        context = fig.Context()
        for rating in rated:
            if rating.seat not in by_seat:
                continue
            current = fig.Figures(
                hands=rating.hands,
                wagered_cents=rating.wagered_cents,
                actual_win=Decimal(rating.actual_win_cents),
                theoretical_win=rating.theoretical_win,
                decision_cost=rating.decision_cost,
                no_decision_cost=rating.no_decision_cost,
                theory_pending=rating.theory_pending,
            )
            current.add(fig.round_figures(round_, rating.seat, by_seat[rating.seat], context))
            fig.store(rating, current)
        return
    _sum_again(fig.ratings_around(round_.table_id, fig.root_opened_at(round_)))


def hand_closed(hand: Hand) -> None:
    """A hand finished or voided: the ratings covering it are summed again."""
    _sum_again(fig.ratings_around(hand.table_id, hand.opened_at))


def _locked(ratings: Any) -> Any:
    """The ratings under their rows' locks (theirs alone: the comp rates join is outer)."""
    return ratings.select_for_update(of=("self",)).select_related("player", "comp_rates")


def _sum_again(ratings: Any) -> None:
    context = fig.Context()
    for rating in _locked(ratings):
        fig.store(rating, fig.figures_of(rating, context))


@transaction.atomic
def rebuild_day(*, day: date) -> int:
    """Sum every rating of a gaming day again from its rounds and hands (the figures the
    incremental updates keep must come out the same)."""
    ratings = Rating.objects.filter(gaming_day=day)
    count = ratings.count()
    _sum_again(ratings)
    return count


def figure_problems() -> list[str]:
    """Each rating whose stored figures differ from its rounds' and hands' sums."""
    problems = []
    context = fig.Context()
    for rating in Rating.objects.select_related("player", "comp_rates", "table"):
        want = fig.derived(rating, fig.figures_of(rating, context))
        have = fig.stored(rating)
        wrong = sorted(k for k in fig.DERIVED if want[k] != have[k])
        if wrong:
            problems.append(
                f"rating {rating.pk} ({rating}): {', '.join(wrong)} differ from its rounds"
            )
    return problems
