"""Reads for the pit-boss dashboard: the floor at a glance and the chart series.

Win and hold come from the hold summaries (`report_selectors.hold_rows`), the same figures as
the reports and the CSV exports. A (day, table) marked stale in the range read is rebuilt
first, synchronously: a rebuild is a handful of aggregate queries over one table's day, and
marks are rare (the worker clears them within seconds; they pile up only with the broker
down). A rebuild that fails (e.g. racing the worker's) leaves the table shown as "updating";
so does one that cannot get SQLite's write lock at once (core.db.brief_lock_wait): a page that
reads never waits behind a writer.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import DatabaseError
from django.db.models import Count

from core.db import brief_lock_wait
from tables import games
from tables.models import DealerSession, Hand, Round, Table

from .alerts import applicable_rule, breach
from .models import HoldAlertRule, StaleReport
from .reporting import HOLD_MIN_BASE_CENTS, hold_percent, rebuild
from .selectors import FIGURES, hold_rows
from .theory import RAKE_STRATEGY, STRATEGY, Theory, rake_theory_by_table, theory_by_table

log = logging.getLogger(__name__)

PACE_WINDOW = timedelta(hours=1)
CHART_DAYS = 30


def refresh_stale(start: date, end: date) -> set[tuple[date, int]]:
    """Rebuild the stale (day, table) reports from `start` to `end`; the marks still stale."""
    still_stale = set()
    marks = StaleReport.objects.filter(gaming_day__gte=start, gaming_day__lte=end)
    for day, table_id in marks.values_list("gaming_day", "table_id"):
        try:
            with brief_lock_wait():
                rebuild(day, table_id)
        except DatabaseError as exc:  # e.g. the worker rebuilding the same report right now
            log.warning("hold report for %s table %s not rebuilt: %s", day, table_id, exc)
            still_stale.add((day, table_id))
    return still_stale


@dataclass
class FloorTable:
    table: Table
    dealer: str
    rounds_last_hour: int
    rounds: int
    handle_cents: int
    win_cents: int
    hands: int  # player-vs-player hands finished (their rake is in win_cents)
    pvp: bool  # a player-vs-player (poker) table: its pace counts hands
    pots_cents: int
    rake_cents: int
    hold_percent: Decimal | None
    rule: HoldAlertRule | None
    alert: str | None  # "low" or "high" when the hold left the rule's band
    updating: bool
    theory: Theory = field(default_factory=Theory)  # theoretical win and its 95% band

    @property
    def band_alert(self) -> str | None:
        """ "low" or "high" when the day's actual win left its theoretical band."""
        return self.theory.outside(self.win_cents)


@dataclass
class Floor:
    gaming_day: date
    now: datetime
    tables: list[FloorTable] = field(default_factory=list)

    @property
    def total(self) -> dict[str, Any]:
        handle = sum(t.handle_cents for t in self.tables)
        win = sum(t.win_cents for t in self.tables)
        rake = sum(t.rake_cents for t in self.tables)
        return {
            "open": sum(1 for t in self.tables if t.table.is_open),
            "rounds_last_hour": sum(t.rounds_last_hour for t in self.tables),
            "rounds": sum(t.rounds for t in self.tables),
            "handle_cents": handle,
            "win_cents": win,
            "hands": sum(t.hands for t in self.tables),
            "pots_cents": sum(t.pots_cents for t in self.tables),
            "rake_cents": rake,
            "hold_percent": hold_percent(win - rake, handle),
            "alerts": sum(1 for t in self.tables if t.alert or t.band_alert),
        }


def floor_status(*, now: datetime, gaming_day: date) -> Floor:
    """Every table: open or closed, the dealer signed in, rounds settled in the last hour, and
    the gaming day's rounds, handle, win and hold % with the alert its rule raises, and its
    theoretical win with the 95% band (an alert too when the win left it)."""
    still_stale = refresh_stale(gaming_day, gaming_day)
    dealers = {
        s.table_id: s.dealer.get_username()
        for s in DealerSession.objects.filter(ended_at__isnull=True).select_related("dealer")
    }
    pace = dict(
        Round.objects.filter(
            # Settled in the last hour, so of today's or yesterday's gaming day: the day narrows
            # the search to an index (and leaves out corrections of older days, not play).
            gaming_day__gte=gaming_day - timedelta(days=1),
            status=Round.Status.SETTLED,
            settled_at__gt=now - PACE_WINDOW,
            settled_at__lte=now,
        )
        .values_list("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    hand_pace = (
        Hand.objects.filter(
            gaming_day__gte=gaming_day - timedelta(days=1),
            status=Hand.Status.FINISHED,
            finished_at__gt=now - PACE_WINDOW,
            finished_at__lte=now,
        )
        .values_list("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    for table_id, n in hand_pace:
        pace[table_id] = pace.get(table_id, 0) + n
    figures: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(FIGURES, 0))
    for row in hold_rows(start=gaming_day, end=gaming_day, by="table"):
        for f in FIGURES:  # one row per (table, game): a table that changed game adds up
            figures[row["table__name"]][f] += row[f] or 0
    theories: dict[str, Theory] = {}
    for parts in (theory_by_table(day=gaming_day), rake_theory_by_table(day=gaming_day)):
        for (name, _game), part in parts.items():
            theories.setdefault(name, Theory(strategy=part.strategy)).add(part)
    rules = list(HoldAlertRule.objects.filter(is_active=True))
    floor = Floor(gaming_day=gaming_day, now=now)
    for table in Table.objects.select_related("pit").order_by("pit__name", "name"):
        day = figures[table.name]
        hold = hold_percent(day["win_cents"] - day["rake_cents"], day["handle_cents"])
        rule = applicable_rule(table, rules)
        pvp = isinstance(games.get(table.game), games.PlayerVsPlayerGame)
        floor.tables.append(
            FloorTable(
                table=table,
                dealer=dealers.get(table.pk, ""),
                rounds_last_hour=pace.get(table.pk, 0),
                rounds=day["rounds"],
                handle_cents=day["handle_cents"],
                win_cents=day["win_cents"],
                hands=day["pvp_hands"],
                pvp=pvp,
                pots_cents=day["pots_cents"],
                rake_cents=day["rake_cents"],
                hold_percent=hold,
                rule=rule,
                alert=breach(rule, hold_percent=hold, handle_cents=day["handle_cents"]),
                updating=(gaming_day, table.pk) in still_stale,
                theory=theories.get(
                    table.name, Theory(strategy=RAKE_STRATEGY if pvp else STRATEGY)
                ),
            )
        )
    return floor


def _hold(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def chart_series(*, start: date, end: date) -> dict[str, Any]:
    """Hold % and win by table from `start` to `end`, and by gaming day for the 30 days to
    `end` (every day; null on a day without play). Win in integer cents, hold % as a decimal
    string (null without handle), the handle in cents (the chart draws no hold bar below
    `hold_min_handle_cents`, as the pages write "n/a"): the browser makes numbers only to plot
    them."""
    first_day = end - timedelta(days=CHART_DAYS - 1)
    refresh_stale(min(start, first_day), end)
    by_name: dict[str, dict[str, int]] = defaultdict(
        lambda: {"win_cents": 0, "handle_cents": 0, "rake_cents": 0}
    )
    for row in hold_rows(start=start, end=end, by="table"):
        for f in ("win_cents", "handle_cents", "rake_cents"):
            by_name[row["table__name"]][f] += row[f] or 0
    names = list(Table.objects.order_by("name").values_list("name", flat=True))
    by_day = {r["gaming_day"]: r for r in hold_rows(start=first_day, end=end, by="gaming_day")}
    days = [first_day + timedelta(days=n) for n in range(CHART_DAYS)]
    return {
        "start": start.isoformat(),
        "end": end.isoformat(),
        "by_table": {
            "labels": names,
            "hold_percent": [
                _hold(
                    hold_percent(
                        by_name[n]["win_cents"] - by_name[n]["rake_cents"],
                        by_name[n]["handle_cents"],
                    )
                )
                for n in names
            ],
            "win_cents": [by_name[n]["win_cents"] for n in names],
            "handle_cents": [by_name[n]["handle_cents"] for n in names],
        },
        "by_day": {
            "labels": [d.isoformat() for d in days],
            "hold_percent": [
                _hold(by_day[d]["hold_percent"]) if d in by_day else None for d in days
            ],
            "win_cents": [by_day[d]["win_cents"] if d in by_day else None for d in days],
            "handle_cents": [by_day[d]["handle_cents"] if d in by_day else None for d in days],
        },
        "hold_min_handle_cents": HOLD_MIN_BASE_CENTS,
    }
