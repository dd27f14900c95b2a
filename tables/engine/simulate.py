"""Random legal rounds in the `settle` contract's input form (`docs/contracts/settle.md`).

Used by property tests, the settle benchmark and the `simulate_rounds` command. Every round is
dealt from one shuffled 52-card deck (no card twice), and every decision the contract checks
follows the rules: the dealer draws exactly when the house way does, wagers match where they
must, pyramid settings never foul. Player decisions follow the published strategies with some
randomness, or, given a named strategy (`strategies.Strategy`), that strategy exactly, so a
simulated history holds what the house-edge analysis assumes. The same `random.Random` state
always gives the same rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from . import lowball, second_chance, strategies
from .cards import DECK, Card, format_cards
from .rankings import poker_value
from .strategies import Strategy

GAMES: Final = ("second_chance", "lowball", "pyramid")
MAX_SEATS: Final = 7

# Stakes as the contract writes them: decimal strings with two places. Odd amounts exercise
# rounding down to the cent (breakage).
WAGERS: Final = ("5.00", "10.00", "25.00", "0.05", "3.33", "100.00", "0.01", "7.50", "12.35")
PAYTABLES: Final[dict[str, tuple[str, ...]]] = {
    "second_chance": ("default",),
    "lowball": ("1", "2", "3"),
    "pyramid": ("default",),
}
PROGRESSIVE_WAGER: Final = "1.00"

_TEN: Final = 10
# The published 2nd Chance strategy keeps K-T-2 or better (any suits: a flush is better anyway).
_KEEP_AT_LEAST: Final = poker_value((Card(13, "c"), Card(10, "d"), Card(2, "h"))).score


class Shoe:
    """One shuffled 52-card deck; dealing removes cards, so none is dealt twice."""

    __slots__ = ("_cards",)

    def __init__(self, rng: random.Random) -> None:
        self._cards = list(DECK)
        rng.shuffle(self._cards)

    def deal(self, count: int) -> tuple[Card, ...]:
        """The next `count` cards off the deck."""
        if count > len(self._cards):
            raise ValueError(f"only {len(self._cards)} cards left, cannot deal {count}")
        dealt = tuple(self._cards[-count:]) if count else ()
        del self._cards[len(self._cards) - count :]
        return dealt

    def __len__(self) -> int:
        return len(self._cards)


def _seat_numbers(rng: random.Random, seats: int | None) -> list[int]:
    """A random non-empty subset of seats 1..7 (exactly `seats` of them when given)."""
    if seats is None:
        count = rng.randint(1, MAX_SEATS)
    elif 1 <= seats <= MAX_SEATS:
        count = seats
    else:
        raise ValueError(f"seats must be from 1 to {MAX_SEATS}, not {seats}")
    return sorted(rng.sample(range(1, MAX_SEATS + 1), count))


def _paytable(rng: random.Random, game: str, paytable: str | None) -> str | None:
    """The given paytable; else a random named one, or None (omitted: the default)."""
    if paytable is not None:
        return paytable
    return None if rng.random() < 0.3 else rng.choice(PAYTABLES[game])


def _wager(rng: random.Random) -> str:
    return rng.choice(WAGERS)


def player_keeps(cards: Sequence[Card]) -> bool:
    """2nd Chance published strategy: keep K-T-2 or better, otherwise take a mulligan."""
    return poker_value(cards).score >= _KEEP_AT_LEAST


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


def pyramid_legal_singles(cards: Sequence[Card]) -> list[Card]:
    """The cards that may go alone: a pair in the two-card hand is above any single; otherwise
    the single may not be higher than the two-card hand's highest card."""
    legal = []
    for card in cards:
        rest = [c for c in cards if c != card]
        if rest[0].rank == rest[1].rank or card.rank <= max(c.rank for c in rest):
            legal.append(card)
    return legal


def _second_chance(
    rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
) -> dict[str, Any]:
    hands = {n: shoe.deal(3) for n in seat_numbers}
    dealer_cards = shoe.deal(3)
    seats: list[dict[str, Any]] = []
    for n in seat_numbers:  # in seat order, each player stands or takes a mulligan
        cards = hands[n]
        wagers = {"ante": _wager(rng)}
        if rng.random() < 0.5:
            wagers["pair_plus"] = _wager(rng)
        seat: dict[str, Any] = {"seat": n, "wagers": wagers, "cards": format_cards(cards)}
        if strategy is None:
            mulligan = not player_keeps(cards)
            if rng.random() < 0.1:  # players do not always follow the strategy
                mulligan = not mulligan
        else:
            mulligan = strategies.SECOND_CHANCE[strategy].choose(rng, cards)
        if mulligan:
            new: dict[str, Any] = {"cards": format_cards(shoe.deal(3))}
            if rng.random() < 0.5:
                new["pair_plus"] = _wager(rng)
            seat["mulligan"] = new
        seats.append(seat)
    dealer: dict[str, Any] = {"cards": format_cards(dealer_cards)}
    if second_chance.dealer_draws(dealer_cards):
        dealer["draw"] = format_cards(shoe.deal(3))
    return {"dealer": dealer, "seats": seats}


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


def _lowball(
    rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
) -> dict[str, Any]:
    hands = {n: shoe.deal(3) for n in seat_numbers}
    dealer_cards = shoe.deal(3)
    seats: list[dict[str, Any]] = []
    for n in seat_numbers:  # in seat order, each player draws 0-2 cards
        cards = hands[n]
        ante = _wager(rng)
        wagers = {"ante": ante, "bonus": ante}
        if rng.random() < 0.4:
            wagers["progressive"] = PROGRESSIVE_WAGER
        if strategy is None:
            discard = lowball_player_discard(rng, cards)
        else:
            discard = strategies.LOWBALL[strategy].choose(rng, cards)
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


def _pyramid(
    rng: random.Random, seat_numbers: list[int], shoe: Shoe, strategy: Strategy | None
) -> dict[str, Any]:
    hands = {n: shoe.deal(3) for n in seat_numbers}
    dealer_cards = shoe.deal(3)
    seats: list[dict[str, Any]] = []
    for n in seat_numbers:
        cards = hands[n]
        wagers = {"ante": _wager(rng)}
        seat: dict[str, Any] = {"seat": n, "wagers": wagers, "cards": format_cards(cards)}
        if strategy is Strategy.HOUSE_WAY:
            seat["house_way"] = True  # the dealer sets it: the rules' player strategy
        elif strategy is not None:
            seat["one_card"] = str(strategies.PYRAMID[strategy].choose(rng, cards))
        elif rng.random() < 0.3:
            seat["house_way"] = True
        else:
            seat["one_card"] = str(rng.choice(pyramid_legal_singles(cards)))
        seats.append(seat)
    return {"dealer": {"cards": format_cards(dealer_cards)}, "seats": seats}


_DEALERS: Final = {"second_chance": _second_chance, "lowball": _lowball, "pyramid": _pyramid}


def random_round(
    rng: random.Random,
    game: str,
    *,
    seats: int | None = None,
    paytable: str | None = None,
    strategy: Strategy | str | None = None,
) -> dict[str, Any]:
    """One random legal round of `game` as the contract's JSON-ready input object.

    `seats` forces that many occupied seats (1-7, which ones is random); `paytable` is written
    as given, otherwise a random named paytable or none (the default). `strategy` names the
    players' strategy (`strategies.Strategy`); None keeps the mix above.
    """
    chosen_strategy = None if strategy is None else strategies.parse_strategy(strategy)
    if game not in _DEALERS:
        raise ValueError(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    seat_numbers = _seat_numbers(rng, seats)
    chosen = _paytable(rng, game, paytable)
    body = _DEALERS[game](rng, seat_numbers, Shoe(rng), chosen_strategy)
    round_: dict[str, Any] = {"game": game}
    if chosen is not None:
        round_["paytable"] = chosen
    round_.update(body)
    return round_


def random_rounds(
    seed: int,
    count: int,
    games: Sequence[str] = GAMES,
    *,
    seats: int | None = None,
) -> list[dict[str, Any]]:
    """`count` random legal rounds from one seed, cycling through `games` in order
    (`seats` as in `random_round`)."""
    if not games:
        raise ValueError("games must name at least one game")
    rng = random.Random(seed)
    return [random_round(rng, games[i % len(games)], seats=seats) for i in range(count)]
