"""Theoretical win: what a table's stakes should have won, and the 95% band the actual should
fall in (the formula is explained in docs/house_edge.md).

For each settled stake s on a wager the analysis covers (the game's `edge_wagers`: its unit is
the stake of one settlement line, e.g. an ante for an ante-and-raise wager), with the figures
stored with the round's paytable version under the floor's strategy (`optimal`): its edge e,
standard deviation sd, and the covariance c of two seats' results in the same round (they play
against one dealer hand); S is a round's stake on the wager over all its seats:

    theoretical win = sum of  s x e
    variance        = sum of  s^2 x sd^2  +  c x (sum over rounds of S^2  -  sum of s^2)
    band            = theoretical win -/+ 1.96 x sqrt(variance)

Rounds are independent, so their variances add; within a round the seats' results covary (c),
the different wagers of one round are taken as independent. Exact arithmetic in Decimal; the
theoretical win is rounded to the cent, the band's ends outwards. A table whose stakes include
a version without figures yet (the job not run) has no theoretical figures: `pending` says why.

A table of a game between players (poker) wins only its rake. Each finished hand's expected
rake m and its variance v come from the game's rake simulation for the hand's table settings
and its number of players (`tables.selectors.rake_per_hand`); hands are independent, so

    theoretical win = sum over hands of  m
    variance        = sum over hands of  v

and the band is the same 1.96 standard deviations either side. A voided hand is left out, as
its rake is.

`outside_band` finds that a table's actual win left its band and `record_outside_band` records
it on the audit chain (`hold_alert.outside_band`), once per gaming day, table and side;
`reporting.rebuild` calls both after each rebuild (the write last), in the same transaction,
under the table's rebuild lock (one rebuild of a table at a time:
`reporting.lock_table_rebuild`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Sum

from audit.kinds import EventKind
from audit.models import AuditEvent
from audit.services import audit_record
from core.prepared import PreparedQuery
from tables import games
from tables.models import (
    Hand,
    PaytableEdge,
    Round,
    SettlementLine,
    Table,
    TableSettingsVersion,
)
from tables.selectors import rake_per_hand

Z95 = Decimal("1.96")
STRATEGY = "optimal"  # the floor's strategy: tables.services.figures.FLOOR_STRATEGY
RAKE_STRATEGY = "typical"  # the players' play the rake simulation assumes (`rake_edge`)


@dataclass
class Theory:
    """One table's (and game's) theoretical figures for a gaming day."""

    strategy: str = STRATEGY
    expected: Decimal = Decimal(0)
    variance: Decimal = Decimal(0)
    pending: list[str] = field(default_factory=list)  # versions without figures

    @property
    def theoretical_win_cents(self) -> int | None:
        if self.pending:
            return None
        return int(self.expected.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))

    @property
    def band_cents(self) -> list[int] | None:
        if self.pending:
            return None
        half = Z95 * self.variance.sqrt()
        return [
            int((self.expected - half).to_integral_value(rounding=ROUND_FLOOR)),
            int((self.expected + half).to_integral_value(rounding=ROUND_CEILING)),
        ]

    def outside(self, win_cents: int) -> str | None:
        """ "low" or "high" when the actual win left the band."""
        band = self.band_cents
        if band is None:
            return None
        if win_cents < band[0]:
            return "low"
        if win_cents > band[1]:
            return "high"
        return None

    def add(self, other: Theory) -> None:
        self.expected += other.expected
        self.variance += other.variance
        self.pending += [p for p in other.pending if p not in self.pending]

    def as_data(self) -> dict[str, Any]:
        return {
            "theoretical_win_cents": self.theoretical_win_cents,
            "band_cents": self.band_cents,
            "band_strategy": self.strategy,
            **({"theoretical_pending": self.pending} if self.pending else {}),
        }


Figures = dict[str, tuple[Decimal, Decimal, Decimal]]  # wager -> edge, std dev, covariance


# A version's figures under a strategy are written once and never change (PaytableEdge is
# append-only, one row per version and strategy): each process reads them once, and keeps them
# once the transaction that read them has committed.
_FIGURES: dict[tuple[int, str], Figures] = {}


def forget_figures() -> None:
    """Forget the figures read (a test that empties the database)."""
    _FIGURES.clear()


def _figures(version_ids: set[int], strategy: str) -> dict[int, Figures]:
    """version -> wager -> (house edge, standard deviation, two seats' covariance), per unit."""
    out: dict[int, Figures] = {
        v: _FIGURES[(v, strategy)] for v in version_ids if (v, strategy) in _FIGURES
    }
    missing = version_ids - set(out)
    if not missing:
        return out
    for edge in PaytableEdge.objects.filter(version_id__in=missing, strategy=strategy):
        seats = edge.figures.get("seat_covariance", {}).get("wagers", {})
        out[edge.version_id] = {
            w["wager"]: (
                Decimal(w["house_edge"]["per_initial_wager"]),
                Decimal(w["std_dev"]),
                Decimal(seats.get(w["wager"], {}).get("covariance", "0")),
            )
            for w in edge.figures["wagers"]
        }
    read = {(v, strategy): out[v] for v in missing if v in out}
    transaction.on_commit(lambda: _FIGURES.update(read))
    return out


def _per_round(lines: Any) -> Any:
    """Per round and wager of these settlement lines: the stake (all seats) and its square."""
    return (
        lines.values(
            "round", "round__table__name", "round__game", "round__paytable_version", "wager"
        )
        .annotate(stake=Sum("stake_cents"), square=Sum(F("stake_cents") * F("stake_cents")))
        .order_by()
    )


def _settled_lines(day: date, table_id: int | None = None, table: str | None = None) -> Any:
    """The gaming day's settled rounds' lines, at one table (by id or name) or all."""
    lines = SettlementLine.objects.filter(round__gaming_day=day, round__status=Round.Status.SETTLED)
    if table_id is not None:
        lines = lines.filter(round__table_id=table_id)
    if table is not None:
        lines = lines.filter(round__table__name=table)
    return lines


_PER_ROUND_AT_TABLE = PreparedQuery(
    lambda day, table: _per_round(_settled_lines(day, table_id=table)), day=date, table=int
)


def theory_by_table(
    *, day: date, table_id: int | None = None, table: str | None = None, strategy: str = STRATEGY
) -> dict[tuple[str, str], Theory]:
    """(table name, game) -> its theoretical figures for the gaming day's settled rounds, from
    the versions' figures under `strategy` (the floor's: `optimal`)."""
    # Per round and wager: its stake S (all seats) and its seats' stakes squared; then per
    # (table, game, version, wager): sum of s, sum of s^2 and the sum over rounds of S^2. Both
    # steps run in the database, so a busy day sends a handful of rows, not one per round.
    if table_id is not None and table is None:  # a rebuild's (compiled once)
        inner, params = _PER_ROUND_AT_TABLE.sql(day=day, table=table_id)
    else:
        lines = _settled_lines(day, table_id=table_id, table=table)
        inner, params = _per_round(lines).query.sql_with_params()
    columns = [
        connection.ops.quote_name(alias)
        for alias in ("round__table__name", "round__game", "round__paytable_version", "wager")
    ]
    keys = ", ".join(f"per_round.{c}" for c in columns)
    sql = (
        f"SELECT {keys}, SUM(per_round.stake), SUM(per_round.square), "
        f"SUM(per_round.stake * per_round.stake) FROM ({inner}) per_round GROUP BY {keys}"
    )
    # (table, game, version, line wager) -> [sum of s, sum of s^2, sum over rounds of S^2]
    sums: dict[tuple[str, str, int, str], list[int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for name, game, version, wager, stake, square, round_square in cursor.fetchall():
            sums[(name, game, version, wager)] = [int(stake), int(square), int(round_square)]
    return _theory(sums, strategy)


def _theory(
    sums: dict[tuple[str, str, int, str], list[int]], strategy: str = STRATEGY
) -> dict[tuple[str, str], Theory]:
    """(table, game) -> its figures, from (table, game, version, line wager) -> [sum of s, sum
    of s^2, sum over rounds of S^2]."""
    figures = _figures({key[2] for key in sums}, strategy)
    out: dict[tuple[str, str], Theory] = defaultdict(lambda: Theory(strategy=strategy))
    for (name, game, version, line), (stake, square, round_square) in sorted(sums.items()):
        theory = out[(name, game)]
        units = {parts[0]: w for w, parts in getattr(games.get(game), "edge_wagers", {}).items()}
        if not units:
            note = f"{games.get(game).label} has no theoretical figures"
            if note not in theory.pending:
                theory.pending.append(note)
            continue
        wager = units.get(line)
        if wager is None:  # e.g. the Raise: part of the Ante+Raise's outcome
            continue
        if version not in figures or wager not in figures[version]:
            note = f"paytable version {version}: {strategy} figures not computed yet"
            if note not in theory.pending:
                theory.pending.append(note)
            continue
        edge, std_dev, covariance = figures[version][wager]
        theory.expected += edge * stake
        theory.variance += std_dev * std_dev * square + covariance * (round_square - square)
    return dict(out)


def rake_theory_by_table(
    *, day: date, table_id: int | None = None, table: str | None = None
) -> dict[tuple[str, str], Theory]:
    """(table name, game) -> the theoretical rake of the gaming day's finished hands at a table
    between players (by id or name, or every table)."""
    hands = Hand.objects.filter(gaming_day=day, status=Hand.Status.FINISHED)
    if table_id is not None:
        hands = hands.filter(table_id=table_id)
    if table is not None:
        hands = hands.filter(table__name=table)
    per_hand = list(
        hands.annotate(seated=Count("players"))
        .values_list("table__name", "game", "settings_version_id", "seated")
        .order_by()
    )
    settings = dict(
        TableSettingsVersion.objects.filter(
            pk__in={version for _n, _g, version, _p in per_hand}
        ).values_list("pk", "values")
    )
    out: dict[tuple[str, str], Theory] = defaultdict(lambda: Theory(strategy=RAKE_STRATEGY))
    for name, game, version, players in per_hand:
        mean, variance = rake_per_hand(game, settings[version], players)
        theory = out[(name, game)]
        theory.expected += mean
        theory.variance += variance
    return dict(out)


def outside_band(
    *,
    day: date,
    table: Table,
    win: int | None = None,
    sums: dict[tuple[str, int, str], list[int]] | None = None,
) -> tuple[str, Theory, int] | None:
    """The side ("low" or "high") the table's actual win of the day left its band on, with the
    band's figures and the win; None inside the band. Reads only. The win is the rounds' and
    the hands' rake (the table's whole win), the band theirs. `sums`: the day's sums per
    (game, paytable version, line wager), as the table's hold summaries keep them (else read
    from its settled rounds' lines)."""
    table_id = table.pk
    if win is None:
        win = -(
            Round.objects.filter(
                gaming_day=day, table_id=table_id, status=Round.Status.SETTLED
            ).aggregate(net=Sum("players_net_cents"))["net"]
            or 0
        )
        win += (
            Hand.objects.filter(
                gaming_day=day, table_id=table_id, status=Hand.Status.FINISHED
            ).aggregate(rake=Sum("rake_cents"))["rake"]
            or 0
        )
    pvp = isinstance(games.get(table.game), games.PlayerVsPlayerGame)
    theory = Theory(strategy=RAKE_STRATEGY if pvp else STRATEGY)
    if sums is None:
        parts = theory_by_table(day=day, table_id=table_id)
    else:
        parts = _theory({(table.name, g, v, w): s for (g, v, w), s in sums.items()})
    for part in [*parts.values(), *rake_theory_by_table(day=day, table_id=table_id).values()]:
        theory.add(part)
    side = theory.outside(win)
    if side is None:
        return None
    return side, theory, win


def record_outside_band(*, day: date, table: Table, found: tuple[str, Theory, int]) -> None:
    """Record `outside_band`'s finding on the chain, once per gaming day, table and side."""
    side, theory, win = found
    already = AuditEvent.objects.filter(
        kind=EventKind.HOLD_OUTSIDE_BAND,
        table_name=table.name,
        data__gaming_day=day.isoformat(),
        data__side=side,
    ).exists()
    if not already:
        audit_record(
            actor=None,
            actor_name="system",
            kind=EventKind.HOLD_OUTSIDE_BAND,
            obj=table,
            table_name=table.name,
            data={
                "gaming_day": day.isoformat(),
                "side": side,
                "win_cents": win,
                **theory.as_data(),
            },
        )
