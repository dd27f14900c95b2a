"""Scripted Mulligan games for the floor's tests: a policy says what to post next from the
house's view of the game, so the same script drives the pure layer, the services and the tablet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables.engine.cards import DECK, Card
from tables.games.mulligan.game import MulliganGame, Phase
from tables.games.mulligan.play import Posted, draw_order, where_is

HANDS_3 = ["Ah Kh Qh Jh 2c", "3d 4d 5d 6d 8s", "9c 9d 9h 7s 7c"]
HANDS_4 = [*HANDS_3, "As Ks Qs 2s 3s"]
BURN = "2h 3h 4h 5h 6h 7h 8h Th 2d 7d 8d Td Jd"  # High Risk: 13 burnt cards (none in HANDS_4)

Policy = Callable[[MulliganGame], Posted]


def unseen(game: MulliganGame, count: int) -> list[str]:
    """The next `count` cards nobody has seen, in deck order (the cards the dealer draws)."""
    deck_cards = [c for c in DECK if where_is(game, c) is None]
    return [str(c) for c in deck_cards[:count]]


def to_the_deck(game: MulliganGame) -> Posted:
    """Auction the first card with the least chips, offer first cards, always mulligan: the
    game ends by the deck."""
    a = game.auctioneer
    if game.phase is Phase.TURN:
        if game.must_fold(a):
            return Posted("fold", a)
        return Posted(
            "auction", a, str(game.hands[a][0]), game.setup.table_minimum if game.stacks else None
        )
    if game.phase is Phase.OFFERS:
        p = game.awaiting_offers[0]
        return Posted("offer", p, str(game.hands[p][0]), 0 if game.stacks else None)
    return Posted("mulligan", a, draws=unseen(game, len(draw_order(game))))


def to_a_fold(game: MulliganGame) -> Posted:
    """One auction swapped with the first offer, then every auctioneer folds."""
    a = game.auctioneer
    if game.phase is Phase.TURN:
        if game.turn == 1:
            return Posted(
                "auction",
                a,
                str(game.hands[a][-1]),
                game.setup.table_minimum if game.stacks else None,
            )
        return Posted("fold", a)
    if game.phase is Phase.OFFERS:
        p = game.awaiting_offers[0]
        return Posted("offer", p, str(game.hands[p][-1]), 1 if game.stacks else None)
    return Posted("swap", a, offer_of=game.offers[0].owner)


def as_step(posted: Posted) -> dict[str, Any]:
    """A step as the services take it (the API's body)."""
    step: dict[str, Any] = {"do": posted.do, "player": posted.player}
    for key in ("card", "chips", "offer_of"):
        if getattr(posted, key) is not None:
            step[key] = getattr(posted, key)
    if posted.do == "mulligan":
        step["draws"] = list(posted.draws)
    return step


def as_form(posted: Posted, step: int) -> dict[str, Any]:
    """A posted action as the tablet's form sends it."""
    form: dict[str, Any] = {"step": step, "do": posted.do, "player": posted.player}
    if posted.card is not None:
        form["card"] = posted.card
    if posted.chips is not None:
        form["chips"] = posted.chips
    if posted.offer_of is not None:
        form["offer_of"] = posted.offer_of
    return form


def draws_form(game: MulliganGame, posted: Posted) -> dict[str, str]:
    return {f"draw_{p}": str(c) for p, c in zip(draw_order(game), posted.draws, strict=True)}


__all__ = [
    "BURN",
    "HANDS_3",
    "HANDS_4",
    "Card",
    "as_form",
    "draws_form",
    "to_a_fold",
    "to_the_deck",
    "unseen",
]
