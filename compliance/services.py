"""Cash compliance's writes (docs/compliance.md): patrons (described, then identified), and
each cash transaction summed into its patron's gaming day as it is written, the MTL entries
and CTRs that day opens. Keyword-only, atomic, audited in the same transaction.

Aggregation: a row per (patron, gaming day) (`PatronDay`), read under `select_for_update` and
updated in the transaction that writes the cash transaction. Two buy-ins of one patron on
two tables then wait for each other on that one row, and each decides its MTL entry and CTR
from the day's sums as the other left them; the CTR's unique constraint (patron, day,
direction) stays the backstop, so a race still makes one CTR, holding both transactions."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, Max, OuterRef, QuerySet
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import ServiceError
from core.money import dollars
from core.prepared import PreparedQuery
from core.roles import CASH_OUT_ROLES, PATRON_IDENTIFIERS, require
from core.strict import known_keys, text
from players.models import Player
from tables.engine.errors import EngineError
from tables.engine.money import parse_cents
from tables.gaming_day import gaming_day_of
from tables.models import Table

from . import thresholds
from .alerts import on_transaction
from .models import (
    CAGE_FORM_KINDS,
    DESCRIPTION_FIELDS,
    IDENTIFICATION_FIELDS,
    KIND_DIRECTION,
    CashTransaction,
    Ctr,
    Direction,
    Kind,
    MtlEntry,
    Patron,
    PatronDay,
    PatronMerge,
)

PATRON_NUMBER = re.compile(r"^P\d{1,10}$")
CARD_NUMBER = re.compile(r"^\d{1,32}$")
MIN_AGE = 21
# The most one cash transaction at the cage's window may be (a table's drop limit by default):
# above what a patron brings to the window, far below what a mistyped figure makes of it.
CAGE_MOST_CENTS = 1_000_000_00
_LIMITS = {f.name: f.max_length for f in Patron._meta.get_fields() if getattr(f, "max_length", 0)}


def mtl_threshold() -> int:
    """The MTL threshold in force (two compliance officers' approval, else the setting)."""
    return thresholds.current().mtl_cents


def ctr_threshold() -> int:
    """The CTR threshold in force (two compliance officers' approval, else the setting)."""
    return thresholds.current().ctr_cents


def identification_digest(patron: Patron) -> str:
    """What the record binds of a patron's identification: a salted SHA-256 of every field,
    so an event shows any change without holding (or letting anyone guess) the person."""
    values = {f: _plain(getattr(patron, f)) for f in IDENTIFICATION_FIELDS}
    text_ = json.dumps(values, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256((patron.salt + text_).encode()).hexdigest()


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


# --- patrons -------------------------------------------------------------------------------------


def _next_number() -> str:
    last = Patron.objects.aggregate(n=Max("id"))["n"] or 0
    return f"P{1000 + last + 1}"


def _texts(given: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> dict[str, Any]:
    if not isinstance(given, Mapping):
        raise ServiceError(f"{where} must be an object of fields", field=where)
    known_keys(given, allowed, where)
    out: dict[str, Any] = {}
    for key, value in given.items():
        value = text(value, f"{where}.{key}").strip()
        limit = _LIMITS.get(key)
        if limit and len(value) > limit:
            raise ServiceError(f"{where}.{key}: at most {limit} characters", field=f"{where}.{key}")
        out[key] = value
    return out


def _date(value: Any, field: str) -> date | None:
    if value in ("", None):
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(text(value, field).strip())
    except ValueError:
        raise ServiceError(f"{field}: {value!r} is not a date (YYYY-MM-DD)", field=field) from None


def _age_on(born: date, day: date) -> int:
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def parse_identification(given: Mapping[str, Any], *, today: date) -> dict[str, Any]:
    """The identification fields, checked: every one given, a date of birth in the past of a
    patron 21 or older, an ID not expired. A refusal names the field."""
    fields = _texts(
        {k: v for k, v in given.items() if k not in ("date_of_birth", "id_expiry")},
        tuple(f for f in IDENTIFICATION_FIELDS if f not in ("date_of_birth", "id_expiry")),
        "identification",
    )
    known_keys(given, IDENTIFICATION_FIELDS, "identification")
    born = _date(given.get("date_of_birth"), "date_of_birth")
    expiry = _date(given.get("id_expiry"), "id_expiry")
    for name in IDENTIFICATION_FIELDS:
        value = {"date_of_birth": born, "id_expiry": expiry}.get(name, fields.get(name))
        if value in ("", None):
            raise ServiceError(
                f"{name}: a patron's identification needs it (every field of the CTR)",
                field=name,
            )
    assert born is not None and expiry is not None
    if born > today:
        raise ServiceError(
            f"date_of_birth: {born.isoformat()} is in the future", field="date_of_birth"
        )
    if _age_on(born, today) < MIN_AGE:
        raise ServiceError(
            f"date_of_birth: a patron born {born.isoformat()} is under {MIN_AGE}",
            field="date_of_birth",
        )
    if expiry < today:
        raise ServiceError(
            f"id_expiry: the ID expired on {expiry.isoformat()}; ask for an ID in force",
            field="id_expiry",
        )
    if fields["id_type"] not in Patron.IdType.values:
        raise ServiceError(
            "id_type: the ID must be one of "
            + ", ".join(str(label).lower() for label in Patron.IdType.labels),
            field="id_type",
        )
    return {**fields, "date_of_birth": born, "id_expiry": expiry}


def _patron_event(patron: Patron, *, by: AbstractBaseUser, kind: str, **data: Any) -> None:
    # The patron's number only: never a name or an ID (the bound row holds their digest).
    audit_record(actor=by, kind=kind, obj=patron, data={"patron": patron.number, **data})


@transaction.atomic
def patron_create(
    *,
    by: AbstractBaseUser,
    description: Mapping[str, Any] | None = None,
    player: Player | None = None,
    at: datetime | None = None,
) -> Patron:
    """A new patron, described (sex, apparent age, height and build, hair, clothing, where
    seen: at least one), or the patron a rated player is (the player's name copied)."""
    described = _texts(description or {}, DESCRIPTION_FIELDS, "description")
    if player is None and not any(described.values()):
        raise ServiceError(
            "description: describe the patron (sex, apparent age, height and build, hair, "
            "clothing, where seen)",
            field="description",
        )
    at = at or timezone.now()
    patron = None
    for _attempt in range(5):  # another patron may take the next number at the same moment
        try:
            with transaction.atomic():
                patron = Patron.objects.create(
                    number=_next_number(),
                    player=player,
                    name=player.name if player is not None else "",
                    salt=secrets.token_hex(16),
                    created_at=at,
                    created_by=by,
                    **described,
                )
            break
        except IntegrityError:
            if player is not None and Patron.objects.filter(player=player).exists():
                return Patron.objects.get(player=player)
    if patron is None:
        raise ServiceError("another patron took the next number: try again", field="patron")
    _patron_event(patron, by=by, kind=EventKind.PATRON_CREATED)
    return patron


@transaction.atomic
def patron_identify(
    *, patron: Patron, by: AbstractBaseUser, identification: Mapping[str, Any]
) -> Patron:
    """Record a patron's identification (the cage or compliance, from the ID presented): every
    CTR field, checked. A patron's next cash transaction after a CTR waits for it."""
    require(by, PATRON_IDENTIFIERS, "identify a patron")
    now = timezone.now()
    fields = parse_identification(identification, today=timezone.localdate(now))
    patron = Patron.objects.select_for_update().get(pk=patron.pk)
    merge = PatronMerge.objects.filter(merged=patron).select_related("into").first()
    if merge is not None:
        into = merge.into.number
        raise ServiceError(
            f"patron: {patron.number} was merged into {into}: identify {into}", field="patron"
        )
    for name, value in fields.items():
        setattr(patron, name, value)
    patron.identified_at, patron.identified_by = now, by
    patron.save()
    _patron_event(patron, by=by, kind=EventKind.PATRON_IDENTIFIED)
    return patron


def resolve_patron(value: Any, *, by: AbstractBaseUser, at: datetime) -> Patron | None:
    """The patron a transaction names: nothing; a patron number ("P1001"); a rated player's
    card number (that player's patron, recorded at first use); or `{"description": {...}}`,
    a new described patron. A patron merged into another is that other one."""
    if value is None or value == "":
        return None
    if isinstance(value, Mapping):
        known_keys(value, ("description",), "patron")
        return patron_create(by=by, description=value.get("description") or {}, at=at)
    given = text(value, "patron").strip()
    if PATRON_NUMBER.match(given):
        found = _through_merge(_BY_NUMBER.first(number=given))
        if found is None:
            raise ServiceError(f"patron: there is no patron {given}", field="patron")
        return found
    if CARD_NUMBER.match(given):
        # the card's patron in one read (the common case); the player only at its first use
        found = _through_merge(_BY_CARD.first(card=given))
        if found is not None:
            return found
        player = Player.objects.filter(card=given).first()
        if player is None:
            raise ServiceError(f"patron: no player has card {given}", field="patron")
        return patron_create(by=by, player=player, at=at)
    raise ServiceError(
        "patron: give a patron number (P1001), a player's card number or a description",
        field="patron",
    )


# The patron a number or a card names, read with its merge (a patron merged into another is
# that other one): on every cash transaction that names one, so compiled once.
_BY_NUMBER = PreparedQuery(
    lambda number: Patron.objects.filter(number=number).select_related("merged_into__into"),
    number=str,
)
_BY_CARD = PreparedQuery(
    lambda card: Patron.objects.filter(player__card=card).select_related("merged_into__into"),
    card=str,
)


def _through_merge(patron: Patron | None) -> Patron | None:
    merge = getattr(patron, "merged_into", None)  # the reverse one-to-one, read with the patron
    return merge.into if merge is not None else patron


# --- cash transactions ---------------------------------------------------------------------------


def locked_day(patron: Patron, day: date) -> PatronDay:
    """The patron's day, locked until the commit (created at its first transaction)."""
    found = _day_locked(patron, day)
    if found is not None:  # the common case: one locking read
        return found
    # The day's first transaction: made unless another transaction made it at the same moment
    # (then that one is locked).
    PatronDay.objects.bulk_create([PatronDay(patron=patron, gaming_day=day)], ignore_conflicts=True)
    found = _day_locked(patron, day)
    assert found is not None
    return found


def _day_locked(patron: Patron, day: date) -> PatronDay | None:
    return _DAY_LOCKED.first(patron=patron.pk, day=day)


@dataclass(frozen=True)
class _NowAs:
    merged_into: str | None  # the patron number it was merged into
    identified: bool
    player_status: str | None  # a rated player's card's status


def _ctr_open_query(direction: str) -> Exists:
    return Exists(
        Ctr.objects.filter(
            patron_id=OuterRef("patron_id"), gaming_day=OuterRef("gaming_day"), direction=direction
        )
    )


# The patron's day, locked, with whether a CTR is open for it in each direction (CTRs are
# opened only under this lock; one opened while the lock waited is met by the CTR's unique
# constraint). Read on every cash transaction with a patron: compiled once.
def _day_locked_query(patron: int, day: date) -> QuerySet[PatronDay]:
    return (
        PatronDay.objects.select_for_update(of=("self",))
        .annotate(
            ctr_in=_ctr_open_query(Direction.CASH_IN), ctr_out=_ctr_open_query(Direction.CASH_OUT)
        )
        .filter(patron_id=patron, gaming_day=day)
    )


_DAY_LOCKED = PreparedQuery(_day_locked_query, patron=int, day=date)
# The patron as it is now, read after its day is locked: a statement of its own, so that it
# sees a merge or an identification that committed while the lock waited.
_NOW_AS = PreparedQuery(
    lambda pk: Patron.objects.filter(pk=pk).values(
        "merged_into__into__number", "player__status", "identified_at", *IDENTIFICATION_FIELDS
    ),
    pk=int,
)
_DAY_UPDATE = {
    field: f"UPDATE {PatronDay._meta.db_table} SET {field} = %s WHERE id = %s"
    for field in ("cash_in_cents", "cash_out_cents")
}


def _patron_now(pk: int) -> _NowAs:
    [row] = _NOW_AS.values(pk=pk)
    identified = row["identified_at"] is not None and all(
        row[f] not in ("", None) for f in IDENTIFICATION_FIELDS
    )
    return _NowAs(row["merged_into__into__number"], identified, row["player__status"])


# The gaming day of a patron's latest CTR: read on every cash transaction of a patron not yet
# identified (most of them described ones), so compiled once.
_LAST_CTR_DAY = PreparedQuery(
    lambda patron: (
        Ctr.objects.filter(patron_id=patron)
        .order_by("-gaming_day")
        .values_list("gaming_day", flat=True)[:1]
    ),
    patron=int,
)


def _refuse_unidentified(patron: Patron) -> None:
    if patron.is_identified:
        return
    found = _LAST_CTR_DAY.column(patron=patron.pk)
    if found:
        raise ServiceError(
            f"patron: {patron.number}'s cash over {dollars(ctr_threshold())} on "
            f"{found[0].isoformat()} opened a Currency Transaction Report: identify "
            "the patron at the cage (name, date of birth, address, ID and occupation) before "
            "another cash transaction",
            field="patron",
            code="identification_required",
        )


def _refuse_barred(patron: Patron, kind: str) -> None:
    """A barred or self-excluded player buys no chips (at a table or the cage); chips they
    hold are still redeemed."""
    if patron.player_id is None:
        return
    player = Player.objects.only("card", "status").get(pk=patron.player_id)
    if player.status != Player.Status.ACTIVE:
        raise ServiceError(
            f"patron: card {player.card} is {player.get_status_display().lower()}: no "
            f"{KIND_WORDS[Kind(kind)]} for this player; call the pit boss",
            field="patron",
            code="player_refused",
            status=403,
        )


# How a refusal names each kind of transaction ("a cash buy-in of $3,000.00 or more ...").
KIND_WORDS = {
    Kind.BUY_IN: "cash buy-in",
    Kind.CHIPS_BOUGHT: "cash purchase of chips",
    Kind.CHIPS_REDEEMED: "cash payout",
    Kind.FRONT_MONEY_IN: "front money deposit",
    Kind.FRONT_MONEY_OUT: "front money withdrawal",
    Kind.MARKER_REPAID: "marker repayment in cash",
}


def _refuse_unnamed(cash_cents: int, kind: str, mtl: int | None = None) -> None:
    mtl = mtl_threshold() if mtl is None else mtl
    if cash_cents >= mtl:
        what = KIND_WORDS[Kind(kind)]
        raise ServiceError(
            f"patron: a {what} of {dollars(mtl)} or more names its patron (a "
            "patron number, a player's card, or the patron's description); this one is "
            f"{dollars(cash_cents)}",
            field="patron",
            code="patron_required",
        )


def _cash(
    *,
    kind: str,
    patron: Patron | None,
    cash_cents: int,
    gaming_day: date,
    by: AbstractBaseUser,
    at: datetime,
    table: Table | None,
    seat: int | None,
) -> Callable[[Any], CashTransaction]:
    """Check a cash transaction and return what writes it (with its slip, if any): the
    patron's day locked and summed, the MTL entry and the CTR it makes. Every kind (a buy-in,
    the cage's window) goes through here, so the rules are one."""
    direction = KIND_DIRECTION[Kind(kind)]
    limits = thresholds.current()  # read once: in force when the transaction is written
    if patron is None:
        _refuse_unnamed(cash_cents, kind, limits.mtl_cents)
        day_row = None
    else:
        day_row = locked_day(patron, gaming_day)
        # The patron as it is now, the day locked (a merge or an identification committed
        # while this transaction waited for the lock is seen here).
        now_as = _patron_now(patron.pk)
        if now_as.merged_into:
            raise ServiceError(
                f"patron: {patron.number} was just merged into {now_as.merged_into}: try again",
                field="patron",
                code="conflict",
                status=409,
            )
        if now_as.identified != patron.is_identified:
            patron.refresh_from_db()
        _refuse_unidentified(patron)
        if direction == Direction.CASH_IN and now_as.player_status not in (None, "active"):
            _refuse_barred(patron, kind)

    def write(slip: Any) -> CashTransaction:
        tx = CashTransaction.objects.create(
            slip=slip,
            table=table,
            seat=seat,
            patron=patron,
            direction=direction,
            kind=kind,
            amount_cents=cash_cents,
            gaming_day=gaming_day,
            at=at,
            by=by,
        )
        bind: list[Any] = [tx]
        # Said by the trail in words: "Cash $11,000.00; Direction cash in; Patron P1001; ...".
        data: dict[str, Any] = {
            "direction": "cash_in" if direction == Direction.CASH_IN else "cash_out",
            "kind": kind,
            "cash_cents": cash_cents,
            "seat": seat,
            "slip": slip.number if slip is not None else None,
            "patron": patron.number if patron is not None else None,
        }
        if patron is not None and day_row is not None:
            field = "cash_in_cents" if direction == Direction.CASH_IN else "cash_out_cents"
            total = getattr(day_row, field) + cash_cents
            setattr(day_row, field, total)
            with connection.cursor() as cursor:  # the locked row; plain SQL on the hot path
                cursor.execute(_DAY_UPDATE[field], [total, day_row.pk])
            bind.append(day_row)
            data["day_total_cents"] = total
            if total >= limits.mtl_cents:
                bind.append(
                    MtlEntry.objects.create(
                        transaction=tx,
                        patron=patron,
                        gaming_day=gaming_day,
                        direction=direction,
                        day_total_cents=total,
                        at=at,
                    )
                )
                data["mtl_entry"] = True
            if total > limits.ctr_cents:
                opened = day_row.ctr_in if direction == Direction.CASH_IN else day_row.ctr_out
                ctr = None if opened else ctr_make(patron, gaming_day, direction, tx, at)
                if ctr is not None:
                    bind.append(ctr)
                    data["ctr_opened"] = True
            raised = on_transaction(tx, day_row, limits)  # suspicious activity (compliance.alerts)
            if raised:
                bind.extend(raised)
                data["alerts"] = [a.kind for a in raised]
        audit_record(
            actor=by,
            kind=EventKind.CASH_TRANSACTION,
            obj=tx,
            table_name=table.name if table is not None else "",
            data=data,
            bind=bind[1:],
        )
        return tx

    return write


def ctr_open(
    patron: Patron, day: date, direction: str, tx: CashTransaction, at: datetime
) -> Ctr | None:
    """The CTR this transaction opens for the patron's day and direction; None if one is
    open already (the patron's day is locked, so it is found here; the unique constraint
    stays the backstop)."""
    if Ctr.objects.filter(patron=patron, gaming_day=day, direction=direction).exists():
        return None
    return ctr_make(patron, day, direction, tx, at)


def ctr_make(
    patron: Patron, day: date, direction: str, tx: CashTransaction, at: datetime
) -> Ctr | None:
    """The CTR, made unless another transaction made it at the same moment (then None)."""
    try:
        with transaction.atomic():
            return Ctr.objects.create(
                patron=patron,
                gaming_day=day,
                direction=direction,
                opened_at=at,
                opened_by_transaction=tx,
            )
    except IntegrityError:  # already open: this transaction is one more of it
        return None


def buy_in_check(
    *,
    table: Table,
    seat: int | None,
    patron: Any,
    cash_cents: int,
    gaming_day: date,
    by: AbstractBaseUser,
    at: datetime,
) -> Callable[[Any], Any]:
    """The cash buy-in check accounting calls before writing the slip (`accounting.cash`)."""
    return _cash(
        kind=Kind.BUY_IN,
        patron=resolve_patron(patron, by=by, at=at),
        cash_cents=cash_cents,
        gaming_day=gaming_day,
        by=by,
        at=at,
        table=table,
        seat=seat,
    )


@transaction.atomic
def cage_record(
    *, kind: Any, patron: Any, amount: Any, by: AbstractBaseUser, at: datetime | None = None
) -> CashTransaction:
    """A cash transaction at the cage's window, by the signed-in cashier: chips bought with
    cash or front money deposited (cash in), chips redeemed for cash or front money withdrawn
    (cash out). Summed into the patron's day with the buy-ins, by the same rules."""
    require(by, CASH_OUT_ROLES, "record a cash transaction at the cage")
    if kind not in CAGE_FORM_KINDS:
        raise ServiceError(
            f"kind must be one of {', '.join(CAGE_FORM_KINDS)}", field="kind", code="invalid"
        )
    at = at or timezone.now()
    try:
        cents = parse_cents(amount, where="amount")
    except EngineError as e:
        raise ServiceError(e.message, field="amount") from None
    if cents > CAGE_MOST_CENTS:
        raise ServiceError(
            f"amount: a cash transaction at the cage may be at most {dollars(CAGE_MOST_CENTS)}, "
            f"not {dollars(cents)}",
            field="amount",
            code="over_limit",
        )
    write = _cash(
        kind=kind,
        patron=resolve_patron(patron, by=by, at=at),
        cash_cents=cents,
        gaming_day=gaming_day_of(at),
        by=by,
        at=at,
        table=None,
        seat=None,
    )
    return write(None)


def marker_repaid_check(
    *, patron: Patron, cash_cents: int, by: AbstractBaseUser, at: datetime
) -> Callable[[Any], CashTransaction]:
    """A marker's repayment in cash at the cage (`compliance.credit`): cash in at the cage,
    checked and summed by the same rules as the cage's other cash."""
    return _cash(
        kind=Kind.MARKER_REPAID,
        patron=patron,
        cash_cents=cash_cents,
        gaming_day=gaming_day_of(at),
        by=by,
        at=at,
        table=None,
        seat=None,
    )


def cash_out_record(
    *, patron: Any, amount: Any, by: AbstractBaseUser, at: datetime | None = None
) -> CashTransaction:
    """Cash paid out to a patron at the cage's window for chips redeemed."""
    return cage_record(kind=Kind.CHIPS_REDEEMED, patron=patron, amount=amount, by=by, at=at)
