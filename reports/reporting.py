"""Hold reports: what the tables kept of what was wagered.

Summaries are derived data, rebuilt from the rounds for one (gaming day, table) at a time by
`rebuild` — so a re-run, a duplicate delivery or a retry after a killed worker changes
nothing. A settled, voided or corrected round marks its (day, table) stale in its own
transaction (`mark_stale`) and asks Celery for a rebuild once committed (in a request, once its
answer is written: `core.after_response`); if the broker is down the mark stays and the
periodic catch-up job rebuilds it later.

After each rebuild the table's actual win is checked against its theoretical band
(`theory.outside_band`, recorded on the audit chain when it left it).

Figures: handle = every stake settled (ante, raise, bonus, pair plus, progressive...); win =
the house's win (minus the players' net); hold % = win / handle. Voided rounds leave handle
and win and are counted as voids; a correction counts on the day of the round it corrects.

Player-vs-player hands (Rhode Island Hold 'Em) are summed beside the rounds, under their table
settings version: `pvp_hands` finished, `pots_cents` in their pots, `rake_cents` taken. The
rake is the house's win on them (it is in `win_cents`); they have no handle, so the hold % is
the banked games' alone (win less rake over handle). A voided hand leaves them and is a void.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from casino.enqueue import enqueue
from core.after_response import after_response
from core.prepared import PreparedQuery
from tables.models import Hand, MeterEntry, Round, SettlementLine, Table

from .models import HoldSummary, StaleReport
from .tasks import refresh_hold_report
from .theory import outside_band, record_outside_band

log = logging.getLogger(__name__)


def mark_stale(round_: Round | Hand) -> None:
    """Within the round's (or hand's) transaction: its (day, table) report must be rebuilt."""
    if round_.gaming_day is None:
        return
    day, table_id = round_.gaming_day, round_.table_id
    # One upsert (a rebuild deletes the mark, so most rounds insert it again).
    ops = connection.ops
    table = ops.quote_name(StaleReport._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (gaming_day, table_id, version, marked_at) "
            "VALUES (%s, %s, 1, %s) ON CONFLICT (gaming_day, table_id) "
            f"DO UPDATE SET version = {table}.version + 1",
            [
                ops.adapt_datefield_value(day),
                table_id,
                ops.adapt_datetimefield_value(timezone.now()),
            ],
        )
    # Once committed, and in a request once its answer is written: the dealer's payout does not
    # wait for the report (core.after_response).
    transaction.on_commit(lambda: after_response(lambda: request_rebuild(day, table_id)))


def request_rebuild(day: date, table_id: int) -> None:
    """Send the rebuild to the workers; with the broker down, the stale mark waits (with no
    broker, Celery's tasks run in-process: the rebuild runs here)."""
    # At most about CELERY_ENQUEUE_TIMEOUT (100 ms) when the broker is down.
    enqueue(refresh_hold_report, day.isoformat(), table_id, only_if_marked=True)


def hold_percent(win_cents: int, handle_cents: int) -> Decimal | None:
    """win / handle in percent (None without handle); the caller leaves any rake out of win."""
    if not handle_cents:
        return None
    return (Decimal(win_cents) * 100 / Decimal(handle_cents)).quantize(Decimal("0.01"))


Key = tuple[int | None, int | None, int, str]  # paytable version, settings version, dealer, shift


def _table_query(table: int) -> Any:
    return Table.objects.filter(pk=table)


def _mark_query(day: date, table: int) -> Any:
    return StaleReport.objects.filter(gaming_day=day, table_id=table)


# The rebuild's own lock (PostgreSQL): an advisory lock per table, held to the end of the
# rebuild's transaction. It keeps two rebuilds of one table apart and nothing else: the table's
# rounds go on being played and settled while the worker rebuilds (a row lock on the table or
# the stale mark, as before, made every step of the table's next round wait behind the rebuild).
# On SQLite a writing transaction holds the database's one write lock from its start.
REBUILD_LOCK_CLASS = 0x484F4C44  # "HOLD"


def lock_table_rebuild(table_id: int) -> None:
    """Within a transaction: wait for, then hold until it ends, the table's rebuild lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [REBUILD_LOCK_CLASS, table_id])


def _constraints_now() -> None:
    """PostgreSQL checks the rebuild's foreign keys as it writes, not at its commit.

    Django makes them DEFERRABLE INITIALLY DEFERRED: checked at the commit, a summary row's key
    share on its table would wait there for a round step's lock on the table row while the
    rebuild holds the audit chain's head (an outside-band event), which that step waits for.
    Checked as written, the rebuild waits before it takes the head. The rebuild then takes the
    stale mark's row before the head, as a settle does: one order, no deadlock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _rounds_query(day: date, table: int) -> Any:
    return (
        Round.objects.filter(gaming_day=day, table_id=table)
        .exclude(status=Round.Status.OPEN)
        .values("paytable_version", "dealer", "shift", "status", "game")
        .annotate(
            n=Count("id"),
            handle=Sum("handle_cents"),
            net=Sum("players_net_cents"),
            corrections=Count("id", filter=Q(corrects__isnull=False)),
        )
    )


def _lines_query(day: date, table: int) -> Any:
    return (
        SettlementLine.objects.filter(
            round__gaming_day=day, round__table_id=table, round__status=Round.Status.SETTLED
        )
        .values("round__paytable_version", "round__dealer", "round__shift", "wager")
        .annotate(
            stake=Sum("stake_cents"),
            n=Count("id"),
            jackpot=Sum(F("net_cents") + F("stake_cents"), filter=Q(award="jackpot")),
        )
    )


def _contributions_query(day: date, table: int) -> Any:
    return (
        MeterEntry.objects.filter(
            round__gaming_day=day, round__table_id=table, kind=MeterEntry.Kind.CONTRIBUTION
        )
        .values("round__paytable_version", "round__dealer", "round__shift")
        .annotate(total=Sum("amount_cents"))
    )


def _hands_query(day: date, table: int) -> Any:
    return (
        Hand.objects.filter(gaming_day=day, table_id=table)
        .exclude(status=Hand.Status.OPEN)
        .values("settings_version", "dealer", "shift", "status", "game")
        .annotate(n=Count("id"), pots=Sum("pot_cents"), rake=Sum("rake_cents"))
    )


# A rebuild follows every settled round (on the worker, or in-process without a broker): its
# reads are compiled once (core.prepared); tests/reports/test_rebuild_prepared.py compares
# each with its queryset.
_TABLE = PreparedQuery(_table_query, table=int)
_MARK = PreparedQuery(_mark_query, day=date, table=int)
_ROUNDS = PreparedQuery(_rounds_query, day=date, table=int)
_LINES = PreparedQuery(_lines_query, day=date, table=int)
_CONTRIBUTIONS = PreparedQuery(_contributions_query, day=date, table=int)
_HANDS = PreparedQuery(_hands_query, day=date, table=int)


@transaction.atomic
def rebuild(day: date, table_id: int, *, only_if_marked: bool = False) -> int:
    """Rebuild the (day, table) summaries from the rounds; returns how many rows were written.

    `only_if_marked` (a settled round's own rebuild): nothing to do, 0, when the (day, table)
    is no longer marked stale: a rebuild since its round committed covered it (a backlog of a
    table's rebuilds, e.g. after the worker was down, costs one rebuild, not one a round)."""
    # One rebuild of a table at a time (two at once would race on the summary key).
    lock_table_rebuild(table_id)
    # The mark is read, not locked: a round settled from here on bumps its version (in the
    # round's own transaction), so the version-checked delete below leaves the mark and that
    # round's rebuild follows this one. Every round this rebuild may have missed is marked.
    mark = _MARK.first(day=day, table=table_id)
    if mark is None and only_if_marked:
        return 0
    _constraints_now()
    table = _TABLE.first(table=table_id)
    seen_version = mark.version if mark else None
    rows: dict[Key, dict[str, Any]] = defaultdict(
        lambda: {
            "rounds": 0,
            "hands": 0,
            "handle_cents": 0,
            "handle_by_wager": {},
            "win_cents": 0,
            "progressive_contributions_cents": 0,
            "jackpots_paid_cents": 0,
            "voids": 0,
            "voided_handle_cents": 0,
            "corrections": 0,
            "pvp_hands": 0,
            "pots_cents": 0,
            "rake_cents": 0,
        }
    )
    game = ""
    rounds_win = 0  # the banked rounds' win, for the band
    for r in _ROUNDS.values(day=day, table=table_id):
        game = r["game"]
        row = rows[(r["paytable_version"], None, r["dealer"], r["shift"])]
        if r["status"] == Round.Status.SETTLED:
            row["rounds"] += r["n"]
            row["handle_cents"] += r["handle"] or 0
            row["win_cents"] += -(r["net"] or 0)
            rounds_win += -(r["net"] or 0)
            row["corrections"] += r["corrections"]
        else:
            row["voids"] += r["n"]
            row["voided_handle_cents"] += r["handle"] or 0
    for line in _LINES.values(day=day, table=table_id):
        row = rows[
            (line["round__paytable_version"], None, line["round__dealer"], line["round__shift"])
        ]
        row["handle_by_wager"][line["wager"]] = line["stake"]
        if line["wager"] == "ante":
            row["hands"] += line["n"]
        row["jackpots_paid_cents"] += line["jackpot"] or 0
    for entry in _CONTRIBUTIONS.values(day=day, table=table_id):
        key = (
            entry["round__paytable_version"],
            None,
            entry["round__dealer"],
            entry["round__shift"],
        )
        rows[key]["progressive_contributions_cents"] += entry["total"]
    for h in _HANDS.values(day=day, table=table_id):
        game = h["game"]
        row = rows[(None, h["settings_version"], h["dealer"], h["shift"])]
        if h["status"] == Hand.Status.FINISHED:
            row["pvp_hands"] += h["n"]
            row["pots_cents"] += h["pots"] or 0
            row["rake_cents"] += h["rake"] or 0
            row["win_cents"] += h["rake"] or 0
        else:
            row["voids"] += h["n"]
    now = timezone.now()
    HoldSummary.objects.filter(gaming_day=day, table_id=table_id).delete()
    HoldSummary.objects.bulk_create(
        [
            HoldSummary(
                gaming_day=day,
                table_id=table_id,
                game=game,
                paytable_version_id=version,
                settings_version_id=settings_version,
                dealer_id=dealer,
                shift=shift,
                computed_at=now,
                **figures,
            )
            for (version, settings_version, dealer, shift), figures in rows.items()
        ]
    )
    # On the chain when the win left its band: read first, written last (after the mark, as
    # a settle writes its mark before its event), so the mark's row and the chain's head stay
    # locked only to the commit.
    outside = outside_band(day=day, table=table, win=rounds_win) if table is not None else None
    if mark is not None:
        StaleReport.objects.filter(pk=mark.pk, version=seen_version).delete()
    if outside is not None and table is not None:
        record_outside_band(day=day, table=table, found=outside)
    return len(rows)


def rebuild_stale() -> int:
    """Rebuild every stale (day, table); returns how many were rebuilt."""
    done = 0
    for day, table_id in StaleReport.objects.values_list("gaming_day", "table_id"):
        rebuild(day, table_id)
        done += 1
    return done


def rebuild_day(day: date) -> int:
    """Rebuild every table's summaries for a gaming day (the closed-day job, idempotent)."""
    tables = set(
        Round.objects.filter(gaming_day=day)
        .order_by()
        .values_list("table_id", flat=True)
        .distinct()
    )
    tables |= set(
        Hand.objects.filter(gaming_day=day).order_by().values_list("table_id", flat=True).distinct()
    )
    tables |= set(HoldSummary.objects.filter(gaming_day=day).values_list("table_id", flat=True))
    for table_id in sorted(tables):
        rebuild(day, table_id)
    return len(tables)
