"""A house-edge analysis's answer: each wager's figures (`WagerEdge`, or `RakeEdge` for the
house's rake in a game between players) and the report that holds them (`EdgeReport`), with
their JSON form. Knows no game: each game's rules compute its wagers' figures (the registry's
`edges`), and `house_edge` puts the report together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final

from . import edge_rake
from .edge_stats import Figures, Outcome
from .strategies import Strategy

DECIMALS: Final = 10


class Method(StrEnum):
    EXACT = "exact"
    MONTE_CARLO = "monte_carlo"
    SIMULATION = "simulation"


@dataclass(frozen=True)
class WagerEdge:
    """One wager's figures. `deals` (exact) is what the outcome counts add up to."""

    wager: str
    method: Method
    figures: Figures
    outcomes: tuple[Outcome, ...] = ()
    deals: int | Fraction | None = None
    note: str = ""

    def as_data(self) -> dict[str, Any]:
        f = self.figures
        data: dict[str, Any] = {
            "wager": self.wager,
            "method": self.method.value,
            "house_edge": {
                "per_initial_wager": _num(f.edge),
                "per_total_wagered": _num(f.edge_per_total),
            },
            "std_dev": _num(f.std_dev),
            "wagered_per_initial": _num(f.wagered),
        }
        if self.method is Method.EXACT:
            data["house_edge"]["exact"] = {
                "per_initial_wager": str(f.edge),
                "per_total_wagered": str(f.edge_per_total),
            }
            data["deals"] = None if self.deals is None else _count(Fraction(self.deals))
            data["outcomes"] = [
                {
                    "outcome": o.name,
                    "net": str(o.net),
                    "wagered": str(o.wagered),
                    "count": _count(o.count),
                }
                for o in self.outcomes
            ]
        else:
            assert f.ci95 is not None and f.ci95_per_total is not None
            data["samples"] = f.samples
            data["confidence_95"] = {
                "per_initial_wager": [_num(f.ci95[0]), _num(f.ci95[1])],
                "per_total_wagered": [_num(f.ci95_per_total[0]), _num(f.ci95_per_total[1])],
            }
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class RakeEdge:
    """The house's take in a game between players."""

    wager: str
    figures: edge_rake.RakeFigures
    terms: Mapping[str, Any]

    def as_data(self) -> dict[str, Any]:
        f = self.figures
        return {
            "wager": self.wager,
            "method": Method.SIMULATION.value,
            "rake_per_hand": {
                "mean": _num(f.mean),
                "std_dev": _num(f.std_dev),
                "confidence_95": [_num(f.ci95[0]), _num(f.ci95[1])],
            },
            "pot_per_hand": _num(f.pot_mean),
            "rake_per_pot": _num(f.per_pot),
            "raked_share": _num(f.raked_share),
            "samples": f.hands,
            "terms": dict(self.terms),
        }


@dataclass(frozen=True)
class EdgeReport:
    game: str
    paytable: str | None
    strategy: Strategy
    strategy_description: str
    wagers: tuple[WagerEdge | RakeEdge, ...]
    assumptions: tuple[str, ...] = ()
    omitted: Mapping[str, str] = field(default_factory=dict)  # wager -> why (with exact)
    seed: int | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)

    def wager(self, name: str) -> WagerEdge | RakeEdge:
        return next(w for w in self.wagers if w.wager == name)

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "paytable": self.paytable,
            "strategy": {"name": self.strategy.value, "description": self.strategy_description},
            "wagers": [w.as_data() for w in self.wagers],
            "assumptions": list(self.assumptions),
        }
        if self.omitted:
            data["omitted"] = [{"wager": w, "reason": r} for w, r in self.omitted.items()]
        if self.settings:
            data["settings"] = dict(self.settings)
        if self.seed is not None:
            data["seed"] = self.seed
        return data


def _num(value: Fraction | float) -> str:
    """A figure as a decimal string with `DECIMALS` places (exact ones: rounded half even)."""
    if isinstance(value, Fraction):
        d = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        d = Decimal(repr(value))
    return str(d.quantize(Decimal(1).scaleb(-DECIMALS)))


def _count(value: Fraction) -> int | str:
    """A count: an integer, or (for a mixed strategy) the exact fraction as text."""
    return value.numerator if value.denominator == 1 else str(value)
