"""What settling a round produces: per seat, one line per wager in play; and the dealer's hand.

Amounts are integer cents. A line's `net` is what the player gains (the winnings without the
returned stake), `-stake` on a loss, 0 on a push.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final

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

    # Lines are immutable values, and a batch of rounds makes the same few over and over: the
    # constructors below hand out one shared instance per distinct line (a bounded memo; a
    # frozen dataclass is slow to build). `Line(...)` itself always builds a new one.

    @classmethod
    def won(cls, wager: str, stake_cents: int, odds: Fraction) -> Line:
        key = (wager, stake_cents, odds.numerator, odds.denominator)
        line = _WON.get(key)
        if line is None or cls is not Line:
            paid = pay(stake_cents, odds)
            line = cls(wager, stake_cents, Result.WIN, paid.cents, paid.breakage, odds=odds)
            if len(_WON) < _MEMO_SIZE and cls is Line:
                _WON[key] = line
        return line

    @classmethod
    def lost(cls, wager: str, stake_cents: int) -> Line:
        key = (wager, stake_cents)
        line = _LOST.get(key)
        if line is None or cls is not Line:
            line = cls(wager, stake_cents, Result.LOSE, -stake_cents)
            if len(_LOST) < _MEMO_SIZE and cls is Line:
                _LOST[key] = line
        return line

    @classmethod
    def pushed(cls, wager: str, stake_cents: int) -> Line:
        key = (wager, stake_cents)
        line = _PUSHED.get(key)
        if line is None or cls is not Line:
            line = cls(wager, stake_cents, Result.PUSH, 0)
            if len(_PUSHED) < _MEMO_SIZE and cls is Line:
                _PUSHED[key] = line
        return line


_MEMO_SIZE: Final = 1 << 14
_WON: dict[tuple[str, int, int, int], Line] = {}
_LOST: dict[tuple[str, int], Line] = {}
_PUSHED: dict[tuple[str, int], Line] = {}


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    final: tuple[Card, ...]
    hand: str
    lines: tuple[Line, ...]
    two_card: tuple[Card, ...] | None = None  # a hand set in two: its two cards
    one_card: Card | None = None  # and its card alone

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
    two_card: tuple[Card, ...] | None = None  # a hand set in two: its two cards
    one_card: Card | None = None  # and its card alone


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
