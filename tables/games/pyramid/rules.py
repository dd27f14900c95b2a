"""Pyramid Poker's rules as the engine's drivers ask for them (`tables.engine.registry`):
reading and settling a round in the `settle` contract's form, the checks while it is entered,
the dealer's house way and "set it for me", random rounds, the named strategies and the house
edge.

The strategies: which card goes alone. `optimal` maximises the expected value against the
dealer's house way (computed exactly in `edge`); `house_way` and `published` are the
rules' player strategy (what "set it for me" does, ruling 1); `typical` plays that strategy
four hands in five and copies the dealer's house way in the fifth.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from tables.engine.cards import Card, CardLedger, Shoe, format_cards, parse_card, parse_cards
from tables.engine.contract import (
    cards_at,
    dealer_entry,
    seat_cards,
    seat_entries,
    seat_wagers,
    stake,
)
from tables.engine.edge_report import Method, WagerEdge
from tables.engine.edge_stats import Outcome, Sampler, exact_figures
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig
from tables.engine.registry import BankedGameRules, BankedRules
from tables.engine.settlement import Settlement
from tables.engine.simulate import random_wager
from tables.engine.strategies import Mix, Strategy, pure, typical

from . import edge as edge_pyramid
from . import game as pyramid
from . import paytables
from .game import NAME

DEFAULT_SAMPLES: Final = 1_000_000


# --- the settle contract -------------------------------------------------------------------


def read_and_settle(
    data: Mapping[str, Any], paytable: Paytable, meter: MeterConfig | None = None
) -> Settlement:
    """The round read and settled (the game has no progressive: no `meter`)."""
    seats_raw = seat_entries(data)
    dealer = dealer_entry(data)
    dealer_cards = cards_at(dealer.get("cards"), "the dealer's cards")
    if dealer.get("draw"):
        raise EngineError(Refusal.HOUSE_WAY, "the Pyramid dealer never draws", field="dealer.draw")
    seats = []
    for n, raw in seats_raw:
        cards = seat_cards(raw.get("cards"), n, "cards")
        wagers = seat_wagers(raw, n, ("ante",))
        house_way = raw.get("house_way") is True
        one_raw = raw.get("one_card")
        if house_way and one_raw is not None:
            raise EngineError(
                Refusal.FOUL,
                f"seat {n} gives both a one_card and house_way: choose one",
                field=f"seat {n} one_card",
            )
        if not house_way and one_raw is None:
            raise EngineError(
                Refusal.FOUL,
                f'seat {n} has not set the hand: give one_card or "house_way": true',
                field=f"seat {n} one_card",
            )
        one_card = None if house_way else parse_card(one_raw, where=f"seat {n}'s one_card")
        seats.append(
            pyramid.Seat(
                seat=n,
                ante_cents=stake(wagers, "ante", n, required=True),
                cards=cards,
                one_card=one_card,
            )
        )
    return pyramid.settle(pyramid.Round(dealer_cards, tuple(seats)), paytable)


# --- the round while it is entered ----------------------------------------------------------


def check_seat(
    n: int, seat: Mapping[str, Any], cards: tuple[Card, ...], ledger: CardLedger
) -> None:
    """A seat's one-card hand: one of its cards, setting a hand that does not foul."""
    if seat.get("one_card"):
        one = parse_card(seat["one_card"], where=f"seat {n}'s one-card hand")
        try:
            pyramid.split(cards, one)
        except EngineError as err:
            raise EngineError(
                err.code, f"seat {n}: {err.message}", field=f"seat {n} one_card"
            ) from None


def dealer_advice(cards: tuple[Card, ...]) -> dict[str, Any]:
    setting = pyramid.dealer_setting(cards)
    return {
        "rule": pyramid.house_way_advice(cards),
        "discard": [],
        "draw_count": 0,
        "two_card": [str(c) for c in setting.two_card],
        "one_card": str(setting.one_card),
    }


def player_house_way(cards: list[str]) -> dict[str, Any]:
    """ "Set it for me": how the player's hand is set by the player strategy."""
    parsed = parse_cards(cards, where="the player's cards", count=3)
    setting = pyramid.player_setting(parsed)
    return {"two_card": [str(c) for c in setting.two_card], "one_card": str(setting.one_card)}


# --- the named strategies: the card that goes alone -----------------------------------------


def alone_player_strategy(cards: Sequence[Card]) -> Card:
    """The rules' player strategy (what "set it for me" does)."""
    return pyramid.player_setting(cards).one_card


def alone_like_dealer(cards: Sequence[Card]) -> Card:
    """The dealer's house way applied to the player's hand."""
    return pyramid.dealer_setting(cards).one_card


def alone_optimal(cards: Sequence[Card]) -> Card:
    """The setting with the highest expected value at even money (see `edge`)."""

    return edge_pyramid.optimal_one_card(cards)


STRATEGIES: Final[dict[Strategy, Mix[Card]]] = {
    Strategy.OPTIMAL: pure(
        "the setting with the highest expected value against the dealer's house way",
        alone_optimal,
    ),
    Strategy.HOUSE_WAY: pure(
        "the rules' player strategy, as the dealer sets a hand on request (ruling 1)",
        alone_player_strategy,
    ),
    Strategy.PUBLISHED: pure("the rules' player strategy", alone_player_strategy),
    Strategy.TYPICAL: typical(
        "four hands in five by the rules' player strategy, one in five copying the dealer's "
        "house way",
        alone_player_strategy,
        alone_like_dealer,
    ),
}


# --- random rounds ---------------------------------------------------------------------------


def pyramid_legal_singles(cards: Sequence[Card]) -> list[Card]:
    """The cards that may go alone: a pair in the two-card hand is above any single; otherwise
    the single may not be higher than the two-card hand's highest card."""
    legal = []
    for card in cards:
        rest = [c for c in cards if c != card]
        if rest[0].rank == rest[1].rank or card.rank <= max(c.rank for c in rest):
            legal.append(card)
    return legal


def deal(
    rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
) -> dict[str, Any]:
    hands = {n: shoe.deal(3) for n in seat_numbers}
    dealer_cards = shoe.deal(3)
    seats: list[dict[str, Any]] = []
    for n in seat_numbers:
        cards = hands[n]
        wagers = {"ante": random_wager(rng)}
        seat: dict[str, Any] = {"seat": n, "wagers": wagers, "cards": format_cards(cards)}
        if strategy is Strategy.HOUSE_WAY:
            seat["house_way"] = True  # the dealer sets it: the rules' player strategy
        elif strategy is not None:
            seat["one_card"] = str(STRATEGIES[strategy].choose(rng, cards))
        elif rng.random() < 0.3:
            seat["house_way"] = True
        else:
            seat["one_card"] = str(rng.choice(pyramid_legal_singles(cards)))
        seats.append(seat)
    return {"dealer": {"cards": format_cards(dealer_cards)}, "seats": seats}


# --- the house edge --------------------------------------------------------------------------


def _pyramid_exact(paytable: Paytable, strategy: Strategy) -> WagerEdge:
    odds = paytable.tables["ante"]["win"]
    mix = STRATEGIES[strategy]
    plays = [(w, None if p is alone_optimal else p) for w, p in mix.plays]
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
    mix = STRATEGIES[strategy]
    dealer: dict[tuple[int, ...], edge_pyramid.Score] = {}
    player: dict[tuple[int, ...], list[tuple[float, edge_pyramid.Score]]] = {}
    for rc in edge_pyramid.rank_classes():
        dealer[rc.ranks] = edge_pyramid.score_of(pyramid.dealer_setting(rc.cards))
        settings = edge_pyramid.legal_settings(rc.cards)
        merged: dict[int, Fraction] = {}
        for weight, play in mix.plays:
            if play is alone_optimal:  # at this paytable's odds
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
    """The Ante counted exactly over every deal, or sampled when `samples` is given."""
    if samples is not None:
        return (_pyramid_sampled(paytable, strategy, samples, rng),)
    return (_pyramid_exact(paytable, strategy),)


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
