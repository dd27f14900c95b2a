"""`manage.py seed_history --rounds N --days D [--tables T] [--seed S] [--jobs J] [--rebuild]
[--strategy NAME] [--slips [--shortage DOLLARS]]`:
a synthetic history of settled rounds, fast, for the hold reports, the dashboard and their
benchmark (only with DEBUG on, on top of `seed_demo`'s floor).

Each round is a random legal round (`tables.engine.simulate.random_round`; the players play
`--strategy`, a named strategy of `tables.engine.strategies`, or without it the simulator's own
mix) with its wagers chosen within the table's paytable limits (as `tables.simulation` does),
settled by the engine under the table's approved paytable version, and inserted directly as
settled (or, now and then, voided) with its settlement lines: PostgreSQL gets them by COPY,
other databases by batched INSERTs, one transaction per batch. The services are bypassed on
purpose: the history is synthetic, so its rounds are put on the record only as seeded history
(`record.history_seeded` events that bind the rows, so `verify_audit` checks them), it does not
move or log the progressive meter (a progressive game's rounds are settled against the meter's
current settings, the meter stays as it is, and the reports show no progressive contributions
for these rounds), and signs no dealer in.

Rounds are spread evenly (with jitter) over the last D gaming days up to now, across every
shift; dealers rotate between tables every hour. Each (gaming day, table) written is marked
stale in the batch's transaction, so the catch-up job, `hold_report --day` or `--rebuild`
builds the reports.

`--slips` adds the pit's slips of every (gaming day, table, shift) written, consistent with its
rounds (`accounting.simulation.seed_slips`: opener, buy-ins, fills, credits, closer, drop,
signed by the demo staff; the next opener is the last closer); `--shortage DOLLARS` takes
chips from one closer, chosen by the seed and named in the output, so the reconciliation shows
a variance and its alert. A shift that already has slips (a second run) gets none.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from itertools import chain
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from audit.kinds import EventKind
from audit.services import audit_record, bind_rows
from core.roles import Role
from reports.models import StaleReport
from tables import games
from tables.engine import contract
from tables.engine.errors import EngineError
from tables.engine.money import format_cents, parse_cents
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig
from tables.engine.strategies import STRATEGY_NAMES
from tables.gaming_day import day_bounds, gaming_day_of, shift_of
from tables.management.commands.seed_demo import demo_tables, paytable_name
from tables.models import PaytableVersion, Pit, Round, SettlementLine, Table
from tables.selectors import engine_paytable, meter_config
from tables.simulation import STAKES_CENTS

VOID_RATE = 0.001  # about one round in a thousand is voided
VOID_REASONS = (
    "synthetic history: misdeal",
    "synthetic history: card exposed before the deal",
    "synthetic history: wrong wager entered",
)
ROUND_SECONDS = (40.0, 150.0)  # from the round's opening to its settlement
PROGRESS_SECONDS = 5.0

# The columns written, by attname; `id` is assigned by the writer.
ROUND_FIELDS = (
    "table_id",
    "number",
    "dealer_id",
    "paytable_version_id",
    "game",
    "status",
    "entry",
    "house_way",
    "settlement",
    "idempotency_key",
    "handle_cents",
    "players_net_cents",
    "opened_at",
    "settled_at",
    "corrects_id",
    "gaming_day",
    "shift",
    "voided_at",
    "voided_by_id",
    "void_reason",
    "approval_reasons",
    "cancel_reason",
)
# A line's first value is its round's index in the batch; the writer puts the round id there.
LINE_FIELDS = (
    "round_id",
    "seat",
    "wager",
    "stake_cents",
    "result",
    "net_cents",
    "breakage",
    "award",
    "odds",
)


@dataclass(frozen=True)
class TablePlan:
    id: int
    name: str
    game: str
    version_id: int
    limits: dict[str, Any]
    seats: int
    meter_wager_cents: int | None
    meter: MeterConfig | None  # the table's progressive meter as it is now (never moved here)
    first_number: int  # the history's first round number at this table
    rounds: int


@dataclass(frozen=True)
class Plan:
    """Everything a batch needs, fixed before the first one (workers inherit it by fork)."""

    seed: int
    total: int
    start: datetime
    end: datetime
    tables: tuple[TablePlan, ...]
    dealer_ids: tuple[int, ...]
    pit_boss_id: int
    paytables: dict[int, Paytable]
    strategy: str | None = None  # the players' named strategy; None: the simulator's mix


@dataclass
class Batch:
    rounds: list[tuple[Any, ...]] = field(default_factory=list)
    lines: list[tuple[Any, ...]] = field(default_factory=list)
    stale: set[tuple[date, int]] = field(default_factory=set)
    voids: int = 0


def _stake(rng: random.Random, limits: dict[str, Any], wager: str) -> str:
    """A round stake within the version's limits (as `tables.simulation` chooses them)."""
    lim = limits.get(wager, {"min_cents": 100, "max_cents": 10**9})
    options = [c for c in STAKES_CENTS if lim["min_cents"] <= c <= lim["max_cents"]]
    return format_cents(rng.choice(options or [lim["min_cents"]]))


def round_entry(
    rng: random.Random, table: TablePlan, strategy: str | None = None
) -> dict[str, Any]:
    """A random legal round at `table` in the contract's input form, wagers within limits,
    the players playing `strategy` (None: the simulator's own mix)."""
    game = games.banked(table.game)
    data = game.random_round(rng, None, strategy=strategy)
    meter_wager = (
        format_cents(table.meter_wager_cents) if table.meter_wager_cents is not None else None
    )

    def stake(wager: str) -> str:
        return _stake(rng, table.limits, wager)

    data.pop("paytable", None)  # the table's pinned version settles it
    data.pop("progressive", None)  # the table's meter, not a made-up one
    seats = [s for s in data["seats"] if s["seat"] <= table.seats] or data["seats"][:1]
    for seat in seats:
        seat["seat"] = min(seat["seat"], table.seats)
        game.simulated_entry_seat(seat, stake, meter_wager)
    data["seats"] = seats
    return data


def _breakage(cents: Fraction) -> Decimal:
    """The line's breakage in units, as `tables.services.rounds.settlement_lines` has it."""
    if not cents:
        return Decimal(0)
    value = cents / 100
    return Decimal(value.numerator) / Decimal(value.denominator)


def build_batch(plan: Plan, index: int, first: int, count: int) -> Batch:
    """Rounds `first` .. `first + count - 1` of the history, settled, as rows to insert.

    Round g is the (g // T)-th round at table g % T, so the rows go in time order across the
    floor; the batch's random state depends only on the seed and the batch, not on `--jobs`.
    """
    rng = random.Random(f"{plan.seed}/{index}")
    tables = plan.tables
    span = (plan.end - plan.start).total_seconds()
    batch = Batch()
    dumps = json.dumps
    for g in range(first, first + count):
        t, k = g % len(tables), g // len(tables)
        table = tables[t]
        data = round_entry(rng, table, plan.strategy)
        try:
            settlement = contract.settle(
                data,
                paytable=plan.paytables[table.version_id],
                meter=table.meter,
            )
        except EngineError as err:  # every generated round is legal: a bug, not bad luck
            raise CommandError(f"the engine refused {dumps(data)}: {err.message}") from None
        settled_at = plan.start + timedelta(seconds=span * (k + rng.random()) / table.rounds)
        opened_at = settled_at - timedelta(seconds=rng.uniform(*ROUND_SECONDS))
        hour = int((settled_at - plan.start).total_seconds() // 3600)
        dealer_id = plan.dealer_ids[(t + hour) % len(plan.dealer_ids)]
        row_index = len(batch.rounds)
        handle = 0
        for seat in settlement.seats:
            for line in seat.lines:
                handle += line.stake_cents
                batch.lines.append(
                    (
                        row_index,
                        seat.seat,
                        line.wager,
                        line.stake_cents,
                        line.result.value,
                        line.net_cents,
                        _breakage(line.breakage),
                        line.award or "",
                        str(line.odds) if line.odds is not None else "",
                    )
                )
        voided = rng.random() < VOID_RATE
        voided_at = None
        if voided:
            voided_at = min(settled_at + timedelta(minutes=rng.uniform(1, 20)), plan.end)
            batch.voids += 1
        gaming_day = gaming_day_of(settled_at)
        entry = {
            **data,
            "decided": [s["seat"] for s in data["seats"]],
            "dealer_done": True,
        }
        batch.rounds.append(
            (
                table.id,
                table.first_number + k,
                dealer_id,
                table.version_id,
                table.game,
                Round.Status.VOIDED.value if voided else Round.Status.SETTLED.value,
                dumps(entry),
                "{}",
                dumps(contract.settlement_to_json(settlement)),
                None,
                handle,
                settlement.net_cents,
                opened_at,
                settled_at,
                None,
                gaming_day,
                shift_of(settled_at),
                voided_at,
                plan.pit_boss_id if voided else None,
                rng.choice(VOID_REASONS) if voided else "",
                "[]",
                "",
            )
        )
        batch.stale.add((gaming_day, table.id))
    return batch


# --- writers ------------------------------------------------------------------------------


class Writer:
    """Inserts a batch's rounds (ids assigned here) and lines, in the caller's transaction."""

    def round_ids(self, count: int) -> list[int]:
        raise NotImplementedError

    def insert(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    def write(self, batch: Batch) -> list[int]:
        """Lines first (their foreign key is checked at commit), then the rounds: the database
        checks a round inserted closed against the lines already there. Returns the rounds'
        ids."""
        ids = self.round_ids(len(batch.rounds))
        self.insert(
            SettlementLine._meta.db_table,
            _columns(SettlementLine, LINE_FIELDS),
            [(ids[line[0]], *line[1:]) for line in batch.lines],
        )
        self.insert(
            Round._meta.db_table,
            ("id", *_columns(Round, ROUND_FIELDS)),
            [(ids[i], *row) for i, row in enumerate(batch.rounds)],
        )
        return ids


def _columns(model: Any, attnames: tuple[str, ...]) -> tuple[str, ...]:
    by_attname = {f.attname: f.column for f in model._meta.concrete_fields}
    return tuple(by_attname[a] for a in attnames)


class CopyWriter(Writer):
    """PostgreSQL: ids from the table's sequence, rows by COPY (text format)."""

    def round_ids(self, count: int) -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [Round._meta.db_table, count],
            )
            return [row[0] for row in cursor.fetchall()]

    def insert(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        from psycopg import sql

        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
        )
        with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)


class InsertWriter(Writer):
    """Any other database (SQLite): ids after the highest, batched INSERTs."""

    def __init__(self) -> None:
        self.next_id = (Round.objects.aggregate(m=Max("id"))["m"] or 0) + 1

    def round_ids(self, count: int) -> list[int]:
        first, self.next_id = self.next_id, self.next_id + count
        return list(range(first, first + count))

    def insert(self, table: str, columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> None:
        ops = connection.ops
        adapt = {
            "opened_at": ops.adapt_datetimefield_value,
            "settled_at": ops.adapt_datetimefield_value,
            "voided_at": ops.adapt_datetimefield_value,
            "gaming_day": ops.adapt_datefield_value,
            "breakage": lambda v: ops.adapt_decimalfield_value(v, 12, 8),
        }
        converters = [adapt.get(c) for c in columns]
        prepared = [
            [
                v if conv is None or v is None else conv(v)
                for conv, v in zip(converters, row, strict=True)
            ]
            for row in rows
        ]
        quote = ops.quote_name
        statement = "INSERT INTO {} ({}) VALUES ({})".format(
            quote(table), ", ".join(map(quote, columns)), ", ".join(["%s"] * len(columns))
        )
        with connection.cursor() as cursor:
            cursor.executemany(statement, prepared)


def bind_history(ids: list[int], seed: int) -> None:
    """Put the batch's rounds and lines on the record as synthetic history (one event per
    `audit.services.ROWS_PER_EVENT` rows), so that `verify_audit` checks them like any other."""
    rounds = Round.objects.filter(pk__in=ids).order_by("pk")
    lines = SettlementLine.objects.filter(round_id__in=ids).order_by("pk")
    bind_rows(
        chain(rounds.iterator(), lines.iterator()),
        kind=EventKind.HISTORY_SEEDED,
        actor_name="seed_history",
        data={"seed": seed, "synthetic": True},
    )


def mark_stale(pairs: set[tuple[date, int]]) -> None:
    """Mark each (gaming day, table) stale, as `reports.reporting.mark_stale` does for a round
    (without asking the workers: the catch-up job or `--rebuild` picks them up)."""
    if not pairs:
        return
    marks = StaleReport.objects.filter(gaming_day__in={day for day, _table in pairs})
    existing = set(marks.values_list("gaming_day", "table_id")) & pairs
    if existing:
        which = Q()
        for day, table_id in existing:
            which |= Q(gaming_day=day, table_id=table_id)
        marks.filter(which).update(version=F("version") + 1)
    StaleReport.objects.bulk_create(
        [StaleReport(gaming_day=day, table_id=table_id) for day, table_id in pairs - existing],
        ignore_conflicts=True,
    )


# --- batches, in this process or in worker processes --------------------------------------

_PLAN: Plan | None = None  # set before the workers fork


def _build_in_worker(spec: tuple[int, int, int]) -> Batch:
    assert _PLAN is not None
    return build_batch(_PLAN, *spec)


def batches(plan: Plan, batch_size: int, jobs: int) -> Iterator[Batch]:
    """The history's batches in order; with jobs > 1 built by forked worker processes, at
    most two batches per worker ahead of the writer."""
    specs = [
        (i, first, min(batch_size, plan.total - first))
        for i, first in enumerate(range(0, plan.total, batch_size))
    ]
    if jobs <= 1:
        for spec in specs:
            yield build_batch(plan, *spec)
        return
    global _PLAN
    _PLAN = plan
    # The forked workers only compute (build_batch reads the plan, never the database) and exit
    # without closing anything, so the run's one transaction stays open in this process.
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pending: deque[Any] = deque()
        todo = iter(specs)
        for spec in todo:
            pending.append(pool.apply_async(_build_in_worker, (spec,)))
            if len(pending) >= 2 * jobs:
                break
        while pending:
            batch = pending.popleft().get()
            for spec in todo:
                pending.append(pool.apply_async(_build_in_worker, (spec,)))
                break
            yield batch
    _PLAN = None


class Command(BaseCommand):
    help = (
        "Seed a synthetic history of random legal rounds, settled by the engine and inserted "
        "in bulk (COPY on PostgreSQL) with their settlement lines and a few voids, spread over "
        "the last D gaming days and every shift (DEBUG only; run seed_demo first). Synthetic: "
        "no audit events are written, the progressive meter is neither moved nor logged, and "
        "no dealer is signed in. The reports of the days written are marked stale."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, required=True, help="rounds in all")
        parser.add_argument(
            "--days", type=int, required=True, help="gaming days, up to the current one"
        )
        parser.add_argument(
            "--tables",
            type=int,
            default=24,
            help="tables to spread the rounds over: SC-1, LB-1, PY-1, then HIST-01.. (24)",
        )
        parser.add_argument("--seed", type=int, default=None, help="random seed (repeatable)")
        parser.add_argument(
            "--jobs", type=int, default=1, help="processes settling rounds (1; PostgreSQL: 2)"
        )
        parser.add_argument("--batch", type=int, default=5000, help="rounds per transaction")
        parser.add_argument(
            "--rebuild", action="store_true", help="rebuild the hold reports of the days written"
        )
        parser.add_argument(
            "--strategy",
            choices=STRATEGY_NAMES,
            default=None,
            help="the players' strategy (default: the simulator's own mix of play and mistakes)",
        )
        parser.add_argument(
            "--slips", action="store_true", help="also the pit's slips (table accounting)"
        )
        parser.add_argument(
            "--shortage", default=None, help="with --slips: chips missing from one closer ($)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """All of the run or nothing of it: the tables and dealers it adds, its rounds, their
        binding on the chain, the slips and the reports are written in one transaction, so a
        failure at any step (a slip that cannot be made, an interrupted run) leaves the
        database and the audit chain as they were, and says so."""
        try:
            with transaction.atomic():
                self._run(**options)
        except (CommandError, KeyboardInterrupt):
            raise
        except Exception as err:
            raise CommandError(
                f"seed_history stopped ({err}); nothing of this run was kept: the database "
                "and the audit trail are as they were before it"
            ) from err

    def _run(self, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_history only runs with DEBUG on (it writes synthetic rounds)")
        total, days, tables = options["rounds"], options["days"], options["tables"]
        jobs, batch_size = options["jobs"], options["batch"]
        for name, value in (("rounds", total), ("days", days), ("tables", tables)):
            if value < 1:
                raise CommandError(f"--{name} must be at least 1")
        if not 1 <= jobs <= (os.cpu_count() or 1):
            raise CommandError(f"--jobs must be from 1 to {os.cpu_count() or 1}")
        if batch_size < 1:
            raise CommandError("--batch must be at least 1")
        shortage = None
        if options["shortage"] is not None:
            if not options["slips"]:
                raise CommandError("--shortage needs --slips")
            try:
                shortage = parse_cents(options["shortage"], where="--shortage")
            except EngineError as err:
                raise CommandError(err.message) from None
        seed = options["seed"] if options["seed"] is not None else random.randrange(2**31)
        plan = self.plan(
            total=total, days=days, tables=tables, seed=seed, strategy=options["strategy"]
        )
        writer: Writer = CopyWriter() if connection.vendor == "postgresql" else InsertWriter()
        self.stdout.write(
            f"Seeding {total:,} rounds at {len(plan.tables)} tables with "
            f"{len(plan.dealer_ids)} dealers, {plan.start:%Y-%m-%d %H:%M} to "
            f"{plan.end:%Y-%m-%d %H:%M} {plan.start.tzname()} ({days} gaming days), "
            f"seed {seed}, {jobs} job(s), "
            f"{'COPY' if isinstance(writer, CopyWriter) else 'INSERT'}, "
            f"strategy {plan.strategy or 'the simulator mix'}"
        )
        started = last = time.perf_counter()
        done = voids = lines = 0
        written: set[date] = set()
        for batch in batches(plan, batch_size, jobs):
            with transaction.atomic():
                ids = writer.write(batch)
                bind_history(ids, seed)
                mark_stale(batch.stale)
            done += len(batch.rounds)
            voids += batch.voids
            lines += len(batch.lines)
            written |= {day for day, _table in batch.stale}
            now = time.perf_counter()
            if now - last >= PROGRESS_SECONDS or done == total:
                last = now
                self.stdout.write(
                    f"  {done:>11,} / {total:,} rounds  {done / (now - started):8,.0f} rounds/s"
                )
        elapsed = time.perf_counter() - started
        self.stdout.write(
            f"Seeded {done:,} rounds ({voids:,} voided) with {lines:,} settlement lines in "
            f"{elapsed:.1f} s: {done / elapsed:,.0f} rounds/s."
        )
        if options["slips"]:
            self.seed_slips(sorted(written), seed=seed, shortage=shortage)
        if options["rebuild"]:
            from reports.reporting import rebuild_day

            started = time.perf_counter()
            for day in sorted(written):
                rebuild_day(day)
            self.stdout.write(
                f"Rebuilt the hold reports of {len(written)} gaming days in "
                f"{time.perf_counter() - started:.1f} s."
            )
        else:
            self.stdout.write(
                f"The hold reports of {len(written)} gaming days are marked stale: the "
                "catch-up job, `hold_report --day` or `seed_history --rebuild` builds them."
            )

    def seed_slips(self, days: list[date], *, seed: int, shortage: int | None) -> None:
        from accounting.simulation import seed_slips

        rng = random.Random(f"{seed}/slips")
        short = None
        if shortage:
            shifts = sorted(
                set(
                    Round.objects.filter(gaming_day__in=days, status=Round.Status.SETTLED)
                    .values_list("table_id", "gaming_day", "shift")
                    .distinct()
                )
            )
            if shifts:
                table_id, day, shift = rng.choice(shifts)
                short = (table_id, day, shift, shortage)
        started = time.perf_counter()
        result = seed_slips(days=days, rng=rng, shortage=short)
        self.stdout.write(
            f"Wrote {result['slips']:,} slips for {len(days)} gaming days in "
            f"{time.perf_counter() - started:.1f} s ({result['variance_alerts']} variance alerts)."
        )
        if short is not None:
            name = Table.objects.get(pk=short[0]).name
            self.stdout.write(
                f"Shortage: {format_cents(shortage or 0)} missing from {name}'s closer, gaming "
                f"day {short[1]}, shift {short[2]}."
            )

    def plan(
        self, *, total: int, days: int, tables: int, seed: int, strategy: str | None = None
    ) -> Plan:
        """The floor's tables (creating HIST-.. and their dealers as needed) and the window."""
        User = get_user_model()
        demo = Table.objects.filter(name__in=[n for n, _game in demo_tables()]).select_related(
            "paytable_version", "meter"
        )
        pit = Pit.objects.filter(name="Main pit").first()
        pit_boss = User.objects.filter(username="pitboss").first()
        if demo.count() < len(demo_tables()) or pit is None or pit_boss is None:
            raise CommandError("seed_history needs the demo floor: run `manage.py seed_demo`")
        # a table of a game that takes a progressive feeds its demo table's meter
        meters = {t.game: t.meter for t in demo if t.meter is not None}
        versions = {
            game: PaytableVersion.objects.get(
                game=game, name=paytable_name(game), status=PaytableVersion.Status.APPROVED
            )
            for _name, game in demo_tables()
        }
        with transaction.atomic():
            floor = sorted(demo, key=lambda t: [n for n, _g in demo_tables()].index(t.name))
            for i in range(1, tables - len(demo_tables()) + 1):
                cycle = [game for _name, game in demo_tables()]
                game = cycle[(i - 1) % len(cycle)]
                table, created = Table.objects.get_or_create(
                    name=f"HIST-{i:02d}",
                    defaults={
                        "pit": pit,
                        "game": game,
                        "paytable_version": versions[game],
                        "meter": meters.get(game),
                    },
                )
                if created:
                    audit_record(
                        actor=None,
                        actor_name="seed_history",
                        kind=EventKind.TABLE_CREATED,
                        obj=table,
                        table_name=table.name,
                        data={"name": table.name, "game": table.game, "via": "seed_history"},
                    )
                floor.append(table)
            floor = floor[:tables]
            dealer_group = Group.objects.get(name=Role.DEALER.value)
            dealers = []
            for i in range(1, tables + tables // 3 + 2):  # more dealers than tables: breaks
                user, created = User.objects.get_or_create(username=f"hist-dealer-{i:02d}")
                if created:
                    user.set_unusable_password()
                    user.save()
                    user.groups.add(dealer_group)
                dealers.append(user.pk)
        unusable = [t.name for t in floor if t.paytable_version_id is None]
        unusable += [
            t.name for t in floor if t.paytable_version and not t.paytable_version.is_approved
        ]
        if unusable:
            raise CommandError(f"tables without an approved paytable: {', '.join(unusable)}")
        numbers = dict(
            Round.objects.filter(table__in=floor)
            .values_list("table")
            .annotate(m=Max("number"))
            .values_list("table", "m")
        )
        now = timezone.now()
        start = day_bounds(gaming_day_of(now) - timedelta(days=days - 1))[0]
        plans = []
        for t, table in enumerate(floor):
            version = table.paytable_version
            assert version is not None
            plans.append(
                TablePlan(
                    id=table.pk,
                    name=table.name,
                    game=table.game,
                    version_id=version.pk,
                    limits=version.limits,
                    seats=table.seats,
                    meter_wager_cents=table.meter.wager_cents if table.meter else None,
                    meter=meter_config(table.meter) if table.meter else None,
                    first_number=(numbers.get(table.pk) or 0) + 1,
                    rounds=total // len(floor) + (1 if t < total % len(floor) else 0),
                )
            )
        return Plan(
            seed=seed,
            total=total,
            start=start,
            end=now,
            tables=tuple(plans),
            dealer_ids=tuple(dealers),
            pit_boss_id=pit_boss.pk,
            paytables={
                t.paytable_version.pk: engine_paytable(t.paytable_version)
                for t in floor
                if t.paytable_version is not None
            },
            strategy=strategy,
        )
