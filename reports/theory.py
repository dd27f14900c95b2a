"""Theoretical win: what a table's stakes should have won, and the 95% band the actual should
fall in (issue 14; the formula is explained in docs/house_edge.md).

For each settled stake on a wager the analysis covers (the game's `edge_wagers`: its unit is
the stake of one settlement line, e.g. 2nd Chance's Ante for the Ante+Raise), with the figures
stored with the round's paytable version under the floor's strategy (`optimal`):

    theoretical win = sum over stakes of  stake x house edge (per unit of that stake)
    variance        = sum over stakes of  stake^2 x std_dev^2
    band            = theoretical win -/+ 1.96 x sqrt(variance)

Rounds are independent, so their variances add; the wagers of one round are added as if
independent too (their covariance is left out). Exact arithmetic in Decimal; the theoretical
win is rounded to the cent, the band's ends outwards. A table whose stakes include a version
without figures yet (the job not run) has no theoretical figures: `pending` says why.

`band_alert` records on the audit chain, once per gaming day, table and side, that a table's
actual win left its band (`hold_alert.outside_band`); `reporting.rebuild` calls it after each
rebuild, in the same transaction, under the table's row lock.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal
from typing import Any

from django.db.models import F, Sum

from audit.kinds import EventKind
from audit.models import AuditEvent
from audit.services import audit_record
from tables import games
from tables.models import PaytableEdge, Round, SettlementLine, Table

Z95 = Decimal("1.96")
STRATEGY = "optimal"  # the floor's strategy: tables.services.figures.FLOOR_STRATEGY


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


def _figures(version_ids: set[int]) -> dict[int, dict[str, tuple[Decimal, Decimal]]]:
    """version -> wager -> (house edge per unit, standard deviation per unit)."""
    out: dict[int, dict[str, tuple[Decimal, Decimal]]] = {}
    for edge in PaytableEdge.objects.filter(version_id__in=version_ids, strategy=STRATEGY):
        out[edge.version_id] = {
            w["wager"]: (Decimal(w["house_edge"]["per_initial_wager"]), Decimal(w["std_dev"]))
            for w in edge.figures["wagers"]
        }
    return out


def theory_by_table(
    *, day: date, table_id: int | None = None, table: str | None = None
) -> dict[tuple[str, str], Theory]:
    """(table name, game) -> its theoretical figures for the gaming day's settled rounds."""
    lines = SettlementLine.objects.filter(round__gaming_day=day, round__status=Round.Status.SETTLED)
    if table_id is not None:
        lines = lines.filter(round__table_id=table_id)
    if table is not None:
        lines = lines.filter(round__table__name=table)
    rows = list(
        lines.values(
            "round__table__name", "round__game", "round__paytable_version", "wager"
        ).annotate(stake=Sum("stake_cents"), square=Sum(F("stake_cents") * F("stake_cents")))
    )
    figures = _figures({r["round__paytable_version"] for r in rows})
    out: dict[tuple[str, str], Theory] = defaultdict(Theory)
    for r in rows:
        game = games.get(r["round__game"])
        units = {
            line: wager for wager, line in getattr(game, "edge_wagers", {}).items()
        }  # settlement line -> the analysis's wager
        theory = out[(r["round__table__name"], r["round__game"])]
        version = r["round__paytable_version"]
        if not units:
            theory.pending.append(f"{game.label} has no theoretical figures")
            continue
        wager = units.get(r["wager"])
        if wager is None:  # e.g. the Raise: part of the Ante+Raise's outcome
            continue
        if version not in figures:
            label = f"paytable version {version}: figures not computed yet"
            if label not in theory.pending:
                theory.pending.append(label)
            continue
        edge, std_dev = figures[version][wager]
        theory.expected += edge * r["stake"]
        theory.variance += std_dev * std_dev * r["square"]
    return dict(out)


def band_alert(*, day: date, table_id: int) -> str | None:
    """Within the rebuild's transaction: record on the chain that the table's actual win left
    its band ("low" or "high"), once per gaming day, table and side; returns the side."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    win = -(
        Round.objects.filter(
            gaming_day=day, table_id=table_id, status=Round.Status.SETTLED
        ).aggregate(net=Sum("players_net_cents"))["net"]
        or 0
    )
    theory = Theory()
    for part in theory_by_table(day=day, table_id=table_id).values():
        theory.add(part)
    side = theory.outside(win)
    if side is None:
        return None
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
    return side
