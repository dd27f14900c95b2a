"""Property tests over random legal rounds of the three games (hypothesis drives the deal)."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.cards import parse_card
from tables.engine.contract import settle_line, settle_round
from tables.engine.simulate import GAMES, random_round

rounds = st.builds(
    lambda seed, game, seats: random_round(random.Random(seed), game, seats=seats),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(GAMES),
    st.one_of(st.none(), st.integers(min_value=1, max_value=7)),
)


def all_cards(round_: dict[str, Any]) -> list[str]:
    dealer = round_["dealer"]
    found = [*dealer["cards"], *(dealer.get("draw") or [])]
    for seat in round_["seats"]:
        found += seat["cards"]
        found += (seat.get("mulligan") or {}).get("cards", [])
        found += seat.get("draw") or []
    return [str(parse_card(c)) for c in found]


@settings(max_examples=400, deadline=None)
@given(rounds)
def test_settling_a_legal_round_never_fails(round_: dict[str, Any]) -> None:
    output, refused = settle_line(json.dumps(round_))
    assert not refused, (round_, output)


@settings(max_examples=300, deadline=None)
@given(rounds)
def test_seat_nets_are_the_sums_of_their_lines(round_: dict[str, Any]) -> None:
    out = settle_round(round_)
    for seat in out["seats"]:
        assert Decimal(seat["net"]) == sum(Decimal(line["net"]) for line in seat["lines"])
        for line in seat["lines"]:
            stake, net = Decimal(line["stake"]), Decimal(line["net"])
            assert {"win": net > 0, "lose": net == -stake, "push": net == 0}[line["result"]]
            assert net.as_tuple().exponent == -2  # whole cents
            if "breakage" in line:
                assert 0 < Decimal(line["breakage"]) < Decimal("0.01")


@settings(max_examples=300, deadline=None)
@given(rounds)
def test_no_card_is_used_twice_and_finals_come_from_the_round(round_: dict[str, Any]) -> None:
    dealt = all_cards(round_)
    assert len(dealt) == len(set(dealt))
    out = settle_round(round_)
    finals = [*out["dealer"].get("final", []), *(c for s in out["seats"] for c in s["final"])]
    assert len(finals) == len(set(finals))
    assert set(finals) <= set(dealt)


@settings(max_examples=200, deadline=None)
@given(rounds, st.integers(min_value=0, max_value=10))
def test_reusing_any_card_elsewhere_in_the_round_is_refused(
    round_: dict[str, Any], pick: int
) -> None:
    seat = round_["seats"][pick % len(round_["seats"])]
    taken = round_["dealer"]["cards"][pick % 3]
    seat["cards"] = [taken, *seat["cards"][1:]]
    output, refused = settle_line(json.dumps(round_))
    assert refused
    assert output["error"]["code"] == "duplicate_card"
    assert str(parse_card(taken)) in output["error"]["message"]
