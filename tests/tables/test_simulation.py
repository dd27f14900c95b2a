"""`simulate_rounds --all` plays every table of the demo floor, banked and player-vs-player, each
on its own game's rules."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_simulate_rounds_all_plays_banked_tables_and_poker_tables(floor: dict[str, Any]) -> None:
    out = io.StringIO()
    call_command("simulate_rounds", "--all", "--rounds", "2", "--seed", "5", stdout=out)
    summary = json.loads(out.getvalue())
    assert set(summary["tables"]) == {"LB-1", "PY-1", "RI-1", "SC-1", "MG-1"}
    assert summary["rounds"] == 6 and summary["hands"] == 4


@pytest.mark.parametrize("slips", [False, True], ids=["rounds", "rounds and slips"])
def test_a_run_stopped_half_way_keeps_nothing(
    floor: dict[str, Any], monkeypatch: pytest.MonkeyPatch, slips: bool
) -> None:
    """All of the run or none of it: a step refused after rounds were played (and slips
    signed) leaves every table's rows and the audit chain's head as they were."""
    from django.apps import apps
    from django.core.management.base import CommandError

    from audit.models import AuditHead
    from core.errors import ServiceError
    from tables import simulation

    played = simulation.play_round
    calls = {"n": 0}

    def refused_at_the_fifth(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 5:
            raise ServiceError("seat 2: the wager is above the table's limit", field="wagers")
        return played(*args, **kwargs)

    monkeypatch.setattr(simulation, "play_round", refused_at_the_fifth)
    before = {m._meta.label: m._default_manager.count() for m in apps.get_models()}
    head = list(AuditHead.objects.values_list("seq", "hash"))
    args = ["simulate_rounds", "--all", "--rounds", "2", "--seed", "3"]
    with pytest.raises(CommandError) as refused:
        call_command(*args, *(["--slips"] if slips else []), stdout=io.StringIO())
    assert str(refused.value) == (
        "the simulation stopped (seat 2: the wager is above the table's limit): "
        "nothing of the run was kept"
    )
    assert calls["n"] == 5
    after = {m._meta.label: m._default_manager.count() for m in apps.get_models()}
    assert after == before
    assert list(AuditHead.objects.values_list("seq", "hash")) == head
