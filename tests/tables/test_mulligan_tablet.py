"""Mulligan on the dealer's tablet through the Django test client: the deal form, whose turn it
is and what they may do, every action posted as the page's forms post it, the draws after a
mulligan in order, the end by fold and by deck with the winner and every hand shown; the
players' table display from its HTML; refusals (and stale forms) that change nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from audit.models import AuditEvent
from tables.engine.mulligan_game import Variant
from tables.games.mulligan.play import draw_order, from_record
from tables.models import Hand
from tests.games.mulligan_script import BURN, HANDS_4, to_a_fold, to_the_deck

from .mulligan_floor import mulligan_table

V = Variant
pytestmark = pytest.mark.django_db


def dealer_client() -> Client:
    client = Client()
    assert client.login(username="dealer", password="demo")
    return client


def url(table, tail: str = "") -> str:
    return f"/tablet/table/{table.pk}/{tail}"


def deal(client, table, players=4, chips="40.00", **extra) -> Any:
    form: dict[str, Any] = {"first": 2}
    for n in range(players):
        form[f"hand_{n + 1}"] = HANDS_4[n]
        form[f"chips_{n + 1}"] = chips
    form.update(extra)
    return client.post(url(table, "mulligan/deal/"), form)


def game_at(table):
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    return hand, from_record(hand.record)


def post_action(client, table, posted, dollars: bool) -> Any:
    hand, (played, game) = game_at(table)
    form: dict[str, Any] = {"step": len(played.actions), "do": posted.do, "player": posted.player}
    if posted.card is not None:
        form["card"] = posted.card
    if posted.chips is not None and dollars:
        form["chips"] = f"{posted.chips // 100}.{posted.chips % 100:02d}"
    if posted.offer_of is not None:
        form["offer_of"] = posted.offer_of
    for p, card in zip(draw_order(game), posted.draws, strict=False):
        form[f"draw_{p}"] = card
    return client.post(url(table, "mulligan/act/"), form)


def forms_on(page: str) -> list[str]:
    return re.findall(r'name="do" value="(\w+)"', page)


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
    assert 'id="deal-form"' in page
    assert ('id="id-burn"' in page) is (V.HIGH_RISK in variants)
    extra = {"burn": BURN} if V.HIGH_RISK in variants else {}
    assert deal(client, table, **extra).status_code == 303
    page = client.get(url(table)).content.decode()
    # Seat 2 was chosen first: player 1 (players are numbered in seat order).
    assert "Turn 1: player 1 is the auctioneer: skip, fold or auction a card" in page
    assert forms_on(page) == ["auction", "skip", "fold"]
    for _ in range(400):
        hand, (played, game) = game_at(table)
        if game.is_over:
            break
        response = post_action(client, table, policy(game), V.CHIPS in variants)
        assert response.status_code == 303, response.content.decode()[:2000]
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED
    page = client.get(url(table)).content.decode()
    assert f"Player {game.winner} wins with" in page
    ended = "ended by the deck" if policy is to_the_deck else "ended by a fold"
    assert ended in page
    shown = set(re.findall(r'data-card="(\w\w)"', page))
    assert {str(c) for h in game.hands for c in h} <= shown
    assert "Deal the next game" in page
    assert forms_on(page) == []
    if V.CHIPS in variants:
        assert f"house rake ${hand.rake_cents // 100}" in page or hand.rake_cents == 0
    display = client.get(url(table, "mulligan/display/")).content.decode()
    assert f"Player {game.winner} wins" in display


def test_the_tablet_asks_for_the_draws_in_order_and_records_them(floor):
    table = mulligan_table(floor)
    client = dealer_client()
    deal(client, table)
    _, (played, game) = game_at(table)
    assert game.auctioneer == 1
    post = client.post
    post(url(table, "mulligan/act/"), {"step": 0, "do": "auction", "player": 1, "card": "8s"})
    page = client.get(url(table)).content.decode()
    assert forms_on(page) == ["offer", "offer", "offer"]
    for step, (p, card) in enumerate(((2, "7c"), (3, "3s"), (0, "2c")), start=1):
        r = post(
            url(table, "mulligan/act/"), {"step": step, "do": "offer", "player": p, "card": card}
        )
        assert r.status_code == 303
    page = client.get(url(table)).content.decode()
    assert re.findall(r'name="(draw_\d)"', page) == ["draw_1", "draw_2", "draw_3", "draw_0"]
    assert forms_on(page) == ["swap", "swap", "swap", "mulligan"]
    form = {"step": 4, "do": "mulligan", "player": 1}
    form.update({"draw_1": "Tc", "draw_2": "Jc", "draw_3": "Ah", "draw_0": "Kc"})
    r = post(url(table, "mulligan/act/"), form)
    assert r.status_code == 400
    assert "Ah drawn by player 3 is already in player 0&#x27;s hand" in r.content.decode()
    form["draw_3"] = "Qc"
    assert post(url(table, "mulligan/act/"), form).status_code == 303
    hand, (played, game) = game_at(table)
    assert [str(c) for c in played.draws] == ["Tc", "Jc", "Qc", "Kc"]
    page = client.get(url(table)).content.decode()
    assert "player 1 draws Tc, player 2 draws Jc, player 3 draws Qc, player 0 draws Kc" in page


def test_a_refused_or_stale_action_changes_nothing(floor):
    table = mulligan_table(floor, {V.CHIPS})
    client = dealer_client()
    deal(client, table)
    hand, _ = game_at(table)
    before = (dict(hand.record), AuditEvent.objects.count())
    act = url(table, "mulligan/act/")
    for form, status, words in (
        ({"step": 0, "do": "skip", "player": 0}, 400, "it is player 1&#x27;s turn"),
        ({"step": 0, "do": "auction", "player": 1, "card": "8s", "chips": "0.50"}, 400, "at least"),
        (
            {"step": 0, "do": "auction", "player": 1, "card": "8s", "chips": "1.005"},
            400,
            "whole cents",
        ),
        ({"step": 0, "do": "auction", "player": 1, "card": "8s", "chips": "999"}, 400, "holds"),
        ({"step": 3, "do": "skip", "player": 1}, 409, "out of date"),
    ):
        response = client.post(act, form)
        assert response.status_code == status
        assert words in response.content.decode()
        hand.refresh_from_db()
        assert (hand.record, AuditEvent.objects.count()) == before


def test_a_mistyped_deal_opens_nothing(floor):
    table = mulligan_table(floor)
    client = dealer_client()
    response = deal(client, table, hand_3="Ah 2d 3d 4d 5d")
    assert response.status_code == 400
    assert (
        "seat 3: Ah in player 2&#x27;s hand is already in player 0&#x27;s hand"
        in response.content.decode()
    )
    assert not Hand.objects.filter(table=table).exists()
    assert 'value="Ah 2d 3d 4d 5d"' in response.content.decode()  # the input is kept


def test_only_the_dealer_at_the_table_plays_and_the_display_is_for_the_floor(floor):
    table = mulligan_table(floor)
    other = Client()
    assert other.login(username="dealer2", password="demo")
    assert other.get(url(table)).status_code == 403
    assert deal(other, table).status_code == 403
    assert other.get(url(table, "mulligan/display/")).status_code == 403
    pit = Client()
    assert pit.login(username="pitboss", password="demo")
    assert pit.get(url(table, "mulligan/display/")).status_code == 200
    assert Client().get(url(table, "mulligan/display/")).status_code == 302


def test_the_display_under_secret_offers_never_shows_an_offer(floor):
    table = mulligan_table(floor, {V.SECRET_OFFERS})
    client = dealer_client()
    deal(client, table)
    act = url(table, "mulligan/act/")
    client.post(act, {"step": 0, "do": "auction", "player": 1, "card": "8s"})
    for step, (p, card) in enumerate(((2, "7c"), (3, "3s"), (0, "2c")), start=1):
        client.post(act, {"step": step, "do": "offer", "player": p, "card": card})
    html = client.get(url(table, "mulligan/display/")).content.decode()
    assert set(re.findall(r'data-card="(\w\w)"', html)) == {"8s"}
    for card in ("7c", "3s", "2c", "7♣", "3♠", "2♣"):
        assert card not in html
    assert html.count("face down") >= 3 + 15
    tablet = client.get(url(table)).content.decode()
    assert {"7c", "3s", "2c"} <= set(re.findall(r'data-card="(\w\w)"', tablet))
