"""The correction form is built from each game's declared fields (`decision_fields`,
`dealer_fields`): every round it shows, posted back unchanged, is the same round."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from reports.correction_form import _entry, _layout, _prefill
from tables import games

BANKED = [g.name for g in games.all_games() if isinstance(g, games.BankedGame)]


@pytest.mark.parametrize("name", BANKED)
def test_every_round_the_form_shows_posts_back_as_itself(name: str) -> None:
    game = games.banked(name)
    rng = random.Random(name)
    for _ in range(60):
        entry = game.random_round(rng, None)
        voided: Any = SimpleNamespace(entry=entry, game=name, table=SimpleNamespace(seats=7))
        values = _prefill(voided)
        shown = _layout(voided, values, {})
        names = {f["name"] for s in shown["seats"] for f in [*s["wagers"], *s["decisions"]]}
        names |= {f["name"] for f in shown["dealer"]} | {f"seat-{n}-cards" for n in range(1, 8)}
        assert set(values) <= names, "a value the form has no field for"
        back, errors = _entry(voided, values)
        assert not errors
        seats = [dict(seat) for seat in entry["seats"]]
        for seat in seats:  # a field kept even when empty is given back empty
            seat.update({f.key: seat.get(f.key, []) for f in game.decision_fields if f.kept_empty})
        dealer = {k: v for k, v in entry["dealer"].items() if v != []}  # nothing drawn: no draw
        assert back == {"game": name, "dealer": dealer, "seats": seats}


@pytest.mark.parametrize("name", BANKED)
def test_each_decision_field_has_its_words_and_kind(name: str) -> None:
    game = games.banked(name)
    kinds = {games.CARDS, games.CHOICE, games.FLAG, games.MONEY}
    for f in (*game.decision_fields, *game.dealer_fields):
        assert f.label and f.kind in kinds and len(f.path) <= 2
    assert set(game.decision_keys) <= game.seat_keys
