"""Suspicious activity's alerts (docs/compliance.md, "Suspicious activity"): patterns in a
patron's cash transactions, and in their cash against their play, that a SAR may be due for.

Found at once as each cash transaction is written (`on_transaction`, called by
`compliance.services` inside the transaction's own database transaction, its alerts bound to the
same event), and by the nightly run over a gaming day (`scan_day`). The write path is kept cheap:
a transaction outside every band costs no query; one inside a band reads the patron's own rows
of the day (and the days before it) by index, never the history.

- Structuring: `CASINO_STRUCTURING_COUNT` or more transactions of a patron in one direction, each
  within the MTL margin under the MTL threshold, over `CASINO_STRUCTURING_DAYS` consecutive
  gaming days; or a day's total (of two or more transactions) landing within the CTR margin
  under the CTR threshold. That total split between tables and the cage is its own kind (a CTR
  avoided by splitting).
- Lookalikes: described patrons, none identified nor a rated player, with the same description
  (at least two fields, compared without case) whose cash in one direction that day sums past
  the CTR threshold: maybe one person given several patron numbers.
- Chip walking: chips redeemed for cash by a patron whose cash in that day is at least the chip
  walking minimum and whose play is at most its percent of that cash in.
- Beyond play: cash in of at least its minimum and at least the ratio times the play (the
  nightly run; not raised where chip walking already was).

The play: a rated player's ratings started in the gaming day (their wagered figure, kept
current as rounds settle), the exact link of a hand to a person; for a buy-in at a seat no
rating of the patron covers, the stakes at that table and seat from the buy-in until the day's
end (the seat is the only link the record has). Chips bought at the cage are play nowhere.

One alert per patron, kind and gaming day (per description and day for lookalikes): its `key`
is unique, so a pattern seen again (or by the night after the write path) is not raised twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record
from core.money import dollars
from players.figures import hand_figures
from players.models import Rating
from tables.gaming_day import day_bounds
from tables.models import Hand, HandPlayer, Round, SettlementLine

from . import thresholds
from .models import (
    DESCRIPTION_FIELDS,
    Alert,
    AlertKind,
    CashTransaction,
    Direction,
    Kind,
    Patron,
    PatronDay,
)

Thresholds = thresholds.Thresholds

# Described patrons are alike when they share at least this many description fields.
LOOKALIKE_FIELDS = 2
NIGHT = "nightly alerts"


def _s(name: str) -> int:
    return int(getattr(settings, name))


def _key(kind: str, who: str, day: date, direction: str) -> str:
    return f"{kind}:{who}:{day.isoformat()}:{direction}"


def _new(
    *,
    kind: str,
    key: str,
    patron: Patron,
    direction: str,
    first_day: date,
    day: date,
    amount_cents: int,
    detail: str,
    tx: CashTransaction | None,
    at: datetime,
    wagered_cents: int | None = None,
) -> Alert | None:
    """The alert, created unless its key was raised before (then None)."""
    if _raised_before(key):
        return None
    try:
        with transaction.atomic():
            return Alert.objects.create(
                key=key,
                kind=kind,
                patron=patron,
                direction=direction,
                first_day=first_day,
                gaming_day=day,
                amount_cents=amount_cents,
                wagered_cents=wagered_cents,
                detail=detail[:200],
                transaction=tx,
                raised_at=at,
                raised_by_night=tx is None,
            )
    except IntegrityError:  # raised by another transaction at the same moment
        return None


def _raised_before(key: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {Alert._meta.db_table} WHERE key = %s", [key])
        return cursor.fetchone() is not None


# A patron's transactions in one direction inside the MTL band over consecutive days, and
# whether the day's structuring alert was raised already.
_BAND_SQL = (
    "SELECT COUNT(*), COALESCE(SUM(amount_cents), 0), MIN(gaming_day), "
    f"(SELECT 1 FROM {Alert._meta.db_table} WHERE key = %s) "
    f"FROM {CashTransaction._meta.db_table} WHERE patron_id = %s AND direction = %s "
    "AND gaming_day >= %s AND gaming_day <= %s AND amount_cents >= %s AND amount_cents < %s"
)


def _in_words(direction: str) -> str:
    return "cash in" if direction == Direction.CASH_IN else "cash out"


# --- structuring ---------------------------------------------------------------------------------


def _in_mtl_band(cents: int, limits: Thresholds) -> bool:
    mtl = limits.mtl_cents
    return mtl - _s("CASINO_STRUCTURING_MTL_MARGIN_CENTS") <= cents < mtl


def _structuring_mtl(
    patron: Patron,
    direction: str,
    day: date,
    tx: CashTransaction | None,
    at: datetime,
    limits: Thresholds,
) -> Alert | None:
    """Transactions each just under the MTL threshold, over the last consecutive days."""
    margin = _s("CASINO_STRUCTURING_MTL_MARGIN_CENTS")
    first = day - timedelta(days=_s("CASINO_STRUCTURING_DAYS") - 1)
    key = _key(AlertKind.STRUCTURING, patron.number, day, direction)
    with connection.cursor() as cursor:  # read inside the band on the write path: plain SQL
        cursor.execute(
            _BAND_SQL,
            [
                key,
                patron.pk,
                direction,
                first.isoformat(),
                day.isoformat(),
                limits.mtl_cents - margin,
                limits.mtl_cents,
            ],
        )
        n, cents, since, raised = cursor.fetchone()
    if raised or n < _s("CASINO_STRUCTURING_COUNT"):
        return None
    since = since if isinstance(since, date) else date.fromisoformat(str(since))
    found = {"n": n, "cents": int(cents), "since": since}
    return _new(
        kind=AlertKind.STRUCTURING,
        key=key,
        patron=patron,
        direction=direction,
        first_day=found["since"],
        day=day,
        amount_cents=found["cents"],
        detail=(
            f"{found['n']} {_in_words(direction)} transactions each within "
            f"{dollars(margin)} under the MTL's {dollars(limits.mtl_cents)}, "
            f"{dollars(found['cents'])} in all"
        ),
        tx=tx,
        at=at,
    )


def _structuring_ctr(
    patron: Patron,
    direction: str,
    day: date,
    total: int,
    tx: CashTransaction | None,
    at: datetime,
    limits: Thresholds,
) -> Alert | None:
    """A day's total of two or more transactions just under the CTR threshold; split between
    tables and the cage, a kind of its own."""
    margin = _s("CASINO_STRUCTURING_CTR_MARGIN_CENTS")
    if not limits.ctr_cents - margin <= total <= limits.ctr_cents:
        return None
    places = CashTransaction.objects.filter(
        patron=patron, gaming_day=day, direction=direction
    ).aggregate(n=Count("id"), tables=Count("id", filter=Q(table__isnull=False)))
    if places["n"] < 2:
        return None
    split = 0 < places["tables"] < places["n"]
    kind = AlertKind.SPLIT if split else AlertKind.STRUCTURING
    where = " between tables and the cage" if split else ""
    return _new(
        kind=kind,
        key=_key(kind, patron.number, day, direction) + (":ctr" if not split else ""),
        patron=patron,
        direction=direction,
        first_day=day,
        day=day,
        amount_cents=total,
        detail=(
            f"the day's {_in_words(direction)} of {dollars(total)} in {places['n']} "
            f"transactions{where}, within {dollars(margin)} under the CTR's "
            f"{dollars(limits.ctr_cents)}"
        ),
        tx=tx,
        at=at,
    )


# --- described patrons alike ---------------------------------------------------------------------


def _description(patron: Patron) -> dict[str, str]:
    return {f: getattr(patron, f).strip().lower() for f in DESCRIPTION_FIELDS}


def _described_only(patron: Patron) -> bool:
    return patron.player_id is None and patron.identified_at is None


# The day's described patrons alike (read on every described patron's transaction: plain SQL,
# not compiled anew by the ORM each time). Fields compared trimmed and without case.
_ALIKE_SQL = (
    "SELECT p.number, d.{field} FROM compliance_patronday d "
    "JOIN compliance_patron p ON p.id = d.patron_id "
    "WHERE d.gaming_day = %s AND p.player_id IS NULL AND p.identified_at IS NULL AND "
    + " AND ".join(f"LOWER(TRIM(p.{f})) = LOWER(%s)" for f in DESCRIPTION_FIELDS)
)


def _lookalikes(
    patron: Patron,
    direction: str,
    day: date,
    tx: CashTransaction | None,
    at: datetime,
    limits: Thresholds,
) -> Alert | None:
    """Described patrons with this one's description whose day sums past the CTR threshold."""
    if not _described_only(patron):
        return None
    described = _description(patron)
    given = {f: v for f, v in described.items() if v}
    if len(given) < LOOKALIKE_FIELDS:
        return None
    field = "cash_in_cents" if direction == Direction.CASH_IN else "cash_out_cents"
    with connection.cursor() as cursor:
        given_fields = [getattr(patron, f).strip() for f in DESCRIPTION_FIELDS]
        cursor.execute(_ALIKE_SQL.format(field=field), [day.isoformat(), *given_fields])
        days = [(number, int(cents)) for number, cents in cursor.fetchall()]
    total = sum(cents for _n, cents in days)
    if len(days) < 2 or total <= limits.ctr_cents:
        return None
    numbers = sorted(n for n, _c in days)
    digest = hashlib.sha256("|".join(described[f] for f in DESCRIPTION_FIELDS).encode())
    return _new(
        kind=AlertKind.LOOKALIKE,
        key=_key(AlertKind.LOOKALIKE, digest.hexdigest()[:32], day, direction),
        patron=patron,
        direction=direction,
        first_day=day,
        day=day,
        amount_cents=total,
        detail=(
            f"patrons {', '.join(numbers)}, described alike, {_in_words(direction)} "
            f"{dollars(total)} together, past the CTR's {dollars(limits.ctr_cents)}"
        )[:200],
        tx=tx,
        at=at,
    )


# --- the patron's play ---------------------------------------------------------------------------


def played_cents(patron: Patron, day: date) -> int:
    """What the patron wagered over the gaming day, by the best link the record has: a rated
    player's ratings, else each buy-in's seat from the buy-in until the day's end."""
    start, end = day_bounds(day)
    covered: set[tuple[int, int]] = set()
    total = 0
    if patron.player_id is not None:
        ratings = Rating.objects.filter(
            player_id=patron.player_id, started_at__gte=start, started_at__lt=end
        ).values_list("table_id", "seat", "wagered_cents")
        for table_id, seat, wagered in ratings:
            covered.add((table_id, seat))
            total += wagered
    seats: dict[tuple[int, int], datetime] = {}
    for table_id, seat, at in CashTransaction.objects.filter(
        patron=patron, gaming_day=day, table__isnull=False, seat__isnull=False
    ).values_list("table_id", "seat", "at"):
        if (table_id, seat) not in covered:
            seats[(table_id, seat)] = min(at, seats.get((table_id, seat), at))
    for (table_id, seat), since in seats.items():
        total += (
            SettlementLine.objects.filter(
                round__table_id=table_id,
                round__gaming_day=day,
                round__status=Round.Status.SETTLED,
                round__opened_at__gte=since,
                seat=seat,
            ).aggregate(s=Sum("stake_cents"))["s"]
            or 0
        )
        total += _poker_wagered(table_id, seat, since, end)
    return total


def _poker_wagered(table_id: int, seat: int, since: datetime, end: datetime) -> int:
    players = HandPlayer.objects.filter(
        hand__table_id=table_id,
        hand__status=Hand.Status.FINISHED,
        hand__opened_at__gte=since,
        hand__opened_at__lt=end,
        seat=seat,
    ).select_related("hand")
    return sum(hand_figures(p.hand, p).wagered_cents for p in players)


def _chip_walking(
    patron: Patron, day: date, cash_in: int, cash_out: int, tx: CashTransaction | None, at: Any
) -> Alert | None:
    if cash_in < _s("CASINO_CHIP_WALK_MIN_CENTS") or cash_out <= 0:
        return None
    key = _key(AlertKind.CHIP_WALKING, patron.number, day, Direction.CASH_OUT)
    if _raised_before(key):
        return None
    played = played_cents(patron, day)
    if played * 100 > cash_in * _s("CASINO_CHIP_WALK_PLAY_PERCENT"):
        return None
    return _new(
        kind=AlertKind.CHIP_WALKING,
        key=key,
        patron=patron,
        direction=Direction.CASH_OUT,
        first_day=day,
        day=day,
        amount_cents=cash_in,
        wagered_cents=played,
        detail=(
            f"cash in {dollars(cash_in)}, wagered {dollars(played)}, chips redeemed for "
            f"{dollars(cash_out)}"
        ),
        tx=tx,
        at=at,
    )


def _beyond_play(patron: Patron, day: date, cash_in: int, at: Any) -> Alert | None:
    if cash_in < _s("CASINO_BEYOND_PLAY_MIN_CENTS"):
        return None
    walked = _key(AlertKind.CHIP_WALKING, patron.number, day, Direction.CASH_OUT)
    key = _key(AlertKind.BEYOND_PLAY, patron.number, day, Direction.CASH_IN)
    if Alert.objects.filter(key__in=[walked, key]).exists():
        return None
    played = played_cents(patron, day)
    ratio = _s("CASINO_BEYOND_PLAY_RATIO")
    if cash_in < ratio * played:
        return None
    times = "no play recorded" if played == 0 else f"{cash_in // played} times the play"
    return _new(
        kind=AlertKind.BEYOND_PLAY,
        key=key,
        patron=patron,
        direction=Direction.CASH_IN,
        first_day=day,
        day=day,
        amount_cents=cash_in,
        wagered_cents=played,
        detail=f"cash in {dollars(cash_in)}, wagered {dollars(played)}: {times}",
        tx=None,
        at=at,
    )


# --- when --------------------------------------------------------------------------------------


def on_transaction(tx: CashTransaction, day_row: PatronDay, limits: Thresholds) -> list[Alert]:
    """The alerts a cash transaction raises, as it is written (its patron's day summed and
    locked), by the thresholds the transaction was decided by: the caller binds them to the
    transaction's event."""
    patron = tx.patron
    if patron is None:
        return []
    day, at, direction = tx.gaming_day, tx.at, tx.direction
    total = day_row.cash_in_cents if direction == Direction.CASH_IN else day_row.cash_out_cents
    found = []
    if _in_mtl_band(tx.amount_cents, limits):
        found.append(_structuring_mtl(patron, direction, day, tx, at, limits))
    found.append(_structuring_ctr(patron, direction, day, total, tx, at, limits))
    found.append(_lookalikes(patron, direction, day, tx, at, limits))
    if tx.kind == Kind.CHIPS_REDEEMED:
        found.append(
            _chip_walking(patron, day, day_row.cash_in_cents, day_row.cash_out_cents, tx, at)
        )
    return [a for a in found if a is not None]


def _raised(alerts: Iterable[Alert]) -> list[Alert]:
    out = []
    for alert in alerts:
        audit_record(
            actor=None,
            actor_name=NIGHT,
            kind=EventKind.ALERT_RAISED,
            obj=alert,
            data={"alert": alert.kind, "patron": alert.patron.number, "day": str(alert.gaming_day)},
        )
        out.append(alert)
    return out


@transaction.atomic
def scan_day(day: date) -> list[Alert]:
    """The nightly run over a gaming day: every pattern above, for each patron with cash that
    day; the alerts not raised before, each its own event."""
    at = timezone.now()
    limits = thresholds.current()
    found: list[Alert | None] = []
    days = PatronDay.objects.filter(gaming_day=day).select_related("patron").order_by("id")
    for row in days:
        patron = row.patron
        for direction, total in (
            (Direction.CASH_IN, row.cash_in_cents),
            (Direction.CASH_OUT, row.cash_out_cents),
        ):
            if total <= 0:
                continue
            found.append(_structuring_mtl(patron, direction, day, None, at, limits))
            found.append(_structuring_ctr(patron, direction, day, total, None, at, limits))
            found.append(_lookalikes(patron, direction, day, None, at, limits))
        redeemed = CashTransaction.objects.filter(
            patron=patron, gaming_day=day, kind=Kind.CHIPS_REDEEMED
        ).exists()
        if redeemed:
            cash_in, cash_out = row.cash_in_cents, row.cash_out_cents
            found.append(_chip_walking(patron, day, cash_in, cash_out, None, at))
        found.append(_beyond_play(patron, day, row.cash_in_cents, at))
    return _raised(a for a in found if a is not None)


def open_alerts(day: date | None = None) -> Any:
    """The alerts no case has taken yet (of one gaming day, or all), newest first."""
    alerts = Alert.objects.filter(case_alert__isnull=True).select_related("patron")
    if day is not None:
        alerts = alerts.filter(gaming_day=day)
    return alerts.order_by("-raised_at", "-id")
