"""What each person at a Mulligan table may see (`rules/mulligan.md`, "Variants").

`game_view(game, viewer)` is a snapshot with every card the viewer may not see left out
(`None`): build a display from it and it cannot leak. Viewers are a player's seat index,
`TABLE` (the public display the dealer turns to the players: what everyone at the table sees)
and `HOUSE` (the dealer's tablet and the audit: everything, every Secret Offer included).

- Hands are secret to their owner, except under Open Hands and once the game is over (every
  player reveals). The number of cards each holds is public.
- The auctioned card is face up. An offer is face down while offers are collected (its owner
  knows it), turned face up when all are in, except under Secret Offers, where it is never
  shown to the auctioneer or anyone else (a card is shown only when it goes to the discard).
- The face-up discard pile is public (mulliganed cards, and the deck left over at a deck
  ending). **Ruling:** the High Risk burn stays face down for the players even at the end;
  only its size is public (the house record holds it).
- The deck pile is face down; its size is public. Chips are public: stacks, the chips on each
  card on the ring (a stack of chips on a face-down offer is in plain sight), the pot.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tables.engine.cards import Card

from .game import MulliganGame, MulliganResult, Phase, RingCard, Variant, result


class Audience(StrEnum):
    """Viewers who are not a player."""

    TABLE = "table"  # the public table display
    HOUSE = "house"  # the dealer's tablet and the audit: everything


TABLE = Audience.TABLE
HOUSE = Audience.HOUSE
Viewer = int | Audience


@dataclass(frozen=True)
class RingView:
    owner: int
    auctioned: bool  # the auctioned card (else an offer)
    card: Card | None  # None: face down to this viewer
    chips: int


@dataclass(frozen=True)
class SeatView:
    player: int
    active: bool
    cards_held: int
    hand: tuple[Card, ...] | None  # None: hidden from this viewer
    chips: int | None  # None when not playing for chips


@dataclass(frozen=True)
class GameView:
    viewer: Viewer
    variants: frozenset[Variant]
    phase: Phase
    turn: int
    auctioneer: int
    to_act: tuple[int, ...]
    seats: tuple[SeatView, ...]
    ring: tuple[RingView, ...]
    deck_count: int
    burn_count: int
    discard: tuple[Card, ...]  # face up, public
    pot: int
    deck: tuple[Card, ...] | None  # the house only
    burn: tuple[Card, ...] | None  # the house only
    result: MulliganResult | None

    def as_json(self) -> dict[str, Any]:
        """Plain JSON types (cards as `"Ah"`, hidden cards as `null`)."""

        def cards(cs: tuple[Card, ...] | None) -> list[str] | None:
            return None if cs is None else [str(c) for c in cs]

        r = self.result
        return {
            "viewer": self.viewer if isinstance(self.viewer, int) else self.viewer.value,
            "variants": sorted(v.value for v in self.variants),
            "phase": self.phase.value,
            "turn": self.turn,
            "auctioneer": self.auctioneer,
            "to_act": list(self.to_act),
            "seats": [
                {
                    "player": s.player,
                    "active": s.active,
                    "cards_held": s.cards_held,
                    "hand": cards(s.hand),
                    "chips": s.chips,
                }
                for s in self.seats
            ],
            "ring": [
                {
                    "owner": v.owner,
                    "auctioned": v.auctioned,
                    "card": None if v.card is None else str(v.card),
                    "chips": v.chips,
                }
                for v in self.ring
            ],
            "deck_count": self.deck_count,
            "burn_count": self.burn_count,
            "discard": cards(self.discard),
            "pot": self.pot,
            "deck": cards(self.deck),
            "burn": cards(self.burn),
            "result": None
            if r is None
            else {
                "ended_by": r.ended_by.value,
                "winner": r.winner,
                "categories": [c.value for c in r.categories],
                "discards": r.discards,
                "pot": r.pot,
                "rake": r.rake,
                "chips": None if r.chips is None else list(r.chips),
            },
        }


def hand_visible(game: MulliganGame, viewer: Viewer, player: int) -> bool:
    return viewer in (HOUSE, player) or Variant.OPEN_HANDS in game.setup.variants or game.is_over


def ring_card_visible(game: MulliganGame, viewer: Viewer, ring_card: RingCard) -> bool:
    if viewer == HOUSE or ring_card is game.lot or viewer == ring_card.owner:
        return True
    return game.phase is Phase.DECISION and Variant.SECRET_OFFERS not in game.setup.variants


def game_view(game: MulliganGame, viewer: Viewer) -> GameView:
    """The game as `viewer` may see it."""
    if not isinstance(viewer, Audience) and (
        isinstance(viewer, bool) or not 0 <= viewer < game.players
    ):
        raise ValueError(f"there is no player {viewer!r} to show the game to")
    house = viewer == HOUSE
    return GameView(
        viewer=viewer,
        variants=game.setup.variants,
        phase=game.phase,
        turn=game.turn,
        auctioneer=game.auctioneer,
        to_act=game.to_act,
        seats=tuple(
            SeatView(
                player=p,
                active=game.active[p],
                cards_held=len(game.hands[p]),
                hand=game.hands[p] if hand_visible(game, viewer, p) else None,
                chips=None if game.stacks is None else game.stacks[p],
            )
            for p in range(game.players)
        ),
        ring=tuple(
            RingView(
                owner=r.owner,
                auctioned=r is game.lot,
                card=r.card if ring_card_visible(game, viewer, r) else None,
                chips=r.chips,
            )
            for r in game.ring
        ),
        deck_count=len(game.deck),
        burn_count=len(game.burn),
        discard=game.discard,
        pot=game.pot,
        deck=game.deck if house else None,
        burn=game.burn if house else None,
        result=result(game) if game.is_over else None,
    )
