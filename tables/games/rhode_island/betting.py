"""PokerKit's `State` for a hand of Rhode Island Hold 'Em: the only module of the game that
imports PokerKit (`game.RhodeIslandHand` imports it with its first hand; see `game`'s module
doc for what PokerKit plays and what the game adds)."""

from __future__ import annotations

from typing import Final

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    Opening,
    RhodeIslandHoldemHand,
    State,
    Street,
)
from pokerkit import Card as PokerKitCard

from tables.engine.cards import DECK, Card

AUTOMATIONS: Final = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
)
POKERKIT_CARD: Final[dict[Card, PokerKitCard]] = {
    card: next(c for c in Deck.STANDARD if repr(c) == str(card)) for card in DECK
}


class NoAnteState(State):
    """PokerKit's `State` for a game without an ante.

    PokerKit refuses a state with no ante, blind or bring-in ("No antes, blinds, straddles, or
    bring-in was supplied."), but the contract allows `ante: 0`. It is created with a one-chip
    ante, which passes PokerKit's checks, and the antes are zeroed before PokerKit sets up the
    hand (nothing reads them before `_setup`): then nobody posts anything.
    """

    def _setup(self) -> None:
        self.antes = (0,) * self.player_count
        super()._setup()


def new_state(
    ante: int,
    bets: tuple[int, int, int],
    raise_cap: int,
    stacks: tuple[int, ...],
    deck: tuple[PokerKitCard, ...],
) -> State:
    """A fixed-limit state with `ante`, the three rounds' bet sizes and `raise_cap` raises a
    round, `stacks` in PokerKit's player order, dealing from `deck` (in that order)."""
    cap = raise_cap + 1  # PokerKit counts the bet among its "completions, bets or raises"
    streets = (
        Street(False, (False,), 0, False, Opening.POSITION, bets[0], cap),
        Street(False, (), 1, False, Opening.POSITION, bets[1], cap),
        Street(False, (), 1, False, Opening.POSITION, bets[2], cap),
    )
    cls = State if ante else NoAnteState
    return cls(
        AUTOMATIONS,
        deck,  # type: ignore[arg-type]  # any tuple of cards serves as the deck
        (RhodeIslandHoldemHand,),
        streets,
        BettingStructure.FIXED_LIMIT,
        True,  # ante trimming: an ante nobody could match comes back to its owner
        ante or 1,
        0,
        0,
        stacks,
        len(stacks),
        mode=Mode.TOURNAMENT,
    )
