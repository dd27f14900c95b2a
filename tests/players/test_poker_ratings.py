"""A rated poker player: hands, what they put in the pots, and the rake their pots paid,
prorated by their share of each pot (the house's actual and theoretical win alike); a void
takes the hand out; poker measures no decision cost."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from players.models import Rating
from players.services import figure_problems, rebuild_day
from tables.services import hands as svc
from tests.players.conftest import player, seat, unseat

pytestmark = pytest.mark.django_db

CHECKED_DOWN = [
    {"hole": ["Ah", "Kc", "2d"]},
    *[{"action": "check"}] * 3,
    {"flop": "7s"},
    *[{"action": "check"}] * 3,
    {"turn": "8s"},
    *[{"action": "check"}] * 3,
]  # pot 1500, rake 5% = 75: each of three put 500 in
BET_AND_FOLD = [
    {"hole": ["Ah", "Kc", "2d"]},
    {"action": "bet"},
    {"action": "call"},
    {"action": "fold"},
    {"flop": "7s"},
    *[{"action": "check"}] * 2,
    {"turn": "8s"},
    *[{"action": "check"}] * 2,
]


def hand(floor: dict[str, Any], steps: list[dict[str, Any]]) -> Any:
    h = svc.hand_open(
        table=floor["RI-1"], dealer=floor["dealer"], players={1: 10_000, 2: 10_000, 3: 10_000}
    )
    for step in steps:
        h = svc.hand_act(hand=h, dealer=floor["dealer"], step=step)
    return svc.hand_finish(hand=h, dealer=floor["dealer"])


def test_a_poker_rating_pays_its_share_of_each_pots_rake(
    floor: dict[str, Any], dealer_at: Any
) -> None:
    client = dealer_at("RI-1")
    seat(client, floor["RI-1"], 3, "100002")
    one = hand(floor, CHECKED_DOWN)
    two = hand(floor, BET_AND_FOLD)
    unseat(client, floor["RI-1"], 3)
    # what seat 3 (the third player in the record) put in, and each pot's rake
    put = [h.result["in_pot"][2] for h in (one, two)]
    assert put[0] == 500 and sum(two.result["in_pot"]) == two.pot_cents == 3500
    assert sorted(two.result["in_pot"]) == [500, 1500, 1500]  # one folded to the bet
    pairs = zip((one, two), put, strict=True)
    share = sum(Decimal(h.rake_cents) * p / h.pot_cents for h, p in pairs)
    rating = Rating.objects.get(player=player("100002"))
    assert rating.hands == 2
    assert rating.wagered_cents == sum(put)
    assert rating.theoretical_win == share.quantize(Decimal("0.0000000001"))
    assert rating.actual_win_cents == int(share.quantize(Decimal(1)))
    assert rating.no_decision_cost and rating.decision_cost == 0
    svc.hand_void(hand=two, by=floor["pitboss"], reason="cards exposed")
    rating.refresh_from_db()
    assert (rating.hands, rating.wagered_cents, rating.actual_win_cents) == (1, 500, 25)
    assert rebuild_day(day=rating.gaming_day) == 1 and figure_problems() == []
