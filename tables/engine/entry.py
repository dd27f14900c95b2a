"""Checks on a round that is still being entered (the dealer tablet and the API).

A round is entered step by step in the settle contract's input form: wagers, then the deal,
then each seat's decision, then the dealer's draw. `check_partial` refuses an entry that
already breaks a rule (a bad card, a card used twice, a wrong count, a foul, a bad discard);
the full round is checked by settling it. `dealer_advice` tells the dealer the house way. What
a seat enters beyond its first cards, and the house way, are the game's (its rules,
`tables.engine.registry`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import registry
from .cards import Card, CardLedger, parse_cards
from .errors import EngineError, Refusal
from .validation import check_count, describe


def entered_cards(value: object, where: str) -> tuple[Card, ...]:
    """Cards entered so far (none: no cards), parsed."""
    return parse_cards(value if value is not None else [], where=where)


def check_partial(data: Mapping[str, Any]) -> None:
    """Refuse (EngineError) anything entered so far that breaks a rule."""
    rules = registry.banked_rules(data["game"])
    ledger = CardLedger()
    dealer = data.get("dealer") or {}
    if dealer.get("cards"):
        dealer_cards = entered_cards(dealer["cards"], "the dealer's cards")
        check_count(dealer_cards, "the dealer's cards")
        ledger.place(dealer_cards, "the dealer's cards")
    for seat in data.get("seats", []):
        n = seat["seat"]
        if not seat.get("cards"):
            continue
        cards = entered_cards(seat["cards"], f"seat {n}'s cards")
        check_count(cards, f"seat {n}'s cards")
        ledger.place(cards, f"seat {n}'s cards")
        rules.check_seat(n, seat, cards, ledger)
    if dealer.get("draw"):
        ledger.place(entered_cards(dealer["draw"], "the dealer's draw"), "the dealer's draw")


def dealer_advice(game: str, dealer_cards: list[str]) -> dict[str, Any]:
    """The house way for the dealer's first three cards, for the tablet and the API.

    Returns `rule` (words), `discard` (the cards to discard, proposed), `draw_count`, and what
    the game adds (how to set the cards, every acceptable discard).
    """
    cards = parse_cards(dealer_cards, where="the dealer's cards", count=3)
    return registry.banked_rules(game).dealer_advice(cards)


__all__ = [
    "EngineError",
    "Refusal",
    "check_partial",
    "dealer_advice",
    "describe",
    "entered_cards",
]
