"""`simulate_rounds` plays random legal Mulligan games through the services at the demo's MG-1
(for chips under Secret Offers): every game finished by the system, chips conserved (payoffs
sum to minus the rake), replayed the same by `replay`, one audit event per step."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

from audit.models import AuditEvent
from tables.games.mulligan.replay import replay_mulligan
from tables.models import Hand

pytestmark = pytest.mark.django_db


def test_simulate_rounds_plays_whole_mulligan_games(floor: dict[str, Any]) -> None:
    out = io.StringIO()
    call_command("simulate_rounds", "--table", "MG-1", "--rounds", "12", "--seed", "4", stdout=out)
    summary = json.loads(out.getvalue())
    per = summary["tables"]["MG-1"]
    hands = list(Hand.objects.filter(table__name="MG-1"))
    assert per["hands"] == len(hands) == 12 == summary["hands"]
    assert per["rake_cents"] == sum(h.rake_cents for h in hands) == summary["house_win_cents"]
    assert per["pots_cents"] == sum(h.pot_cents for h in hands)
    for hand in hands:
        assert hand.status == "finished"
        payoffs = [p.payoff_cents for p in hand.players.order_by("position")]
        assert sum(payoffs) == -hand.rake_cents  # type: ignore[arg-type]
        replayed = replay_mulligan(hand.record["replay"])
        assert replayed["winner"] == hand.result["winner"]
        assert replayed["rake"] == hand.rake_cents and replayed["pot"] == hand.pot_cents
        steps = AuditEvent.objects.filter(object_type="tables.hand", object_id=str(hand.pk))
        assert steps.filter(kind="hand.finished").count() == 1
        assert steps.filter(kind="hand.step").count() == 1 + len(hand.record["actions"])
    assert {h.result["ended_by"] for h in hands} == {"fold", "deck"}
    assert sum(h.rake_cents for h in hands) > 0
