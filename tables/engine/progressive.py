"""A progressive meter: contributions, the cap and its overflow, jackpot payment.

Order within a round (contract): the round's contributions (rate x each progressive stake,
rounded down to the cent for the whole round) are added first, up to the cap if one is set
(the rest is overflow); then any jackpot is paid from the meter, which resets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from .errors import EngineError, Refusal
from .settlement import ProgressiveResult

# The award paid from the meter itself (its share, then the reset). A game's other awards are
# fixed amounts it names and declares itself; the meter holds them as data (`awards_cents`).
JACKPOT: Final = "jackpot"


class JackpotSplit(StrEnum):
    EQUAL = "equal"  # Ruling: several jackpot seats share the meter equally
    SEAT_ORDER = "seat_order"  # first seat the whole meter, each next one the reset amount


NO_AWARDS: Final[Mapping[str, int]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class MeterConfig:
    """A meter's state and settings as a round starts. `awards_cents`: each fixed award's
    amount, by the game's name for it (empty: the game's own default amounts); which awards
    there are is the game's to say (`check_awards`)."""

    meter_cents: int = 2_500_000
    reset_cents: int = 1_000_000
    rate: Fraction = Fraction(1, 5)
    wager_cents: int = 100
    awards_cents: Mapping[str, int] = field(default_factory=lambda: NO_AWARDS)
    split: JackpotSplit = JackpotSplit.EQUAL
    cap_cents: int | None = None

    def __post_init__(self) -> None:
        if self.wager_cents <= 0:
            raise EngineError(Refusal.BAD_PAYTABLE, "the progressive wager must be more than zero")
        if not 0 <= self.rate < 1:
            raise EngineError(
                Refusal.BAD_PAYTABLE,
                f"the progressive rate must be from 0 up to 1, not {self.rate}",
            )
        if self.meter_cents < 0 or self.reset_cents < 0:
            raise EngineError(
                Refusal.BAD_PAYTABLE, "the progressive meter and reset may not be negative"
            )
        if self.cap_cents is not None and self.cap_cents < self.reset_cents:
            raise EngineError(
                Refusal.BAD_PAYTABLE, "the progressive cap may not be below the reset amount"
            )
        for name, cents in self.awards_cents.items():
            if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
                raise EngineError(
                    Refusal.BAD_PAYTABLE,
                    f"the progressive award {name} must be a whole number of cents, "
                    f"at least 0, not {cents!r}",
                )


def awards_of(config: MeterConfig, defaults: Mapping[str, int]) -> Mapping[str, int]:
    """The meter's fixed awards for a game whose awards and default amounts are `defaults`:
    the game's defaults when the meter names none, else exactly the game's awards (an award
    missing or one the game does not have is refused)."""
    given = config.awards_cents
    if not given:
        return defaults
    missing = [name for name in defaults if name not in given]
    if missing:
        raise EngineError(
            Refusal.BAD_PAYTABLE, f"the progressive award {missing[0]} is not configured"
        )
    unknown = [name for name in given if name not in defaults]
    if unknown:
        raise EngineError(Refusal.BAD_PAYTABLE, f"the progressive has no award {unknown[0]!r}")
    return given


def contribution_cents(config: MeterConfig, stakes_cents: Sequence[int]) -> int:
    """The round's contribution: rate x the sum of its progressive stakes, rounded down."""
    exact = config.rate * sum(stakes_cents)
    return exact.numerator // exact.denominator


def apply_round(
    config: MeterConfig, stakes_cents: Sequence[int], jackpot_seats: Sequence[int]
) -> tuple[ProgressiveResult, dict[int, int]]:
    """The meter after one round, and each jackpot seat's share in cents."""
    contribution = contribution_cents(config, stakes_cents)
    meter = config.meter_cents + contribution
    overflow = 0
    capped = False
    if config.cap_cents is not None and meter > config.cap_cents:
        overflow = meter - max(config.cap_cents, config.meter_cents)
        meter -= overflow
        capped = True
    shares: dict[int, int] = {}
    seats = sorted(jackpot_seats)
    if seats:
        if config.split is JackpotSplit.EQUAL:
            base, leftover = divmod(meter, len(seats))
            for i, seat in enumerate(seats):
                shares[seat] = base + (1 if i < leftover else 0)
        else:
            for i, seat in enumerate(seats):
                shares[seat] = meter if i == 0 else config.reset_cents
    paid = sum(shares.values())
    after = config.reset_cents if seats else meter
    return (
        ProgressiveResult(
            meter_before_cents=config.meter_cents,
            contributions_cents=contribution - overflow,
            paid_cents=paid,
            meter_after_cents=after,
            overflow_cents=overflow,
            capped=capped,
            jackpot_seats=tuple(seats),
        ),
        shares,
    )
