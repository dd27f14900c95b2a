"""A settled round's decision cost, from the round as the floor stores it: each house game's
round played through the API, its `Round.entry` and paytable version handed to the game's
`decision_cost` (the ratings' call), as each game's own tests compute it from the contract."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tables import games
from tables.models import Round
from tables.selectors import engine_paytable
from tables.services.sessions import dealer_sign_in
from tests.helpers import client_for
from tests.tables.test_api import play_to_confirm, settle

pytestmark = pytest.mark.django_db


def costs(round_id: int) -> dict[int, Decimal | None]:
    stored = Round.objects.select_related("paytable_version").get(pk=round_id)
    assert stored.status == "settled"
    game = games.banked(stored.entry["game"])
    paytable = engine_paytable(stored.paytable_version)
    return {
        s["seat"]: game.decision_cost(stored.entry, s["seat"], paytable)
        for s in stored.entry["seats"]
    }


def sign_in(floor: dict[str, Any], name: str) -> Any:
    dealer_sign_in(dealer=floor["dealer"], table=floor[name])
    return client_for(floor["dealer"])


def test_a_pyramid_round_costs_its_mis_set_and_not_its_house_way(floor: dict[str, Any]) -> None:
    client = sign_in(floor, "PY-1")
    r = play_to_confirm(
        client,
        floor["PY-1"],
        {1: {"ante": "10.00"}, 5: {"ante": "20.00"}},
        {1: "Qs Jh 5d", 5: "7s 7h 2d"},
        "Kc 9d 5h",
        {1: {"one_card": "5d"}, 5: {"house_way": True}},
    )
    settle(client, r["id"])
    got = costs(r["id"])
    assert got[1] is not None and got[1] > 0
    assert got[5] == Decimal("0.00")  # 7-7-2: the strategy keeps the pair, the best setting


def test_a_second_chance_round_costs_its_mulligan_of_a_pair(floor: dict[str, Any]) -> None:
    client = sign_in(floor, "SC-1")
    r = play_to_confirm(
        client,
        floor["SC-1"],
        {1: {"ante": "10.00", "pair_plus": "5.00"}, 4: {"ante": "25.00"}},
        {1: "9d 9h 2s", 4: "8c 5h 2d"},
        "Qs 7d 2c",
        {
            1: {"mulligan": True, "cards": "Jc Jd 4h", "pair_plus": "5.00"},
            4: {"mulligan": True, "cards": "Kc Th 4d"},
        },
        draw=["Ah", "Kd", "3c"],
    )
    settle(client, r["id"])
    got = costs(r["id"])
    assert got[1] is not None and got[1] > 0
    assert got[4] == Decimal("0.00")  # 8-5-2 swapped: the better choice


def test_a_lowball_round_costs_its_kept_king(floor: dict[str, Any]) -> None:
    client = sign_in(floor, "LB-1")
    r = play_to_confirm(
        client,
        floor["LB-1"],
        {1: {"ante": "10.00", "progressive": "1.00"}, 2: {"ante": "5.00"}},
        {1: "As 2c 4s", 2: "Kd 3h 2d"},
        "Jc 9h 7d",
        {1: {"discard": [], "draw": []}, 2: {"discard": "2d", "draw": "5d"}},
        draw=["8c"],
    )
    settle(client, r["id"])
    got = costs(r["id"])
    assert got[1] == Decimal("0.00")  # 4-2-A stands pat
    assert got[2] is not None and got[2] > 0  # the king kept, a 2 thrown away
