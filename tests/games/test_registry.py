"""The game registry: each game registered once, unknown names refused, each game's lists
consistent, and the database's list of games in step with the registry's."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tables import games
from tables.engine import registry as engine_registry
from tables.models import Table


def test_the_three_banked_games_are_registered_once_in_the_engines_order() -> None:
    banked = [g.name for g in games.all_games() if isinstance(g, games.BankedGame)]
    assert banked == list(engine_registry.banked_names())
    assert [label for _, label in games.choices()] == [
        "Three Card 2nd Chance",
        "Three Card Lowball",
        "Pyramid Poker",
        "Rhode Island Hold 'Em",
        "Mulligan",
    ]
    assert games.player_vs_player("mulligan").label == "Mulligan"
    with pytest.raises(ValueError, match="already registered"):
        games.register(games.get("lowball"))


def test_rhode_island_is_a_player_vs_player_game_and_never_banked() -> None:
    game = games.player_vs_player("rhode_island")
    assert game.tablet_flow == "pvp"
    with pytest.raises(games.UnknownGame):
        games.banked("rhode_island")
    with pytest.raises(games.UnknownGame):
        games.player_vs_player("lowball")


@pytest.mark.parametrize("name", ["", "baccarat", None, 3, "Lowball"])
def test_an_unknown_game_raises_rather_than_playing_as_another(name: object) -> None:
    with pytest.raises(games.UnknownGame):
        games.get(name)
    with pytest.raises(games.UnknownGame):
        games.banked(name)


def test_a_game_without_banked_rounds_is_not_a_banked_game() -> None:
    class HeadsUp(games.GameDefinition):
        name = "heads_up_test"
        label = "Heads-up (test)"
        tablet_flow = "heads_up"

    games.register(HeadsUp())
    try:
        assert games.get("heads_up_test").label == "Heads-up (test)"
        with pytest.raises(games.UnknownGame):
            games.banked("heads_up_test")  # no banked page or service plays it by mistake
    finally:
        games.unregister("heads_up_test")
    assert "heads_up_test" not in games.names()


@pytest.mark.parametrize("name", ["second_chance", "lowball", "pyramid"])
def test_each_games_wager_lists_agree(name: str) -> None:
    game = games.banked(name)
    assert game.seat_wagers[0] == "ante"
    assert set(game.typed_wagers) <= set(game.seat_wagers)
    assert set(game.limited_wagers) <= set(game.seat_wagers)
    assert set(game.seat_wagers) <= set(game.report_wagers)
    assert ("progressive" in game.seat_wagers) is game.takes_progressive
    assert set(game.required_lines()) <= set(game.seat_wagers) | {"raise"}
    assert game.default_paytable in game.named_paytables()
    assert game.demo is not None and set(game.demo.limits) == set(game.limited_wagers)


def test_the_progressive_follows_the_games_declaration_not_a_name() -> None:
    taking = [g.name for g in games.all_games() if g.takes_progressive]
    assert taking == ["lowball"]
    check = next(c for c in Table._meta.constraints if c.name == "table_meter_only_where_taken")
    assert "lowball" in str(check.condition)


@pytest.mark.django_db
def test_the_migrations_hold_the_registrys_games() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)  # exits 1 on a change
    assert "No changes detected" in out.getvalue()
