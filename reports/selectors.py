"""Reads of the hold reports, by any grouping over a range of gaming days (the dashboard, the
CSV exports and `manage.py hold_report` all read these)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import BigIntegerField, Count, Q, QuerySet, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from accounting.selectors import GROUPED, accounting_by, empty_accounting, hold_percent_drop
from audit.selectors import search_events
from tables import games
from tables.models import Hand, Round, Table

from .models import HoldSummary
from .reporting import FIGURES, hold_percent

GROUPS = {
    "table": ["table__name", "game"],
    "game": ["game"],
    "paytable_version": [
        "paytable_version",
        "paytable_version__name",
        "paytable_version__version",
        "game",
    ],
    "dealer": ["dealer__username"],
    "shift": ["shift"],
    "gaming_day": ["gaming_day"],
}


def hold_rows(
    *, start: date, end: date, by: str = "table", table: str | None = None, game: str | None = None
) -> list[dict[str, Any]]:
    """Summed figures from `start` to `end` (inclusive) grouped `by` one of GROUPS, with hold %."""
    qs = HoldSummary.objects.filter(gaming_day__gte=start, gaming_day__lte=end)
    if table:
        qs = qs.filter(table__name=table)
    if game:
        qs = qs.filter(game=game)
    fields = GROUPS[by]
    # The wagers' handle is summed in the same SQL aggregate (reading every summary's JSON back
    # into Python grew with the range: about 0.8 s for a year of a busy floor).
    wagers = games.report_wagers()  # every wager a settlement line can name (each game's)
    per_wager = {
        f"_w_{w}": Sum(Cast(KT(f"handle_by_wager__{w}"), BigIntegerField())) for w in wagers
    }
    rows = list(
        qs.values(*fields).annotate(**{f: Sum(f) for f in FIGURES}, **per_wager).order_by(*fields)
    )
    for row in rows:
        row["hold_percent"] = hold_percent(
            row["win_cents"] - row["rake_cents"], row["handle_cents"]
        )
        row["hold_ex_jackpots_percent"] = hold_ex_jackpots(row)
        row["handle_by_wager"] = {
            w: row.pop(f"_w_{w}") for w in wagers if row.get(f"_w_{w}") is not None
        }
        for w in wagers:
            row.pop(f"_w_{w}", None)
    if by in GROUPED:  # the count's columns (docs/accounting.md), reconciled with the hands
        counted = accounting_by(start=start, end=end, by=by, table=table, game=game)
        key = {"table": "table__name", "shift": "shift", "gaming_day": "gaming_day"}[by]
        for row in rows:
            row.update(counted.get(row[key]) or empty_accounting())
    return rows


ACCOUNTING_SUMS = ("drop_cents", "fills_cents", "credits_cents", "expected_drop_cents")


def totals(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    rows = list(rows)
    total = {f: 0 for f in FIGURES}
    for row in rows:
        for f in FIGURES:
            total[f] += row[f] or 0
    total["hold_percent"] = hold_percent(
        total["win_cents"] - total["rake_cents"], total["handle_cents"]
    )
    if rows and "drop_cents" in rows[0]:  # the count's totals: known when every row's is
        for f in ACCOUNTING_SUMS:
            total[f] = sum(row[f] for row in rows)
        for f in ("count_win_cents", "variance_cents"):
            known = [row[f] for row in rows]
            total[f] = None if None in known else sum(known)
        total["hold_percent_drop"] = hold_percent_drop(
            total["count_win_cents"], total["drop_cents"]
        )
    total["hold_ex_jackpots_percent"] = hold_ex_jackpots(total)
    return total


def hold_ex_jackpots(row: dict[str, Any]) -> Any:
    """The hold had no jackpot been paid from the meter: (win - rake + jackpots paid) / handle
    (the rake of poker hands, which have no handle, stays out as in the hold itself). A jackpot
    is the players' money the meter saved up, so the floor reads its hold both ways."""
    return hold_percent(
        (row["win_cents"] or 0) - (row.get("rake_cents") or 0) + (row["jackpots_paid_cents"] or 0),
        row["handle_cents"] or 0,
    )


def periods(day: date) -> dict[str, tuple[date, date]]:
    """The day, month to date and year to date ending on `day`."""
    return {
        "day": (day, day),
        "mtd": (day.replace(day=1), day),
        "ytd": (day.replace(month=1, day=1), day),
    }


def round_replay(round_: Round) -> dict[str, Any]:
    """Everything the record holds on a round, in order: each event, the lines, the links."""
    events = list(search_events(round_id=round_.pk))
    return {
        "round": round_,
        "events": events,
        "lines": list(round_.lines.order_by("seat", "id")),
        "corrections": list(round_.corrections.all()),
        "corrects": round_.corrects,
    }


# --- a table's rounds (the dashboard's round list) ----------------------------------------


def table_rounds_of(table: Table, day: date) -> QuerySet[Round]:
    """A table's rounds on a gaming day, newest first (their big JSON left for the record)."""
    return (
        Round.objects.filter(table=table, gaming_day=day)
        .select_related("dealer", "corrects")
        .defer(
            "entry",
            "settlement",
            "house_way",
            "corrects__entry",
            "corrects__settlement",
            "corrects__house_way",
        )
        .order_by("-number")
    )


def round_sums(rounds: QuerySet[Round]) -> dict[str, Any]:
    """Settled rounds, voids, handle and the players' net of a set of rounds."""
    return rounds.aggregate(
        rounds=Count("id", filter=Q(status=Round.Status.SETTLED)),
        voids=Count("id", filter=Q(status=Round.Status.VOIDED)),
        handle=Sum("handle_cents", filter=Q(status=Round.Status.SETTLED)),
        net=Sum("players_net_cents", filter=Q(status=Round.Status.SETTLED)),
    )


def open_rounds_at(table: Table) -> list[Round]:
    return list(
        Round.objects.filter(
            table=table, status=Round.Status.OPEN, corrects__isnull=True
        ).select_related("dealer")
    )


def latest_rounds(count: int = 20) -> QuerySet[Round]:
    """The newest rounds on the floor (the trail page's shortcuts)."""
    return Round.objects.select_related("table")[:count]


def round_for_record(pk: int) -> Round | None:
    """One round with what its record page shows of it."""
    return (
        Round.objects.select_related(
            "table", "dealer", "paytable_version", "voided_by", "corrects", "void_requested_by"
        )
        .filter(pk=pk)
        .first()
    )


# --- a table's player-vs-player hands ----------------------------------------------------------


def table_hands_of(table: Table, day: date) -> QuerySet[Hand]:
    """A table's hands closed on a gaming day (finished or voided), newest first, and any open."""
    return (
        Hand.objects.filter(table=table)
        .filter(Q(gaming_day=day) | Q(gaming_day__isnull=True, opened_at__date=day))
        .select_related("dealer")
        .defer("record", "result")
        .order_by("-number")
    )


def hand_sums(hands: QuerySet[Hand]) -> dict[str, Any]:
    """Finished hands, voids, pots and rake of a set of hands."""
    return hands.aggregate(
        hands=Count("id", filter=Q(status=Hand.Status.FINISHED)),
        voids=Count("id", filter=Q(status=Hand.Status.VOIDED)),
        pots=Sum("pot_cents", filter=Q(status=Hand.Status.FINISHED)),
        rake=Sum("rake_cents", filter=Q(status=Hand.Status.FINISHED)),
    )


def hand_for_record(pk: int) -> Hand | None:
    return (
        Hand.objects.select_related("table", "dealer", "settings_version", "voided_by")
        .prefetch_related("players")
        .filter(pk=pk)
        .first()
    )


def hand_events(hand: Hand) -> QuerySet[Any]:
    """Every audit event of a hand, in order: opened, each step, finished or voided."""
    return search_events().filter(object_type="tables.hand", object_id=str(hand.pk))


# --- sign-offs waiting (the dashboard) ----------------------------------------------------


def rounds_awaiting_approval() -> list[Round]:
    """Open rounds whose settle waits for a pit boss's sign-off, the oldest request first."""
    return list(
        Round.objects.filter(status=Round.Status.OPEN, approval_requested_at__isnull=False)
        .select_related("table", "dealer")
        .order_by("approval_requested_at")
    )


def rounds_void_waiting() -> list[Round]:
    """Settled rounds whose void waits for a second pit boss's approval, the oldest first."""
    return list(
        Round.objects.filter(status=Round.Status.SETTLED, void_requested_at__isnull=False)
        .select_related("table", "dealer", "void_requested_by")
        .defer("entry", "settlement", "house_way")
        .order_by("void_requested_at")
    )


def large_payouts_on(day: date) -> list[Round]:
    """The gaming day's rounds paid after a pit boss's sign-off (every jackpot and every seat
    paid the table's threshold or more), newest first: the dashboard's payout alerts."""
    return list(
        Round.objects.filter(gaming_day=day, approved_by__isnull=False)
        .exclude(status=Round.Status.OPEN)
        .select_related("table", "dealer", "approved_by")
        .defer("entry", "settlement", "house_way")
        .order_by("-approved_at")[:20]
    )
