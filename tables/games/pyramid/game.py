"""Pyramid Poker: each side splits three cards into a two-card and a one-card hand.

Aces are high; no straights or flushes. A copy (equal hands) goes to the dealer. The dealer
sets by the house way; a player who asks "set it for me" gets the published player strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from tables.engine.cards import Card, card_words
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable
from tables.engine.settlement import DealerAction, DealerResult, Line, SeatResult, Settlement
from tables.engine.validation import check_count, check_stake, describe, open_ledger

JACK, QUEEN, KING, ACE = 11, 12, 13, 14


class TwoCardHand(StrEnum):
    PAIR = "pair"
    HIGH_CARD = "high_card"


_HAND_NAME = {h: h.value for h in TwoCardHand}  # without the enum's `value` property
NAME: Final = "pyramid"  # as the contracts write it


@dataclass(frozen=True, slots=True)
class Setting:
    """A split of three cards: the two-card hand (higher card first) and the one-card hand."""

    two_card: tuple[Card, Card]
    one_card: Card

    @property
    def is_pair(self) -> bool:
        return self.two_card[0].rank == self.two_card[1].rank

    @property
    def hand(self) -> TwoCardHand:
        return TwoCardHand.PAIR if self.is_pair else TwoCardHand.HIGH_CARD

    def two_card_score(self) -> tuple[int, int, int]:
        hi, lo = self.two_card
        return (1, hi.rank, 0) if self.is_pair else (0, hi.rank, lo.rank)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    ante_cents: int
    cards: tuple[Card, ...]
    one_card: Card | None = None  # None: the player asked the dealer to set it (house way)


@dataclass(frozen=True, slots=True)
class Round:
    dealer_cards: tuple[Card, ...]
    seats: tuple[Seat, ...]


def split(cards: Sequence[Card], one_card: Card) -> Setting:
    """The setting that puts `one_card` alone; refuses (foul) a single above the two-card hand."""
    if one_card not in cards:
        raise EngineError(
            Refusal.FOUL, f"{one_card} is not one of the cards {describe(cards)}", field="one_card"
        )
    rest = [c for c in cards if c != one_card]
    hi, lo = sorted(rest, key=lambda c: c.rank, reverse=True)
    setting = Setting((hi, lo), one_card)
    if not setting.is_pair and one_card.rank > hi.rank:
        raise EngineError(
            Refusal.FOUL,
            f"{one_card} alone is higher than the two-card hand {hi} {lo}: "
            "the one-card hand must rank below the two-card hand",
            field="one_card",
        )
    return setting


def _pair_and_single(cards: Sequence[Card]) -> tuple[list[Card], Card] | None:
    ranks = [c.rank for c in cards]
    for card in cards:
        if ranks.count(card.rank) == 1:
            return [c for c in cards if c != card], card
    return None


def dealer_setting(cards: Sequence[Card]) -> Setting:
    """The dealer's house way."""
    check_count(cards, "the dealer's cards")
    ordered = sorted(cards, key=lambda c: c.rank, reverse=True)
    ranks = [c.rank for c in ordered]
    if len(set(ranks)) == 3:
        return split(cards, ordered[1])  # three singletons: the middle card alone
    if len(set(ranks)) == 1:
        return split(cards, ordered[2])  # trips (ruling): the pair together, the third alone
    found = _pair_and_single(cards)
    assert found is not None
    pair, single = found
    # Pairs of 2s-8s always together; 9s and up together only with a single of (rank - 3) or more.
    together = pair[0].rank <= 8 or single.rank >= pair[0].rank - 3
    return split(cards, single if together else pair[0])


def player_setting(cards: Sequence[Card]) -> Setting:
    """The player strategy, used when a player asks the dealer to set the hand."""
    check_count(cards, "the player's cards")
    ordered = sorted(cards, key=lambda c: c.rank)
    lo, mid, hi = (c.rank for c in ordered)
    if len({lo, mid, hi}) == 3:
        lowest_alone = (lo, mid) == (2, 3) and hi >= 5 or (lo, mid) == (2, 4) and hi >= QUEEN
        return split(cards, ordered[0] if lowest_alone else ordered[1])
    if lo == hi:
        return split(cards, ordered[0])
    found = _pair_and_single(cards)
    assert found is not None
    pair, single = found
    p, s = pair[0].rank, single.rank
    split_pair = (
        (2 <= s <= 4 and p >= JACK)
        or (5 <= s <= 7 and p >= QUEEN)
        or (8 <= s <= 9 and p >= KING)
        or (10 <= s <= JACK and p == ACE)
    )
    return split(cards, pair[0] if split_pair else single)


def house_way_advice(cards: Sequence[Card]) -> str:
    """The dealer's setting, in words for the tablet."""
    s = dealer_setting(cards)
    two, one = " ".join(card_words(c) for c in s.two_card), card_words(s.one_card)
    return f"Set {two} as the two-card hand and {one} alone."


def settle(round_: Round, paytable: Paytable) -> Settlement:
    """Settle a whole round; refuses (EngineError) a round that breaks a rule, settling nothing."""
    ledger = open_ledger(NAME, paytable, (s.seat for s in round_.seats), round_.dealer_cards)
    for seat in round_.seats:
        where = f"seat {seat.seat}'s cards"
        check_count(seat.cards, where)
        ledger.place(seat.cards, where)
        if seat.ante_cents <= 0:  # (check_stake's condition, so as to name the wager only then)
            check_stake(seat.ante_cents, f"seat {seat.seat}'s ante")
    settings = []
    for seat in round_.seats:
        if seat.one_card is None:
            settings.append(player_setting(seat.cards))
            continue
        try:
            settings.append(split(seat.cards, seat.one_card))
        except EngineError as err:
            raise EngineError(
                err.code, f"seat {seat.seat}: {err.message}", field=f"seat {seat.seat} one_card"
            ) from None
    dealer = dealer_setting(round_.dealer_cards)
    odds = paytable.tables["ante"]["win"]
    seats = []
    for seat, setting in zip(round_.seats, settings, strict=True):
        wins = int(setting.two_card_score() > dealer.two_card_score())
        wins += int(setting.one_card.rank > dealer.one_card.rank)
        if wins == 2:
            line = Line.won("ante", seat.ante_cents, odds)
        elif wins == 1:
            line = Line.pushed("ante", seat.ante_cents)
        else:
            line = Line.lost("ante", seat.ante_cents)
        seats.append(
            SeatResult(
                seat.seat,
                seat.cards,
                _HAND_NAME[setting.hand],
                (line,),
                two_card=setting.two_card,
                one_card=setting.one_card,
            )
        )
    return Settlement(
        NAME,
        paytable.name,
        DealerResult(
            cards=round_.dealer_cards,
            action=DealerAction.SET,
            two_card=dealer.two_card,
            one_card=dealer.one_card,
        ),
        tuple(seats),
    )
