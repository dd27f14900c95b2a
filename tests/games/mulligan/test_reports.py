"""Finished Mulligan games in the hold reports and the dashboard: the rake is the house's win
(the demo's MG-1 plays for chips under Secret Offers, 5% rake up to $5)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from reports.floor import floor_status
from reports.reporting import rebuild
from reports.selectors import hold_rows
from tables.games.mulligan.play import from_record
from tables.games.mulligan.replay import replay_mulligan
from tables.services.hand_play import hand_play
from tables.services.hands import hand_open, hand_void
from tables.services.sessions import dealer_sign_in
from tests.games.mulligan.script import HANDS_4, as_step, to_the_deck

pytestmark = pytest.mark.django_db


def _game(floor: dict[str, Any]) -> Any:
    hand = hand_open(
        table=floor["MG-1"], dealer=floor["dealer"], players={1: 5000, 2: 5000, 3: 5000}
    )
    hand = hand_play(hand=hand, dealer=floor["dealer"], step={"do": "deal", "hands": HANDS_4[:3]})
    while True:
        _, game = from_record(hand.record)
        if game.is_over:
            break
        hand = hand_play(hand=hand, dealer=floor["dealer"], step=as_step(to_the_deck(game)))
    hand.refresh_from_db()
    return hand


def test_the_rake_of_finished_mulligan_games_is_the_houses_win(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["MG-1"])
    one, two, three = _game(floor), _game(floor), _game(floor)
    hand_void(hand=three, by=floor["pitboss"], reason="deck found short")
    # Each game: 12 mulligans (37 cards in the deck pile, 3 drawn each) of $1.00 from the
    # auctioneer (the least on a card): a $12 pot, 5% of it to the house.
    assert [h.pot_cents for h in (one, two)] == [1200, 1200]
    assert [h.rake_cents for h in (one, two)] == [60, 60]
    day = one.gaming_day
    rebuild(day, floor["MG-1"].pk)
    (row,) = hold_rows(start=day, end=day, by="table", table="MG-1")
    assert (row["pvp_hands"], row["pots_cents"], row["rake_cents"], row["win_cents"]) == (
        2,
        2400,
        120,
        120,
    )
    assert row["voids"] == 1
    tile = next(
        t for t in floor_status(now=timezone.now(), gaming_day=day).tables if t.table.name == "MG-1"
    )
    assert (tile.hands, tile.rake_cents, tile.win_cents) == (2, 120, 120)
    client = Client()
    client.force_login(floor["pitboss"])
    page = client.get("/reports/dashboard/floor/").content.decode()
    assert "MG-1" in page and "$1.20" in page
    # A game's record page shows it in the replay contract's form, which replays the same.
    record = client.get(f"/audit/hands/{one.pk}/")
    assert record.status_code == 200
    shown = record.context["record_json"]
    assert json.loads(shown) == one.record["replay"]
    assert replay_mulligan(json.loads(shown))["winner"] == one.result["winner"]
