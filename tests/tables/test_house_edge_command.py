"""`manage.py house_edge`: its JSON shape per method, its refusals; and `--strategy` on
`simulate_rounds` and `seed_history`."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from tables.engine.cards import parse_cards
from tables.games.pyramid import edge as edge_pyramid
from tables.games.second_chance.rules import mulligan_published
from tables.models import Round


def run(*args: str) -> dict[str, Any]:
    out = StringIO()
    call_command("house_edge", *args, "--json", stdout=out)
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_pyramid_exact_json_shape() -> None:
    data = run("--game", "pyramid", "--exact")
    assert data["game"] == "pyramid" and data["paytable"] == "default"
    assert data["strategy"]["name"] == "optimal" and data["strategy"]["description"]
    (ante,) = data["wagers"]
    assert ante["wager"] == "ante" and ante["method"] == "exact"
    assert set(ante["house_edge"]) == {"per_initial_wager", "per_total_wagered", "exact"}
    assert ante["house_edge"]["per_initial_wager"] == "0.0387357234"
    assert ante["deals"] == 407_170_400
    assert sum(o["count"] for o in ante["outcomes"]) == 407_170_400
    assert [o["outcome"] for o in ante["outcomes"]] == ["win", "push", "lose"]
    assert float(ante["std_dev"]) > 0
    assert "seed" not in data  # nothing was sampled


def test_second_chance_json_mixes_exact_and_sampled_wagers() -> None:
    data = run("--game", "second_chance", "--strategy", "published", "--seed", "3")
    by = {w["wager"]: w for w in data["wagers"]}
    assert set(by) == {"ante_raise", "pair_plus", "mulligan_pair_plus"}
    assert by["pair_plus"]["method"] == "exact"
    assert by["pair_plus"]["house_edge"]["per_initial_wager"] == "0.0727601810"
    ante = by["ante_raise"]
    assert ante["method"] == "monte_carlo" and ante["samples"] == 100_000 * 24
    low, high = (float(x) for x in ante["confidence_95"]["per_initial_wager"])
    assert low < float(ante["house_edge"]["per_initial_wager"]) < high
    assert float(ante["house_edge"]["per_total_wagered"]) < float(
        ante["house_edge"]["per_initial_wager"]
    )  # the Raise adds to what is wagered
    assert data["seed"] == 3


def test_samples_run_every_wager_by_monte_carlo() -> None:
    data = run("--game", "pyramid", "--samples", "5000", "--seed", "1")
    (ante,) = data["wagers"]
    assert ante["method"] == "monte_carlo" and ante["samples"] == 10_000
    assert "outcomes" not in ante and "confidence_95" in ante


def test_the_same_seed_gives_the_same_figures() -> None:
    args = ("--game", "lowball", "--samples", "300", "--seed", "7", "--meter", "40000.00")
    assert run(*args) == run(*args)
    data = run(*args)
    assert data["settings"]["progressive"]["meter"] == "40000.00"
    assert {w["wager"] for w in data["wagers"]} == {"ante_bonus", "progressive"}


def test_exact_lists_what_it_leaves_out() -> None:
    data = run("--game", "second_chance", "--exact")
    assert {w["wager"] for w in data["wagers"]} == {"pair_plus", "mulligan_pair_plus"}
    assert [o["wager"] for o in data["omitted"]] == ["ante_raise"]


def test_rake_json_shape() -> None:
    data = run("--game", "rhode_island", "--samples", "100", "--seed", "1", "--rake-cap", "3")
    (rake,) = data["wagers"]
    assert rake["wager"] == "rake" and rake["method"] == "simulation"
    assert set(rake["rake_per_hand"]) == {"mean", "std_dev", "confidence_95"}
    assert rake["terms"]["rake_cap"] == 3 and rake["terms"]["rake_percent"] == "5"
    assert float(rake["rake_per_hand"]["mean"]) <= 3


def test_the_text_form_names_each_wager() -> None:
    out = StringIO()
    call_command("house_edge", "--game", "pyramid", stdout=out)
    assert "ante" in out.getvalue() and "exact" in out.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "baccarat"], "there is no game 'baccarat'"),
        (["--game", "pyramid", "--paytable", "gold"], "pyramid has no paytable 'gold'"),
        (["--game", "pyramid", "--strategy", "lucky"], "there is no strategy 'lucky'"),
        (["--game", "lowball", "--exact"], "cannot be computed exactly"),
        (["--game", "pyramid", "--meter", "100.00"], "for lowball only"),
        (["--game", "lowball", "--meter", "-5"], "--meter"),
        (["--game", "mulligan", "--rake-percent", "lots"], "--rake-percent"),
    ],
)
def test_refusals_are_clear(args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("house_edge", *args, "--json", stdout=StringIO())


@pytest.mark.django_db
def test_simulate_rounds_plays_the_named_strategy(floor: dict[str, Any]) -> None:
    out = StringIO()
    call_command(
        "simulate_rounds", "--table", "PY-1", "--rounds", "5", "--seed", "2",
        "--strategy", "optimal", stdout=out,
    )  # fmt: skip
    assert json.loads(out.getvalue())["strategy"] == "optimal"
    rounds = Round.objects.filter(table__name="PY-1")
    assert rounds.count() == 5
    for r in rounds:
        for seat in r.entry["seats"]:
            hand = parse_cards(seat["cards"], where="test")
            assert seat["one_card"] == str(edge_pyramid.optimal_one_card(hand))


def test_simulate_rounds_refuses_an_unknown_strategy() -> None:
    with pytest.raises(CommandError, match="lucky"):
        call_command("simulate_rounds", "--all", "--rounds", "1", "--strategy", "lucky")


@pytest.mark.django_db
def test_seed_history_plays_the_named_strategy(floor: dict[str, Any]) -> None:
    with override_settings(DEBUG=True):
        call_command(
            "seed_history", "--rounds=60", "--days=1", "--tables=3", "--seed=4",
            "--strategy=published", stdout=StringIO(),
        )  # fmt: skip
    checked = 0
    for r in Round.objects.filter(game="second_chance"):
        for seat in r.entry["seats"]:
            hand = parse_cards(seat["cards"], where="test")
            assert ("mulligan" in seat) == mulligan_published(hand)
            checked += 1
    assert checked > 10
