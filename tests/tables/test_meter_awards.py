"""A meter's awards are its game's: exactly the awards the game declares, in whole cents, each
refusal naming the award in the game's words."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tables import games
from tables.models import ProgressiveMeter


def progressive_game() -> games.GameDefinition:
    return next(g for g in games.all_games() if g.takes_progressive)


def declared(game: games.GameDefinition) -> dict[str, int]:
    return {a.key: a.default_cents for a in game.fixed_awards() if a.default_cents is not None}


def test_a_meters_awards_are_exactly_its_games() -> None:
    game = progressive_game()
    awards = declared(game)
    assert games.check_meter_awards(game, awards) == awards
    first, *_ = game.fixed_awards()
    missing = {k: v for k, v in awards.items() if k != first.key}
    with pytest.raises(ValueError, match=f"the award {first.label} is not set"):
        games.check_meter_awards(game, missing)
    with pytest.raises(ValueError, match="has no award 'other'"):
        games.check_meter_awards(game, {**awards, "other": 100})
    for bad in (-1, True, 2.5, "100"):
        with pytest.raises(ValueError, match=f"the award {first.label} must be a whole number"):
            games.check_meter_awards(game, {**awards, first.key: bad})


@pytest.mark.django_db
def test_the_model_refuses_awards_its_game_does_not_declare() -> None:
    game = progressive_game()
    meter = ProgressiveMeter(
        name="Check",
        value_cents=0,
        reset_cents=1_000_000,
        rate="0.2000",
        wager_cents=100,
        game=game.name,
        awards={**declared(game), "other": 1},
    )
    with pytest.raises(ValidationError) as refused:
        meter.full_clean()
    assert "has no award 'other'" in str(refused.value.message_dict["awards"])
    meter.awards = declared(game)
    meter.full_clean()


def test_every_progressive_game_declares_its_awards_with_words_and_defaults() -> None:
    for game in games.all_games():
        if not game.takes_progressive:
            assert game.progressive_awards == ()
            continue
        assert sum(a.is_jackpot for a in game.progressive_awards) == 1
        for award in game.fixed_awards():
            assert award.label and award.default_cents is not None and award.default_cents >= 0
            assert game.award_labels.get(award.key) == award.label
