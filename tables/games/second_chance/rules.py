"""Three Card 2nd Chance's rules as the engine's drivers ask for them (`tables.engine.registry`):
reading and settling a round in the `settle` contract's form, the checks while it is entered,
the dealer's house way, random rounds, the named strategies and the house edge.

The strategies: whether to take a mulligan. `published` keeps king-ten or better (K-T-2 kept,
K-9-8 swapped); `house_way` plays like the dealer (keeps king-high or better); `optimal` plays
the published strategy (the published analysis's best play; no search here); `typical` is four
hands in five by the published strategy and one in five like the dealer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from tables.engine.cards import Card, CardLedger, Shoe, format_cards
from tables.engine.contract import (
    cards_at,
    dealer_entry,
    json_object,
    seat_cards,
    seat_entries,
    seat_wagers,
    stake,
)
from tables.engine.edge_fast import HANDS, poker_categories
from tables.engine.edge_report import Method, WagerEdge
from tables.engine.edge_stats import Figures, Sampler, exact_figures
from tables.engine.entry import entered_cards
from tables.engine.errors import EngineError, Refusal
from tables.engine.money import parse_cents
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig
from tables.engine.rankings import poker_value
from tables.engine.registry import BankedGameRules, BankedRules
from tables.engine.settlement import Settlement
from tables.engine.simulate import random_wager
from tables.engine.strategies import Mix, Strategy, pure, typical
from tables.engine.validation import check_count

from . import edge as edge_second_chance
from . import game as second_chance
from . import paytables
from .game import NAME

DEFAULT_SAMPLES: Final = 100_000  # 12-card deals, 24 rounds each


# --- the settle contract -------------------------------------------------------------------


def read_and_settle(
    data: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None = None
) -> Settlement:
    """The round read and settled (the game has no progressive: no `meter`)."""
    seats_raw = seat_entries(data)
    dealer = dealer_entry(data)
    dealer_cards = cards_at(dealer.get("cards"), "the dealer's cards")
    dealer_draw = cards_at(dealer.get("draw"), "the dealer's draw", optional=True)
    seats = []
    for n, raw in seats_raw:
        cards = seat_cards(raw.get("cards"), n, "cards")
        mulligan_raw = raw.get("mulligan")
        mulligan: tuple[Card, ...] | None = None
        mulligan_pp = 0
        if mulligan_raw is not None:
            m = json_object(mulligan_raw, Refusal.CARD_COUNT, f"seat {n}'s mulligan")
            mulligan = seat_cards(m.get("cards"), n, "mulligan cards")
            if m.get("pair_plus") is not None:
                mulligan_pp = parse_cents(m["pair_plus"], where=f"seat {n}'s mulligan pair plus")
            if "raise" in m:
                raise EngineError(
                    Refusal.BAD_WAGER,
                    f"seat {n}'s raise is placed by the mulligan (equal to the ante), not given",
                    field=f"seat {n} raise",
                )
        wagers = seat_wagers(raw, n, ("ante", "pair_plus", "mulligan_pair_plus"))
        if "mulligan_pair_plus" in wagers:
            if mulligan is None:
                raise EngineError(
                    Refusal.BAD_WAGER,
                    f"seat {n} has a mulligan pair plus but took no mulligan",
                    field=f"seat {n} mulligan pair plus",
                )
            mulligan_pp = stake(wagers, "mulligan_pair_plus", n, required=True)
        seats.append(
            second_chance.Seat(
                seat=n,
                ante_cents=stake(wagers, "ante", n, required=True),
                cards=cards,
                pair_plus_cents=stake(wagers, "pair_plus", n, required=False),
                mulligan=mulligan,
                mulligan_pair_plus_cents=mulligan_pp,
            )
        )
    return second_chance.settle(
        second_chance.Round(dealer_cards, tuple(seats), dealer_draw), paytable
    )


# --- the round while it is entered ----------------------------------------------------------


def check_seat(
    n: int, seat: Mapping[str, Any], cards: tuple[Card, ...], ledger: CardLedger
) -> None:
    """A mulligan's new cards: three, none used elsewhere."""
    if seat.get("mulligan"):
        new = entered_cards(seat["mulligan"].get("cards"), f"seat {n}'s mulligan cards")
        check_count(new, f"seat {n}'s mulligan cards")
        ledger.place(new, f"seat {n}'s mulligan cards")


def dealer_advice(cards: tuple[Card, ...]) -> dict[str, Any]:
    draws = second_chance.dealer_draws(cards)
    return {
        "rule": second_chance.house_way_advice(cards),
        "discard": [str(c) for c in cards] if draws else [],
        "draw_count": 3 if draws else 0,
    }


# --- the named strategies: True when the player takes a mulligan ----------------------------

_KEEP_AT_LEAST: Final = poker_value((Card(13, "c"), Card(10, "d"), Card(2, "h"))).score


def mulligan_published(cards: Sequence[Card]) -> bool:
    """The published advice: keep king-ten or better (K-T-2 kept, K-9-8 swapped)."""
    return poker_value(cards).score < _KEEP_AT_LEAST


def mulligan_like_dealer(cards: Sequence[Card]) -> bool:
    """Play like the dealer's house way: swap queen-high or worse."""
    return second_chance.dealer_draws(cards)


STRATEGIES: Final[dict[Strategy, Mix[bool]]] = {
    Strategy.OPTIMAL: pure(
        "the published keep-king-ten strategy (the published analysis's best play)",
        mulligan_published,
    ),
    Strategy.HOUSE_WAY: pure(
        "like the dealer: keep king-high or better, take a mulligan on queen-high or worse",
        mulligan_like_dealer,
    ),
    Strategy.PUBLISHED: pure(
        "keep king-ten or better (K-T-2 kept, K-9-8 swapped), else take a mulligan",
        mulligan_published,
    ),
    Strategy.TYPICAL: typical(
        "four hands in five by the published keep-king-ten strategy, one in five like the "
        "dealer (keep any king-high)",
        mulligan_published,
        mulligan_like_dealer,
    ),
}


# --- random rounds ---------------------------------------------------------------------------


def player_keeps(cards: Sequence[Card]) -> bool:
    """2nd Chance published strategy: keep K-T-2 or better, otherwise take a mulligan."""
    return poker_value(cards).score >= _KEEP_AT_LEAST


def deal(
    rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
) -> dict[str, Any]:
    hands = {n: shoe.deal(3) for n in seat_numbers}
    dealer_cards = shoe.deal(3)
    seats: list[dict[str, Any]] = []
    for n in seat_numbers:  # in seat order, each player stands or takes a mulligan
        cards = hands[n]
        wagers = {"ante": random_wager(rng)}
        if rng.random() < 0.5:
            wagers["pair_plus"] = random_wager(rng)
        seat: dict[str, Any] = {"seat": n, "wagers": wagers, "cards": format_cards(cards)}
        if strategy is None:
            mulligan = not player_keeps(cards)
            if rng.random() < 0.1:  # players do not always follow the strategy
                mulligan = not mulligan
        else:
            mulligan = STRATEGIES[strategy].choose(rng, cards)
        if mulligan:
            new: dict[str, Any] = {"cards": format_cards(shoe.deal(3))}
            if rng.random() < 0.5:
                new["pair_plus"] = random_wager(rng)
            seat["mulligan"] = new
        seats.append(seat)
    dealer: dict[str, Any] = {"cards": format_cards(dealer_cards)}
    if second_chance.dealer_draws(dealer_cards):
        dealer["draw"] = format_cards(shoe.deal(3))
    return {"dealer": dealer, "seats": seats}


# --- the house edge --------------------------------------------------------------------------


def _pair_plus_sampled(
    paytable: Paytable, mix: Mix[bool] | None, samples: int, rng: random.Random
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


def edges(
    paytable: Paytable,
    strategy: Strategy,
    *,
    exact: bool,
    samples: int | None,
    rng: random.Random,
    meter: MeterConfig | None = None,
    default_samples: int | None = None,
    settings: dict[str, Any] | None = None,
) -> tuple[WagerEdge, ...]:
    mix = STRATEGIES[strategy]
    wagers: list[WagerEdge] = []
    if not exact:
        n = samples or default_samples or DEFAULT_SAMPLES
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


NOT_EXACT: Final[Mapping[str, str]] = {
    "ante_raise": "the dealer draws after the player's mulligan: no counting method fast "
    "enough was found, so it is sampled (run without --exact, or with --samples N)"
}


RULES: Final[BankedRules] = BankedGameRules(
    name=NAME,
    paytable_form=paytables.FORM,
    named_paytables=paytables.NAMED,
    default_paytable=paytables.DEFAULT,
    strategies=STRATEGIES,
    settle=read_and_settle,
    check_seat=check_seat,
    dealer_advice=dealer_advice,
    deal=deal,
    edges=edges,
    default_samples=DEFAULT_SAMPLES,
    not_exact=NOT_EXACT,
    placed_wagers={"raise": "a mulligan places the raise"},
)
