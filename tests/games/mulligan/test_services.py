"""Mulligan through the floor's services: scripted games ending both ways in every allowed
combination of variants, with and without chips (a chipless auctioneer must fold); the pot,
the rake (the house's win) and the payoffs; an action on the audit chain each; refusals that
change nothing; a broken assertion refused, logged and on the audit chain."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from audit.models import AuditEvent
from audit.verify import verify_chain
from core.errors import ServiceError
from tables.engine.errors import GameAssertionError
from tables.games.mulligan import game as mulligan_game
from tables.games.mulligan.game import EndedBy, Variant
from tables.games.mulligan.play import from_record
from tables.games.mulligan.replay import replay_mulligan
from tables.games.mulligan.terms import allowed_combinations
from tables.models import Hand
from tables.services.hand_play import hand_play
from tables.services.hands import hand_open
from tests.games.mulligan.floor import mulligan_table
from tests.games.mulligan.script import BURN, HANDS_4, as_step, to_a_fold, to_the_deck

V = Variant
pytestmark = pytest.mark.django_db


def open_and_deal(floor, table, players=4, buy_in=4000):
    hand = hand_open(
        table=table,
        dealer=floor["dealer"],
        players={n + 1: buy_in for n in range(players)},
        first=1,
    )
    deal: dict[str, Any] = {"do": "deal", "hands": HANDS_4[:players]}
    if any(v == "high_risk" for v in hand.record["terms"]["variants"]):
        deal["burn"] = BURN
    return hand_play(hand=hand, dealer=floor["dealer"], step=deal)


def play_to_end(floor, hand, policy):
    for _ in range(500):
        rebuilt = from_record(hand.record)
        assert rebuilt is not None
        _, game = rebuilt
        if game.is_over:
            break
        hand = hand_play(hand=hand, dealer=floor["dealer"], step=as_step(policy(game)))
    hand.refresh_from_db()
    return hand


@pytest.mark.parametrize(
    "variants", allowed_combinations(), ids=lambda v: "+".join(sorted(v)) or "plain"
)
@pytest.mark.parametrize("policy", [to_the_deck, to_a_fold], ids=["deck", "fold"])
def test_scripted_games_end_both_ways_and_are_finished_by_the_system(floor, variants, policy):
    table = mulligan_table(floor, variants)
    hand = open_and_deal(floor, table)
    events_before = AuditEvent.objects.filter(kind="hand.step").count()
    hand = play_to_end(floor, hand, policy)
    assert hand.status == Hand.Status.FINISHED
    _, game = from_record(hand.record)
    ended = EndedBy.DECK if policy is to_the_deck else EndedBy.FOLD
    assert game.ended_by is ended and hand.result["ended_by"] == ended.value
    assert hand.result["winner"] == game.winner
    # One audit event per action (the deal's was before).
    steps = AuditEvent.objects.filter(kind="hand.step").count() - events_before
    assert steps == len(hand.record["actions"])
    assert AuditEvent.objects.filter(kind="hand.finished", object_id=str(hand.pk)).count() == 1
    # The stored record replays through the contract to the same end.
    replayed = replay_mulligan(hand.record["replay"])
    assert replayed["winner"] == game.winner and replayed["ended_by"] == ended.value
    players = list(hand.players.order_by("position"))
    if V.CHIPS in variants:
        assert hand.pot_cents == game.pot and hand.rake_cents == game.rake
        assert hand.rake_cents == min(game.pot * 10 // 100, 500)
        assert sum(p.payoff_cents for p in players) == -hand.rake_cents
        assert [p.stack_after_cents for p in players] == list(game.stacks)
        assert hand.house_win_cents == hand.rake_cents
        if policy is to_the_deck:
            assert hand.pot_cents > 0
    else:
        assert hand.pot_cents == 0 and hand.rake_cents == 0
        assert all(p.payoff_cents == 0 for p in players)


def test_a_chipless_auctioneer_must_fold(floor):
    table = mulligan_table(floor, {V.CHIPS}, table_minimum_cents=200, rake_percent="0")
    hand = hand_open(
        table=table, dealer=floor["dealer"], players={1: 200, 2: 1000, 3: 1000}, first=0
    )
    hand = hand_play(hand=hand, dealer=floor["dealer"], step={"do": "deal", "hands": HANDS_4[:3]})
    for step in (
        {"do": "auction", "player": 0, "card": "2c", "chips": 200},
        {"do": "offer", "player": 1, "card": "8s", "chips": 0},
        {"do": "offer", "player": 2, "card": "7c", "chips": 100},
        {"do": "mulligan", "player": 0, "draws": ["2d", "3c", "4c"]},
        {"do": "skip", "player": 1},
        {"do": "skip", "player": 2},
    ):
        hand = hand_play(hand=hand, dealer=floor["dealer"], step=step)
    before = dict(hand.record)
    for step in (
        {"do": "skip", "player": 0},
        {"do": "auction", "player": 0, "card": "Ah", "chips": 0},
    ):
        with pytest.raises(ServiceError) as err:
            hand_play(hand=hand, dealer=floor["dealer"], step=step)
        assert "must fold" in err.value.message
        hand.refresh_from_db()
        assert hand.record == before
    hand = hand_play(hand=hand, dealer=floor["dealer"], step={"do": "fold", "player": 0})
    hand = hand_play(hand=hand, dealer=floor["dealer"], step={"do": "fold", "player": 1})
    hand.refresh_from_db()
    assert hand.status == Hand.Status.FINISHED and hand.pot_cents == 300
    winner = hand.result["winner"]
    assert hand.players.get(position=winner).payoff_cents > 0


@pytest.mark.parametrize(
    ("step", "words"),
    [
        ({"do": "skip", "player": 0}, "it is Seat 2's turn, not Seat 1's"),
        ({"do": "auction", "player": 1, "card": "Ah"}, "Seat 2 does not hold A♥"),
        ({"do": "auction", "player": 1, "card": "Zz"}, "'Zz'"),
        ({"do": "swap", "player": 1, "offer_of": 2}, "cannot swap before every offer is in"),
        ({"do": "deal", "hands": HANDS_4}, "already dealt"),
        ({"do": "skip", "player": 1, "card": "Ah"}, "a skip takes no 'card'"),
        ({"do": "jump", "player": 1}, "not a Mulligan action"),
    ],
)
def test_a_refused_action_changes_nothing(floor, step, words):
    table = mulligan_table(floor)
    hand = open_and_deal(floor, table)
    before = (dict(hand.record), AuditEvent.objects.count())
    with pytest.raises(ServiceError) as err:
        hand_play(hand=hand, dealer=floor["dealer"], step=step)
    assert words in err.value.message
    hand.refresh_from_db()
    assert (hand.record, AuditEvent.objects.count()) == before


def test_a_broken_assertion_is_refused_logged_and_on_the_audit_chain(floor, monkeypatch, caplog):
    table = mulligan_table(floor)
    hand = open_and_deal(floor, table)
    before = dict(hand.record)
    real = mulligan_game.check_assertions

    def broken(game, *, before=None):
        if before is not None:
            raise GameAssertionError("five_cards", "player 2 holds 6 cards in phase turn")
        real(game, before=before)

    monkeypatch.setattr(mulligan_game, "check_assertions", broken)
    with caplog.at_level(logging.ERROR, logger="tables.hands"), pytest.raises(ServiceError) as err:
        hand_play(hand=hand, dealer=floor["dealer"], step={"do": "skip", "player": 1})
    assert err.value.code == "assertion_failed"
    assert "five_cards" in err.value.message and "nothing changed" in err.value.message
    hand.refresh_from_db()
    assert hand.record == before
    event = AuditEvent.objects.filter(kind="hand.assertion_failed").get()
    assert event.data["assertion"] == "five_cards"
    assert event.data["step"] == {"do": "skip", "player": 1}
    assert event.table_name == "MG-T"
    assert any("five_cards" in r.getMessage() for r in caplog.records)
    assert verify_chain()[1] is None
