"""What Mulligan's pages show, built from what each viewer may see (`view`).

`tablet(game)` is the dealer's tablet: the house's view (every card, every Secret Offer), whose
turn it is and what they may do, the forms for it, the draws after a mulligan in draw order,
the game so far in words, and at the end the winner the system decided with every hand shown.
`display(game)` is the table display the dealer turns to the players: built from the table's
view only (`game_view(game, TABLE)`), in which a card a player may not see is `None`, so a
Secret Offer or a hidden hand cannot reach the page. Pure presentation: nothing here decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.money import dollars
from tables import display as show
from tables.engine.cards import Card
from tables.engine.money import format_cents

from .game import (
    HAND_SIZE,
    HIGH_RISK_BURN,
    ActionKind,
    Auction,
    Fold,
    MulliganGame,
    Offer,
    Phase,
    Skip,
    Swap,
    Variant,
    allowed,
    apply,
    new_game,
)
from .hands import mulligan_value
from .play import Played, draw_order, from_record
from .terms import VARIANT_LABEL, VARIANT_ORDER, MulliganTerms
from .view import HOUSE, TABLE, GameView, game_view

CATEGORY_LABEL = {
    "high_card": "High card",
    "pair": "Pair",
    "two_pair": "Two pair",
    "low_straight": "Low straight",
    "three_of_a_kind": "Three of a kind",
    "high_straight": "High straight",
    "flush": "Flush",
    "full_house": "Full house",
    "four_of_a_kind": "Four of a kind",
    "straight_flush": "Straight flush",
}


def _card(c: Card | None) -> dict[str, Any] | None:
    return None if c is None else show.card(str(c))


def _cards(cs: tuple[Card, ...] | None) -> list[dict[str, Any]] | None:
    return None if cs is None else [show.card(str(c)) for c in cs]


def chips_text(cents: int | None) -> str:
    """Chips are cents: "$5.00"."""
    return "" if cents is None else dollars(cents)


def _seat(player: int, seats: Sequence[int] | None) -> str:
    """A player (numbered from 0 by the game) as the floor names them: "Seat 3"."""
    return show.seat_word(player, seats)


def _common(view: GameView, game: MulliganGame, seats: list[int] | None = None) -> dict[str, Any]:
    """What the tablet and the display share: seats, ring, piles, pot, headline, result; a
    player named by their seat (`seats`: each player's seat in order)."""
    chips = Variant.CHIPS in view.variants
    over = view.result is not None
    result = view.result
    rows = []
    for s in view.seats:
        category = None
        if over and result is not None:
            category = CATEGORY_LABEL[result.categories[s.player].value]
        rows.append(
            {
                "player": s.player,
                "seat": show.seat_of(s.player, seats),
                "name": _seat(s.player, seats),
                "active": s.active,
                "folded": not s.active and not over,
                "cards_held": s.cards_held,
                "hand": _cards(s.hand),
                "backs": range(s.cards_held),
                "chips": chips_text(s.chips),
                "auctioneer": not over and s.player == view.auctioneer,
                "to_act": s.player in view.to_act,
                "winner": over and result is not None and result.winner == s.player,
                "category": category,
                "offer": next(
                    (
                        {"card": _card(r.card), "chips": chips_text(r.chips)}
                        for r in view.ring
                        if r.owner == s.player and not r.auctioned
                    ),
                    None,
                ),
            }
        )
    lot = next((r for r in view.ring if r.auctioned), None)
    return {
        "variants": [VARIANT_LABEL[v] for v in VARIANT_ORDER if v in view.variants],
        "secret_offers": Variant.SECRET_OFFERS in view.variants,
        "open_hands": Variant.OPEN_HANDS in view.variants,
        "chips": chips,
        "phase": view.phase.value,
        "turn": view.turn,
        "auctioneer": view.auctioneer,
        "auctioneer_name": _seat(view.auctioneer, seats),
        "seats": rows,
        "lot": None if lot is None else {"card": _card(lot.card), "chips": chips_text(lot.chips)},
        "offers": [
            {
                "owner": r.owner,
                "name": _seat(r.owner, seats),
                "card": _card(r.card),
                "chips": chips_text(r.chips),
            }
            for r in view.ring
            if not r.auctioned
        ],
        "awaiting": [_seat(p, seats) for p in game.awaiting_offers],
        "deck_count": view.deck_count,
        "burn_count": view.burn_count,
        "discard": _cards(view.discard),
        "pot": chips_text(view.pot),
        "headline": headline(game, seats),
        "over": over,
        "result": None if result is None else _result(game, seats),
    }


def headline(game: MulliganGame, seats: Sequence[int] | None = None) -> str:
    """Whose turn it is and what comes next, in one sentence (public: names no hidden card),
    each player named by their seat (`seats`: each player's seat in order)."""
    a = _seat(game.auctioneer, seats)
    if game.phase is Phase.OVER:
        assert game.winner is not None
        how = "by a fold" if game.ended_by and game.ended_by.value == "fold" else "by the deck"
        return f"The game is over ({how}): {_seat(game.winner, seats)} wins"
    if game.phase is Phase.TURN:
        if game.must_fold(game.auctioneer):
            return f"Turn {game.turn}: {a} is the auctioneer and, short of chips, must fold"
        return f"Turn {game.turn}: {a} is the auctioneer: skip, fold or auction a card"
    lot = game.lot
    assert lot is not None
    if game.phase is Phase.OFFERS:
        owed = ", ".join(str(show.seat_of(p, seats)) for p in game.awaiting_offers)
        plural = "s" if len(game.awaiting_offers) > 1 else ""
        return (
            f"Turn {game.turn}: {a} auctions {show.card_text([str(lot.card)])}; "
            f"offers due from seat{plural} {owed}"
        )
    return f"Turn {game.turn}: every offer is in; {a} swaps with one or mulligans"


def _result(game: MulliganGame, seats: Sequence[int] | None = None) -> dict[str, Any]:
    assert game.winner is not None and game.ended_by is not None
    winner_value = mulligan_value(game.hands[game.winner])
    return {
        "ended_by": game.ended_by.value,
        "ended_by_text": (
            "ended by a fold: the last two active players, one folded"
            if game.ended_by.value == "fold"
            else "ended by the deck: too few cards left for every active player after a mulligan"
        ),
        "winner": game.winner,
        "winner_name": _seat(game.winner, seats),
        "winning_hand": CATEGORY_LABEL[winner_value.category.value],
        "value_hand": _cards(winner_value.value_hand),
        "pot": chips_text(game.pot),
        "rake": chips_text(game.rake) if game.rake else "",
        "won": chips_text(game.pot - game.rake),
    }


def display(game: MulliganGame, seats: list[int] | None = None) -> dict[str, Any]:
    """The table display: only what every player at the table may see (`seats`: each
    player's seat at the table)."""
    view = game_view(game, TABLE)
    context = _common(view, game, seats)
    context["viewer"] = "table"
    return context


def history(played: Played, seats: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """The game so far in words, for the dealer (the house sees every card): each action, the
    draws after a mulligan in the order drawn; each player named by their seat."""
    game = new_game(played.setup())
    lines: list[dict[str, Any]] = []
    cards: list[Card]
    for action in played.actions:
        before = game
        game = apply(game, action)
        p = _seat(action.player, seats)
        if isinstance(action, Skip):
            text, cards = f"{p} skips", []
        elif isinstance(action, Fold):
            text, cards = f"{p} folds", []
        elif isinstance(action, Auction):
            chips = f" with {chips_text(action.chips)}" if before.stacks is not None else ""
            text, cards = f"{p} auctions{chips}", [action.card]
        elif isinstance(action, Offer):
            chips = f" with {chips_text(action.chips)}" if before.stacks is not None else ""
            text, cards = f"{p} offers{chips}", [action.card]
        elif isinstance(action, Swap):
            taken = before.offer_of(action.offer_of)
            assert taken is not None and before.lot is not None
            text = (
                f"{p} swaps {show.card_text([str(before.lot.card)])} for "
                f"{_seat(action.offer_of, seats)}'s offer"
            )
            cards = [taken.card]
        else:
            order = draw_order(before)
            draws = ", ".join(
                f"{_seat(q, seats)} draws {show.card_text([str(game.hands[q][-1])])}" for q in order
            )
            text = f"{p} mulligans: the ring goes to the discard pile; {draws}"
            cards = []
        lines.append({"turn": before.turn, "text": text, "cards": _cards(tuple(cards))})
    return lines


def tablet(game: MulliganGame, played: Played, seats: list[int] | None = None) -> dict[str, Any]:
    """The dealer's tablet: the house's view and what may be done now."""
    view = game_view(game, HOUSE)
    context = _common(view, game, seats)
    context["viewer"] = "house"
    context["step"] = len(played.actions)  # a form posted for another step is stale
    context["history"] = history(played, seats)
    context["deck"] = _cards(view.deck)
    context["burn"] = _cards(view.burn)
    forms: dict[str, Any] = {}
    for option in allowed(game):
        p = option.player
        hand = _cards(game.hands[p]) or []
        if ActionKind.AUCTION in option.kinds or option.kinds == frozenset({ActionKind.FOLD}):
            forms["turn"] = {
                "player": p,
                "name": _seat(p, seats),
                "must_fold": option.kinds == frozenset({ActionKind.FOLD}),
                "stack": chips_text(None if game.stacks is None else game.stacks[p]),
                "table_minimum": chips_text(game.setup.table_minimum),
                "cards": hand,
                "chips_min": chips_text(option.chips_min),
                "chips_max": chips_text(option.chips_max),
                "chips_min_value": format_cents(option.chips_min),
            }
        elif ActionKind.OFFER in option.kinds:
            forms.setdefault("offers", []).append(
                {
                    "player": p,
                    "name": _seat(p, seats),
                    "cards": hand,
                    "chips_max": chips_text(option.chips_max),
                }
            )
        elif ActionKind.SWAP in option.kinds:
            forms["decision"] = {
                "player": p,
                "name": _seat(p, seats),
                "swap_with": [
                    {
                        "player": o.owner,
                        "name": _seat(o.owner, seats),
                        "card": _card(o.card),
                        "chips": chips_text(o.chips),
                    }
                    for o in game.offers
                ],
                "draws": [
                    {
                        "player": q,
                        "name": _seat(q, seats),
                        "field": f"draw_{q}",
                        # its card box, which the tablet's grid fills (tablet/_cardfield.html)
                        "box": {
                            "name": f"draw_{q}",
                            "label": f"{_seat(q, seats)} draws",
                            "max": 1,
                            "value": "",
                        },
                    }
                    for q in draw_order(game)
                ],
            }
    context["forms"] = forms
    return context


__all__ = ["CATEGORY_LABEL", "display", "headline", "history", "tablet"]


def hand_panel(
    record: Mapping[str, Any], seats: list[int], *, posted: Mapping[str, Any]
) -> dict[str, Any]:
    """The open hand's panel on the PvP tablet page (`Mulligan.tablet_view`): the deal form
    before the cards are in, then the game as the house sees it with what may be done now;
    a refused form's values are kept (`posted`)."""
    terms = MulliganTerms.from_json(record["terms"])
    rebuilt = from_record(record)
    if rebuilt is None:
        return {
            "waiting": "deal",
            "high_risk": Variant.HIGH_RISK in terms.variants,
            "first": record["first"],
            "players": [
                {
                    "position": p,
                    "seat": seat,
                    "first": p == record["first"],
                    # the card box the tablet's grid fills (tablet/_cardfield.html)
                    "field": {
                        "name": f"hand_{p}",
                        "label": f"Seat {seat}"
                        + (" · auctions first" if p == record["first"] else ""),
                        "max": HAND_SIZE,
                        "value": posted.get(f"hand_{p}", ""),
                        "sub": f"{chips_text(record['buy_ins'][p])} in chips"
                        if terms.plays_for_chips
                        else "",
                    },
                }
                for p, seat in enumerate(seats)
            ],
            "burn": {
                "name": "burn",
                "label": "The burnt cards",
                "max": HIGH_RISK_BURN,
                "value": posted.get("burn", ""),
                "sub": "face down from the deck pile, for the house's record",
            },
        }
    played, game = rebuilt
    g = tablet(game, played, seats)
    decision = g["forms"].get("decision")
    if decision is not None and posted.get("do") == "mulligan":
        for d in decision["draws"]:
            d["box"]["value"] = posted.get(d["field"], "")
    return {"waiting": "over" if game.is_over else "action", "g": g}
