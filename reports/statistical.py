"""The regulator's statistical report: per table and per type of game, the drop, the win and the
win % of drop for the gaming day, the month to date and the year to date, beside the
theoretical hold and its 95% band for the period's play and the same period of last year; and
the investigations its fluctuations open (docs/regulator.md, "Statistical report").

Figures. The drop and the win are the count's (docs/accounting.md): drop = the drop boxes
counted, win = drop + closer - opener + credits - fills, from signed slips only; a period's win
is known once every shift of every day in it with slips or hands has its count. win % of drop
= win / drop. The theoretical win is that of the period's settled stakes (and, at a poker
table, of its finished hands' rake), from the paytable versions' edge, standard deviation and
seats' covariance (`reports.theory`): days are independent, so a period's expected win and its
variance are the sums of its days'; the band is the expected win -/+ 1.96 standard deviations.
Both are put over the period's drop: the theoretical hold % of drop and its band in percent.

Fluctuation: a period's win % of drop outside its band, or further from the theoretical hold %
than the casino's threshold (`CASINO_STATISTICAL_THRESHOLD_POINTS`, default 3 points). It is
judged only where the win is known, there is a drop and the theoretical figures exist.
`open_investigations` opens one StatisticalInvestigation per fluctuation (table or game,
period, gaming day), once; a pit boss who did not deal at, supervise or sign for those tables
that day explains and signs it (`explain_investigation`); until then it is listed as open.

Money is integer cents; every percentage a Decimal with two places.
"""

from __future__ import annotations

import calendar
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounting.models import Slip, SlipSignature
from accounting.selectors import day_rows
from audit.kinds import EventKind
from audit.services import audit_record
from core.errors import SeparationOfDuties, ServiceError
from core.roles import PIT_BOSSES, require
from tables import games
from tables.gaming_day import gaming_day_of
from tables.models import Hand, Round, Table

from .models import StatisticalExplanation, StatisticalInvestigation
from .theory import Theory, rake_theory_by_table, theory_by_table

CENT = Decimal("0.01")
PERIODS = ("day", "mtd", "ytd")
PERIOD_WORDS = {"day": "the day", "mtd": "month to date", "ytd": "year to date"}


def threshold_points() -> Decimal:
    """The casino's threshold in points of hold % of drop (a setting; default 3)."""
    value = Decimal(str(getattr(settings, "CASINO_STATISTICAL_THRESHOLD_POINTS", "3")))
    return value.quantize(CENT)


def percent(cents: int | None, drop_cents: int | None) -> Decimal | None:
    if cents is None or not drop_cents:
        return None
    return (Decimal(cents) * 100 / Decimal(drop_cents)).quantize(CENT, rounding=ROUND_HALF_EVEN)


def period_bounds(day: date) -> dict[str, tuple[date, date]]:
    return {
        "day": (day, day),
        "mtd": (day.replace(day=1), day),
        "ytd": (day.replace(month=1, day=1), day),
    }


def year_before(day: date) -> date:
    """The same date last year (29 February: the 28th)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


def today() -> date:
    return gaming_day_of(timezone.now())


# --- the figures ------------------------------------------------------------------------------


@dataclass
class Figures:
    """One table's (or game's) drop, win and theory over some gaming days."""

    drop_cents: int = 0
    win_cents: int | None = 0  # None: some day's count is not complete
    played: bool = False
    theory: Theory = field(default_factory=Theory)

    def add(self, other: Figures) -> None:
        self.drop_cents += other.drop_cents
        self.win_cents = (
            None
            if self.win_cents is None or other.win_cents is None
            else self.win_cents + other.win_cents
        )
        self.played = self.played or other.played
        self.theory.add(other.theory)

    def judged(self, threshold: Decimal) -> dict[str, Any]:
        hold = percent(self.win_cents, self.drop_cents)
        theoretical = self.theory.theoretical_win_cents if self.drop_cents else None
        band = self.theory.band_cents if self.drop_cents else None
        theoretical_percent = percent(theoretical, self.drop_cents)
        band_percent = None if band is None else [percent(c, self.drop_cents) for c in band]
        outside = past = None
        if hold is not None and band is not None and theoretical_percent is not None:
            assert self.win_cents is not None
            outside = not band[0] <= self.win_cents <= band[1]
            past = abs(hold - theoretical_percent) > threshold
        return {
            "drop_cents": self.drop_cents,
            "win_cents": self.win_cents,
            "hold_percent": hold,
            "theoretical_win_cents": theoretical,
            "theoretical_percent": theoretical_percent,
            "band_cents": band,
            "band_percent": band_percent,
            "outside_band": outside,
            "past_threshold": past,
            "fluctuation": bool(outside or past),
            **({"theoretical_pending": list(self.theory.pending)} if self.theory.pending else {}),
        }

    def last_year(self) -> dict[str, Any] | None:
        if not self.played:
            return None
        return {
            "drop_cents": self.drop_cents,
            "win_cents": self.win_cents,
            "hold_percent": percent(self.win_cents, self.drop_cents),
        }


def _active_days(start: date, end: date) -> list[date]:
    """The gaming days from `start` to `end` with slips, settled rounds or finished hands."""
    days: set[date] = set()
    days.update(
        Slip.objects.filter(gaming_day__range=(start, end))
        .values_list("gaming_day", flat=True)
        .distinct()
    )
    days.update(
        Round.objects.filter(gaming_day__range=(start, end), status=Round.Status.SETTLED)
        .values_list("gaming_day", flat=True)
        .distinct()
    )
    days.update(
        Hand.objects.filter(gaming_day__range=(start, end), status=Hand.Status.FINISHED)
        .values_list("gaming_day", flat=True)
        .distinct()
    )
    return sorted(days)


class Book:
    """Each gaming day's figures per table, read once however many periods include the day."""

    def __init__(self) -> None:
        self._days: dict[date, dict[int, Figures]] = {}
        self.tables = {t.pk: t for t in Table.objects.all()}

    def day(self, day: date) -> dict[int, Figures]:
        if day not in self._days:
            by_name = {t.name: pk for pk, t in self.tables.items()}
            out: dict[int, Figures] = {}
            for table_id, row in day_rows(gaming_day=day).items():
                out[table_id] = Figures(
                    drop_cents=row["drop_cents"] or 0,
                    win_cents=row["count_win_cents"],
                    played=True,
                    theory=Theory(),
                )
            theories = theory_by_table(day=day)
            for key, part in rake_theory_by_table(day=day).items():
                theories.setdefault(key, Theory(strategy=part.strategy)).add(part)
            for (name, _game), part in theories.items():
                table_id = by_name[name]
                figures = out.setdefault(table_id, Figures(played=True, win_cents=None))
                figures.theory.strategy = part.strategy
                figures.theory.add(part)
            self._days[day] = out
        return self._days[day]

    def period(self, start: date, end: date) -> dict[int, Figures]:
        out: dict[int, Figures] = defaultdict(Figures)
        for day in _active_days(start, end):
            for table_id, figures in self.day(day).items():
                out[table_id].add(figures)
        return dict(out)


def _game_label(game: str) -> str:
    try:
        return str(games.get(game).label)
    except Exception:  # a game no longer defined: its key is all the record has
        return game


def statistical_report(*, day: date, table: str | None = None) -> dict[str, Any]:
    """The report's figures for the periods ending on `day` (optionally one table's). Refused:
    a day after today's gaming day, an unknown table, a table that did not play in the year to
    `day`. A day with no play is an empty form (no rows)."""
    if day > today():
        raise ServiceError(
            f"gaming day: {day:%a %-d %b %Y} has not happened yet", field="day", code="future"
        )
    threshold = threshold_points()
    book = Book()
    bounds = period_bounds(day)
    last = {p: (year_before(a), year_before(b)) for p, (a, b) in bounds.items()}
    figures = {p: book.period(*bounds[p]) for p in PERIODS}
    last_figures = {p: book.period(*last[p]) for p in PERIODS}
    played = set().union(*[set(f) for f in figures.values()])
    ids = sorted(played, key=lambda i: book.tables[i].name)
    if table is not None:
        match = [pk for pk, t in book.tables.items() if t.name == table]
        if not match:
            raise ServiceError(f"table: there is no table named {table}", field="table")
        if match[0] not in ids:
            raise ServiceError(
                f"table: {table} did not play in the year to {day:%a %-d %b %Y}",
                field="table",
                code="not_played",
            )
        ids = match

    def periods_of(rows: dict[str, Figures], last_rows: dict[str, Figures]) -> dict[str, Any]:
        return {
            p: {**rows[p].judged(threshold), "last_year": last_rows[p].last_year()} for p in PERIODS
        }

    tables = []
    by_game: dict[str, dict[str, Figures]] = defaultdict(lambda: {p: Figures() for p in PERIODS})
    last_by_game: dict[str, dict[str, Figures]] = defaultdict(
        lambda: {p: Figures() for p in PERIODS}
    )
    for pk in ids:
        t = book.tables[pk]
        rows = {p: figures[p].get(pk, Figures()) for p in PERIODS}
        last_rows = {p: last_figures[p].get(pk, Figures()) for p in PERIODS}
        for p in PERIODS:
            by_game[t.game][p].add(rows[p])
            last_by_game[t.game][p].add(last_rows[p])
        tables.append(
            {
                "table": t.name,
                "table_id": pk,
                "game": t.game,
                "game_label": _game_label(t.game),
                **periods_of(rows, last_rows),
            }
        )
    game_rows = [
        {"game": g, "game_label": _game_label(g), **periods_of(by_game[g], last_by_game[g])}
        for g in sorted(by_game, key=_game_label)
    ]
    return {
        "gaming_day": day,
        "threshold_points": threshold,
        "periods": bounds,
        "last_year_periods": last,
        "tables": tables,
        "games": game_rows,
    }


def month_day(month: str) -> date:
    """`--month YYYY-MM` -> the day its report ends on: the month's last day, or today's gaming
    day in the current month. Refused: not a month, or a month in the future."""
    try:
        year, number = (int(part) for part in month.split("-"))
        first = date(year, number, 1)
    except (ValueError, TypeError):
        raise ServiceError(
            f"month: give a month like 2026-11, not {month!r}", field="month"
        ) from None
    now = today()
    if first > now:
        raise ServiceError(f"month: {first:%B %Y} has not begun yet", field="month", code="future")
    last = first.replace(day=calendar.monthrange(year, number)[1])
    return min(last, now)


def as_json(value: Any) -> Any:
    """The report as plain JSON: cents as integers, percentages and dates as text."""
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items() if k != "table_id"}
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


# --- the investigations -----------------------------------------------------------------------


@transaction.atomic
def open_investigations(*, day: date) -> list[StatisticalInvestigation]:
    """Open an investigation for each fluctuation of the report ending on `day` not already
    open (one per table or game, period and gaming day); written by the system, on the
    record. Returns those it opened."""
    report = statistical_report(day=day)
    threshold = report["threshold_points"]
    opened = []
    subjects = [(row["table_id"], row["table"], row) for row in report["tables"]] + [
        (None, "", row) for row in report["games"]
    ]
    for table_id, table_name, row in subjects:
        for p in PERIODS:
            f = row[p]
            if not f["fluctuation"]:
                continue
            existing = StatisticalInvestigation.objects.filter(period=p, gaming_day=day)
            existing = (
                existing.filter(table_id=table_id)
                if table_id is not None
                else existing.filter(table__isnull=True, game=row["game"])
            )
            if existing.exists():
                continue
            investigation = StatisticalInvestigation.objects.create(
                gaming_day=day,
                period=p,
                table_id=table_id,
                game=row["game"],
                drop_cents=f["drop_cents"],
                win_cents=f["win_cents"],
                theoretical_win_cents=f["theoretical_win_cents"],
                band_low_cents=f["band_cents"][0],
                band_high_cents=f["band_cents"][1],
                hold_percent=f["hold_percent"],
                theoretical_percent=f["theoretical_percent"],
                threshold_points=threshold,
                outside_band=bool(f["outside_band"]),
                past_threshold=bool(f["past_threshold"]),
                opened_at=timezone.now(),
            )
            investigation.refresh_from_db()  # the Decimals as stored, as the record binds them
            audit_record(
                actor=None,
                actor_name="system",
                kind=EventKind.STATISTICAL_INVESTIGATION_OPENED,
                obj=investigation,
                table_name=table_name,
                data={
                    "gaming_day": day.isoformat(),
                    "period": PERIOD_WORDS[p],
                    "game": _game_label(row["game"]),
                    "hold_percent": str(f["hold_percent"]),
                    "theoretical_percent": str(f["theoretical_percent"]),
                    "band_percent": [str(x) for x in f["band_percent"]],
                    "threshold_points": str(threshold),
                    "outside_band": bool(f["outside_band"]),
                    "past_threshold": bool(f["past_threshold"]),
                },
            )
            opened.append(investigation)
    return opened


def subject_words(investigation: StatisticalInvestigation) -> str:
    """A table's name, or its type of game's "... tables", with the period and the day."""
    subject = (
        investigation.table.name
        if investigation.table_id
        else f"{_game_label(investigation.game)} tables"
    )
    return (
        f"{subject}, {PERIOD_WORDS[investigation.period]} to "
        f"{investigation.gaming_day:%a %-d %b %Y}"
    )


def _took_part(investigation: StatisticalInvestigation, user: AbstractBaseUser) -> bool:
    """Whether `user` dealt at, approved or voided play at, or signed a slip for the
    investigation's tables on its gaming day."""
    day = investigation.gaming_day
    if investigation.table_id:
        tables = Q(table_id=investigation.table_id)
    else:
        tables = Q(table__game=investigation.game)
    people = Q(dealer=user) | Q(approved_by=user) | Q(voided_by=user) | Q(void_requested_by=user)
    if Round.objects.filter(tables, people, gaming_day=day).exists():
        return True
    if Hand.objects.filter(tables, Q(dealer=user) | Q(voided_by=user), gaming_day=day).exists():
        return True
    slips = Slip.objects.filter(tables, gaming_day=day)
    return (
        SlipSignature.objects.filter(slip__in=slips, by=user).exists()
        or slips.filter(created_by=user).exists()
    )


@transaction.atomic
def explain_investigation(
    *, investigation: StatisticalInvestigation, text: Any, by: AbstractBaseUser
) -> StatisticalExplanation:
    """A pit boss explains a fluctuation and signs it, which closes the investigation. Refused:
    no text, already explained, or someone who dealt, supervised or signed for those tables
    that day (whatever their roles)."""
    require(by, PIT_BOSSES, "explain a statistical fluctuation")
    investigation = StatisticalInvestigation.objects.select_for_update().get(pk=investigation.pk)
    words = subject_words(investigation)
    explanation = str(text or "").strip()
    if not explanation:
        raise ServiceError(
            f"explanation: say why the hold of {words} moved", field="text", code="required"
        )
    if StatisticalExplanation.objects.filter(investigation=investigation).exists():
        raise ServiceError(
            f"{words}: already explained and signed", code="already_explained", status=409
        )
    if _took_part(investigation, by):
        raise SeparationOfDuties(
            f"{words}: {by.get_username()} dealt, supervised or signed for it that day; "
            "another pit boss must explain it",
            action="explain",
            about={"investigation": investigation.pk},
            table_name=investigation.table.name if investigation.table_id else "",
        )
    row = StatisticalExplanation.objects.create(
        investigation=investigation, by=by, at=timezone.now(), text=explanation
    )
    audit_record(
        actor=by,
        kind=EventKind.STATISTICAL_INVESTIGATION_EXPLAINED,
        obj=row,
        table_name=investigation.table.name if investigation.table_id else "",
        data={"investigation": words, "text": explanation},
    )
    return row


def unexplained() -> QuerySet[StatisticalInvestigation]:
    """The investigations still waiting for an explanation, oldest day first."""
    return StatisticalInvestigation.objects.filter(explanation__isnull=True).select_related("table")


def investigations_of(day: date) -> QuerySet[StatisticalInvestigation]:
    return StatisticalInvestigation.objects.filter(gaming_day=day).select_related(
        "table", "explanation__by"
    )
