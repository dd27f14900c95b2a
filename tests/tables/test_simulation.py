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
