"""A paytable version's theoretical figures: computed once it is approved, stored with it.

`paytable_approve` sends `tables.tasks.compute_paytable_figures` on commit; the task calls
`paytable_figures_compute`, which runs the engine's house-edge analysis on the version's lines
(`tables.engine.house_edge.edge_for_lines`), adds the covariance of two seats' results in one
round (`seat_covariances`: the seats play against the same dealer hand, so their results move
together; the floor's band needs it) and appends one `PaytableEdge` per strategy. The
unique (version, strategy) claims the work, so a duplicate delivery, a retry or the periodic
catch-up (`compute_missing_figures`, for a job the broker never took) changes nothing. The
analysis runs outside any transaction (seconds for a Monte Carlo wager); the row and its audit
event are written in one.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from audit.kinds import EventKind
from audit.services import audit_record
from casino.enqueue import enqueue
from tables import games
from tables.engine.house_edge import HOUSE_GAMES, edge_for_lines
from tables.engine.strategies import Strategy
from tables.models import PaytableEdge, PaytableVersion

log = logging.getLogger(__name__)

# The strategy whose figures the floor's band uses (the player playing as well as the analysis
# knows how), and the ones computed for every approved version.
FLOOR_STRATEGY = Strategy.OPTIMAL
STRATEGIES: tuple[Strategy, ...] = (Strategy.OPTIMAL,)


def has_figures(game: str) -> bool:
    """Whether the engine analyses this game's paytables (the house-banked games it knows)."""
    try:
        definition = games.banked(game)
    except games.UnknownGame:
        return False
    return game in HOUSE_GAMES and bool(definition.edge_wagers)


# The figures' Celery task, sent by name: `tables.tasks` imports this module to call it.
FIGURES_TASK = "tables.tasks.compute_paytable_figures"


def request_figures(version: PaytableVersion) -> None:
    """Within the approval's transaction: compute the figures once it is committed."""
    if has_figures(version.game):
        pk = version.pk
        transaction.on_commit(lambda: enqueue(FIGURES_TASK, pk))


def _method(report: dict[str, Any]) -> str:
    wagers = report["wagers"]
    assert isinstance(wagers, list)
    methods = {w["method"] for w in wagers}
    if methods == {"exact"}:
        return PaytableEdge.Method.EXACT
    if "exact" in methods:
        return PaytableEdge.Method.MIXED
    return PaytableEdge.Method.MONTE_CARLO


def compute_figures(
    *,
    game: str,
    lines: dict[str, dict[str, object]],
    name: str,
    strategies: Iterable[Strategy],
    seed: int | None = None,
) -> list[dict[str, Any]]:
    """The engine's figures of a paytable's lines (no database): exact where they can be, else
    by Monte Carlo over CASINO_EDGE_SAMPLES deals (0: the engine's count)."""
    return edge_for_lines(
        game,
        lines,
        name=name,
        strategies_wanted=tuple(strategies),
        seed=seed,
        monte_carlo_samples=settings.CASINO_EDGE_SAMPLES or None,
    )


SEATS = 7  # seats per simulated round: 21 pairs each


def seat_covariances(
    *, game: str, lines: dict[str, dict[str, object]], name: str, strategy: Strategy, seed: int
) -> dict[str, Any]:
    """Per analysed wager, the covariance of two seats' nets (per unit of each seat's stake) in
    the same round, by simulation: CASINO_EDGE_SEAT_ROUNDS random rounds of seven seats playing
    `strategy`, settled by the game's own engine. A side bet that reads only the seat's own
    cards comes out near zero; a wager against the dealer's hand clearly above."""
    definition = games.banked(game)
    paytable = definition.paytable(name, lines)
    rng = random.Random(seed)
    rounds = settings.CASINO_EDGE_SEAT_ROUNDS
    totals = {w: [0.0, 0.0, 0.0, 0, 0] for w in definition.edge_wagers}  # x, x^2, pairs, n, pn
    for _ in range(rounds):
        entry = definition.random_round(rng, SEATS, strategy=strategy.value)
        settlement = definition.settle(entry, paytable, None)
        per_wager: dict[str, list[float]] = {w: [] for w in definition.edge_wagers}
        for seat in settlement.seats:
            nets = {line.wager: line for line in seat.lines}
            for wager, parts in definition.edge_wagers.items():
                unit = nets.get(parts[0])
                if unit is not None:
                    net = sum(nets[p].net_cents for p in parts if p in nets)
                    per_wager[wager].append(net / unit.stake_cents)
        for wager, xs in per_wager.items():
            t = totals[wager]
            total, squares = sum(xs), sum(x * x for x in xs)
            t[0] += total
            t[1] += squares
            t[2] += (total * total - squares) / 2
            t[3] += len(xs)
            t[4] += len(xs) * (len(xs) - 1) // 2
    out: dict[str, Any] = {}
    for wager, (x, x2, pairs, n, pn) in totals.items():
        if n < 2 or pn < 1:
            continue
        mean = x / n
        variance = x2 / n - mean * mean
        covariance = pairs / pn - mean * mean
        out[wager] = {
            "covariance": f"{covariance:.10f}",
            "correlation": f"{covariance / variance:.10f}" if variance > 0 else "0.0000000000",
            "pairs": int(pn),
        }
    return {"method": "simulation", "rounds": rounds, "seats": SEATS, "seed": seed, "wagers": out}


def paytable_figures_compute(
    *, version_id: int, strategies: Iterable[Strategy] = STRATEGIES, seed: int | None = None
) -> list[PaytableEdge]:
    """Compute and store an approved version's figures for each strategy still missing;
    idempotent. A version that is gone, not approved or of a game without figures gets none.
    `seed` (default: a random one, recorded with the figures) makes the sampling repeatable."""
    version = PaytableVersion.objects.filter(pk=version_id).first()
    if version is None or not version.is_approved or not has_figures(version.game):
        return []
    done = set(version.edges.values_list("strategy", flat=True))
    missing = [s for s in strategies if s.value not in done]
    stored: list[PaytableEdge] = []
    if not missing:
        return stored
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    reports = compute_figures(
        game=version.game, lines=version.lines, name=version.name, strategies=missing, seed=seed
    )
    for strategy, report in zip(missing, reports, strict=True):
        report["seat_covariance"] = seat_covariances(
            game=version.game,
            lines=version.lines,
            name=version.name,
            strategy=strategy,
            seed=seed,
        )
        edge = _store(version, strategy, report)
        if edge is not None:
            stored.append(edge)
    return stored


def _store(
    version: PaytableVersion, strategy: Strategy, report: dict[str, Any]
) -> PaytableEdge | None:
    """Append the figures and their audit event; None when another worker stored them first."""
    try:
        with transaction.atomic():
            edge = PaytableEdge.objects.create(
                version=version, strategy=strategy.value, method=_method(report), figures=report
            )
            wagers = report["wagers"]
            assert isinstance(wagers, list)
            audit_record(
                actor=None,
                actor_name="system",
                kind=EventKind.PAYTABLE_FIGURES,
                obj=version,
                data={
                    "game": version.game,
                    "name": version.name,
                    "version": version.version,
                    "strategy": strategy.value,
                    "method": edge.method,
                    "seed": report.get("seed"),
                    "wagers": {
                        w["wager"]: {
                            "method": w["method"],
                            "house_edge": w["house_edge"]["per_initial_wager"],
                            "std_dev": w["std_dev"],
                            "seat_covariance": report["seat_covariance"]["wagers"]
                            .get(w["wager"], {})
                            .get("covariance"),
                        }
                        for w in wagers
                    },
                },
            )
    except IntegrityError:
        log.info("figures of %s (%s) were stored by another worker", version, strategy.value)
        return None
    return edge


def compute_missing_figures() -> int:
    """Every approved version of an analysed game without its figures (e.g. the broker was down
    when it was approved): computed now. Returns how many figures were stored."""
    done = 0
    wanted = [g for g in HOUSE_GAMES if has_figures(g)]
    for pk in (
        PaytableVersion.objects.filter(status=PaytableVersion.Status.APPROVED, game__in=wanted)
        .exclude(edges__strategy=FLOOR_STRATEGY.value)
        .values_list("pk", flat=True)
    ):
        done += len(paytable_figures_compute(version_id=pk))
    return done
