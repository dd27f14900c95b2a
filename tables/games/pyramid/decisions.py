"""Pyramid Poker's decision cost: the setting of a seat's three cards, exactly.

What the player knew: the seat's own three cards. Every legal setting (each card that may go
alone without fouling) is valued over every dealer hand from the 49 cards the player did not
hold (18,424 hands, each equally likely; other seats' cards are as unseen as the deck), the
dealer setting by the house way, with the table's Ante odds: a win of both hands pays the odds,
one of each pushes, otherwise the Ante loses. Counted by rank class as `edge.setting_counts`
does (suits play no part): the dealer hands of each of the 455 rank classes left in the 49
cards, each compared once. A seat set "by the house way" made the player strategy's choice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any, Final

from tables.engine.cards import Card, parse_card
from tables.engine.contract import cards_at, seat_entries, seat_wagers, stake
from tables.engine.decision_cost import cost
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable

from . import edge
from . import game as pyramid

DEALER_HANDS: Final = comb(49, 3)


@cache
def _class_counts(ranks: tuple[int, int, int]) -> dict[int, edge.SettingCounts]:
    """Per legal setting (by the rank alone) of a hand of these ranks: the dealer hands of the
    49 other cards it wins both, splits, loses (the house edge's own count, one class)."""
    player = next(c for c in edge.rank_classes() if c.ranks == ranks)
    return {counts.alone: counts for counts in edge.class_counts(player)}


def setting_values(cards: Sequence[Card], ante_cents: int, odds: Fraction) -> dict[int, Fraction]:
    """Each legal setting's expected net in cents, by the rank of the card put alone."""
    a, b, c = sorted(card.rank for card in cards)
    counts = _class_counts((a, b, c))
    return {
        alone: Fraction(ante_cents) * n.value(odds) / DEALER_HANDS for alone, n in counts.items()
    }


def chosen_alone(seat: Mapping[str, Any], cards: Sequence[Card]) -> int:
    """The rank the seat put alone: its `one_card`, or the player strategy's card."""
    if seat.get("house_way") is True:
        return pyramid.player_setting(cards).one_card.rank
    return parse_card(seat.get("one_card"), where=f"seat {seat.get('seat')}'s one_card").rank


def decision_cost(entry: Mapping[str, Any], n: int, paytable: Paytable) -> Decimal:
    """The seat's setting's cost against the best setting, in cents (exact)."""
    seat = _seat(entry, n)
    cards = cards_at(seat.get("cards"), f"seat {n}'s cards")
    ante = stake(seat_wagers(seat, n, ("ante",)), "ante", n, required=True)
    values = setting_values(cards, ante, paytable.tables["ante"]["win"])
    alone = chosen_alone(seat, cards)
    if alone not in values:
        raise EngineError(
            Refusal.FOUL, f"seat {n}'s one-card hand fouls", field=f"seat {n} one_card"
        )
    return cost(values, alone)


def _seat(entry: Mapping[str, Any], n: int) -> Mapping[str, Any]:
    for number, seat in seat_entries(entry):
        if number == n:
            return seat
    raise EngineError(Refusal.BAD_SEAT, f"the round has no seat {n}", field="seat")
