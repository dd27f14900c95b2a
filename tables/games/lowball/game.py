"""Three Card Lowball: the dealer's house way (which cards to discard), settlement of the
Ante and Bonus, and the progressive side bet's awards.

The lower hand wins (`rankings.low_value`). The house way is applied in the order of the
rules; where it leaves a free choice the engine proposes one and accepts any equivalent one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from types import MappingProxyType
from typing import Final

from tables.engine.cards import Card
from tables.engine.errors import EngineError, Refusal
from tables.engine.money import format_cents
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import JACKPOT, MeterConfig, apply_round, awards_of
from tables.engine.rankings import Category, low_value
from tables.engine.settlement import (
    DealerAction,
    DealerResult,
    Line,
    Result,
    SeatResult,
    Settlement,
)
from tables.engine.validation import check_count, check_stake, describe, open_ledger

from .hands import is_a24, lowball_hand_name

TEN = 10
_EVEN = Fraction(1)
_SUIT_ORDER = {"s": 3, "h": 2, "c": 1, "d": 0}
NAME: Final = "lowball"  # as the contracts write it

# The progressive's fixed awards (the jackpot is the meter's own share), with the amounts a
# meter pays unless it is set otherwise: the first three cards 4-2-A of one colour, of two,
# and a winning final hand of 4 high or 5 high.
ONE_COLOUR: Final = "one_colour"
TWO_COLOUR: Final = "two_colour"
FOUR_HIGH: Final = "four_high"
FIVE_HIGH: Final = "five_high"
AWARDS_CENTS: Final[Mapping[str, int]] = MappingProxyType(
    {ONE_COLOUR: 20000, TWO_COLOUR: 5000, FOUR_HIGH: 1000, FIVE_HIGH: 300}
)
# immutable: shared by every round without a meter of its own
DEFAULT_METER: Final = MeterConfig(awards_cents=AWARDS_CENTS)


def meter_awards(meter: MeterConfig) -> Mapping[str, int]:
    """The meter's fixed awards, Lowball's defaults when it names none (refused: a meter
    missing one of them, or naming another)."""
    return awards_of(meter, AWARDS_CENTS)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    ante_cents: int
    bonus_cents: int
    cards: tuple[Card, ...]
    discard: tuple[Card, ...] = ()
    draw: tuple[Card, ...] = ()
    progressive_cents: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    dealer_cards: tuple[Card, ...]
    seats: tuple[Seat, ...]
    dealer_draw: tuple[Card, ...] = ()
    dealer_discard: tuple[Card, ...] | None = None  # None: the engine's proposal
    progressive: MeterConfig | None = None


@dataclass(frozen=True, slots=True)
class HouseWay:
    """The dealer's discard by the house way: a proposal, every acceptable choice, and why."""

    rule: str
    proposal: tuple[Card, ...]
    options: frozenset[frozenset[Card]]

    def accepts(self, discard: Sequence[Card]) -> bool:
        return frozenset(discard) in self.options and len(set(discard)) == len(discard)


def _high_first(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (c.low_rank, _SUIT_ORDER[c.suit]), reverse=True)


def dealer_house_way(cards: Sequence[Card]) -> HouseWay:
    """Which of the dealer's three cards to discard ("ten or higher" is T J Q K; aces low)."""
    check_count(cards, "the dealer's cards")
    value = low_value(cards)
    hi = _high_first(cards)
    choice: tuple[Card, ...]
    if value.category is Category.THREE_OF_A_KIND:
        options = frozenset(frozenset(pair) for pair in combinations(cards, 2))
        return HouseWay("Three of a kind: discard any two of the three.", tuple(hi[:2]), options)
    if value.category in (Category.FLUSH, Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        name = value.category.value.replace("_", " ")
        if hi[0].low_rank >= TEN and hi[1].low_rank >= TEN:
            choice = (hi[0], hi[1])
            rule = f"{name.capitalize()} with its two highest cards ten or higher: discard both."
        else:
            choice = (hi[0],)
            rule = f"{name.capitalize()}: discard the highest card."
        return HouseWay(rule, choice, frozenset({frozenset(choice)}))
    if value.category is Category.PAIR:
        ranks = [c.low_rank for c in cards]
        pair_rank = next(r for r in ranks if ranks.count(r) == 2)
        pair = [c for c in cards if c.low_rank == pair_rank]
        kicker = next(c for c in cards if c.low_rank != pair_rank)
        if pair_rank > kicker.low_rank and pair_rank >= TEN:
            choice = tuple(pair)
            return HouseWay(
                "Pair: discard one card of the pair, then the other (ten or higher) as well.",
                choice,
                frozenset({frozenset(choice)}),
            )
        if kicker.low_rank > pair_rank and kicker.low_rank >= TEN:
            options = frozenset(frozenset((p, kicker)) for p in pair)
            return HouseWay(
                f"Pair: discard one card of the pair, then the {kicker} (ten or higher) as well.",
                (pair[0], kicker),
                options,
            )
        matching = [p for p in pair if p.suit == kicker.suit]
        if matching:
            return HouseWay(
                f"Pair: discard the pair card of the {kicker}'s suit, the {matching[0]}.",
                (matching[0],),
                frozenset({frozenset(matching)}),
            )
        return HouseWay(
            "Pair: discard one card of the pair (either).",
            (pair[0],),
            frozenset(frozenset((p,)) for p in pair),
        )
    high = [c for c in hi if c.low_rank >= TEN]
    if len(high) == 3:
        choice = tuple(hi[:2])
        rule = "All three ten or higher: keep the lowest, discard the other two."
    elif high:
        choice = tuple(high)
        rule = f"No pair: discard every card ten or higher ({describe(high)})."
    else:
        choice = ()
        rule = "No pair and nothing ten or higher: the dealer stands."
    return HouseWay(rule, choice, frozenset({frozenset(choice)}))


def progressive_award(
    first: Sequence[Card],
    final: Sequence[Card],
    dealer_first: Sequence[Card],
    player_wins: bool,
    *,
    final_name: str | None = None,
    dealer_a24: bool | None = None,
) -> str | None:
    """The seat's highest qualifying progressive award, or None (the wager loses).

    `final_name` (the final hand's `lowball_hand_name`) and `dealer_a24` may be passed when
    the caller has them already.
    """
    first_a24 = is_a24(first)
    if first_a24 and (is_a24(dealer_first) if dealer_a24 is None else dealer_a24):
        return JACKPOT
    if not player_wins:
        return None
    if first_a24:
        one_colour = len({c.is_red for c in first}) == 1
        return ONE_COLOUR if one_colour else TWO_COLOUR
    name = final_name or lowball_hand_name(final)
    if name in ("a24_one_colour", "a24_two_colour", "a34"):
        return FOUR_HIGH
    if name == "five_high":
        return FIVE_HIGH
    return None


def settle(round_: Round, paytable: Paytable) -> Settlement:
    """Settle a whole round; refuses (EngineError) a round that breaks a rule, settling nothing."""
    ledger = open_ledger(NAME, paytable, (s.seat for s in round_.seats), round_.dealer_cards)
    finals: list[tuple[Card, ...]] = []
    for seat in round_.seats:
        where = f"seat {seat.seat}"
        cards_where = f"{where}'s cards"
        check_count(seat.cards, cards_where)
        ledger.place(seat.cards, cards_where)
        finals.append(player_final(seat, where))
        if seat.draw:
            ledger.place(seat.draw, f"{where}'s draw")
        if seat.ante_cents <= 0:  # (check_stake's condition, so as to name the wager only then)
            check_stake(seat.ante_cents, f"{where}'s ante")
        if seat.bonus_cents != seat.ante_cents:
            raise EngineError(
                Refusal.BAD_WAGER,
                f"{where}'s bonus must equal the ante ({format_cents(seat.ante_cents)}), "
                f"not {format_cents(seat.bonus_cents)}",
                field=f"{where} bonus",
            )
        if seat.progressive_cents:
            check_stake(seat.progressive_cents, f"{where}'s progressive", optional=True)
            wager = (round_.progressive or DEFAULT_METER).wager_cents
            if seat.progressive_cents != wager:
                raise EngineError(
                    Refusal.BAD_WAGER,
                    f"{where}'s progressive wager must be {format_cents(wager)}, "
                    f"not {format_cents(seat.progressive_cents)}",
                    field=f"{where} progressive",
                )

    way = dealer_house_way(round_.dealer_cards)
    discard = way.proposal if round_.dealer_discard is None else round_.dealer_discard
    if round_.dealer_discard is not None:
        strays = [c for c in discard if c not in round_.dealer_cards]
        if strays:
            raise EngineError(
                Refusal.HOUSE_WAY,
                f"the dealer's discard {strays[0]} is not one of the dealer's cards",
                field="dealer.discard",
            )
        if not way.accepts(discard):
            raise EngineError(
                Refusal.HOUSE_WAY,
                f"the house way on {describe(round_.dealer_cards)} does not discard "
                f"{describe(discard) or 'nothing'}: {way.rule}",
                field="dealer.discard",
            )
    if len(round_.dealer_draw) != len(discard):
        raise EngineError(
            Refusal.HOUSE_WAY,
            f"the dealer discards {len(discard)} card{'s' if len(discard) != 1 else ''} "
            f"({describe(discard) or 'none'}) and must draw as many, not {len(round_.dealer_draw)}",
            field="dealer.draw",
        )
    ledger.place(round_.dealer_draw, "the dealer's draw")
    dealer_final = tuple(c for c in round_.dealer_cards if c not in discard) + round_.dealer_draw
    dealer_value = low_value(dealer_final)
    dealer_score = dealer_value.score

    bonus_table = paytable.tables["bonus"]
    meter = round_.progressive
    has_progressive = meter is not None or any(s.progressive_cents for s in round_.seats)
    config = meter or DEFAULT_METER
    fixed = meter_awards(config) if has_progressive else AWARDS_CENTS
    awards: dict[int, str] = {}
    names: dict[int, str] = {}
    dealer_a24: bool | None = None  # worked out for the first progressive seat
    partial: list[tuple[Seat, tuple[Card, ...], list[Line]]] = []
    for seat, final in zip(round_.seats, finals, strict=True):
        value = low_value(final)
        name = names[seat.seat] = lowball_hand_name(final, value)
        lines = _main_lines(seat, name, value.score, dealer_score, bonus_table)
        if seat.progressive_cents:
            if dealer_a24 is None:
                dealer_a24 = is_a24(round_.dealer_cards)
            award = progressive_award(
                seat.cards,
                final,
                round_.dealer_cards,
                value.score < dealer_score,
                final_name=name,
                dealer_a24=dealer_a24,
            )
            if award is not None:
                awards[seat.seat] = award
        partial.append((seat, final, lines))

    result = None
    shares: dict[int, int] = {}
    if has_progressive:
        stakes = [s.progressive_cents for s in round_.seats if s.progressive_cents]
        jackpots = [seat for seat, award in awards.items() if award == JACKPOT]
        result, shares = apply_round(config, stakes, jackpots)

    seats = []
    for seat, final, lines in partial:
        if seat.progressive_cents:
            award = awards.get(seat.seat)
            stake = seat.progressive_cents
            if award is None:
                lines.append(Line.lost("progressive", stake))
            else:
                amount = shares[seat.seat] if award == JACKPOT else fixed[award]
                lines.append(Line("progressive", stake, Result.WIN, amount - stake, award=award))
        seats.append(SeatResult(seat.seat, final, names[seat.seat], tuple(lines)))
    dealer = DealerResult(
        cards=round_.dealer_cards,
        action=DealerAction.DRAW if discard else DealerAction.STAND,
        discard=tuple(discard),
        final=dealer_final,
        hand=lowball_hand_name(dealer_final, dealer_value),
    )
    return Settlement(NAME, paytable.name, dealer, tuple(seats), result)


def player_final(seat: Seat, where: str) -> tuple[Card, ...]:
    """The seat's final hand after its discards and draws, refusing a draw against the rules."""
    if len(seat.discard) > 2:
        raise EngineError(
            Refusal.CARD_COUNT,
            f"{where} may discard at most 2 cards (discarding all three is not allowed), "
            f"not {len(seat.discard)}",
            field=f"{where} discard",
        )
    if len(set(seat.discard)) != len(seat.discard):
        raise EngineError(
            Refusal.DUPLICATE_CARD,
            f"{where} discards the same card twice",
            field=f"{where} discard",
        )
    for card in seat.discard:
        if card not in seat.cards:
            raise EngineError(
                Refusal.BAD_CARD,
                f"{where} discards {card}, which is not one of its cards ({describe(seat.cards)})",
                field=f"{where} discard",
            )
    if len(seat.draw) != len(seat.discard):
        raise EngineError(
            Refusal.CARD_COUNT,
            f"{where} discards {len(seat.discard)} and must draw as many cards, "
            f"not {len(seat.draw)}",
            field=f"{where} draw",
        )
    return tuple(c for c in seat.cards if c not in seat.discard) + seat.draw


def _main_lines(
    seat: Seat, hand_name: str, score: int, dealer_score: int, bonus: Mapping[str, Fraction]
) -> list[Line]:
    if score > dealer_score:
        return [Line.lost("ante", seat.ante_cents), Line.lost("bonus", seat.bonus_cents)]
    if score == dealer_score:
        return [Line.pushed("ante", seat.ante_cents), Line.pushed("bonus", seat.bonus_cents)]
    odds = bonus.get(hand_name)
    bonus_line = (
        Line.won("bonus", seat.bonus_cents, odds)
        if odds is not None
        else Line.pushed("bonus", seat.bonus_cents)
    )
    return [Line.won("ante", seat.ante_cents, _EVEN), bonus_line]
