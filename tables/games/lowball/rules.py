"""Three Card Lowball's rules as the engine's drivers ask for them (`tables.engine.registry`):
reading and settling a round in the `settle` contract's form (with its progressive), the
checks while it is entered, the dealer's house way, random rounds, the named strategies and
the house edge.

The strategies: which cards to discard. No player strategy is published and no optimal one
is computed: `optimal`, `published` and `house_way` draw by the dealer's house way (its edge
is about 7 points below the simple draw's); `typical` draws so four hands in five and by the
simple draw (one card of a pair and every card ten or higher, at most two, which keeps
straights and flushes) in the fifth.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from math import comb
from typing import Any, Final

from tables.engine.cards import Card, CardLedger, Shoe, format_cards
from tables.engine.contract import (
    cards_at,
    dealer_entry,
    meter_config,
    seat_cards,
    seat_entries,
    seat_wagers,
    stake,
)
from tables.engine.edge_fast import HANDS
from tables.engine.edge_report import Method, WagerEdge
from tables.engine.edge_stats import stratified_figures
from tables.engine.entry import entered_cards
from tables.engine.house_edge import money_text, refuse
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig
from tables.engine.registry import BankedGameRules, BankedRules
from tables.engine.settlement import Settlement
from tables.engine.simulate import random_wager
from tables.engine.strategies import Mix, Strategy, pure, typical

from . import edge as edge_lowball
from . import game as lowball
from . import paytables
from .game import NAME

DEFAULT_SAMPLES: Final = 100_000  # 12-card deals, 24 rounds each
PROGRESSIVE_WAGER: Final = "1.00"
TOTAL_DEALS: Final = comb(52, 3) * comb(49, 3)  # a player's and the dealer's first cards
_TEN: Final = 10


# --- the settle contract -------------------------------------------------------------------


def read_and_settle(
    data: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None = None
) -> Settlement:
    seats_raw = seat_entries(data)
    dealer = dealer_entry(data)
    dealer_cards = cards_at(dealer.get("cards"), "the dealer's cards")
    dealer_draw = cards_at(dealer.get("draw"), "the dealer's draw", optional=True)
    discard_raw = dealer.get("discard")
    dealer_discard = None if discard_raw is None else cards_at(discard_raw, "the dealer's discard")
    if meter is None and "progressive" in data:
        meter = meter_config(data.get("progressive"), lowball.AWARDS_CENTS)
    seats = []
    for n, raw in seats_raw:
        cards = seat_cards(raw.get("cards"), n, "cards")
        discard = seat_cards(raw.get("discard"), n, "discard", optional=True)
        draw = seat_cards(raw.get("draw"), n, "draw", optional=True)
        wagers = seat_wagers(raw, n, ("ante", "bonus", "progressive"))
        seats.append(
            lowball.Seat(
                seat=n,
                ante_cents=stake(wagers, "ante", n, required=True),
                bonus_cents=stake(wagers, "bonus", n, required=True),
                cards=cards,
                discard=discard,
                draw=draw,
                progressive_cents=stake(wagers, "progressive", n, required=False),
            )
        )
    return lowball.settle(
        lowball.Round(dealer_cards, tuple(seats), dealer_draw, dealer_discard, meter), paytable
    )


# --- the round while it is entered ----------------------------------------------------------


def check_seat(
    n: int, seat: Mapping[str, Any], cards: tuple[Card, ...], ledger: CardLedger
) -> None:
    """A seat's discard and draw: a legal draw, its new cards used nowhere else."""
    if "discard" in seat or "draw" in seat:
        draw = entered_cards(seat.get("draw"), f"seat {n}'s draw")
        lowball.player_final(
            lowball.Seat(
                n, 1, 1, cards, entered_cards(seat.get("discard"), f"seat {n}'s discard"), draw
            ),
            f"seat {n}",
        )
        ledger.place(draw, f"seat {n}'s draw")


def dealer_advice(cards: tuple[Card, ...]) -> dict[str, Any]:
    way = lowball.dealer_house_way(cards)
    return {
        "rule": way.rule,
        "discard": [str(c) for c in way.proposal],
        "draw_count": len(way.proposal),
        "choices": sorted(sorted(str(c) for c in option) for option in way.options),
    }


# --- the named strategies: the cards the player throws away ---------------------------------


def discard_simple(cards: Sequence[Card]) -> tuple[Card, ...]:
    """One card of a pair and every card ten or higher, highest first, at most two."""
    ranks = [c.low_rank for c in cards]
    wanted: list[Card] = []
    for card in sorted(cards, key=lambda c: c.low_rank, reverse=True):
        paired = ranks.count(card.low_rank) > 1 and not any(
            w.low_rank == card.low_rank for w in wanted
        )
        if card.low_rank >= _TEN or paired:
            wanted.append(card)
    return tuple(wanted[:2])


def discard_house_way(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The dealer's house way applied to the player's hand (the system's proposal)."""
    return lowball.dealer_house_way(cards).proposal


STRATEGIES: Final[dict[Strategy, Mix[tuple[Card, ...]]]] = {
    Strategy.OPTIMAL: pure(
        "no optimal draw is computed for Lowball: the dealer's house way, the better of the "
        "two draws the engine knows (docs/benchmarks.md)",
        discard_house_way,
    ),
    Strategy.HOUSE_WAY: pure("draw by the dealer's house way", discard_house_way),
    Strategy.PUBLISHED: pure(
        "no player strategy is published for Lowball: the dealer's house way, the only "
        "published way to draw",
        discard_house_way,
    ),
    Strategy.TYPICAL: typical(
        "four hands in five by the dealer's house way, one in five by the simple draw (one "
        "card of a pair and every card ten or higher: it keeps straights and flushes)",
        discard_house_way,
        discard_simple,
    ),
}


# --- random rounds ---------------------------------------------------------------------------


def lowball_player_discard(rng: random.Random, cards: Sequence[Card]) -> tuple[Card, ...]:
    """A sensible lowball draw: one card of a pair and cards ten or higher, highest first, at
    most two; now and then a random choice of 0-2 cards instead."""
    if rng.random() < 0.15:
        return tuple(rng.sample(list(cards), rng.randint(0, 2)))
    ranks = [c.low_rank for c in cards]
    wanted: list[Card] = []
    for card in sorted(cards, key=lambda c: c.low_rank, reverse=True):
        paired = ranks.count(card.low_rank) > 1 and not any(
            w.low_rank == card.low_rank for w in wanted
        )
        if card.low_rank >= _TEN or paired:
            wanted.append(card)
    return tuple(wanted[:2])


def _progressive_config(rng: random.Random) -> dict[str, Any]:
    reset = rng.choice(("1000.00", "10000.00"))
    meter_cents = int(reset.replace(".", "")) + rng.randint(0, 2_000_000)
    config: dict[str, Any] = {
        "meter": f"{meter_cents // 100}.{meter_cents % 100:02d}",
        "reset": reset,
        "rate": rng.choice(("0.20", "0.10", "0.05", "0.15")),
        "wager": PROGRESSIVE_WAGER,
    }
    if rng.random() < 0.2:
        config["split"] = rng.choice(("equal", "seat_order"))
    return config


def deal(
    rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
) -> dict[str, Any]:
    hands = {n: shoe.deal(3) for n in seat_numbers}
    dealer_cards = shoe.deal(3)
    seats: list[dict[str, Any]] = []
    for n in seat_numbers:  # in seat order, each player draws 0-2 cards
        cards = hands[n]
        ante = random_wager(rng)
        wagers = {"ante": ante, "bonus": ante}
        if rng.random() < 0.4:
            wagers["progressive"] = PROGRESSIVE_WAGER
        if strategy is None:
            discard = lowball_player_discard(rng, cards)
        else:
            discard = STRATEGIES[strategy].choose(rng, cards)
        seat: dict[str, Any] = {"seat": n, "wagers": wagers, "cards": format_cards(cards)}
        if discard or rng.random() < 0.5:  # standing pat: discard/draw empty or omitted
            seat["discard"] = format_cards(discard)
            seat["draw"] = format_cards(shoe.deal(len(discard)))
        seats.append(seat)
    way = lowball.dealer_house_way(dealer_cards)
    dealer: dict[str, Any] = {"cards": format_cards(dealer_cards)}
    if way.proposal:
        if rng.random() < 0.5:  # say which cards, any the house way accepts; else its proposal
            options = sorted(sorted(format_cards(option)) for option in way.options)
            chosen = rng.choice(options)
            dealer["discard"] = rng.sample(chosen, len(chosen))
        dealer["draw"] = format_cards(shoe.deal(len(way.proposal)))
    elif rng.random() < 0.1:  # standing, written out as an empty discard and draw
        dealer["discard"] = []
        dealer["draw"] = []
    round_: dict[str, Any] = {"dealer": dealer, "seats": seats}
    if rng.random() < 0.3:
        round_["progressive"] = _progressive_config(rng)
    return round_


# --- the house edge --------------------------------------------------------------------------


def edges(
    paytable: Paytable,
    strategy: Strategy,
    *,
    exact: bool,
    samples: int | None,
    rng: random.Random,
    meter: MeterConfig | None,
    default_samples: int | None,
    settings: dict[str, Any],
) -> tuple[WagerEdge, ...]:
    """Both wagers sampled, under `meter` (the default meter when None), which the report
    states (`settings`)."""
    meter = meter or lowball.DEFAULT_METER
    settings["progressive"] = {
        "meter": money_text(meter.meter_cents),
        "wager": money_text(meter.wager_cents),
        "awards": {a: money_text(c) for a, c in lowball.meter_awards(meter).items()},
    }
    if exact:
        raise refuse(
            "lowball's ante_bonus and progressive cannot be computed exactly (both draws "
            "depend on the cards, the dealer's after the player's): run without --exact, or "
            "give --samples N",
            "exact",
        )
    mix = STRATEGIES[strategy]
    n = samples or default_samples or DEFAULT_SAMPLES
    t = edge_lowball.lowball_tables(paytable, mix, meter)
    main, prog = edge_lowball.sample(t, n, rng)
    strata = [(1.0, prog)]
    for hands in (edge_lowball.A24_ONE_COLOUR, edge_lowball.A24_TWO_COLOUR):
        part = edge_lowball.sample_a24(t, max(n // 25, 2), rng, hands)
        strata.append((len(hands) / len(HANDS), part))
    p_jackpot = edge_lowball.jackpot_deals() / TOTAL_DEALS
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
                f"per unit of the progressive wager, meter {money_text(meter.meter_cents)} on a "
                f"{money_text(meter.wager_cents)} wager; the jackpot exactly "
                f"({edge_lowball.jackpot_deals():,} of {TOTAL_DEALS:,} deals), "
                "the rounds with a 4-2-A first hand sampled apart (one colour, two colours)"
            ),
        ),
    )


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
)
