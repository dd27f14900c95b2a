"""Fixtures for the table accounting tests: a clock the test moves (rounds and slips take their
gaming day and shift from it), rounds played through the services, and a tray of chips that
moves as the hands pay and collect."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tables.models import Round
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in

UTC = ZoneInfo("UTC")
DENOMINATIONS = (100000, 50000, 10000, 2500, 500, 100)  # the migration's usual chips


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 20, 6, 30, tzinfo=UTC)

    def set(self, hour: int, minute: int = 0, *, next_day: bool = False) -> None:
        self.now = datetime(2026, 11, 21 if next_day else 20, hour, minute, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)  # strictly increasing, as a real clock
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    c = Clock()
    monkeypatch.setattr(timezone, "now", c)
    yield c


@pytest.fixture
def pit(floor: dict[str, Any]) -> dict[str, Any]:
    """The demo floor with `dealer` signed in at SC-1."""
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    return floor


# Hands at SC-1 (2nd Chance, ante only): (seat cards, dealer cards); the results differ.
HANDS = [
    ("9d 8h 2s", "Ks 7d 2c"),
    ("As Ad 2c", "Ks 7d 2h"),
    ("Ks Kd 2c", "Ah 9d 3h"),
    ("4s 5d 9c", "As Kd 2h"),
]


def play(floor: dict[str, Any], hand: int, ante: str = "20.00") -> Round:
    """One settled round at SC-1 by `dealer`; returns it (its house win is -players_net)."""
    dealer, table = floor["dealer"], floor["SC-1"]
    seat_cards, dealer_cards = HANDS[hand % len(HANDS)]
    r = svc.round_open(table=table, dealer=dealer, wagers={1: {"ante": ante}})
    r = svc.round_deal(
        round=r, dealer=dealer, seat_cards={1: seat_cards}, dealer_cards=dealer_cards
    )
    r = svc.round_decide(round=r, dealer=dealer, seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=dealer)
    return svc.round_settle(round=r, dealer=dealer)


def as_chips(cents: int) -> dict[str, int]:
    """A tray value in the usual chips, largest first (the API's form: {"25.00": 4})."""
    chips: dict[str, int] = {}
    for value in DENOMINATIONS:
        n, cents = divmod(cents, value)
        if n:
            chips[f"{value // 100}.{value % 100:02d}"] = n
    assert cents == 0, "the tray holds whole dollars"
    return chips
