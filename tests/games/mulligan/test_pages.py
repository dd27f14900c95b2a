"""What Mulligan's pages show, proved from the rendered HTML: the players' table display never
shows a Secret Offer and shows hands only under Open Hands (and at the end, when every player
reveals); the dealer's tablet shows whose turn it is, what they may do, and the draws' order."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from tables.games.mulligan import pages
from tables.games.mulligan.game import Phase, Variant
from tables.games.mulligan.play import Posted, deal, play
from tables.games.mulligan.terms import MulliganTerms

from .script import HANDS_3, to_the_deck

V = Variant


def shown_cards(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', html))


def render_display(game) -> str:
    request = RequestFactory().get("/tablet/table/1/mulligan/display/")
    return render_to_string(
        "games/mulligan/display.html", {"table": "Mulligan 1", "g": pages.display(game)}, request
    )


def render_tablet(game, played) -> str:
    """The open hand's panel of the PvP tablet page, as `tables.views.hands` includes it."""
    request = RequestFactory().get("/tablet/table/1/")
    view = {"waiting": "over" if game.is_over else "action", "g": pages.tablet(game, played)}
    return render_to_string(
        "games/mulligan_hand.html",
        {"table": SimpleNamespace(pk=1), "hand": SimpleNamespace(pk=1), "view": view},
        request,
    )


def to_decision(variants: set[Variant]):
    """Player 1 auctions 8s; player 2 offers 7c, player 0 offers 2c: every offer is in."""
    played, game = deal(MulliganTerms(variants=frozenset(variants)), hands=HANDS_3, first=1)
    played, game = play(played, game, Posted("auction", 1, "8s"))
    played, game = play(played, game, Posted("offer", 2, "7c"))
    mid = (played, game)
    played, game = play(played, game, Posted("offer", 0, "2c"))
    assert game.phase is Phase.DECISION
    return mid, (played, game)


ALL_HANDS = {c for h in HANDS_3 for c in h.split()}


def test_the_display_under_secret_offers_never_shows_an_offer_nor_a_hand():
    (mid_played, mid), (played, game) = to_decision({V.SECRET_OFFERS})
    for g in (mid, game):
        html = render_display(g)
        assert shown_cards(html) == {"8s"}  # the auctioned card only
        assert "7c" not in html and "2c" not in html
        assert "7♣" not in html and "2♣" not in html
        assert "Seat 3's offer" in html and "face down" in html
    # Swapped: the offer went to the auctioneer's hand, still unseen by the table.
    played, game = play(played, game, Posted("swap", 1, offer_of=2))
    html = render_display(game)
    assert shown_cards(html) == set() and "7♣" not in html
    # Mulliganed: the offers go to the discard pile, face up: now they may be seen.
    (_, _), (played, game) = to_decision({V.SECRET_OFFERS})
    played, game = play(played, game, Posted("mulligan", 1, draws=["Tc", "Jc", "Qc"]))
    html = render_display(game)
    assert shown_cards(html) == {"8s", "7c", "2c"}


def test_the_dealers_tablet_sees_the_secret_offers_and_warns_not_to_show_them():
    _, (played, game) = to_decision({V.SECRET_OFFERS})
    html = render_tablet(game, played)
    assert {"7c", "2c"} <= shown_cards(html)
    assert "do not show them" in html


def test_without_secret_offers_the_display_turns_the_offers_up_when_all_are_in():
    (mid_played, mid), (played, game) = to_decision(set())
    assert shown_cards(render_display(mid)) == {"8s"}  # face down while offers are collected
    assert shown_cards(render_display(game)) == {"8s", "7c", "2c"}


@pytest.mark.parametrize("variants", [set(), {V.SECRET_OFFERS}, {V.HIGH_RISK}])
def test_the_display_shows_no_hand_without_open_hands(variants):
    played, game = deal(
        MulliganTerms(variants=frozenset(variants)),
        hands=HANDS_3,
        first=1,
        burn="2h 3h 4h 5h 6h 7h 8h Th 2d 7d 8d Td Jd" if V.HIGH_RISK in variants else "",
    )
    html = render_display(game)
    assert shown_cards(html) == set()
    assert html.count('class="pc back"') == 15


def test_the_display_under_open_hands_shows_every_hand():
    played, game = deal(MulliganTerms(variants=frozenset({V.OPEN_HANDS})), hands=HANDS_3, first=1)
    assert shown_cards(render_display(game)) == ALL_HANDS


def test_at_the_end_every_hand_is_shown_with_the_winner_the_system_decided():
    played, game = deal(
        MulliganTerms(variants=frozenset({V.SECRET_OFFERS})), hands=HANDS_3, first=1
    )
    while not game.is_over:
        played, game = play(played, game, to_the_deck(game))
    for html in (render_display(game), render_tablet(game, played)):
        assert {str(c) for h in game.hands for c in h} <= shown_cards(html)
        assert f"Seat {game.winner + 1} wins" in html
        assert "ended by the deck" in html


def test_the_tablet_says_whose_turn_and_offers_only_what_they_may_do():
    played, game = deal(MulliganTerms(), hands=HANDS_3, first=1)
    html = render_tablet(game, played)
    assert "Turn 1: Seat 2 is the auctioneer" in html
    assert re.findall(r'name="do" value="(\w+)"', html) == ["auction", "skip", "fold"]
    assert set(re.findall(r'name="card" value="(\w+)"', html)) == set(HANDS_3[1].split())


def test_the_tablet_asks_for_the_offers_then_the_draws_in_order():
    (mid_played, mid), (played, game) = to_decision(set())
    html = render_tablet(mid, mid_played)
    assert re.findall(r'name="do" value="(\w+)"', html) == ["offer"]
    assert 'id="offer-0"' in html and 'id="offer-2"' not in html
    html = render_tablet(game, played)
    assert re.findall(r'name="do" value="(\w+)"', html) == ["swap", "swap", "mulligan"]
    assert re.findall(r'name="(draw_\d)"', html) == ["draw_1", "draw_2", "draw_0"]


def test_a_chipless_auctioneer_is_offered_only_the_fold():
    terms = MulliganTerms.from_json({"variants": ["chips"], "table_minimum_cents": 2})
    played, game = deal(terms, hands=HANDS_3, first=0, chips=[2, 10, 10])
    played, game = play(played, game, Posted("auction", 0, "2c", chips=2))
    played, game = play(played, game, Posted("offer", 1, "8s"))
    played, game = play(played, game, Posted("offer", 2, "7c"))
    played, game = play(played, game, Posted("mulligan", 0, draws=["2d", "3c", "4c"]))
    played, game = play(played, game, Posted("skip", 1))
    played, game = play(played, game, Posted("skip", 2))
    html = render_tablet(game, played)
    assert re.findall(r'name="do" value="(\w+)"', html) == ["fold"]
    assert "must fold" in html
