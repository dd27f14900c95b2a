"""The demo floor has the people its controls need."""

from __future__ import annotations

from typing import Any

import pytest

from core.roles import Role, has_role

pytestmark = pytest.mark.django_db


def test_the_demo_has_three_pit_bosses_for_a_signed_off_payouts_void(floor: dict[str, Any]) -> None:
    """One signs off a jackpot; a second asks for its void; a third approves the void."""
    pit_bosses = [u for u in floor["users"].values() if has_role(u, Role.PIT_BOSS)]
    assert {u.username for u in pit_bosses} >= {"pitboss", "pitboss_b", "pitboss_c"}
