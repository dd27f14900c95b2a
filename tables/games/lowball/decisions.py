"""Three Card Lowball's decision cost: which of the seat's cards to throw away.

What the player knew: the seat's first three cards. The seven choices are standing pat and
throwing away any one or any two of them (all three is not allowed). The other 49 cards are
unseen, so the dealer's first hand D, the player's new cards and the dealer's new cards are
disjoint draws from them, every such deal equally likely (heads-up, as `edge` takes the game);
the dealer throws away by the house way (`game.dealer_house_way`'s proposal where the house
way leaves a choice, as the tablet proposes it).

The value of a choice is its expected net in cents with the wagers as placed: the Ante (even
money) and the Bonus (the table's bonus paytable, a push off it) when the final hand is lower
than the dealer's, both lost when it is higher, a push on a tie; and, with a progressive
stake, the fixed award the seat would win (200 or 50 on a 4-2-A first hand, else 10 or 3 on a
final hand four or five high, when lower than the dealer's). What every choice shares is left
out: the progressive stake (always taken) and the jackpot (judged on both first hands alone).

Exact when the unseen cards are few (every D, every ordered pair of the player's new cards,
every ordered pair of the dealer's: `EXACT_DEALS`); else **estimated** over `SAMPLES` deals of
seven unseen cards (three for D, two for the player, two for the dealer, each taking its first
cards), every choice played on the same deals, from a generator seeded by the seat's cards
(the same decision always gets the same estimate). The player's draw and the dealer's, after
it and from what it left, are too many to enumerate in a second (the 1,176 two-card draws
times the dealer's 18,424 hands times their draws).
Cost = the best value less the chosen one's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from math import comb, perm
from typing import Any, Final

from tables.engine.cards import DECK, Card
from tables.engine.contract import cards_at, meter_config, seat_entries, seat_wagers, stake
from tables.engine.decision_cost import cost, seeded
from tables.engine.edge_fast import card_numbers, table
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig

from . import game as lowball
from .edge import lowball_names, lowball_scores
from .hands import is_a24

SAMPLES: Final = 40_000
EXACT_DEALS: Final = 200_000
_FOUR_HIGH: Final = frozenset({"a24_one_colour", "a24_two_colour", "a34"})

Choice = tuple[Card, ...]  # the cards thrown away, in the seat's order


def choices(cards: Sequence[Card]) -> list[Choice]:
    """Stand pat, every single card, every two cards."""
    return [(), *((c,) for c in cards), *combinations(cards, 2)]


def _base(kept: Sequence[int]) -> tuple[int, int]:
    """A hand's index (`edge_fast`) less its new cards, which take the last places: the kept
    cards' part, and how many cards are drawn."""
    weights = (2704, 52, 1)
    return sum(c * w for c, w in zip(kept, weights, strict=False)), 3 - len(kept)


@cache
def dealer_base_table() -> list[tuple[int, int]]:
    """Per hand index: the house way's kept cards as `_base` gives them."""

    def kept(cards: tuple[Card, ...]) -> tuple[int, int]:
        gone = lowball.dealer_house_way(cards).proposal
        return _base(card_numbers([c for c in cards if c not in gone]))

    return table(kept, (0, 0))


@cache
def a24_table() -> list[bool]:
    """Per hand index: 4-2-A (the jackpot's first hands)."""
    return table(is_a24, False)


def _win_values(
    cards: Sequence[Card],
    paytable: Paytable,
    ante: int,
    bonus: int,
    progressive: int,
    meter: MeterConfig,
) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """A winning final hand's net in cents, by the hand's name: with the progressive's fixed
    award, and without it (a jackpot deal, whose single award every choice shares)."""
    odds = paytable.tables["bonus"]
    awards = lowball.meter_awards(meter)
    scale = Fraction(progressive, meter.wager_cents)
    first: Fraction | None = None
    if progressive and is_a24(cards):
        one = len({c.is_red for c in cards}) == 1
        first = scale * awards[lowball.ONE_COLOUR if one else lowball.TWO_COLOUR]
    plain, full = {}, {}
    for name in set(lowball_names()) - {""}:
        value = Fraction(ante) + bonus * odds.get(name, Fraction(0))
        plain[name] = value
        if first is not None:
            value += first
        elif progressive and name in _FOUR_HIGH:
            value += scale * awards[lowball.FOUR_HIGH]
        elif progressive and name == "five_high":
            value += scale * awards[lowball.FIVE_HIGH]
        full[name] = value
    return full, plain


def choice_values(
    cards: Sequence[Card],
    unseen: Sequence[Card],
    paytable: Paytable,
    *,
    ante: int,
    bonus: int,
    progressive: int = 0,
    meter: MeterConfig | None = None,
) -> dict[Choice, Fraction]:
    """Each choice's expected net in cents (what every choice shares left out)."""
    meter = meter or MeterConfig()
    score, names, dealer_base, a24 = (
        lowball_scores(),
        lowball_names(),
        dealer_base_table(),
        a24_table(),
    )
    full, plain = _win_values(cards, paytable, ante, bonus, progressive, meter)
    jackpot_first = bool(progressive) and is_a24(cards)
    options = choices(cards)
    plays = [_base(card_numbers([c for c in cards if c not in gone])) for gone in options]
    u = sorted(card_numbers(unseen))
    n = len(u)
    exact = comb(n, 3) * perm(n - 3, 2) * perm(n - 5, 2) <= EXACT_DEALS
    win_full: Mapping[str, Any] = full if exact else {k: float(v) for k, v in full.items()}
    win_plain: Mapping[str, Any] = plain if exact else {k: float(v) for k, v in plain.items()}
    lose: Any = -(ante + bonus)
    totals: list[Any] = [Fraction(0) if exact else 0.0] * len(options)

    def play(di: int, m0: int, m1: int, z0: int, z1: int) -> None:
        """One deal: the dealer's first hand (index), the player's new cards, the dealer's."""
        base, k = dealer_base[di]
        ds = score[base + (0, z0, z0 * 52 + z1)[k]]
        wins = win_plain if jackpot_first and a24[di] else win_full
        mine = (0, m0, m0 * 52 + m1)
        for i, (b, j) in enumerate(plays):
            p = b + mine[j]
            ps = score[p]
            if ps < ds:
                totals[i] += wins[names[p]]
            elif ps > ds:
                totals[i] += lose

    if exact:
        deals = 0
        for a, b, c in combinations(u, 3):
            left = [x for x in u if x not in (a, b, c)]
            for m0, m1 in permutations(left, 2):
                rest = [x for x in left if x not in (m0, m1)]
                for z0, z1 in permutations(rest, 2):
                    play(a * 2704 + b * 52 + c, m0, m1, z0, z1)
                    deals += 1
        return {o: t / deals for o, t in zip(options, totals, strict=True)}
    sample = seeded(cards, "lowball").sample
    for _ in range(SAMPLES):
        a, b, c, m0, m1, z0, z1 = sample(u, 7)
        play(a * 2704 + b * 52 + c, m0, m1, z0, z1)
    return {o: Fraction(t) / SAMPLES for o, t in zip(options, totals, strict=True)}


def decision_cost(entry: Mapping[str, Any], n: int, paytable: Paytable) -> Decimal:
    """The seat's discard's cost against the best discard, in cents."""
    seat = _seat(entry, n)
    cards = cards_at(seat.get("cards"), f"seat {n}'s cards")
    wagers = seat_wagers(seat, n, ("ante", "bonus", "progressive"))
    ante = stake(wagers, "ante", n, required=True)
    bonus = stake(wagers, "bonus", n, required=True)
    progressive = stake(wagers, "progressive", n, required=False)
    raw_meter = entry.get("progressive")
    meter = meter_config(raw_meter, lowball.AWARDS_CENTS) if raw_meter else None
    gone = set(cards_at(seat.get("discard") or [], f"seat {n}'s discard", optional=True))
    chosen = tuple(c for c in cards if c in gone)
    unseen = [c for c in DECK if c not in cards]
    values = choice_values(
        cards,
        unseen,
        paytable,
        ante=ante,
        bonus=bonus,
        progressive=progressive,
        meter=meter,
    )
    if chosen not in values:
        raise EngineError(
            Refusal.CARD_COUNT, f"seat {n} may discard at most 2 cards", field=f"seat {n} discard"
        )
    return cost(values, chosen)


def _seat(entry: Mapping[str, Any], n: int) -> Mapping[str, Any]:
    for number, seat in seat_entries(entry):
        if number == n:
            return seat
    raise EngineError(Refusal.BAD_SEAT, f"the round has no seat {n}", field="seat")
