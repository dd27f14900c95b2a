"""Hold reports: what the tables kept of what was wagered.

Summaries are derived data, kept up to date with the rounds for one (gaming day, table) at a
time by `rebuild` — so a re-run, a duplicate delivery or a retry after a killed worker changes
nothing. A settled, voided or corrected round marks its (day, table) stale in its own
transaction (`mark_stale`) and asks Celery for a rebuild once committed (in a request, once its
answer is written: `core.after_response`); if the broker is down the mark stays and the
periodic catch-up job rebuilds it later. A newly settled round also waits in PendingRound, and
while only such rounds marked the report the rebuild adds just them to the summaries (a fold,
whose cost does not grow with the day); any other change sums the day again.

After each rebuild the table's actual win is checked against its theoretical band
(`theory.outside_band`, recorded on the audit chain when it left it).

Figures: handle = every stake settled (every wager's); hands = the seats' hands played (each
game's `hand_wager` lines); win = the house's win (minus the players' net); hold % = win /
handle. Voided rounds leave handle
and win and are counted as voids; a correction counts on the day of the round it corrects.

Player-vs-player hands (poker-room games) are summed beside the rounds, under their table
settings version: `pvp_hands` finished, `pots_cents` in their pots, `rake_cents` taken. The
rake is the house's win on them (it is in `win_cents`); they have no handle, so the hold % is
the banked games' alone (win less rake over handle). A voided hand leaves them and is a void.
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from casino.enqueue import enqueue
from core.after_response import after_response
from core.money import dollars
from core.prepared import PreparedQuery
from tables import games
from tables.models import Hand, MeterEntry, Round, SettlementLine, Table

from .models import HoldSummary, PendingRound, StaleReport
from .theory import outside_band, record_outside_band

log = logging.getLogger(__name__)


def mark_stale(round_: Round | Hand, *, settled: bool = False) -> None:
    """Within the round's (or hand's) transaction: its (day, table) report must be rebuilt.

    `settled`: a round newly settled (not a void or a correction): it waits in PendingRound
    for the rebuild to add it to the summaries (a fold); any other change asks the rebuild to
    sum the day again (the mark's `full`)."""
    if round_.gaming_day is None:
        return
    day, table_id = round_.gaming_day, round_.table_id
    fold = settled and isinstance(round_, Round)
    ops = connection.ops
    table = ops.quote_name(StaleReport._meta.db_table)
    with connection.cursor() as cursor:
        if fold:
            cursor.execute(
                f"INSERT INTO {ops.quote_name(PendingRound._meta.db_table)} "
                "(round_id, gaming_day, table_id) VALUES (%s, %s, %s)",
                [round_.pk, ops.adapt_datefield_value(day), table_id],
            )
        # One upsert (a rebuild deletes the mark, so most rounds insert it again); once full,
        # the mark stays full until a rebuild that summed the day clears it.
        full = ops.quote_name("full")
        cursor.execute(
            f"INSERT INTO {table} (gaming_day, table_id, version, marked_at, {full}) "
            "VALUES (%s, %s, 1, %s, %s) ON CONFLICT (gaming_day, table_id) "
            f"DO UPDATE SET version = {table}.version + 1, "
            f"{full} = {table}.{full} OR excluded.{full}",
            [
                ops.adapt_datefield_value(day),
                table_id,
                ops.adapt_datetimefield_value(timezone.now()),
                not fold,
            ],
        )
    # Once committed, and in a request once its answer is written: the dealer's payout does not
    # wait for the report (core.after_response).
    transaction.on_commit(lambda: after_response(lambda: request_rebuild(day, table_id)))


# The rebuild's Celery task, sent by name: `reports.tasks` imports this module to call it.
REFRESH_TASK = "reports.tasks.refresh_hold_report"


def request_rebuild(day: date, table_id: int) -> None:
    """Send the rebuild to the workers; with the broker down, the stale mark waits (with no
    broker, Celery's tasks run in-process: the rebuild runs here)."""
    # At most about CELERY_ENQUEUE_TIMEOUT (100 ms) when the broker is down.
    enqueue(REFRESH_TASK, day.isoformat(), table_id, only_if_marked=True)


# Below this handle (or drop) the pages write a hold % as "n/a (handle $X)", not as a figure:
# one jackpot or one big loss on a few dollars reads thousands of percent (README: the hold %
# on a small handle). The figure itself stays in the summaries, the CSV and the API.
HOLD_MIN_BASE_CENTS = 1000_00


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


# The rebuild's reads. A full rebuild sums the (day, table)'s rounds less those still waiting in
# PendingRound (settled after it claimed the waiting ones: the next fold adds them); a fold sums
# only the rounds of its batch. The same figures either way (`_figures`).
def _scope_full(day: date, table: int, path: str = "") -> dict[str, Any]:
    return {
        f"{path}gaming_day": day,
        f"{path}table_id": table,
        f"{path}report_pending__isnull": True,
    }


def _scope_batch(batch: int, path: str = "") -> dict[str, Any]:
    return {f"{path}report_pending__batch": batch}


def _round_figures(rounds: Any) -> Any:
    return (
        rounds.exclude(status=Round.Status.OPEN)
        .values("paytable_version", "dealer", "shift", "status", "game")
        .annotate(
            n=Count("id"),
            handle=Sum("handle_cents"),
            net=Sum("players_net_cents"),
            corrections=Count("id", filter=Q(corrects__isnull=False)),
        )
    )


def _line_figures(lines: Any) -> Any:
    """Per round and wager of settled rounds' lines: the stake (all seats), lines, jackpots
    paid and the seats' stakes squared; `_lines_sql` sums them per summary key."""
    return (
        lines.filter(round__status=Round.Status.SETTLED)
        .values("round", "round__paytable_version", "round__dealer", "round__shift", "wager")
        .annotate(
            stake=Sum("stake_cents"),
            n=Count("id"),
            jackpot=Sum(F("net_cents") + F("stake_cents"), filter=Q(award="jackpot")),
            square=Sum(F("stake_cents") * F("stake_cents")),
        )
        .order_by()
    )


def _contribution_figures(entries: Any) -> Any:
    """The contributions of settled rounds (a void takes its round's back off the meter)."""
    return (
        entries.filter(kind=MeterEntry.Kind.CONTRIBUTION, round__status=Round.Status.SETTLED)
        .values("round__paytable_version", "round__dealer", "round__shift")
        .annotate(total=Sum("amount_cents"))
    )


def _rounds_query(day: date, table: int) -> Any:
    return _round_figures(Round.objects.filter(**_scope_full(day, table)))


def _lines_query(day: date, table: int) -> Any:
    return _line_figures(SettlementLine.objects.filter(**_scope_full(day, table, "round__")))


def _contributions_query(day: date, table: int) -> Any:
    return _contribution_figures(MeterEntry.objects.filter(**_scope_full(day, table, "round__")))


def _rounds_batch_query(batch: int) -> Any:
    return _round_figures(Round.objects.filter(**_scope_batch(batch)))


def _lines_batch_query(batch: int) -> Any:
    return _line_figures(SettlementLine.objects.filter(**_scope_batch(batch, "round__")))


def _contributions_batch_query(batch: int) -> Any:
    return _contribution_figures(MeterEntry.objects.filter(**_scope_batch(batch, "round__")))


def _hands_query(day: date, table: int) -> Any:
    return (
        Hand.objects.filter(gaming_day=day, table_id=table)
        .exclude(status=Hand.Status.OPEN)
        .values("settings_version", "dealer", "shift", "status", "game")
        .annotate(n=Count("id"), pots=Sum("pot_cents"), rake=Sum("rake_cents"))
    )


def _summaries_query(day: date, table: int) -> Any:
    return HoldSummary.objects.filter(gaming_day=day, table_id=table)


# A rebuild follows every settled round (on the worker, or in-process without a broker): its
# reads are compiled once (core.prepared); tests/reports/test_rebuild_prepared.py compares
# each with its queryset.
_TABLE = PreparedQuery(_table_query, table=int)
_MARK = PreparedQuery(_mark_query, day=date, table=int)
_ROUNDS = PreparedQuery(_rounds_query, day=date, table=int)
_LINES = PreparedQuery(_lines_query, day=date, table=int)
_CONTRIBUTIONS = PreparedQuery(_contributions_query, day=date, table=int)
_HANDS = PreparedQuery(_hands_query, day=date, table=int)
_ROUNDS_BATCH = PreparedQuery(_rounds_batch_query, batch=int)
_LINES_BATCH = PreparedQuery(_lines_batch_query, batch=int)
_CONTRIBUTIONS_BATCH = PreparedQuery(_contributions_batch_query, batch=int)
_SUMMARIES = PreparedQuery(_summaries_query, day=date, table=int)

_LINE_KEYS = ("round__paytable_version", "round__dealer", "round__shift", "wager")


def _lines_sums(prepared: PreparedQuery, **values: Any) -> list[dict[str, Any]]:
    """`_line_figures` summed per (paytable version, dealer, shift, wager), with the sum over
    rounds of the round's stake squared: a handful of rows, whatever the number of rounds."""
    inner, params = prepared.sql(**values)
    keys = ", ".join(f"per_round.{connection.ops.quote_name(k)}" for k in _LINE_KEYS)
    sql = (
        f"SELECT {keys}, SUM(per_round.stake), SUM(per_round.n), SUM(per_round.jackpot), "
        "SUM(per_round.square), SUM(per_round.stake * per_round.stake) "
        f"FROM ({inner}) per_round GROUP BY {keys}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    names = (*_LINE_KEYS, "stake", "n", "jackpot", "square", "round_square")
    out = []
    for row in rows:
        line = dict(zip(names, row, strict=True))
        for name in ("stake", "n", "square", "round_square"):
            line[name] = int(line[name])
        line["jackpot"] = None if line["jackpot"] is None else int(line["jackpot"])
        out.append(line)
    return out


# The summaries' summed figures (the selectors sum the same over any range of days).
FIGURES = (
    "rounds",
    "hands",
    "handle_cents",
    "win_cents",
    "progressive_contributions_cents",
    "jackpots_paid_cents",
    "voids",
    "voided_handle_cents",
    "corrections",
    "pvp_hands",
    "pots_cents",
    "rake_cents",
)


def _empty() -> dict[str, Any]:
    return {**{f: 0 for f in FIGURES}, "handle_by_wager": {}, "theory_sums": {}, "game": ""}


def _figures(
    rounds: list[dict[str, Any]],
    lines: list[dict[str, Any]],
    contributions: list[dict[str, Any]],
    hands: list[dict[str, Any]],
) -> dict[Key, dict[str, Any]]:
    """The summaries' figures per key from the aggregates' rows (a key's rounds come before
    its lines: the rounds name the game, whose `hand_wager` counts the hands)."""
    rows: dict[Key, dict[str, Any]] = defaultdict(_empty)
    wagers: dict[str, str] = {}

    def hand_wager(game: str) -> str:
        if game not in wagers:
            wagers[game] = games.banked(game).hand_wager
        return wagers[game]

    for r in rounds:
        row = rows[(r["paytable_version"], None, r["dealer"], r["shift"])]
        row["game"] = r["game"]
        if r["status"] == Round.Status.SETTLED:
            row["rounds"] += r["n"]
            row["handle_cents"] += r["handle"] or 0
            row["win_cents"] += -(r["net"] or 0)
            row["corrections"] += r["corrections"]
        else:
            row["voids"] += r["n"]
            row["voided_handle_cents"] += r["handle"] or 0
    for line in lines:
        key = (line["round__paytable_version"], None, line["round__dealer"], line["round__shift"])
        row = rows[key]
        row["handle_by_wager"][line["wager"]] = line["stake"]
        row["theory_sums"][line["wager"]] = [line["stake"], line["square"], line["round_square"]]
        if line["wager"] == hand_wager(row["game"]):  # a seat's hand: its one line of that
            row["hands"] += line["n"]
        row["jackpots_paid_cents"] += line["jackpot"] or 0
    for entry in contributions:
        version, dealer, shift = (
            entry[f"round__{k}"] for k in ("paytable_version", "dealer", "shift")
        )
        rows[(version, None, dealer, shift)]["progressive_contributions_cents"] += entry["total"]
    for h in hands:
        row = rows[(None, h["settings_version"], h["dealer"], h["shift"])]
        row["game"] = h["game"]
        if h["status"] == Hand.Status.FINISHED:
            row["pvp_hands"] += h["n"]
            row["pots_cents"] += h["pots"] or 0
            row["rake_cents"] += h["rake"] or 0
            row["win_cents"] += h["rake"] or 0
        else:
            row["voids"] += h["n"]
    return rows


def _key(summary: HoldSummary) -> Key:
    return (
        summary.paytable_version_id,
        summary.settings_version_id,
        summary.dealer_id,
        summary.shift,
    )


def _summary(day: date, table_id: int, key: Key, now: Any, figures: dict[str, Any]) -> HoldSummary:
    """A summary row of the (day, table) for `key` with these figures (unsaved)."""
    version, settings_version, dealer, shift = key
    return HoldSummary(
        gaming_day=day,
        table_id=table_id,
        paytable_version_id=version,
        settings_version_id=settings_version,
        dealer_id=dealer,
        shift=shift,
        computed_at=now,
        **figures,
    )


def _add(summary: HoldSummary, figures: dict[str, Any]) -> None:
    """Add a fold's figures to a summary row (sums: a round counted once adds once)."""
    for f in FIGURES:
        setattr(summary, f, getattr(summary, f) + figures[f])
    by_wager = dict(summary.handle_by_wager)
    for wager, stake in figures["handle_by_wager"].items():
        by_wager[wager] = by_wager.get(wager, 0) + stake
    summary.handle_by_wager = by_wager
    sums = {w: list(v) for w, v in summary.theory_sums.items()}
    for wager, added in figures["theory_sums"].items():
        sums[wager] = [a + b for a, b in zip(sums.get(wager, [0, 0, 0]), added, strict=True)]
    summary.theory_sums = sums
    if figures["game"]:
        summary.game = figures["game"]


@contextmanager
def _planned_each_time() -> Iterator[None]:
    """PostgreSQL plans the fold's reads for their batch each time, not once for any batch
    (psycopg's prepared statements): a plan kept from a morning's few rounds, before the
    tables' statistics are gathered, reads every round of the day, where planned for the batch
    it reads its few rows (figures in docs/benchmarks.md)."""
    raw = getattr(connection.connection, "prepare_threshold", False)
    if raw is False:  # not psycopg (SQLite)
        yield
        return
    connection.connection.prepare_threshold = None
    try:
        yield
    finally:
        connection.connection.prepare_threshold = raw


@transaction.atomic
def rebuild(day: date, table_id: int, *, only_if_marked: bool = False, full: bool = False) -> int:
    """Bring the (day, table) summaries up to date with its rounds; returns how many summary
    rows were written.

    With a stale mark that only newly settled rounds made (not `full`), the rounds waiting in
    PendingRound are added to the summaries (a fold: its cost is that of the rounds it adds,
    not of the day). Otherwise, or with `full`, the summaries are summed again from the day's
    rounds and hands.

    `only_if_marked` (a settled round's own rebuild): nothing to do, 0, when the (day, table)
    is no longer marked stale: a rebuild since its round committed covered it (a backlog of a
    table's rebuilds, e.g. after the worker was down, costs one rebuild, not one a round)."""
    # One rebuild of a table at a time (two at once would race on the summary key and on the
    # waiting rounds they claim).
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
    existing = {_key(s): s for s in _SUMMARIES.all(day=day, table=table_id)}
    # A summary written before the sums for the band were kept has none: the day is summed again.
    fold = (
        not full
        and mark is not None
        and not mark.full
        and all(s.theory_sums or not s.rounds for s in existing.values())
    )
    now = timezone.now()
    pending = connection.ops.quote_name(PendingRound._meta.db_table)
    if fold:
        # Claim the rounds waiting now (committed); one settled from here waits for the next.
        batch = secrets.randbits(62) + 1
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {pending} SET batch = %s WHERE gaming_day = %s AND table_id = %s",
                [batch, connection.ops.adapt_datefield_value(day), table_id],
            )
        with _planned_each_time():
            added = _figures(
                _ROUNDS_BATCH.values(batch=batch),
                _lines_sums(_LINES_BATCH, batch=batch),
                _CONTRIBUTIONS_BATCH.values(batch=batch),
                [],
            )
        written = []
        for key, figures in added.items():
            summary = existing.get(key)
            if summary is None:
                summary = _summary(day, table_id, key, now, {**_empty(), "game": figures["game"]})
                existing[key] = summary
            _add(summary, figures)
            summary.computed_at = now
            written.append(summary)
        for summary in written:
            summary.save()
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {pending} WHERE batch = %s", [batch])
        summaries = list(existing.values())
    else:
        # Every waiting round is counted by this sum (the queries leave out only the rounds
        # still waiting: those settled after this delete, for the next fold).
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {pending} WHERE gaming_day = %s AND table_id = %s",
                [connection.ops.adapt_datefield_value(day), table_id],
            )
        rows = _figures(
            _ROUNDS.values(day=day, table=table_id),
            _lines_sums(_LINES, day=day, table=table_id),
            _CONTRIBUTIONS.values(day=day, table=table_id),
            _HANDS.values(day=day, table=table_id),
        )
        HoldSummary.objects.filter(gaming_day=day, table_id=table_id).delete()
        summaries = HoldSummary.objects.bulk_create(
            [_summary(day, table_id, key, now, figures) for key, figures in rows.items()]
        )
        written = summaries
    # The table's win (the rounds' and the hands' rake) and the rounds' sums, for the band.
    table_win = sum(s.win_cents for s in summaries)
    sums: dict[tuple[str, int, str], list[int]] = {}
    for s in summaries:
        if s.paytable_version_id is None:
            continue
        for wager, values in s.theory_sums.items():
            key = (s.game, s.paytable_version_id, wager)
            sums[key] = [a + b for a, b in zip(sums.get(key, [0, 0, 0]), values, strict=True)]
    # On the chain when the win left its band: read first, written last (after the mark, as
    # a settle writes its mark before its event), so the mark's row and the chain's head stay
    # locked only to the commit.
    outside = (
        outside_band(day=day, table=table, win=table_win, sums=sums) if table is not None else None
    )
    if mark is not None:
        StaleReport.objects.filter(pk=mark.pk, version=seen_version).delete()
    if outside is not None and table is not None:
        record_outside_band(day=day, table=table, found=outside)
    return len(written)


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
        rebuild(day, table_id, full=True)
    return len(tables)


def summary_problems() -> list[str]:
    """Every hold summary summed again from its (gaming day, table)'s rounds and hands, as a
    full rebuild sums them; one line per summary that says otherwise, one that is missing and
    one that no round or hand accounts for. A (day, table) waiting for its rebuild (marked
    stale, or with newly settled rounds not yet added) is left to that rebuild."""
    waiting = set(StaleReport.objects.values_list("gaming_day", "table_id"))
    waiting |= set(PendingRound.objects.values_list("gaming_day", "table_id"))
    scopes = set(HoldSummary.objects.values_list("gaming_day", "table_id").distinct())
    for model in (Round, Hand):
        scopes |= set(
            # An open round or hand has no gaming day yet, nor has a cancelled (misdealt) one:
            # neither counts in any summary.
            model.objects.filter(gaming_day__isnull=False)
            .exclude(status="open")
            .order_by()
            .values_list("gaming_day", "table_id")
            .distinct()
        )
    names = dict(Table.objects.values_list("id", "name"))
    dealers = dict(get_user_model().objects.values_list("id", "username"))
    problems: list[str] = []
    for day, table_id in sorted(scopes - waiting):
        summed = _figures(
            _ROUNDS.values(day=day, table=table_id),
            _lines_sums(_LINES, day=day, table=table_id),
            _CONTRIBUTIONS.values(day=day, table=table_id),
            _HANDS.values(day=day, table=table_id),
        )
        stored = {_key(s): s for s in _SUMMARIES.all(day=day, table=table_id)}
        where = f"hold report of {names.get(table_id, f'table {table_id}')} on {day}"
        for key in sorted(set(summed) | set(stored), key=str):
            row, figures = stored.get(key), summed.get(key)
            if row is None:
                _version, _settings, dealer, shift = key
                problems.append(
                    f"{HoldSummary._meta.db_table}: {where}: the summary of "
                    f"{dealers.get(dealer, 'no dealer')}'s {shift} shift is missing"
                )
                continue
            label = f"{HoldSummary._meta.db_table} id {row.pk} ({where})"
            if figures is None:
                problems.append(f"{label}: no round or hand accounts for it")
                continue
            for name in (*FIGURES, "handle_by_wager", "theory_sums", "game"):
                held, said = getattr(row, name), figures[name]
                if held != said:
                    if name.endswith("_cents"):
                        held, said = dollars(held), dollars(said)
                    what = name.removesuffix("_cents").replace("_", " ")
                    problems.append(f"{label}: {what} is {held}, its rounds and hands say {said}")
    return problems
