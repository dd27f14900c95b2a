"""The theoretical house edge through its driver: the exact figures, Monte Carlo intervals
around the exact values, strategies, refusals (each game's own tables and fast paths are tested
with the game, `tests/games/<game>/test_edge.py`)."""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

import pytest

from tables.engine import contract
from tables.engine.edge_report import Method, WagerEdge
from tables.engine.edge_stats import exact_figures
from tables.engine.errors import EngineError
from tables.engine.house_edge import edge_for_lines, house_edge
from tables.engine.paytables import make_paytable, named
from tables.engine.progressive import MeterConfig
from tables.engine.simulate import random_round
from tables.engine.strategies import Strategy
from tables.games.lowball import rules as lowball_rules
from tables.games.pyramid import edge as edge_pyramid
from tables.games.pyramid import rules as pyramid_rules
from tables.games.second_chance import rules as second_chance_rules

from .helpers import cards

SECOND_CHANCE = named("second_chance", "default")
PYRAMID = named("pyramid", "default")


def exact(report_wager: object) -> WagerEdge:
    assert isinstance(report_wager, WagerEdge)
    assert report_wager.method is Method.EXACT
    return report_wager


# --- Pair Plus ------------------------------------------------------------------------------


def test_pair_plus_on_the_default_paytable_holds_exactly_7_2760_percent() -> None:
    """40/30/6/3/1 (the rules' default Pair Plus table) is the paytable with 7.2760%:
    (48*40 + 52*30 + 720*6 + 1096*3 + 3744*1 - 16440) / 22100 = -1608/22100."""
    pp = exact(house_edge("second_chance", exact=True).wager("pair_plus"))
    assert pp.figures.edge == Fraction(1608, 22100)
    assert f"{float(pp.figures.edge) * 100:.4f}" == "7.2760"
    assert pp.deals == 22100
    assert {o.name: o.count for o in pp.outcomes} == {
        "straight_flush": 48,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    }
    assert {o.name: o.net for o in pp.outcomes}["high_card"] == -1


def test_a_paytable_given_as_lines_is_analysed_as_the_floor_would_ask() -> None:
    lines = {k: dict(v) for k, v in SECOND_CHANCE.as_data().items()}
    lines["pair_plus"]["flush"] = "4"  # 40/30/6/4/1: the common 2.32% table
    (data,) = edge_for_lines("second_chance", lines, name="v7", strategies_wanted=["published"])
    pp = next(w for w in data["wagers"] if w["wager"] == "pair_plus")
    assert pp["house_edge"]["exact"]["per_initial_wager"] == str(Fraction(512, 22100))
    assert data["paytable"] == "v7" and data["strategy"]["name"] == "published"


# --- Pyramid --------------------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["optimal", "house_way", "published"])
def test_pyramid_counts_every_one_of_the_407_170_400_deals(strategy: str) -> None:
    ante = exact(house_edge("pyramid", strategy=strategy).wager("ante"))
    assert ante.deals == 407_170_400 == comb(52, 3) * comb(49, 3)
    assert sum(o.count for o in ante.outcomes) == 407_170_400
    assert all(o.count.denominator == 1 for o in ante.outcomes)


def test_pyramid_exact_figures() -> None:
    optimal = exact(house_edge("pyramid", strategy="optimal").wager("ante"))
    house = exact(house_edge("pyramid", strategy="house_way").wager("ante"))
    assert {o.name: o.count for o in optimal.outcomes} == {
        "win": 129_626_064,
        "push": 132_146_232,
        "lose": 145_398_104,
    }
    assert {o.name: o.count for o in house.outcomes} == {
        "win": 129_602_256,
        "push": 132_190_776,
        "lose": 145_377_368,
    }
    assert optimal.figures.edge == Fraction(145_398_104 - 129_626_064, 407_170_400)
    assert optimal.figures.edge < house.figures.edge  # the optimum is no worse
    assert f"{float(optimal.figures.edge):.4%}" == "3.8736%"


# --- Monte Carlo against exact ------------------------------------------------------------


def contains(wager: object, value: Fraction) -> bool:
    assert isinstance(wager, WagerEdge) and wager.figures.ci95 is not None
    low, high = wager.figures.ci95
    return low <= float(value) <= high


@pytest.mark.parametrize("strategy", ["optimal", "house_way", "typical"])
def test_sampled_pyramid_interval_holds_the_exact_edge(strategy: str) -> None:
    exact_edge = exact(house_edge("pyramid", strategy=strategy).wager("ante")).figures.edge
    sampled = house_edge("pyramid", strategy=strategy, samples=60_000, seed=5).wager("ante")
    assert sampled.method is Method.MONTE_CARLO
    assert contains(sampled, exact_edge)


def test_sampled_pair_plus_intervals_hold_the_exact_edges() -> None:
    exact_report = house_edge("second_chance", strategy="typical", exact=True)
    sampled = house_edge("second_chance", strategy="typical", samples=60_000, seed=8)
    for name in ("pair_plus", "mulligan_pair_plus"):
        assert contains(sampled.wager(name), exact(exact_report.wager(name)).figures.edge)


def test_a_mixed_strategy_gives_exact_fractional_counts() -> None:
    ante = exact(house_edge("pyramid", strategy="typical").wager("ante"))
    assert sum(o.count for o in ante.outcomes) == 407_170_400
    assert any(o.count.denominator == 5 for o in ante.outcomes)
    data = ante.as_data()
    assert all(isinstance(o["count"], int | str) for o in data["outcomes"])


def test_exact_figures_of_a_table_of_outcomes() -> None:
    from tables.engine.edge_stats import Outcome

    f = exact_figures(
        [
            Outcome("win", Fraction(1), Fraction(1), Fraction(1)),
            Outcome("lose", Fraction(-1), Fraction(1), Fraction(3)),
        ]
    )
    assert f.edge == Fraction(1, 2) and f.std_dev == pytest.approx((1 - 0.25) ** 0.5)


def test_second_chance_and_lowball_are_sampled_with_an_interval() -> None:
    sc = house_edge("second_chance", strategy="published", samples=2_000, seed=1)
    ante = sc.wager("ante_raise")
    assert isinstance(ante, WagerEdge) and ante.method is Method.MONTE_CARLO
    assert ante.figures.samples == 2_000 * 24
    assert 1 < float(ante.figures.wagered) < 2  # the Raise about half the time
    lb = house_edge("lowball", strategy="house_way", samples=1_000, seed=1)
    prog = lb.wager("progressive")
    assert isinstance(prog, WagerEdge)
    assert prog.figures.std_dev > 10  # the jackpot's spread is in it


def test_a_higher_meter_lowers_the_progressive_edge_by_the_jackpot_share() -> None:
    low = house_edge("lowball", samples=500, seed=4, meter=MeterConfig(meter_cents=1_000_000))
    high = house_edge("lowball", samples=500, seed=4, meter=MeterConfig(meter_cents=3_000_000))
    a, b = low.wager("progressive"), high.wager("progressive")
    assert isinstance(a, WagerEdge) and isinstance(b, WagerEdge)
    share = Fraction(1524, 407_170_400) * 20_000  # 20,000 more units on the meter
    assert float(a.figures.edge) - float(b.figures.edge) == pytest.approx(float(share))


def test_the_rake_games_are_simulated_on_their_engines() -> None:
    ri = house_edge("rhode_island", samples=200, seed=2).as_data()
    (rake,) = ri["wagers"]
    assert rake["method"] == "simulation" and rake["samples"] == 200
    assert float(rake["rake_per_hand"]["mean"]) > 0
    mull = house_edge("mulligan", samples=30, seed=2).as_data()
    assert float(mull["wagers"][0]["rake_per_hand"]["mean"]) > 0


# --- strategies and the simulator ---------------------------------------------------------


def test_every_strategy_mix_weighs_one() -> None:
    tables = (second_chance_rules.STRATEGIES, lowball_rules.STRATEGIES, pyramid_rules.STRATEGIES)
    for table in tables:
        assert set(table) == set(Strategy)
        for mix in table.values():
            assert sum(w for w, _ in mix.plays) == 1


def test_the_simulator_plays_the_named_strategy() -> None:
    rng = random.Random(9)
    for _ in range(200):
        py = random_round(rng, "pyramid", strategy="optimal")
        for seat in py["seats"]:
            hand = cards(" ".join(seat["cards"]))
            assert seat["one_card"] == str(edge_pyramid.optimal_one_card(hand))
        py = random_round(rng, "pyramid", strategy="house_way")
        assert all(seat["house_way"] for seat in py["seats"])
        sc = random_round(rng, "second_chance", strategy="published")
        for seat in sc["seats"]:
            hand = cards(" ".join(seat["cards"]))
            assert ("mulligan" in seat) == second_chance_rules.mulligan_published(hand)
        lb = random_round(rng, "lowball", strategy="house_way")
        for seat in lb["seats"]:
            hand = cards(" ".join(seat["cards"]))
            expected = {str(c) for c in lowball_rules.discard_house_way(hand)}
            assert set(seat.get("discard", [])) == expected


def test_simulated_pyramid_play_lands_within_the_exact_edge_band() -> None:
    """Settled by the contract, the optimal player's results match the theory."""
    ante = exact(house_edge("pyramid", strategy="optimal").wager("ante"))
    rng = random.Random(12)
    nets = []
    for _ in range(1500):
        data = random_round(rng, "pyramid", strategy="optimal", seats=7)
        for seat in data["seats"]:
            seat["wagers"] = {"ante": "1.00"}
        settled = contract.settle(data)
        nets += [s.net_cents / 100 for s in settled.seats]
    mean = sum(nets) / len(nets)
    band = 4 * ante.figures.std_dev / len(nets) ** 0.5
    assert abs(-mean - float(ante.figures.edge)) < band


# --- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "blackjack"}, "there is no game 'blackjack'"),
        ({"game": "pyramid", "paytable": "gold"}, "pyramid has no paytable 'gold'"),
        ({"game": "lowball", "paytable": "4"}, "lowball has no paytable '4'"),
        ({"game": "pyramid", "strategy": "lucky"}, "there is no strategy 'lucky'"),
        ({"game": "lowball", "exact": True}, "cannot be computed exactly"),
        ({"game": "rhode_island", "strategy": "optimal"}, "'typical' strategy only"),
        ({"game": "mulligan", "paytable": "default"}, "mulligan has no paytable"),
        ({"game": "pyramid", "samples": 0}, "samples must be at least 1"),
        ({"game": "pyramid", "exact": True, "samples": 5}, "not both"),
    ],
)
def test_unknown_or_impossible_requests_are_refused_clearly(
    kwargs: dict[str, object], message: str
) -> None:
    game = kwargs.pop("game")
    with pytest.raises(EngineError) as err:
        house_edge(str(game), **kwargs)  # type: ignore[arg-type]
    assert message in err.value.message


def test_a_paytable_of_another_game_is_refused() -> None:
    with pytest.raises(EngineError, match="not pyramid's"):
        house_edge("pyramid", paytable=SECOND_CHANCE)


def test_pyramid_at_other_odds_is_counted_and_sampled_at_those_odds() -> None:
    lines = {"ante": {"win": "21/20"}}
    (data,) = edge_for_lines("pyramid", lines, name="bonus-odds")
    ante = data["wagers"][0]
    edge = Fraction(ante["house_edge"]["exact"]["per_initial_wager"])
    counts = {o["outcome"]: o["count"] for o in ante["outcomes"]}
    assert edge == Fraction(counts["lose"] - Fraction(21, 20) * counts["win"], 407_170_400)
    odds_table = make_paytable("pyramid", "bonus-odds", lines)
    sampled = house_edge("pyramid", paytable=odds_table, samples=60_000, seed=3).wager("ante")
    assert contains(sampled, edge)


@pytest.mark.parametrize(
    ("game", "strategy", "wager", "stakes"),
    [
        ("second_chance", "published", "ante_raise", {"ante": "1.00"}),
        ("second_chance", "typical", "ante_raise", {"ante": "1.00"}),
        ("lowball", "optimal", "ante_bonus", {"ante": "1.00", "bonus": "1.00"}),
        ("lowball", "typical", "ante_bonus", {"ante": "1.00", "bonus": "1.00"}),
    ],
)
def test_simulated_heads_up_play_lands_within_the_sampled_edge_band(
    game: str, strategy: str, wager: str, stakes: dict[str, str]
) -> None:
    """The simulator's rounds with a named strategy, settled by the contract, lose what the
    analysis says per unit of the initial wager (within four standard errors)."""
    theory = house_edge(game, strategy=strategy, samples=20_000, seed=6).wager(wager)
    assert isinstance(theory, WagerEdge)
    rng = random.Random(21)
    nets = []
    for _ in range(4000):
        data = random_round(rng, game, strategy=strategy, seats=1, paytable=None)
        data.pop("paytable", None)
        data.pop("progressive", None)
        for seat in data["seats"]:
            seat["wagers"] = dict(stakes)
            seat.get("mulligan", {}).pop("pair_plus", None)
        settled = contract.settle(data)
        nets.append(settled.seats[0].net_cents / 100)
    mean = sum(nets) / len(nets)
    band = 4 * theory.figures.std_dev / len(nets) ** 0.5
    assert abs(-mean - float(theory.figures.edge)) < band
