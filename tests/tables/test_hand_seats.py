"""A poker hand speaks of seats and cards as the floor does: Rhode Island and Mulligan at seats
3, 5 (and 7) through the tablet, their refusals, pages, the players' display, the trail's hand
record and the events' CSV name "Seat 3" and "A♥", never "player 0" or "Ah"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tables.display import floor_words
from tables.models import Hand
from tables.services.sessions import dealer_sign_in
from tests.games.mulligan.floor import mulligan_table
from tests.games.mulligan.script import HANDS_3

pytestmark = pytest.mark.django_db
INDEX = re.compile(r"\b[Pp]layers? \d")


def test_floor_words_name_seats_and_cards() -> None:
    said = floor_words("Kh in player 1's hole card is already in the round (player 0's)", [3, 5])
    assert said == "K♥ in Seat 5's hole card is already in the round (Seat 3's)"
    assert floor_words("after a mulligan players 1, 0 and 2 draw", [3, 5, 7]) == (
        "after a mulligan seats 5, 3 and 7 draw"
    )
    assert floor_words("there is no player 3", [3, 5, 7]) == "there is no player 3"
    typed = "'Zz' in the flop is not a card: write rank then suit, e.g. Ah, Td"
    assert floor_words(typed, [3, 5], card_codes=False) == typed


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_rhode_island_hand_names_seats_on_every_page(floor: dict[str, Any]) -> None:
    table = floor["RI-1"]
    dealer_sign_in(dealer=floor["dealer"], table=table)
    c = _client(floor["dealer"])
    url = f"/tablet/table/{table.pk}/"
    assert (
        c.post(url + "hand/open/", {"seat-3-buy_in": "100", "seat-5-buy_in": "100"}).status_code
        == 303
    )
    hand = Hand.objects.get(table=table, status="open")
    step = url + "hand/step/"
    refused = c.post(step, {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Ah"})
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "A♥ in Seat 5&#x27;s hole card is already in the round (Seat 3&#x27;s hole card)" in page
    assert not INDEX.search(page)
    assert (
        c.post(step, {"hand": hand.pk, "step": "hole", "hole-0": "Ah", "hole-1": "Kd"}).status_code
        == 303
    )
    page = c.get(url).content.decode()
    assert "seat 3 to act" in page and not INDEX.search(page)
    refused = c.post(step, {"hand": hand.pk, "step": "action", "action": "check", "player": "1"})
    page = refused.content.decode()
    assert "Seat 5 cannot check out of turn: Seat 3 is to act" in page
    assert not INDEX.search(page)
    for action in ("bet", "fold"):  # the fold confirmed (the tablet asks first)
        form = {"hand": hand.pk, "step": "action", "action": action, "confirmed": "1"}
        assert c.post(step, form).status_code == 303
    page = c.get(url).content.decode()
    assert "Seat 3 bets $10.00" in page and "Seat 5 folds" in page and not INDEX.search(page)
    assert c.post(url + "hand/finish/").status_code == 303

    auditor = _client(floor["auditor"])
    record = auditor.get(f"/audit/hands/{hand.pk}/").content.decode()
    record_words = record.split('id="hand-record"')[0] + record.split("</pre>")[-1]
    assert "Hole cards Seat 3 A♥, Seat 5 K♦" in record
    assert "Seat 3 bets" in record and "Seat 5 folds" in record
    assert not INDEX.search(record_words)
    csv = b"".join(auditor.get("/audit/events.csv").streaming_content).decode()
    assert "Seat 3 bets" in csv and "Seat 5 folds" in csv
    assert "player 0" not in csv and "player 1 " not in csv


def test_a_mulligan_game_names_seats_on_every_page(floor: dict[str, Any]) -> None:
    table = mulligan_table(floor)
    c = _client(floor["dealer"])
    url = f"/tablet/table/{table.pk}/"
    buy_ins = {f"seat-{n}-buy_in": "40" for n in (3, 5, 7)}
    assert c.post(url + "hand/open/", buy_ins).status_code == 303
    hand = Hand.objects.get(table=table, status="open")
    page = c.get(url).content.decode()
    assert "Seat 3 · auctions first" in page and not INDEX.search(page)
    deal = {"hand": hand.pk, "do": "deal", "burn": ""}
    deal.update({f"hand_{n}": h for n, h in enumerate(HANDS_3)})
    assert c.post(url + "hand/step/", deal).status_code == 303
    page = c.get(url).content.decode()
    assert "Turn 1: Seat 3 is the auctioneer: skip, fold or auction a card" in page
    assert not INDEX.search(page)
    refused = c.post(url + "hand/step/", {"hand": hand.pk, "at": 0, "do": "skip", "player": 1})
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "it is Seat 3&#x27;s turn, not Seat 5&#x27;s" in page and not INDEX.search(page)
    form = {"hand": hand.pk, "at": 0, "do": "auction", "player": 0, "card": "2c"}
    assert c.post(url + "hand/step/", form).status_code == 303
    page = c.get(url).content.decode()
    assert "Seat 3 auctions 2♣; offers due from seats 5, 7" in page
    assert "Seat 5's offer (face down)" in page and not INDEX.search(page)
    display = c.get(url + "mulligan/display/").content.decode()
    assert "Seat 3 auctions" in display and not INDEX.search(display)
    record = _client(floor["auditor"]).get(f"/audit/hands/{hand.pk}/").content.decode()
    assert "Seat 3 auctions 2♣" in record
    assert not INDEX.search(record.split('id="hand-record"')[0])
