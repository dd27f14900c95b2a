"""Theoretical hold: each wager's house edge and spread under a paytable and a named strategy.

`house_edge(game, ...)` returns an `EdgeReport` (`as_data()` is its JSON form, the
`house_edge` command's output); `edge_for_lines(game, tables, ...)` takes a paytable version's
lines in `make_paytable` form and returns the same plain data, for the floor.

Per wager: the house edge (the player's expected loss) per unit of the initial wager and per
unit of the total wagered, the standard deviation of one round's net per unit of the initial
wager, the method, the strategy and, for an exact figure, the count of every outcome.

| game | wager | how |
| --- | --- | --- |
| pyramid | ante | exact over 407,170,400 deals (`edge_pyramid`) |
| second_chance | pair_plus | exact over 22,100 hands |
| second_chance | mulligan_pair_plus | exact over every (swapped hand, new hand) pair |
| second_chance | ante_raise | Monte Carlo (`edge_second_chance`) |
| lowball | ante_bonus, progressive | Monte Carlo, the jackpot exact (`edge_lowball`) |
| rhode_island, mulligan | rake | simulation on the engines (`edge_rake`) |

Every exact wager can also be sampled (`samples=`), so the two can be checked against each
other. The analysis is heads-up: one seat against the dealer, one deck.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final

from . import edge_lowball, edge_pyramid, edge_rake, edge_second_chance, pyramid, strategies
from .edge_fast import HANDS, poker_categories
from .edge_stats import Figures, Outcome, Sampler, exact_figures, stratified_figures
from .errors import EngineError, Refusal
from .mulligan_game import Rake
from .paytables import DEFAULT_NAME, Game, Paytable, make_paytable, named
from .progressive import MeterConfig
from .rhode_island import RakeRule
from .strategies import Strategy

HOUSE_GAMES: Final = ("second_chance", "lowball", "pyramid")
RAKE_GAMES: Final = ("rhode_island", "mulligan")
GAMES: Final = HOUSE_GAMES + RAKE_GAMES
DEFAULT_SAMPLES: Final = {
    "second_chance": 100_000,  # 12-card deals, 24 rounds each
    "lowball": 100_000,  # 12-card deals, 24 rounds each
    "pyramid": 1_000_000,
    "rhode_island": 5_000,  # hands
    "mulligan": 1_000,  # games
}
DECIMALS: Final = 10


class Method(StrEnum):
    EXACT = "exact"
    MONTE_CARLO = "monte_carlo"
    SIMULATION = "simulation"


@dataclass(frozen=True)
class WagerEdge:
    """One wager's figures. `deals` (exact) is what the outcome counts add up to."""

    wager: str
    method: Method
    figures: Figures
    outcomes: tuple[Outcome, ...] = ()
    deals: int | Fraction | None = None
    note: str = ""

    def as_data(self) -> dict[str, Any]:
        f = self.figures
        data: dict[str, Any] = {
            "wager": self.wager,
            "method": self.method.value,
            "house_edge": {
                "per_initial_wager": _num(f.edge),
                "per_total_wagered": _num(f.edge_per_total),
            },
            "std_dev": _num(f.std_dev),
            "wagered_per_initial": _num(f.wagered),
        }
        if self.method is Method.EXACT:
            data["house_edge"]["exact"] = {
                "per_initial_wager": str(f.edge),
                "per_total_wagered": str(f.edge_per_total),
            }
            data["deals"] = None if self.deals is None else _count(Fraction(self.deals))
            data["outcomes"] = [
                {
                    "outcome": o.name,
                    "net": str(o.net),
                    "wagered": str(o.wagered),
                    "count": _count(o.count),
                }
                for o in self.outcomes
            ]
        else:
            assert f.ci95 is not None and f.ci95_per_total is not None
            data["samples"] = f.samples
            data["confidence_95"] = {
                "per_initial_wager": [_num(f.ci95[0]), _num(f.ci95[1])],
                "per_total_wagered": [_num(f.ci95_per_total[0]), _num(f.ci95_per_total[1])],
            }
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class RakeEdge:
    """The house's take in a game between players."""

    wager: str
    figures: edge_rake.RakeFigures
    terms: Mapping[str, Any]

    def as_data(self) -> dict[str, Any]:
        f = self.figures
        return {
            "wager": self.wager,
            "method": Method.SIMULATION.value,
            "rake_per_hand": {
                "mean": _num(f.mean),
                "std_dev": _num(f.std_dev),
                "confidence_95": [_num(f.ci95[0]), _num(f.ci95[1])],
            },
            "pot_per_hand": _num(f.pot_mean),
            "rake_per_pot": _num(f.per_pot),
            "raked_share": _num(f.raked_share),
            "samples": f.hands,
            "terms": dict(self.terms),
        }


@dataclass(frozen=True)
class EdgeReport:
    game: str
    paytable: str | None
    strategy: Strategy
    strategy_description: str
    wagers: tuple[WagerEdge | RakeEdge, ...]
    assumptions: tuple[str, ...] = ()
    omitted: Mapping[str, str] = field(default_factory=dict)  # wager -> why (with exact)
    seed: int | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)

    def wager(self, name: str) -> WagerEdge | RakeEdge:
        return next(w for w in self.wagers if w.wager == name)

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "paytable": self.paytable,
            "strategy": {"name": self.strategy.value, "description": self.strategy_description},
            "wagers": [w.as_data() for w in self.wagers],
            "assumptions": list(self.assumptions),
        }
        if self.omitted:
            data["omitted"] = [{"wager": w, "reason": r} for w, r in self.omitted.items()]
        if self.settings:
            data["settings"] = dict(self.settings)
        if self.seed is not None:
            data["seed"] = self.seed
        return data


def _num(value: Fraction | float) -> str:
    """A figure as a decimal string with `DECIMALS` places (exact ones: rounded half even)."""
    if isinstance(value, Fraction):
        d = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        d = Decimal(repr(value))
    return str(d.quantize(Decimal(1).scaleb(-DECIMALS)))


def _count(value: Fraction) -> int | str:
    """A count: an integer, or (for a mixed strategy) the exact fraction as text."""
    return value.numerator if value.denominator == 1 else str(value)


def _refuse(message: str, field_name: str) -> EngineError:
    return EngineError(Refusal.BAD_SETUP, message, field=field_name)


def _game(game: str) -> str:
    if game not in GAMES:
        raise _refuse(f"there is no game {game!r}: one of {', '.join(GAMES)}", "game")
    return game


def paytable_for(game: str, name: str | None) -> Paytable | None:
    """The named paytable of a house game (its default when None); refuses an unknown one,
    and any paytable for a game between players."""
    _game(game)
    if game in RAKE_GAMES:
        if name is not None:
            raise _refuse(
                f"{game} has no paytable: the players play each other and the house takes a "
                "rake (set it with the rake options)",
                "paytable",
            )
        return None
    g = Game(game)
    return named(g, DEFAULT_NAME[g] if name is None else name)


# --- the house games -------------------------------------------------------------------------

_HEADS_UP: Final = "heads-up: one seat against the dealer, dealt from one 52-card deck"


def _pyramid_exact(paytable: Paytable, strategy: Strategy) -> WagerEdge:
    odds = paytable.tables["ante"]["win"]
    mix = strategies.PYRAMID[strategy]
    plays = [(w, None if p is strategies.alone_optimal else p) for w, p in mix.plays]
    counts = edge_pyramid.exact_counts(odds, plays)
    outcomes = (
        Outcome("win", odds, Fraction(1), counts["win"]),
        Outcome("push", Fraction(0), Fraction(1), counts["push"]),
        Outcome("lose", Fraction(-1), Fraction(1), counts["lose"]),
    )
    return WagerEdge(
        "ante",
        Method.EXACT,
        exact_figures(outcomes),
        outcomes,
        deals=edge_pyramid.TOTAL_DEALS,
        note="win: both hands won; push: one each; lose: both lost (a copy loses)",
    )


def _pyramid_sampled(
    paytable: Paytable, strategy: Strategy, samples: int, rng: random.Random
) -> WagerEdge:
    """Sampled deals: each 6-card deal is played both ways round (player and dealer)."""
    odds = float(paytable.tables["ante"]["win"])
    mix = strategies.PYRAMID[strategy]
    dealer: dict[tuple[int, ...], edge_pyramid.Score] = {}
    player: dict[tuple[int, ...], list[tuple[float, edge_pyramid.Score]]] = {}
    for rc in edge_pyramid.rank_classes():
        dealer[rc.ranks] = edge_pyramid.score_of(pyramid.dealer_setting(rc.cards))
        settings = edge_pyramid.legal_settings(rc.cards)
        merged: dict[int, Fraction] = {}
        for weight, play in mix.plays:
            if play is strategies.alone_optimal:  # at this paytable's odds
                alone = edge_pyramid.optimal_one_card(rc.cards, paytable.tables["ante"]["win"]).rank
            else:
                alone = play(rc.cards).rank
            merged[alone] = merged.get(alone, Fraction(0)) + weight
        player[rc.ranks] = [
            (float(share), edge_pyramid.score_of(settings[alone]))
            for alone, share in merged.items()
        ]
    ranks = [c // 4 + 2 for c in range(52)]
    out = Sampler(group=2)
    for _ in range(samples):
        d = rng.sample(range(52), 6)
        a = tuple(sorted((ranks[d[0]], ranks[d[1]], ranks[d[2]])))
        b = tuple(sorted((ranks[d[3]], ranks[d[4]], ranks[d[5]])))
        net = square = 0.0
        for mine, theirs in ((a, b), (b, a)):
            d_two, d_one = dealer[theirs]
            for share, (two, one) in player[mine]:
                wins = (two > d_two) + (one > d_one)
                g = odds if wins == 2 else 0.0 if wins == 1 else -1.0
                net += share * g
                square += share * g * g
        out.add(net / 2, 1.0, square / 2)
    return WagerEdge("ante", Method.MONTE_CARLO, out.figures())


def _pair_plus_sampled(
    paytable: Paytable, mix: strategies.Mix[bool] | None, samples: int, rng: random.Random
) -> WagerEdge:
    """Pair Plus (mix None) or Mulligan Pair Plus by sampling: per 6-card deal, each half is
    the first hand in turn and the other the new one."""
    table = paytable.tables["pair_plus"]
    cats = poker_categories()
    net_of = {c: float(table[c]) if c in table else -1.0 for c in set(cats) if c}
    swap: dict[tuple[int, ...], float] = {}
    if mix is not None:
        for hand, w in zip(HANDS, edge_second_chance.swap_weights(mix), strict=True):
            swap[hand] = float(w)
    out = Sampler(group=2)
    for _ in range(samples):
        d = rng.sample(range(52), 6)
        h1 = d[0] * 2704 + d[1] * 52 + d[2]
        h2 = d[3] * 2704 + d[4] * 52 + d[5]
        if mix is None:
            g1, g2 = net_of[cats[h1]], net_of[cats[h2]]
            out.add((g1 + g2) / 2, 1.0, (g1 * g1 + g2 * g2) / 2)
            continue
        w1 = swap[tuple(sorted(d[0:3]))]
        w2 = swap[tuple(sorted(d[3:6]))]
        g1, g2 = net_of[cats[h2]], net_of[cats[h1]]  # the new hand is the other half
        out.add((w1 * g1 + w2 * g2) / 2, (w1 + w2) / 2, (w1 * g1 * g1 + w2 * g2 * g2) / 2)
    f = out.figures()
    if mix is None:
        return WagerEdge("pair_plus", Method.MONTE_CARLO, f)
    # Per unit of Mulligan Pair Plus, placed only with a mulligan: the ratio is the figure.
    per_bet = Figures(
        edge=f.edge_per_total,
        edge_per_total=f.edge_per_total,
        std_dev=_ratio_spread(out),
        wagered=1.0,
        samples=f.samples,
        ci95=f.ci95_per_total,
        ci95_per_total=f.ci95_per_total,
    )
    return WagerEdge("mulligan_pair_plus", Method.MONTE_CARLO, per_bet)


def _ratio_spread(s: Sampler) -> float:
    """The spread of one bet's net where the observations weight bets by `wagered`."""
    mean = s.net / s.wag
    return float(max(s.square / s.wag - mean * mean, 0.0) ** 0.5)


def _second_chance(
    paytable: Paytable,
    strategy: Strategy,
    *,
    exact: bool,
    samples: int | None,
    rng: random.Random,
    default_samples: int | None = None,
) -> tuple[WagerEdge, ...]:
    mix = strategies.SECOND_CHANCE[strategy]
    wagers: list[WagerEdge] = []
    if not exact:
        n = samples or default_samples or DEFAULT_SAMPLES["second_chance"]
        wagers.append(
            WagerEdge(
                "ante_raise",
                Method.MONTE_CARLO,
                edge_second_chance.ante_raise(paytable, mix, n, rng).figures(),
                note="per unit of Ante; the Raise (one more unit) is wagered only with a mulligan",
            )
        )
    if samples is None:
        pp_out = tuple(edge_second_chance.pair_plus(paytable))
        pair_plus = WagerEdge(
            "pair_plus", Method.EXACT, exact_figures(pp_out), pp_out, deals=len(HANDS)
        )
        mpp_out = tuple(edge_second_chance.mulligan_pair_plus(paytable, mix))
        mpp_deals = sum((o.count for o in mpp_out), Fraction(0))
        mpp = WagerEdge(
            "mulligan_pair_plus",
            Method.EXACT,
            exact_figures(mpp_out),
            mpp_out,
            deals=int(mpp_deals) if mpp_deals.denominator == 1 else mpp_deals,
            note="per unit of Mulligan Pair Plus, over every (swapped first hand, new hand "
            "from the other 49 cards) pair the strategy plays",
        )
    else:
        pair_plus = _pair_plus_sampled(paytable, None, samples, rng)
        mpp = _pair_plus_sampled(paytable, mix, samples, rng)
    return (*wagers, pair_plus, mpp)


NOT_EXACT: Final = {
    "second_chance": {
        "ante_raise": "the dealer draws after the player's mulligan: no counting method fast "
        "enough was found, so it is sampled (run without --exact, or with --samples N)"
    },
}


def default_meter() -> MeterConfig:
    return MeterConfig()


def _lowball(
    paytable: Paytable,
    strategy: Strategy,
    *,
    exact: bool,
    samples: int | None,
    rng: random.Random,
    meter: MeterConfig,
    default_samples: int | None = None,
) -> tuple[WagerEdge, ...]:
    if exact:
        raise _refuse(
            "lowball's ante_bonus and progressive cannot be computed exactly (both draws "
            "depend on the cards, the dealer's after the player's): run without --exact, or "
            "give --samples N",
            "exact",
        )
    mix = strategies.LOWBALL[strategy]
    n = samples or default_samples or DEFAULT_SAMPLES["lowball"]
    t = edge_lowball.lowball_tables(paytable, mix, meter)
    main, prog = edge_lowball.sample(t, n, rng)
    strata = [(1.0, prog)]
    for hands in (edge_lowball.A24_ONE_COLOUR, edge_lowball.A24_TWO_COLOUR):
        part = edge_lowball.sample_a24(t, max(n // 25, 2), rng, hands)
        strata.append((len(hands) / len(HANDS), part))
    p_jackpot = edge_lowball.jackpot_deals() / edge_pyramid.TOTAL_DEALS
    jackpot = meter.meter_cents / meter.wager_cents
    progressive = stratified_figures(
        strata,
        shift=p_jackpot * jackpot,
        extra_square=p_jackpot * ((jackpot - 1) ** 2 - 1),
    )
    return (
        WagerEdge(
            "ante_bonus",
            Method.MONTE_CARLO,
            main.figures(),
            note="per unit of Ante; the Bonus (always equal to the Ante) is wagered too",
        ),
        WagerEdge(
            "progressive",
            Method.MONTE_CARLO,
            progressive,
            note=(
                f"per unit of the progressive wager, meter {_money(meter.meter_cents)} on a "
                f"{_money(meter.wager_cents)} wager; the jackpot exactly "
                f"({edge_lowball.jackpot_deals():,} of {edge_pyramid.TOTAL_DEALS:,} deals), "
                "the rounds with a 4-2-A first hand sampled apart (one colour, two colours)"
            ),
        ),
    )


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def house_edge(
    game: str,
    *,
    paytable: Paytable | str | None = None,
    strategy: Strategy | str | None = None,
    exact: bool = False,
    samples: int | None = None,
    seed: int | None = None,
    meter: MeterConfig | None = None,
    rake_percent: Decimal = edge_rake.DEFAULT_RAKE_PERCENT,
    rake_cap: int | None = None,
    players: int = 2,
    monte_carlo_samples: int | None = None,
) -> EdgeReport:
    """Every wager of `game` under `paytable` (a name, a built one, or the default) with the
    player playing `strategy` (default: `optimal` in a house game, `typical` in a game between
    players, the only one those have). `exact` refuses a figure that cannot be exact; `samples`
    samples every wager (also the exact ones: to check them); `monte_carlo_samples` is the
    count of a wager that cannot be exact when `samples` is not given. Refuses (EngineError) an
    unknown game, paytable or strategy, naming it."""
    _game(game)
    if strategy is None:
        strategy = Strategy.TYPICAL if game in RAKE_GAMES else Strategy.OPTIMAL
    chosen = strategies.parse_strategy(strategy)
    if exact and samples is not None:
        raise _refuse("give either exact or samples, not both", "samples")
    if monte_carlo_samples is not None and monte_carlo_samples < 1:
        raise _refuse(f"samples must be at least 1, not {monte_carlo_samples}", "samples")
    if samples is not None and samples < 1:
        raise _refuse(f"samples must be at least 1, not {samples}", "samples")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rng = random.Random(seed)
    if game in RAKE_GAMES:
        if isinstance(paytable, Paytable) or paytable is not None:
            paytable_for(game, "given")
        return _rake_report(
            game, chosen, exact, samples, seed, rng, rake_percent, rake_cap, players
        )
    table = paytable if isinstance(paytable, Paytable) else paytable_for(game, paytable)
    assert table is not None
    if table.game.value != game:
        raise _refuse(
            f"paytable {table.name!r} is a {table.game} paytable, not {game}'s", "paytable"
        )
    settings: dict[str, Any] = {}
    wagers: tuple[WagerEdge, ...]
    sampled = samples is not None
    if game == "pyramid":
        if sampled:
            assert samples is not None
            wagers = (_pyramid_sampled(table, chosen, samples, rng),)
        else:
            wagers = (_pyramid_exact(table, chosen),)
    elif game == "second_chance":
        wagers = _second_chance(
            table,
            chosen,
            exact=exact,
            samples=samples,
            rng=rng,
            default_samples=monte_carlo_samples,
        )
    else:
        m = meter or default_meter()
        settings["progressive"] = {
            "meter": _money(m.meter_cents),
            "wager": _money(m.wager_cents),
            "awards": {a.value: _money(c) for a, c in m.awards_cents.items()},
        }
        wagers = _lowball(
            table,
            chosen,
            exact=exact,
            samples=samples,
            rng=rng,
            meter=m,
            default_samples=monte_carlo_samples,
        )
    uses_rng = any(w.method is not Method.EXACT for w in wagers)
    return EdgeReport(
        game=game,
        paytable=table.name,
        strategy=chosen,
        strategy_description=strategies.describe(game, chosen),
        wagers=wagers,
        assumptions=(_HEADS_UP,),
        omitted=NOT_EXACT.get(game, {}) if exact else {},
        seed=seed if uses_rng else None,
        settings=settings,
    )


def _rake_report(
    game: str,
    strategy: Strategy,
    exact: bool,
    samples: int | None,
    seed: int,
    rng: random.Random,
    rake_percent: Decimal,
    rake_cap: int | None,
    players: int,
) -> EdgeReport:
    if strategy is not Strategy.TYPICAL:
        raise _refuse(
            f"{game} is played between players: its rake is simulated with the 'typical' "
            f"strategy only, not {strategy.value!r}",
            "strategy",
        )
    if exact:
        raise _refuse(
            f"{game}'s rake depends on how the players bet: it is simulated (give --samples "
            "N or nothing), not exact",
            "exact",
        )
    n = samples or DEFAULT_SAMPLES[game]
    terms: dict[str, Any] = {
        "rake_percent": str(rake_percent),
        "rake_cap": rake_cap,
        "players": players,
    }
    if game == "rhode_island":
        terms.update(ante=5, bets=[10, 20, 20], raise_cap=3, stack=1000)
        figures = edge_rake.rhode_island(
            n, rng, players=players, rake=RakeRule(rake_percent, rake_cap)
        )
        description = edge_rake.RI_DESCRIPTION
        unit = "hand"
    else:
        terms.update(chips=20, table_minimum=1)
        figures = edge_rake.mulligan(n, rng, players=players, rake=Rake(rake_percent, rake_cap))
        description = edge_rake.MULLIGAN_DESCRIPTION
        unit = "game"
    return EdgeReport(
        game=game,
        paytable=None,
        strategy=strategy,
        strategy_description=description,
        wagers=(RakeEdge("rake", figures, terms),),
        assumptions=(f"the rake per {unit} in chips is the house's whole take",),
        seed=seed,
    )


def edge_for_lines(
    game: str,
    tables: Mapping[str, Mapping[str, object]],
    *,
    name: str = "version",
    strategies_wanted: Sequence[Strategy | str] = (Strategy.OPTIMAL,),
    samples: int | None = None,
    seed: int | None = None,
    meter: MeterConfig | None = None,
    monte_carlo_samples: int | None = None,
) -> list[dict[str, Any]]:
    """The figures of a paytable given as its lines (`make_paytable` form, e.g. an approved
    paytable version's), one report per strategy, as plain JSON-ready data: exact where they
    can be, else by Monte Carlo over `monte_carlo_samples` (default: the engine's count), or
    every wager sampled with `samples`."""
    _game(game)
    if game not in HOUSE_GAMES:
        raise _refuse(f"{game} has no paytable", "game")
    table = make_paytable(Game(game), name, tables)
    return [
        house_edge(
            game,
            paytable=table,
            strategy=s,
            samples=samples,
            seed=seed,
            meter=meter,
            monte_carlo_samples=monte_carlo_samples,
        ).as_data()
        for s in strategies_wanted
    ]


__all__ = [
    "GAMES",
    "EdgeReport",
    "Method",
    "WagerEdge",
    "RakeEdge",
    "edge_for_lines",
    "house_edge",
    "paytable_for",
]
