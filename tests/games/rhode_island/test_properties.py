"""Random legal Rhode Island hands (hypothesis chooses the table, the cards and every action
among the legal ones) never break an invariant: chips are conserved (payoffs sum to minus the
rake), no stack goes negative, and the result agrees with the replay contract and, where the
contract and PokerKit's own split cannot differ, with PokerKit played to the end."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tables.engine.cards import DECK, Card
from tables.games.rhode_island.game import (
    HandResult,
    HandSetup,
    Move,
    RakeRule,
    RhodeIslandHand,
    Waiting,
)
from tables.games.rhode_island.replay import hand_record, replay_rhode_island

from .helpers import pokerkit_payoffs

setups = st.builds(
    lambda n, stacks, first, ante, bets, raise_cap, percent, cap: HandSetup(
        stacks=tuple(stacks[:n]),
        first=first % n,
        ante=ante,
        bets=bets,
        raise_cap=raise_cap,
        rake=RakeRule(percent, cap),
    ),
    st.integers(min_value=2, max_value=10),
    st.lists(
        st.one_of(st.integers(min_value=1, max_value=12), st.integers(min_value=1, max_value=400)),
        min_size=10,
        max_size=10,
    ),
    st.integers(min_value=0, max_value=9),
    st.integers(min_value=0, max_value=10),
    st.tuples(*[st.integers(min_value=1, max_value=40)] * 3),
    st.integers(min_value=0, max_value=5),
    st.one_of(
        st.just(Decimal(0)),
        st.decimals(min_value=0, max_value=100, places=2),
        st.sampled_from([Decimal(5), Decimal(10), Decimal("7.5")]),
    ),
    st.one_of(st.none(), st.integers(min_value=0, max_value=30)),
)


def play_randomly(
    setup: HandSetup, deck: list[Card], data: st.DataObject
) -> tuple[RhodeIslandHand, list[str]]:
    """Play a hand to its end, every action drawn from the legal ones; checks the invariants
    that hold at every step."""
    n = setup.players
    hand = RhodeIslandHand(setup, deck[:n])
    board = deck[n : n + 2]
    start = sum(setup.stacks)
    actions: list[str] = []
    while hand.waiting is not Waiting.OVER:
        assert all(s >= 0 for s in hand.stacks)
        assert sum(hand.stacks) + hand.pot_total == start
        if hand.waiting is Waiting.FLOP:
            hand.deal_flop(board[0])
            continue
        if hand.waiting is Waiting.TURN:
            hand.deal_turn(board[1])
            continue
        player = hand.to_act
        assert player is not None and not hand.folded[player]
        legal = hand.legal_actions()
        assert legal
        stack = hand.stacks[player]
        for action in legal:
            assert 0 <= action.amount <= stack
            assert action.all_in == (action.amount == stack and action.amount > 0)
        assert {a.move for a in legal} in (
            {Move.CHECK},
            {Move.CHECK, Move.BET},
            {Move.FOLD, Move.CALL},
            {Move.FOLD, Move.CALL, Move.RAISE},
        )
        chosen = data.draw(st.sampled_from(legal))
        record = hand.act(chosen.move)
        assert (record.player, record.move, record.amount) == (player, chosen.move, chosen.amount)
        actions.append(chosen.move.value)
        assert len(actions) <= 3 * (setup.raise_cap + 2) * n + 2 * n
    return hand, actions


def check_result(setup: HandSetup, hand: RhodeIslandHand, result: HandResult) -> None:
    n = setup.players
    rule = setup.rake
    assert sum(result.payoffs) == -result.rake
    assert result.rake >= 0 and result.rake <= result.pot
    if rule.cap is not None:
        assert result.rake <= rule.cap
    assert result.rake == rule.rake_for(result.pot, flop_dealt=bool(hand.board))
    assert result.stacks == tuple(s + p for s, p in zip(setup.stacks, result.payoffs, strict=True))
    assert all(s >= 0 for s in result.stacks)
    assert result.pot == sum(result.in_pot) == sum(p.amount for p in result.pots)
    assert sum(p.rake for p in result.pots) == result.rake
    assert sum(result.awards) == result.pot - result.rake
    assert result.payoffs == tuple(a - c for a, c in zip(result.awards, result.in_pot, strict=True))
    live = [i for i in range(n) if not hand.folded[i]]
    assert result.showdown == (len(live) > 1)
    assert result.winners and set(result.winners) <= set(live)
    assert list(result.winners) == sorted(result.winners)
    for i in range(n):
        if hand.folded[i]:
            assert result.hands[i] is None and result.payoffs[i] == -result.in_pot[i] <= 0
        else:
            assert (result.hands[i] is not None) == result.showdown
    for pot in result.pots:
        assert set(pot.winners) <= set(pot.players) <= set(live)
    if result.showdown:
        assert len(hand.board) == 2
    assert hand.stacks == result.stacks
    if hand.history:  # the pot after the last action is the hand's pot
        assert hand.history[-1].pot_after == result.pot


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, deck=st.permutations(DECK), data=st.data())
def test_random_legal_hands_keep_every_invariant(
    setup: HandSetup, deck: list[Card], data: st.DataObject
) -> None:
    hand, actions = play_randomly(setup, deck, data)
    result = hand.result()
    check_result(setup, hand, result)
    # The replay contract, fed the record, tells the same story.
    record = hand_record(hand)
    assert record["actions"] == actions
    out = replay_rhode_island(json.loads(json.dumps(record)))
    assert out["pot"] == result.pot and out["rake"] == result.rake
    assert out["payoffs"] == list(result.payoffs) and out["winners"] == list(result.winners)
    # Without rake, and where no pot leaves odd chips, PokerKit's own split is the contract's.
    even = all(p.amount % len(p.winners) == 0 for p in result.pots)
    if setup.ante and result.rake == 0 and even:
        assert pokerkit_payoffs(setup, hand) == result.payoffs
        event("checked against PokerKit's own split")
    event("showdown" if result.showdown else "won by folds")
    event(f"{len(result.pots)} pot(s)")
    if any(len(p.winners) > 1 for p in result.pots):
        event("split pot")
