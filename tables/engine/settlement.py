"""What settling a round produces: per seat, one line per wager in play; and the dealer's hand.

Amounts are integer cents. A line's `net` is what the player gains (the winnings without the
returned stake), `-stake` on a loss, 0 on a push.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from .cards import Card
from .money import pay


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


class DealerAction(StrEnum):
    STAND = "stand"
    DRAW = "draw"
    SET = "set"


@dataclass(frozen=True, slots=True)
class Line:
    """One wager's settlement."""

    wager: str
    stake_cents: int
    result: Result
    net_cents: int
    breakage: Fraction = Fraction(0)  # in cents: the fraction of a cent not paid
    award: str | None = None  # the progressive award's name
    odds: Fraction | None = None  # the paytable odds applied to a win

    @classmethod
    def won(cls, wager: str, stake_cents: int, odds: Fraction) -> Line:
        paid = pay(stake_cents, odds)
        return cls(wager, stake_cents, Result.WIN, paid.cents, paid.breakage, odds=odds)

    @classmethod
    def lost(cls, wager: str, stake_cents: int) -> Line:
        return cls(wager, stake_cents, Result.LOSE, -stake_cents)

    @classmethod
    def pushed(cls, wager: str, stake_cents: int) -> Line:
        return cls(wager, stake_cents, Result.PUSH, 0)


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    final: tuple[Card, ...]
    hand: str
    lines: tuple[Line, ...]
    two_card: tuple[Card, ...] | None = None  # pyramid
    one_card: Card | None = None  # pyramid

    @property
    def net_cents(self) -> int:
        return sum(line.net_cents for line in self.lines)


@dataclass(frozen=True, slots=True)
class DealerResult:
    cards: tuple[Card, ...]
    action: DealerAction
    discard: tuple[Card, ...] = ()
    final: tuple[Card, ...] = ()
    hand: str | None = None
    two_card: tuple[Card, ...] | None = None  # pyramid
    one_card: Card | None = None  # pyramid


@dataclass(frozen=True, slots=True)
class ProgressiveResult:
    """The round's effect on the progressive meter (cents)."""

    meter_before_cents: int
    contributions_cents: int
    paid_cents: int
    meter_after_cents: int
    overflow_cents: int = 0
    capped: bool = False
    jackpot_seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Settlement:
    game: str
    paytable: str
    dealer: DealerResult
    seats: tuple[SeatResult, ...]
    progressive: ProgressiveResult | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def net_cents(self) -> int:
        """The players' total net (the house's win is its negative)."""
        return sum(s.net_cents for s in self.seats)
