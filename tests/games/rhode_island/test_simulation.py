"""`simulate_rounds` plays random legal Rhode Island Hold 'Em hands through the services: every
hand finished, chips conserved (payoffs sum to minus the rake), each replayed by `replay`."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

from audit.models import AuditEvent
from tables.games.rhode_island.replay import replay_rhode_island
from tables.models import Hand

pytestmark = pytest.mark.django_db


def test_simulate_rounds_plays_whole_hands_at_a_poker_table(floor: dict[str, Any]) -> None:
    out = io.StringIO()
    call_command("simulate_rounds", "--table", "RI-1", "--rounds", "25", "--seed", "3", stdout=out)
    summary = json.loads(out.getvalue())
    per = summary["tables"]["RI-1"]
    hands = list(Hand.objects.filter(table__name="RI-1"))
    assert per["hands"] == len(hands) == 25 == summary["hands"]
    assert per["rake_cents"] == sum(h.rake_cents for h in hands) == summary["house_win_cents"]
    assert per["pots_cents"] == sum(h.pot_cents for h in hands)
    for hand in hands:
        assert hand.status == "finished"
        payoffs = [p.payoff_cents for p in hand.players.order_by("position")]
        assert sum(payoffs) == -hand.rake_cents  # type: ignore[arg-type]
        replayed = replay_rhode_island(hand.record)
        assert replayed["payoffs"] == payoffs and replayed["rake"] == hand.rake_cents
        steps = AuditEvent.objects.filter(object_type="tables.hand", object_id=str(hand.pk))
        assert steps.filter(kind="hand.finished").count() == 1
        actions = len(hand.record["actions"])
        board = sum(1 for k in ("flop", "turn") if k in hand.record)
        assert steps.filter(kind="hand.step").count() == 1 + actions + board
    assert any(h.result["showdown"] for h in hands)
    assert any(not h.result["showdown"] for h in hands)
