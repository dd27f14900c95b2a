"""Mulligan on the dealer's tablet (the PvP page with Mulligan's panel) through the Django test
client: buy-ins, the deal, whose turn it is and what they may do, every action posted as the
page's forms post it, the draws after a mulligan in order, the end by fold and by deck with the
winner and every hand shown, then the dealer's confirmation; the players' table display from
its HTML; refusals (and stale forms) that change nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from tables.games.mulligan.game import Variant
from tables.games.mulligan.play import draw_order, from_record
from tables.models import Hand
from tests.games.mulligan.floor import mulligan_table
from tests.games.mulligan.script import BURN, HANDS_4, to_a_fold, to_the_deck

V = Variant
pytestmark = pytest.mark.django_db


def dealer_client() -> Client:
    client = Client()
    assert client.login(username="dealer", password="demo")
    return client


def url(table, tail: str = "") -> str:
    return f"/tablet/table/{table.pk}/{tail}"


def open_and_deal(client, table, players=4, chips="40.00", burn="", **hands) -> Any:
    buy_ins = {f"seat-{n + 1}-buy_in": chips for n in range(players)}
    assert client.post(url(table, "hand/open/"), buy_ins).status_code == 303
    hand = Hand.objects.get(table=table, status="open")
    form: dict[str, Any] = {"hand": hand.pk, "do": "deal", "burn": burn}
    for n in range(players):
        form[f"hand_{n}"] = hands.get(f"hand_{n}", HANDS_4[n])
    return client.post(url(table, "hand/step/"), form)


def game_at(table):
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    return hand, from_record(hand.record)


def post_action(client, table, posted, dollars: bool) -> Any:
    hand, (played, game) = game_at(table)
    form: dict[str, Any] = {
        "hand": hand.pk,
        "at": len(played.actions),
        "do": posted.do,
        "player": posted.player,
    }
    if posted.card is not None:
        form["card"] = posted.card
    if posted.chips is not None and dollars:
        form["chips"] = f"{posted.chips // 100}.{posted.chips % 100:02d}"
    if posted.offer_of is not None:
        form["offer_of"] = posted.offer_of
    for p, card in zip(draw_order(game), posted.draws, strict=False):
        form[f"draw_{p}"] = card
    if posted.do == "fold":  # a fold ends the player's game: the tablet asks first
        form["confirmed"] = "1"
    return client.post(url(table, "hand/step/"), form)


def forms_on(page: str) -> list[str]:
    return re.findall(r'name="do" value="(\w+)"', page)


def act(client, table, **form) -> Any:
    hand, (played, _) = game_at(table)
    return client.post(
        url(table, "hand/step/"), {"hand": hand.pk, "at": len(played.actions), **form}
    )


@pytest.mark.parametrize(
    "variants",
    [set(), {V.CHIPS}, {V.SECRET_OFFERS, V.HIGH_RISK, V.CHIPS}, {V.OPEN_HANDS, V.HIGH_RISK}],
    ids=lambda v: "+".join(sorted(v)) or "plain",
)
@pytest.mark.parametrize("policy", [to_the_deck, to_a_fold], ids=["deck", "fold"])
def test_a_whole_game_on_the_tablet_ends_both_ways(floor, variants, policy):
    table = mulligan_table(floor, variants)
    client = dealer_client()
    page = client.get(url(table)).content.decode()
    assert 'id="buyins-form"' in page
    client.post(url(table, "hand/open/"), {f"seat-{n}-buy_in": "40" for n in (1, 2, 3, 4)})
    page = client.get(url(table)).content.decode()
    assert 'id="deal-form"' in page and "Seat 1 · auctions first" in page
    assert ('id="id-burn"' in page) is (V.HIGH_RISK in variants)
    hand = Hand.objects.get(table=table)
    form = {"hand": hand.pk, "do": "deal", "burn": BURN if V.HIGH_RISK in variants else ""}
    form.update({f"hand_{n}": HANDS_4[n] for n in range(4)})
    assert client.post(url(table, "hand/step/"), form).status_code == 303
    page = client.get(url(table)).content.decode()
    assert "Turn 1: Seat 1 is the auctioneer: skip, fold or auction a card" in page
    assert forms_on(page) == ["auction", "skip", "fold"]
    for _ in range(400):
        hand, (played, game) = game_at(table)
        if game.is_over:
            break
        response = post_action(client, table, policy(game), V.CHIPS in variants)
        assert response.status_code == 303, response.content.decode()[:3000]
    page = client.get(url(table)).content.decode()
    assert f"Seat {game.winner + 1} wins with" in page
    ended = "ended by the deck" if policy is to_the_deck else "ended by a fold"
    assert ended in page
    shown = set(re.findall(r'data-card="(\w\w)"', page))
    assert {str(c) for h in game.hands for c in h} <= shown
    assert forms_on(page) == [] and 'id="finish-form"' in page
    display = client.get(url(table, "mulligan/display/")).content.decode()
    assert f"Seat {game.winner + 1} wins" in display
    # The dealer confirms: the hand is finished with the pot, the rake and the payoffs.
    assert client.post(url(table, "hand/finish/")).status_code == 303
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.result["winner"] == game.winner
    assert hand.rake_cents == game.rake and hand.pot_cents == game.pot
    assert 'id="buyins-form"' in client.get(url(table)).content.decode()


def test_the_tablet_asks_for_the_draws_in_order_and_records_them(floor):
    table = mulligan_table(floor)
    client = dealer_client()
    assert open_and_deal(client, table).status_code == 303
    assert act(client, table, do="auction", player=0, card="2c").status_code == 303
    page = client.get(url(table)).content.decode()
    assert forms_on(page) == ["offer", "offer", "offer"]
    for p, card in ((1, "8s"), (2, "7c"), (3, "3s")):
        assert act(client, table, do="offer", player=p, card=card).status_code == 303
    page = client.get(url(table)).content.decode()
    assert re.findall(r'name="(draw_\d)"', page) == ["draw_0", "draw_1", "draw_2", "draw_3"]
    assert forms_on(page) == ["swap", "swap", "swap", "mulligan"]
    draws = {"draw_0": "Tc", "draw_1": "Jc", "draw_2": "Ah", "draw_3": "Kc"}
    r = act(client, table, do="mulligan", player=0, **draws)
    assert r.status_code == 400
    body = r.content.decode()
    assert "A♥ drawn by Seat 3 is already in Seat 1&#x27;s hand" in body
    assert 'value="Jc"' in body  # the draws typed are kept
    draws["draw_2"] = "Qc"
    assert act(client, table, do="mulligan", player=0, **draws).status_code == 303
    hand, (played, game) = game_at(table)
    assert [str(c) for c in played.draws] == ["Tc", "Jc", "Qc", "Kc"]
    page = client.get(url(table)).content.decode()
    assert "Seat 1 draws 10♣, Seat 2 draws J♣, Seat 3 draws Q♣, Seat 4 draws K♣" in page


def test_a_refused_or_stale_action_changes_nothing(floor):
    table = mulligan_table(floor, {V.CHIPS})
    client = dealer_client()
    open_and_deal(client, table)
    hand, _ = game_at(table)
    before = (dict(hand.record), AuditEvent.objects.count())
    step = url(table, "hand/step/")
    for form, status, words in (
        ({"at": 0, "do": "skip", "player": 1}, 400, "it is Seat 1&#x27;s turn"),
        ({"at": 0, "do": "auction", "player": 0, "card": "2c", "chips": "0.50"}, 400, "at least"),
        ({"at": 0, "do": "auction", "player": 0, "card": "2c", "chips": "1.005"}, 400, "the chips"),
        ({"at": 0, "do": "auction", "player": 0, "card": "2c", "chips": "999"}, 400, "holds"),
        ({"at": 0, "do": "auction", "player": 0, "card": "8s", "chips": "1"}, 400, "does not hold"),
        ({"at": 3, "do": "skip", "player": 0}, 400, "out of date"),
    ):
        response = client.post(step, {"hand": hand.pk, **form})
        assert response.status_code == status, response.content.decode()[:2000]
        assert words in response.content.decode()
        hand.refresh_from_db()
        assert (hand.record, AuditEvent.objects.count()) == before


def test_a_mistyped_deal_is_refused_naming_the_card(floor):
    table = mulligan_table(floor)
    client = dealer_client()
    response = open_and_deal(client, table, hand_2="Ah 2d 3d 4d 5d")
    assert response.status_code == 400
    body = response.content.decode()
    assert "A♥ in Seat 3&#x27;s hand is already in Seat 1&#x27;s hand" in body
    assert 'value="Ah 2d 3d 4d 5d"' in body  # the input is kept
    hand, rebuilt = game_at(table)
    assert rebuilt is None and hand.record["hands"] == []


def test_only_the_dealer_at_the_table_plays_and_the_display_is_for_the_floor(floor):
    table = mulligan_table(floor)
    other = Client()
    assert other.login(username="dealer2", password="demo")
    assert other.get(url(table)).status_code == 403
    assert other.post(url(table, "hand/open/"), {"seat-1-buy_in": "5"}).status_code == 403
    assert other.get(url(table, "mulligan/display/")).status_code == 403
    pit = Client()
    assert pit.login(username="pitboss", password="demo")
    assert pit.get(url(table, "mulligan/display/")).status_code == 200
    assert Client().get(url(table, "mulligan/display/")).status_code == 302


def test_the_display_under_secret_offers_never_shows_an_offer(floor):
    table = mulligan_table(floor, {V.SECRET_OFFERS})
    client = dealer_client()
    open_and_deal(client, table)
    act(client, table, do="auction", player=0, card="2c")
    for p, card in ((1, "8s"), (2, "7c"), (3, "3s")):
        act(client, table, do="offer", player=p, card=card)
    html = client.get(url(table, "mulligan/display/")).content.decode()
    assert set(re.findall(r'data-card="(\w\w)"', html)) == {"2c"}
    for card in ("8s", "7c", "3s", "8♠", "7♣", "3♠"):
        assert card not in html
    assert html.count('class="pc back"') == 3 + 16
    tablet = client.get(url(table)).content.decode()
    assert {"8s", "7c", "3s"} <= set(re.findall(r'data-card="(\w\w)"', tablet))


def test_the_display_shows_hands_only_under_open_hands(floor):
    for name, variants in (("MG-T", set()), ("MG-U", {V.OPEN_HANDS})):
        table = mulligan_table(floor, variants, name=name, sign_in=name == "MG-T")
        if name == "MG-U":
            from tables.services.sessions import dealer_sign_in

            dealer_sign_in(dealer=floor["dealer2"], table=table)
        client = dealer_client() if name == "MG-T" else Client()
        if name == "MG-U":
            assert client.login(username="dealer2", password="demo")
        open_and_deal(client, table)
        html = client.get(url(table, "mulligan/display/")).content.decode()
        shown = set(re.findall(r'data-card="(\w\w)"', html))
        expected = {c for h in HANDS_4 for c in h.split()} if variants else set()
        assert shown == expected


def test_the_card_grid_greys_every_card_out_of_the_deck_pile(floor):
    table = mulligan_table(floor, {V.HIGH_RISK})
    client = dealer_client()
    client.post(url(table, "hand/open/"), {f"seat-{n}-buy_in": "40" for n in (1, 2, 3, 4)})
    page = client.get(url(table)).content.decode()
    # The deal: a card box per seat (five cards) and the burn's (13), the grid with none grey.
    assert re.findall(r'class="cardfield[^"]*" data-max="(\d+)"', page) == ["5"] * 4 + ["13"]
    assert page.count('class="gc') == 52 and "data-used" not in page
    hand = Hand.objects.get(table=table, status="open")
    deal = {"hand": hand.pk, "do": "deal", "burn": BURN}
    deal.update({f"hand_{n}": HANDS_4[n] for n in range(4)})
    assert client.post(url(table, "hand/step/"), deal).status_code == 303
    assert act(client, table, do="auction", player=0, card="2c").status_code == 303
    for p, card in ((1, "8s"), (2, "7c"), (3, "3s")):
        assert act(client, table, do="offer", player=p, card=card).status_code == 303
    page = client.get(url(table)).content.decode()
    # The draws: a one-card box each, in draw order; grey: the hands, the ring and the burn.
    assert re.findall(r'data-max="1".*?name="(draw_\d)"', page, re.S) == [
        "draw_0",
        "draw_1",
        "draw_2",
        "draw_3",
    ]
    used = set(re.findall(r'data-card="(\w\w)"[^>]*disabled data-used', page))
    held = {c for h in HANDS_4 for c in h.split()} | set(BURN.split())
    assert used == held
