"""What each viewer may see of a Mulligan game: Secret Offers, Open Hands, the burn, the end."""

from __future__ import annotations

import json

import pytest

from tables.games.mulligan.game import (
    Auction,
    Fold,
    Mulligan,
    MulliganGame,
    Offer,
    Phase,
    apply,
    new_game,
)
from tables.games.mulligan.view import HOUSE, TABLE, game_view

from .helpers import V, Variant, auction_round, cards, make_setup

HANDS = ["2c 3d 7h 9s Jc", "Ah Ad Kc Ks 4h", "Qs Qh Qd 5c 6d"]


def deciding(*variants: Variant) -> MulliganGame:
    """Player 0 has put up the 2c (2 chips with chips); 1 and 2 have offered their last card."""
    chips = [10, 10, 10] if V.CHIPS in variants else None
    game = new_game(make_setup(HANDS, variants=variants, chips=chips))
    game = auction_round(game, lot_chips=2 if chips else 0, offer_chips=1)
    assert game.phase is Phase.DECISION
    return game


def shown_cards(view_json: dict[str, object]) -> str:
    return json.dumps(view_json)


def test_secret_offers_are_never_shown_to_the_table_or_the_auctioneer() -> None:
    game = deciding(V.SECRET_OFFERS, V.CHIPS)
    for viewer in (TABLE, 0):
        view = game_view(game, viewer)
        ring = {r.owner: r for r in view.ring}
        assert ring[0].auctioned and ring[0].card == cards("2c")[0]
        assert ring[1].card is None and ring[2].card is None
        assert (ring[1].chips, ring[2].chips) == (1, 1)  # chips on the ring are in plain sight
        text = shown_cards(view.as_json())
        assert '"4h"' not in text and '"6d"' not in text
    # Each offer's owner knows it; the other offerer does not.
    assert {r.owner: r.card for r in game_view(game, 1).ring}[1] == cards("4h")[0]
    assert {r.owner: r.card for r in game_view(game, 1).ring}[2] is None
    # The house (the dealer's tablet, the audit) records and sees every offer.
    assert [r.card for r in game_view(game, HOUSE).ring] == list(cards("2c 4h 6d"))


def test_secret_offers_are_shown_when_they_go_to_the_discard_pile() -> None:
    game = apply(deciding(V.SECRET_OFFERS), Mulligan(0))
    view = game_view(game, TABLE)
    assert view.discard == cards("2c 4h 6d") and view.ring == ()


def test_offers_are_face_down_until_every_one_is_in_then_face_up() -> None:
    game = new_game(make_setup(HANDS))
    game = auction_round(game)
    assert game.phase is Phase.DECISION
    table = game_view(game, TABLE)
    assert [r.card for r in table.ring] == list(cards("2c 4h 6d"))
    # While offers are collected, an offer is face down to all but its owner.
    before = new_game(make_setup(HANDS))
    collecting = apply(apply(before, Auction(0, cards("2c")[0])), Offer(1, cards("4h")[0]))
    assert [r.card for r in game_view(collecting, TABLE).ring] == [cards("2c")[0], None]
    assert [r.card for r in game_view(collecting, 1).ring] == list(cards("2c 4h"))
    assert game_view(collecting, TABLE).to_act == (2,)


def test_hands_are_secret_to_their_owner_without_open_hands() -> None:
    game = new_game(make_setup(HANDS))
    table = game_view(game, TABLE)
    assert [s.hand for s in table.seats] == [None, None, None]
    assert [s.cards_held for s in table.seats] == [5, 5, 5]
    mine = game_view(game, 1)
    assert [s.hand for s in mine.seats] == [None, cards(HANDS[1]), None]
    text = shown_cards(table.as_json())
    assert not any(f'"{c}"' in text for h in HANDS for c in h.split())


def test_open_hands_shows_every_hand_to_everyone() -> None:
    game = deciding(V.OPEN_HANDS)
    table = game_view(game, TABLE)
    assert [s.hand for s in table.seats] == [
        cards("3d 7h 9s Jc"),
        cards("Ah Ad Kc Ks"),
        cards("Qs Qh Qd 5c"),
    ]
    assert [s.cards_held for s in table.seats] == [4, 4, 4]


def test_at_the_end_every_hand_shows_but_the_burn_and_deck_stay_face_down() -> None:
    game = new_game(make_setup(HANDS, variants={V.HIGH_RISK}))
    game = apply(apply(game, Fold(0)), Fold(1))
    assert game.is_over
    table = game_view(game, TABLE)
    assert all(s.hand is not None for s in table.seats)
    assert table.burn is None and table.deck is None
    assert (table.burn_count, table.deck_count) == (13, len(game.deck))
    assert table.result is not None and table.result.winner == game.winner
    text = shown_cards(table.as_json())
    assert not any(f'"{c}"' in text for c in game.burn)
    house = game_view(game, HOUSE)
    assert house.burn == game.burn and house.deck == game.deck
    assert table.as_json()["result"]["ended_by"] == "fold"  # type: ignore[index]


def test_chips_and_the_pot_are_public() -> None:
    game = apply(deciding(V.CHIPS), Mulligan(0))
    table = game_view(game, TABLE)
    assert [s.chips for s in table.seats] == [8, 9, 9] and table.pot == 4
    assert game_view(new_game(make_setup(HANDS)), TABLE).seats[0].chips is None


@pytest.mark.parametrize("viewer", [3, -1, True])
def test_only_a_seated_player_has_a_view(viewer: int) -> None:
    with pytest.raises(ValueError, match="no player"):
        game_view(new_game(make_setup(HANDS)), viewer)
