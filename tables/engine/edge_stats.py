"""What a house-edge figure is made of, exact or sampled, and its summary statistics.

An exact figure is a table of outcomes: each with the player's net and the total wagered, per
unit of the initial wager, and how many deals end that way (a count; a fraction when the
strategy is a mix). A sampled one keeps running sums (count, net, net squared, wagered,
wagered squared, net x wagered), so the mean, the spread and a 95% confidence interval follow;
the per-total edge is a ratio of means, its interval by the delta method.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import Final

Z95: Final = 1.959963984540054  # the 97.5% point of the normal distribution


@dataclass(frozen=True)
class Outcome:
    """One way a wager can end: its name, the player's net and the amount wagered (per unit
    of the initial wager), and how many deals end so."""

    name: str
    net: Fraction
    wagered: Fraction
    count: Fraction


@dataclass(frozen=True)
class Figures:
    """A wager's figures per unit of its initial wager (`edge` is the player's expected
    loss; `edge_per_total` divides it by the mean amount wagered)."""

    edge: Fraction | float
    edge_per_total: Fraction | float
    std_dev: float
    wagered: Fraction | float  # mean amount wagered per unit of the initial wager
    samples: int | None = None
    ci95: tuple[float, float] | None = None
    ci95_per_total: tuple[float, float] | None = None


def exact_figures(outcomes: Sequence[Outcome]) -> Figures:
    total = sum((o.count for o in outcomes), Fraction(0))
    mean = sum((o.count * o.net for o in outcomes), Fraction(0)) / total
    square = sum((o.count * o.net * o.net for o in outcomes), Fraction(0)) / total
    wagered = sum((o.count * o.wagered for o in outcomes), Fraction(0)) / total
    return Figures(
        edge=-mean,
        edge_per_total=-mean / wagered,
        std_dev=sqrt(square - mean * mean),
        wagered=wagered,
    )


class Sampler:
    """Running sums over independent observations. An observation is the mean net and mean
    amount wagered of a group of rounds dealt from the same cards (each round of the group
    on its own is a uniformly random deal, so the group's mean is unbiased), and the group's
    mean squared net (`square`), from which the spread of a single round follows."""

    __slots__ = ("n", "net", "net2", "wag", "wag2", "cross", "square", "group")

    def __init__(self, group: int = 1) -> None:
        self.group = group  # rounds per observation
        self.n = 0
        self.net = 0.0
        self.net2 = 0.0
        self.wag = 0.0
        self.wag2 = 0.0
        self.cross = 0.0
        self.square = 0.0

    def add(self, net: float, wagered: float, square: float | None = None) -> None:
        self.n += 1
        self.net += net
        self.net2 += net * net
        self.wag += wagered
        self.wag2 += wagered * wagered
        self.cross += net * wagered
        self.square += net * net if square is None else square

    def merge(self, other: Sampler) -> None:
        for name in ("n", "net", "net2", "wag", "wag2", "cross", "square"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def figures(self, *, shift: float = 0.0, extra_square: float = 0.0) -> Figures:
        """Mean, spread and 95% intervals. `shift` is an exactly known expectation added to
        the sampled mean and `extra_square` its part of the mean squared net (a jackpot's,
        taken out of the sampling and counted exactly)."""
        n = self.n
        mean = self.net / n
        var = max(self.net2 / n - mean * mean, 0.0) * n / max(n - 1, 1)
        total_mean = mean + shift
        round_var = max(self.square / n + extra_square - total_mean * total_mean, 0.0)
        wag = self.wag / n
        var_w = max(self.wag2 / n - wag * wag, 0.0) * n / max(n - 1, 1)
        cov = (self.cross / n - mean * wag) * n / max(n - 1, 1)
        half = Z95 * sqrt(var / n)
        edge = -(mean + shift)
        ratio = edge / wag
        # delta method for (-(mean + shift)) / wag
        var_ratio = (var + ratio * ratio * var_w + 2 * ratio * cov) / (wag * wag) / n
        half_ratio = Z95 * sqrt(max(var_ratio, 0.0))
        return Figures(
            edge=edge,
            edge_per_total=ratio,
            std_dev=sqrt(round_var),
            wagered=wag,
            samples=n * self.group,
            ci95=(edge - half, edge + half),
            ci95_per_total=(ratio - half_ratio, ratio + half_ratio),
        )


def stratified_figures(
    parts: Sequence[tuple[float, Sampler]], *, shift: float = 0.0, extra_square: float = 0.0
) -> Figures:
    """Figures of a wager sampled in strata: each part's observations estimate its stratum's
    contribution, scaled by `weight` (for a stratum sampled on its own, its probability). One
    unit is wagered per round. `shift` and `extra_square` as in `Sampler.figures`."""
    mean = shift
    square = extra_square
    var_of_mean = 0.0
    samples = 0
    for weight, part in parts:
        n = part.n
        m = part.net / n
        var = max(part.net2 / n - m * m, 0.0) * n / max(n - 1, 1)
        mean += weight * m
        square += weight * part.square / n
        var_of_mean += weight * weight * var / n
        samples += n * part.group
    half = Z95 * sqrt(var_of_mean)
    edge = -mean
    return Figures(
        edge=edge,
        edge_per_total=edge,
        std_dev=sqrt(max(square - mean * mean, 0.0)),
        wagered=1.0,
        samples=samples,
        ci95=(edge - half, edge + half),
        ci95_per_total=(edge - half, edge + half),
    )
