"""Fixtures for the audit tests."""

from __future__ import annotations

from typing import Any

import pytest

from tables.models import Round
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in


@pytest.fixture
def settled(floor: dict[str, Any]) -> Round:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    r = svc.round_open(table=floor["SC-1"], dealer=floor["dealer"], wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(
        round=r, dealer=floor["dealer"], seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c"
    )
    r = svc.round_decide(round=r, dealer=floor["dealer"], seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=floor["dealer"])
    return svc.round_settle(round=r, dealer=floor["dealer"])
