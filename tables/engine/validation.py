"""Checks shared by the games; each refusal names the seat, card or wager at fault."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import Card, CardLedger
from .errors import EngineError, Refusal
from .paytable_types import Paytable

MAX_SEAT = 7


def check_count(cards: Sequence[Card], where: str, count: int = 3) -> None:
    if len(cards) != count:
        raise EngineError(
            Refusal.CARD_COUNT, f"{where} must be {count} cards, not {len(cards)}", field=where
        )


def check_seat_numbers(numbers: Iterable[int]) -> None:
    seen: set[int] = set()
    for number in numbers:
        if not 1 <= number <= MAX_SEAT:
            raise EngineError(
                Refusal.BAD_SEAT, f"seat {number} does not exist: seats are 1 to {MAX_SEAT}"
            )
        if number in seen:
            raise EngineError(Refusal.BAD_SEAT, f"seat {number} appears twice")
        seen.add(number)
    if not seen:
        raise EngineError(Refusal.BAD_SEAT, "a round needs at least one occupied seat")


def check_stake(cents: int, where: str, *, optional: bool = False) -> None:
    if cents < 0 or (cents == 0 and not optional):
        raise EngineError(Refusal.BAD_WAGER, f"{where} must be more than zero", field=where)


def describe(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def open_ledger(
    game: str, paytable: Paytable, seat_numbers: Iterable[int], dealer_cards: Sequence[Card]
) -> CardLedger:
    """The checks every game's settlement starts with: the paytable is the game's, the seat
    numbers are valid, the dealer has three cards; returns the round's card ledger."""
    if paytable.game != game:
        raise EngineError(
            Refusal.BAD_PAYTABLE, f"paytable {paytable.name!r} is not a {game} paytable"
        )
    check_seat_numbers(seat_numbers)
    ledger = CardLedger()
    check_count(dealer_cards, "the dealer's cards")
    ledger.place(dealer_cards, "the dealer's cards")
    return ledger
