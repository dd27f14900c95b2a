"""Three Card 2nd Chance (Three Card Mulligan Poker): house way and settlement.

A player may trade the first hand for a second (a mulligan) by placing a Raise equal to the
Ante. The dealer stands on king-high or better and otherwise replaces all three cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from tables.engine.cards import Card
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable
from tables.engine.rankings import CATEGORY_NAME, Category, poker_value
from tables.engine.settlement import DealerAction, DealerResult, Line, SeatResult, Settlement
from tables.engine.validation import check_count, check_stake, describe, open_ledger

NAME: Final = "second_chance"  # as the contracts write it


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    ante_cents: int
    cards: tuple[Card, ...]
    pair_plus_cents: int = 0
    mulligan: tuple[Card, ...] | None = None  # the three new cards, when the player raised
    mulligan_pair_plus_cents: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    dealer_cards: tuple[Card, ...]
    seats: tuple[Seat, ...]
    dealer_draw: tuple[Card, ...] = ()


def dealer_draws(cards: Sequence[Card]) -> bool:
    """House way: stand on king-high or better; replace the hand on queen-high or worse.

    Ruling: every pair, flush, straight, trips and straight flush stands, whatever its cards;
    only high-card hands whose highest card is a queen or lower are replaced.
    """
    value = poker_value(cards)
    return value.category is Category.HIGH_CARD and max(c.rank for c in cards) <= 12


def house_way_advice(cards: Sequence[Card]) -> str:
    """What the dealer must do, in words for the tablet."""
    if dealer_draws(cards):
        return "Queen-high or worse: discard all three cards and deal the dealer three new cards."
    return "King-high or better: the dealer stands."


def settle(round_: Round, paytable: Paytable) -> Settlement:
    """Settle a whole round; refuses (EngineError) a round that breaks a rule, settling nothing."""
    ledger = open_ledger(NAME, paytable, (s.seat for s in round_.seats), round_.dealer_cards)
    for seat in round_.seats:
        where = f"seat {seat.seat}'s cards"
        check_count(seat.cards, where)
        ledger.place(seat.cards, where)
        if seat.mulligan is not None:
            where = f"seat {seat.seat}'s mulligan cards"
            check_count(seat.mulligan, where)
            ledger.place(seat.mulligan, where)
        if seat.ante_cents <= 0:  # (the checks' conditions, so as to name the wager only then)
            check_stake(seat.ante_cents, f"seat {seat.seat}'s ante")
        if seat.pair_plus_cents < 0:
            check_stake(seat.pair_plus_cents, f"seat {seat.seat}'s pair plus", optional=True)
        if seat.mulligan_pair_plus_cents < 0:
            check_stake(
                seat.mulligan_pair_plus_cents,
                f"seat {seat.seat}'s mulligan pair plus",
                optional=True,
            )
        if seat.mulligan_pair_plus_cents and seat.mulligan is None:
            raise EngineError(
                Refusal.BAD_WAGER,
                f"seat {seat.seat} has a mulligan pair plus but took no mulligan",
                field=f"seat {seat.seat} mulligan pair plus",
            )

    draws = dealer_draws(round_.dealer_cards)
    if not draws and round_.dealer_draw:
        raise EngineError(
            Refusal.HOUSE_WAY,
            f"the dealer stands on {describe(round_.dealer_cards)} (king-high or better) "
            "and may not draw",
            field="dealer.draw",
        )
    if draws and len(round_.dealer_draw) != 3:
        raise EngineError(
            Refusal.HOUSE_WAY,
            f"the dealer's {describe(round_.dealer_cards)} is queen-high or worse: the dealer "
            f"must draw exactly 3 new cards, not {len(round_.dealer_draw)}",
            field="dealer.draw",
        )
    ledger.place(round_.dealer_draw, "the dealer's draw")

    dealer_final = round_.dealer_draw if draws else round_.dealer_cards
    dealer_value = poker_value(dealer_final)
    ante_table = paytable.tables["ante"]
    pair_plus_table = paytable.tables["pair_plus"]
    seats = []
    for seat in round_.seats:
        final = seat.mulligan if seat.mulligan is not None else seat.cards
        value = poker_value(final)
        main = ["ante"] + (["raise"] if seat.mulligan is not None else [])
        lines: list[Line] = []
        for wager in main:
            if value.score > dealer_value.score:
                lines.append(Line.won(wager, seat.ante_cents, ante_table[value.category]))
            elif value.score == dealer_value.score:
                lines.append(Line.pushed(wager, seat.ante_cents))
            else:
                lines.append(Line.lost(wager, seat.ante_cents))
        if seat.pair_plus_cents:
            lines.append(_pair_plus("pair_plus", seat.pair_plus_cents, seat.cards, pair_plus_table))
        if seat.mulligan is not None and seat.mulligan_pair_plus_cents:
            lines.append(
                _pair_plus(
                    "mulligan_pair_plus",
                    seat.mulligan_pair_plus_cents,
                    seat.mulligan,
                    pair_plus_table,
                )
            )
        seats.append(SeatResult(seat.seat, final, CATEGORY_NAME[value.category], tuple(lines)))
    dealer = DealerResult(
        cards=round_.dealer_cards,
        action=DealerAction.DRAW if draws else DealerAction.STAND,
        discard=round_.dealer_cards if draws else (),
        final=dealer_final,
        hand=CATEGORY_NAME[dealer_value.category],
    )
    return Settlement(NAME, paytable.name, dealer, tuple(seats))


def _pair_plus(
    wager: str, stake: int, cards: Sequence[Card], table: Mapping[str, Fraction]
) -> Line:
    """Pair Plus is decided by that hand alone, whatever the dealer holds."""
    odds = table.get(CATEGORY_NAME[poker_value(cards).category])
    return Line.won(wager, stake, odds) if odds is not None else Line.lost(wager, stake)
