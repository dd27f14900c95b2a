"""The house's take in the games between players: the rake per hand or per game, simulated by
each game with the engines themselves and a simple named strategy (its `rake_edge`,
`tables.engine.registry.PlayerRules`).

Nobody but the players wins or loses the pot, so the house's hold is its rake; its mean and
spread per hand depend on the rake terms and on how the players bet, hence a simulation with
a stated strategy (`typical`, the only one these games have). This module holds what every
such simulation reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from math import sqrt
from typing import Any, Final

from .edge_stats import Z95


@dataclass(frozen=True)
class RakeFigures:
    """The rake per hand (chips): mean, spread, 95% interval; the pot's mean; hands played."""

    hands: int
    mean: float
    std_dev: float
    ci95: tuple[float, float]
    pot_mean: float
    raked_share: float  # hands that paid any rake

    @property
    def per_pot(self) -> float:
        """The rake as a share of the chips put in the pot."""
        return self.mean / self.pot_mean if self.pot_mean else 0.0


def rake_figures(rakes: list[int], pots: list[int]) -> RakeFigures:
    n = len(rakes)
    mean = sum(rakes) / n
    var = sum((r - mean) ** 2 for r in rakes) / max(n - 1, 1)
    half = Z95 * sqrt(var / n)
    return RakeFigures(
        hands=n,
        mean=mean,
        std_dev=sqrt(var),
        ci95=(mean - half, mean + half),
        pot_mean=sum(pots) / n,
        raked_share=sum(1 for r in rakes if r) / n,
    )


@dataclass(frozen=True)
class RakeRun:
    """One game's rake simulation: its figures, the strategy in words, what one sample is
    (`hand`, `game`) and the game's own terms of play."""

    figures: RakeFigures
    description: str
    unit: str
    terms: Mapping[str, Any]


DEFAULT_RAKE_PERCENT: Final = Decimal(5)
