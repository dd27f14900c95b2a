"""The progressive meter: contributions, cap and overflow, jackpot payment and reset."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.engine.errors import EngineError
from tables.engine.progressive import JackpotSplit, MeterConfig, apply_round, awards_of


def test_contributions_are_added_at_the_rate() -> None:
    result, shares = apply_round(MeterConfig(meter_cents=1_234_567), [100, 100], [])
    assert result.contributions_cents == 40
    assert result.meter_after_cents == 1_234_607
    assert result.paid_cents == 0 and shares == {}


def test_fractional_contribution_rounds_down_for_the_round() -> None:
    result, _ = apply_round(MeterConfig(rate=Fraction(15, 100), wager_cents=5), [5, 5, 5], [])
    assert result.contributions_cents == 2  # 2.25 cents


def test_jackpot_pays_the_whole_meter_and_resets() -> None:
    result, shares = apply_round(
        MeterConfig(meter_cents=2_500_000, reset_cents=1_000_000), [100], [3]
    )
    assert shares == {3: 2_500_020}
    assert result.paid_cents == 2_500_020 and result.meter_after_cents == 1_000_000


def test_equal_split_gives_leftover_cents_to_the_lowest_seats_first() -> None:
    config = MeterConfig(meter_cents=1_000_000, rate=Fraction(0))
    result, shares = apply_round(config, [100, 100, 100], [7, 1, 4])
    assert shares == {1: 333_334, 4: 333_333, 7: 333_333}
    assert sum(shares.values()) == result.paid_cents == 1_000_000


def test_seat_order_split_pays_the_meter_then_the_reset_amount() -> None:
    config = MeterConfig(
        meter_cents=3_000_000,
        reset_cents=1_000_000,
        rate=Fraction(0),
        split=JackpotSplit.SEAT_ORDER,
    )
    result, shares = apply_round(config, [100, 100], [6, 2])
    assert shares == {2: 3_000_000, 6: 1_000_000}
    assert result.paid_cents == 4_000_000 and result.meter_after_cents == 1_000_000


def test_cap_sends_contributions_past_it_to_overflow() -> None:
    config = MeterConfig(meter_cents=4_999_990, reset_cents=1_000_000, cap_cents=5_000_000)
    result, _ = apply_round(config, [100, 100], [])
    assert result.meter_after_cents == 5_000_000
    assert result.contributions_cents == 10 and result.overflow_cents == 30


def test_meter_never_goes_down_without_a_jackpot() -> None:
    config = MeterConfig(meter_cents=5_000_000, cap_cents=5_000_000, reset_cents=1_000_000)
    result, _ = apply_round(config, [100], [])
    assert result.meter_after_cents == 5_000_000 and result.overflow_cents == 20


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rate": Fraction(3, 2)},
        {"wager_cents": 0},
        {"meter_cents": -1},
        {"cap_cents": 1, "reset_cents": 5},
    ],
)
def test_bad_meter_settings_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(EngineError):
        MeterConfig(**kwargs)  # type: ignore[arg-type]


def test_awards_are_data_the_game_names() -> None:
    """The engine names no game's award: a game's awards and defaults are given to it."""
    defaults = {"small": 300, "large": 20_000}
    assert awards_of(MeterConfig(), defaults) == defaults
    given = {"small": 400, "large": 25_000}
    assert awards_of(MeterConfig(awards_cents=given), defaults) == given
    with pytest.raises(EngineError, match="award large is not configured"):
        awards_of(MeterConfig(awards_cents={"small": 400}), defaults)
    with pytest.raises(EngineError, match="has no award 'other'"):
        awards_of(MeterConfig(awards_cents={**given, "other": 1}), defaults)
    with pytest.raises(EngineError, match="award small must be a whole number of cents"):
        MeterConfig(awards_cents={"small": -1})
