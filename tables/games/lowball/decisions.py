"""Three Card Lowball's decision cost: which of the seat's cards to throw away.

What the player knew: the seat's first three cards. The seven choices are standing pat and
throwing away any one or any two of them (all three is not allowed). The other 49 cards are
unseen, so the dealer's first hand D, the player's new cards and the dealer's new cards are
disjoint draws from them, every such deal equally likely (heads-up, as `edge` takes the game);
the dealer throws away by the house way (`game.dealer_house_way`'s proposal: its equivalent
choices give the same hand values).

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
from tables.engine.edge_fast import card_numbers, cards_of, index, table
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import Award, MeterConfig

from . import game as lowball
from .edge import lowball_names, lowball_scores
from .hands import is_a24

SAMPLES: Final = 25_000
EXACT_DEALS: Final = 200_000
_FOUR_HIGH: Final = frozenset({"a24_one_colour", "a24_two_colour", "a34"})

Choice = tuple[Card, ...]  # the cards thrown away, in the seat's order


def choices(cards: Sequence[Card]) -> list[Choice]:
    """Stand pat, every single card, every two cards."""
    return [(), *((c,) for c in cards), *combinations(cards, 2)]


@cache
def dealer_kept_table() -> list[tuple[int, ...]]:
    """Per hand index (`edge_fast`): the cards the house way keeps."""

    def kept(cards: tuple[Card, ...]) -> tuple[int, ...]:
        gone = lowball.dealer_house_way(cards).proposal
        return card_numbers([c for c in cards if c not in gone])

    return table(kept, ())


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
    awards = meter.awards_cents
    scale = Fraction(progressive, meter.wager_cents)
    first: Fraction | None = None
    if progressive and is_a24(cards):
        one = len({c.is_red for c in cards}) == 1
        first = scale * awards[Award.ONE_COLOUR if one else Award.TWO_COLOUR]
    plain, full = {}, {}
    for name in set(lowball_names()) - {""}:
        value = Fraction(ante) + bonus * odds.get(name, Fraction(0))
        plain[name] = value
        if first is not None:
            value += first
        elif progressive and name in _FOUR_HIGH:
            value += scale * awards[Award.FOUR_HIGH]
        elif progressive and name == "five_high":
            value += scale * awards[Award.FIVE_HIGH]
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
    score, names, dealer_kept = lowball_scores(), lowball_names(), dealer_kept_table()
    full, plain = _win_values(cards, paytable, ante, bonus, progressive, meter)
    jackpot_first = bool(progressive) and is_a24(cards)
    options = choices(cards)
    kept = [card_numbers([c for c in cards if c not in gone]) for gone in options]
    u = sorted(card_numbers(unseen))
    n = len(u)
    exact = comb(n, 3) * perm(n - 3, 2) * perm(n - 5, 2) <= EXACT_DEALS
    win_full: Mapping[str, Any] = full if exact else {k: float(v) for k, v in full.items()}
    win_plain: Mapping[str, Any] = plain if exact else {k: float(v) for k, v in plain.items()}
    lose: Any = -(ante + bonus)

    def play(d: tuple[int, ...], mine: tuple[int, ...], dealers: tuple[int, ...]) -> list[Any]:
        di = index(*d)
        held = dealer_kept[di]
        ds = score[index(*(held + dealers[: 3 - len(held)]))]
        wins = win_plain if jackpot_first and is_a24(cards_of(d)) else win_full
        out: list[Any] = []
        for k in kept:
            p = index(*(k + mine[: 3 - len(k)]))
            ps = score[p]
            out.append(wins[names[p]] if ps < ds else (0 if ps == ds else lose))
        return out

    if exact:
        exact_totals = [Fraction(0)] * len(options)
        deals = 0
        for d in combinations(u, 3):
            left = [c for c in u if c not in d]
            for mine in permutations(left, 2):
                rest = [c for c in left if c not in mine]
                for dealers in permutations(rest, 2):
                    for i, v in enumerate(play(d, mine, dealers)):
                        exact_totals[i] += v
                    deals += 1
        return {o: t / deals for o, t in zip(options, exact_totals, strict=True)}
    totals = [0.0] * len(options)
    sample = seeded(cards, "lowball").sample
    for _ in range(SAMPLES):
        c = sample(u, 7)
        for i, v in enumerate(play((c[0], c[1], c[2]), (c[3], c[4]), (c[5], c[6]))):
            totals[i] += v
    return {o: Fraction(t) / SAMPLES for o, t in zip(options, totals, strict=True)}


def decision_cost(entry: Mapping[str, Any], n: int, paytable: Paytable) -> Decimal:
    """The seat's discard's cost against the best discard, in cents."""
    seat = _seat(entry, n)
    cards = cards_at(seat.get("cards"), f"seat {n}'s cards")
    wagers = seat_wagers(seat, n, ("ante", "bonus", "progressive"))
    ante = stake(wagers, "ante", n, required=True)
    bonus = stake(wagers, "bonus", n, required=True)
    progressive = stake(wagers, "progressive", n, required=False)
    meter = meter_config(entry.get("progressive")) if entry.get("progressive") else None
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
