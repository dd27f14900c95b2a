"""Helpers for the Mulligan engine tests: deals from text, scripted and random play, and
independent accounting of every card and chip."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from decimal import Decimal
from itertools import combinations

from tables.engine.cards import DECK, Card, parse_cards
from tables.games.mulligan.game import (
    HIGH_RISK_BURN,
    Auction,
    MulliganGame,
    MulliganSetup,
    Offer,
    Rake,
    Variant,
    apply,
    random_action,
)

V = Variant

# Every allowed combination of the three card variants (Secret Offers and Open Hands exclude
# each other), each played with and without chips: 12 in all.
CARD_VARIANT_SETS: list[frozenset[Variant]] = [
    frozenset(c)
    for k in range(4)
    for c in combinations((V.SECRET_OFFERS, V.HIGH_RISK, V.OPEN_HANDS), k)
    if not {V.SECRET_OFFERS, V.OPEN_HANDS} <= set(c)
]
VARIANT_SETS: list[frozenset[Variant]] = [
    *CARD_VARIANT_SETS,
    *(s | {V.CHIPS} for s in CARD_VARIANT_SETS),
]


def variant_id(variants: Iterable[Variant]) -> str:
    return "+".join(sorted(v.value for v in variants)) or "plain"


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text, where="test")


def make_setup(
    hands: list[str],
    *,
    deck_top: str = "",
    variants: Iterable[Variant] = (),
    first: int = 0,
    chips: list[int] | None = None,
    rake: Rake | None = None,
    table_minimum: int = 1,
) -> MulliganSetup:
    """Hands as text; the deck pile is `deck_top` then the other cards in deck order, less
    (High Risk) a burn of the 13 cards that come last in deck order."""
    chosen = frozenset(variants)
    dealt = [cards(h) for h in hands]
    top = cards(deck_top)
    used = {c for h in dealt for c in h} | set(top)
    rest = [c for c in DECK if c not in used]
    burn: tuple[Card, ...] = ()
    if V.HIGH_RISK in chosen:
        burn, rest = tuple(rest[-HIGH_RISK_BURN:]), rest[:-HIGH_RISK_BURN]
    return MulliganSetup(
        hands=tuple(dealt),
        deck=top + tuple(rest),
        first=first,
        variants=chosen,
        burn=burn,
        chips=None if chips is None else tuple(chips),
        table_minimum=table_minimum,
        rake=rake,
    )


def rake(percent: str, cap: int | None = None) -> Rake:
    return Rake(Decimal(percent), cap)


def card_places(game: MulliganGame) -> Counter[Card]:
    """Every card counted once per place it is in, without the engine's own check."""
    places = Counter[Card]()
    for hand in game.hands:
        places.update(hand)
    places.update(r.card for r in game.ring)
    places.update(game.deck)
    places.update(game.burn)
    places.update(game.discard)
    return places


def accounts_for_all_cards(game: MulliganGame) -> bool:
    places = card_places(game)
    return set(places) == set(DECK) and set(places.values()) == {1}


def chips_in_play(game: MulliganGame) -> int:
    """Stacks, the ring, the pot (until the winner takes it) and the house's rake."""
    if game.stacks is None:
        return 0
    pot = 0 if game.is_over else game.pot
    return sum(game.stacks) + game.ring_chips + pot + game.rake


def auction_round(
    game: MulliganGame,
    *,
    lot_chips: int = 0,
    offer_chips: int = 0,
    pick: int = 0,
) -> MulliganGame:
    """The auctioneer puts up the card at `pick` with `lot_chips`; every other active player
    offers their last card with `offer_chips` (or what they have); the auction stays open."""
    a = game.auctioneer
    game = apply(game, Auction(a, game.hands[a][pick], lot_chips))
    for p in game.awaiting_offers:
        chips = 0 if game.stacks is None else min(offer_chips, game.stacks[p])
        game = apply(game, Offer(p, game.hands[p][-1], chips))
    return game


def play_randomly(game: MulliganGame, seed: int, *, limit: int = 5000) -> list[MulliganGame]:
    """Every snapshot of a random legal game from `game` to its end."""
    rng = random.Random(seed)
    snapshots = [game]
    for _ in range(limit):
        if game.is_over:
            return snapshots
        game = apply(game, random_action(game, rng))
        snapshots.append(game)
    raise AssertionError(f"a random game did not end within {limit} actions")
