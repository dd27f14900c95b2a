"""Checks on a round that is still being entered (the dealer tablet and the API).

A round is entered step by step in the settle contract's input form: wagers, then the deal,
then each seat's decision, then the dealer's draw. `check_partial` refuses an entry that
already breaks a rule (a bad card, a card used twice, a wrong count, a foul, a bad discard);
the full round is checked by settling it. `dealer_advice` tells the dealer the house way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import lowball, pyramid, second_chance
from .cards import Card, CardLedger, parse_card, parse_cards
from .errors import EngineError, Refusal
from .paytables import Game
from .validation import check_count, describe


def _cards(value: object, where: str) -> tuple[Card, ...]:
    return parse_cards(value if value is not None else [], where=where)


def check_partial(data: Mapping[str, Any]) -> None:
    """Refuse (EngineError) anything entered so far that breaks a rule."""
    game = Game(data["game"])
    ledger = CardLedger()
    dealer = data.get("dealer") or {}
    if dealer.get("cards"):
        dealer_cards = _cards(dealer["cards"], "the dealer's cards")
        check_count(dealer_cards, "the dealer's cards")
        ledger.place(dealer_cards, "the dealer's cards")
    for seat in data.get("seats", []):
        n = seat["seat"]
        if not seat.get("cards"):
            continue
        cards = _cards(seat["cards"], f"seat {n}'s cards")
        check_count(cards, f"seat {n}'s cards")
        ledger.place(cards, f"seat {n}'s cards")
        if game is Game.SECOND_CHANCE and seat.get("mulligan"):
            new = _cards(seat["mulligan"].get("cards"), f"seat {n}'s mulligan cards")
            check_count(new, f"seat {n}'s mulligan cards")
            ledger.place(new, f"seat {n}'s mulligan cards")
        if game is Game.LOWBALL and ("discard" in seat or "draw" in seat):
            draw = _cards(seat.get("draw"), f"seat {n}'s draw")
            lowball.player_final(
                lowball.Seat(
                    n, 1, 1, cards, _cards(seat.get("discard"), f"seat {n}'s discard"), draw
                ),
                f"seat {n}",
            )
            ledger.place(draw, f"seat {n}'s draw")
        if game is Game.PYRAMID and seat.get("one_card"):
            one = parse_card(seat["one_card"], where=f"seat {n}'s one-card hand")
            try:
                pyramid.split(cards, one)
            except EngineError as err:
                raise EngineError(
                    err.code, f"seat {n}: {err.message}", field=f"seat {n} one_card"
                ) from None
    if dealer.get("draw"):
        ledger.place(_cards(dealer["draw"], "the dealer's draw"), "the dealer's draw")


def dealer_advice(game: Game | str, dealer_cards: list[str]) -> dict[str, Any]:
    """The house way for the dealer's first three cards, for the tablet and the API.

    Returns `rule` (words), `discard` (the cards to discard, proposed), `draw_count`, and for
    Pyramid `two_card` / `one_card`; `choices` lists every acceptable Lowball discard.
    """
    cards = parse_cards(dealer_cards, where="the dealer's cards", count=3)
    game = Game(game)
    if game is Game.SECOND_CHANCE:
        draws = second_chance.dealer_draws(cards)
        return {
            "rule": second_chance.house_way_advice(cards),
            "discard": [str(c) for c in cards] if draws else [],
            "draw_count": 3 if draws else 0,
        }
    if game is Game.LOWBALL:
        way = lowball.dealer_house_way(cards)
        return {
            "rule": way.rule,
            "discard": [str(c) for c in way.proposal],
            "draw_count": len(way.proposal),
            "choices": sorted(sorted(str(c) for c in option) for option in way.options),
        }
    setting = pyramid.dealer_setting(cards)
    return {
        "rule": pyramid.house_way_advice(cards),
        "discard": [],
        "draw_count": 0,
        "two_card": [str(c) for c in setting.two_card],
        "one_card": str(setting.one_card),
    }


def player_house_way(cards: list[str]) -> dict[str, Any]:
    """Pyramid "set it for me": how the player's hand is set by the player strategy."""
    parsed = parse_cards(cards, where="the player's cards", count=3)
    setting = pyramid.player_setting(parsed)
    return {"two_card": [str(c) for c in setting.two_card], "one_card": str(setting.one_card)}


__all__ = [
    "EngineError",
    "Refusal",
    "check_partial",
    "dealer_advice",
    "describe",
    "player_house_way",
]
