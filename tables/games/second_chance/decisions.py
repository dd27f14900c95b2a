"""Three Card 2nd Chance's decision cost: stand, or take a mulligan.

What the player knew: the seat's first three cards. The other 49 cards are unseen (the
dealer's, other seats' and the deck's alike), so the dealer's first hand D, the mulligan's new
hand N and the dealer's new hand X (drawn when D is queen-high or worse) are three disjoint
hands, every such deal equally likely (heads-up, as `edge` takes the game).

The value of each choice is its expected net in cents with the wagers as placed:
- stand: the Ante against the dealer's final hand. Exact: every D of the 49 cards; a D that
  stands is compared at once, one that draws is followed by the count of each X of the other
  46 below, equal to and above the hand, by inclusion and exclusion (the hands of the 49
  beating the hand, less those holding a card of D, plus those holding two of them).
- mulligan: the Ante and the Raise (equal to the Ante) on N against the dealer's final hand,
  plus the Mulligan Pair Plus as placed (none when the seat stood) on N. The Mulligan Pair
  Plus is exact (every N of the 49). The Ante and Raise are exact over every D the dealer
  stands on (`_stand_branch`: every N of the other 46, by sweeps over the hands in score
  order). Where D draws, X comes after the player's draw and from the cards N left: exact
  when the unseen cards are few (`EXACT_DEALS`), else **estimated** by sampling `SAMPLES`
  deals of nine unseen cards, each read in the six ways of giving its three hands the roles D,
  N and X (those where D draws counted), from a generator seeded by the seat's cards (the same
  decision always gets the same estimate). No exact count of that branch in a second was
  found: the discarded D takes cards from both N's and X's pools, which couples every (N, X).
The first hand's Pair Plus is settled whichever choice is made, so it is left out.
Cost = the better value less the chosen one's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from math import comb, gcd
from typing import Any, Final

from tables.engine.cards import DECK, Card
from tables.engine.contract import cards_at, seat_entries, seat_wagers, stake
from tables.engine.decision_cost import cost, seeded
from tables.engine.edge_fast import card_numbers, index, poker_categories, poker_scores, table
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable

from . import game as second_chance

SAMPLES: Final = 15_000  # deals of nine cards, six rounds each
EXACT_DEALS: Final = 500_000  # enumerate (D, N, X) exactly up to this many deals
STAND: Final = "stand"
MULLIGAN: Final = "mulligan"
_ROLES: Final = tuple(permutations(range(3)))


@cache
def dealer_draws_table() -> list[bool]:
    """Per three-card hand index (`edge_fast`): whether the dealer replaces it."""
    return table(second_chance.dealer_draws, False)


@dataclass(frozen=True)
class AnteOdds:
    """Per hand index (`edge_fast`): the Ante/Raise odds the hand is paid at when it wins,
    exactly, as integers over a common `scale`, and as floats (the sampler's)."""

    exact: list[Fraction]
    scaled: list[int]
    scale: int
    floats: list[float]


@cache
def _ante_odds(lines: tuple[tuple[str, Fraction], ...]) -> AnteOdds:
    odds = dict(lines)
    scale = 1
    for o in odds.values():
        scale = scale * o.denominator // gcd(scale, o.denominator)
    by_category = {c: odds.get(c, Fraction(0)) for c in set(poker_categories())}
    exact = [by_category[c] for c in poker_categories()]
    as_int = {c: int(o * scale) for c, o in by_category.items()}
    as_float = {c: float(o) for c, o in by_category.items()}
    return AnteOdds(
        exact,
        [as_int[c] for c in poker_categories()],
        scale,
        [as_float[c] for c in poker_categories()],
    )


def ante_odds(paytable: Paytable) -> AnteOdds:
    """The paytable's Ante/Raise odds per hand index (built once per paytable)."""
    return _ante_odds(tuple(sorted(paytable.tables["ante"].items())))


def stand_value(cards: Sequence[Card], unseen: Sequence[Card], odds: AnteOdds) -> Fraction:
    """The Ante's expected net per unit when the player stands (exact)."""
    score, draws = poker_scores(), dealer_draws_table()
    h = card_numbers(cards)
    own = score[index(*h)]
    u = sorted(card_numbers(unseen))
    below = equal = 0
    below1: dict[int, int] = dict.fromkeys(u, 0)
    equal1: dict[int, int] = dict.fromkeys(u, 0)
    below2: dict[tuple[int, int], int] = {}
    equal2: dict[tuple[int, int], int] = {}
    hands = list(combinations(u, 3))
    for a, b, c in hands:
        s = score[a * 2704 + b * 52 + c]
        if s < own:
            below += 1
            below1[a] += 1
            below1[b] += 1
            below1[c] += 1
            for p in ((a, b), (a, c), (b, c)):
                below2[p] = below2.get(p, 0) + 1
        elif s == own:
            equal += 1
            equal1[a] += 1
            equal1[b] += 1
            equal1[c] += 1
            for p in ((a, b), (a, c), (b, c)):
                equal2[p] = equal2.get(p, 0) + 1
    after = comb(len(u) - 3, 3)  # the dealer's new hands once D is out
    win = tie = lose = 0
    for a, b, c in hands:
        i = a * 2704 + b * 52 + c
        if not draws[i]:
            s = score[i]
            if s < own:
                win += after
            elif s == own:
                tie += after
            else:
                lose += after
            continue
        s = score[i]
        lo = (
            below
            - below1[a]
            - below1[b]
            - below1[c]
            + below2.get((a, b), 0)
            + below2.get((a, c), 0)
            + below2.get((b, c), 0)
            - (s < own)
        )
        eq = (
            equal
            - equal1[a]
            - equal1[b]
            - equal1[c]
            + equal2.get((a, b), 0)
            + equal2.get((a, c), 0)
            + equal2.get((b, c), 0)
            - (s == own)
        )
        win += lo
        tie += eq
        lose += after - lo - eq
    total = len(hands) * after
    return (odds.exact[index(*h)] * win - lose) / total


def mulligan_pair_plus_value(unseen: Sequence[Card], paytable: Paytable) -> Fraction:
    """The Mulligan Pair Plus's expected net per unit: N is any three of the unseen cards."""
    odds = paytable.tables["pair_plus"]
    cats = poker_categories()
    counts: dict[str, int] = {}
    for a, b, c in combinations(card_numbers(unseen), 3):
        cat = cats[a * 2704 + b * 52 + c]
        counts[cat] = counts.get(cat, 0) + 1
    total = sum(odds.get(cat, Fraction(-1)) * k for cat, k in counts.items())
    return Fraction(total) / sum(counts.values())


def _g(n: int, dealer: int, score: list[int], odds: Sequence[Any]) -> Any:
    ps, ds = score[n], score[dealer]
    if ps > ds:
        return odds[n]
    return 0 if ps == ds else -1


Item = tuple[int, int, bool]  # (score, odds scaled to an integer, the dealer stands on it)


def _sweep(items: list[Item], scale: int) -> int:
    """Over hands sorted by score: the sum, over each hand D the dealer stands on, of every
    hand N's Ante result against D, times `scale` (N's odds when higher, -1 when lower)."""
    total_above = sum(o for _s, o, _d in items)
    below = seen_odds = 0
    result = 0
    i, n = 0, len(items)
    while i < n:
        level = items[i][0]
        group = group_odds = stands = 0
        while i < n and items[i][0] == level:
            group += 1
            group_odds += items[i][1]
            stands += items[i][2]
            i += 1
        seen_odds += group_odds
        result += stands * (total_above - seen_odds - below * scale)
        below += group
    return result


def _stand_branch(u: Sequence[int], odds: AnteOdds) -> tuple[Fraction, int]:
    """Exactly, the dealer's first hands D that stand: the sum over them of the mean Ante
    result of N (every hand of the other cards) against D, and how many hands D draws on.

    For each D, the hands N of all the unseen cards less those holding a card of D plus those
    holding two of them (the hand D itself ties): so the sum runs over N and D both from all
    the unseen cards, both holding a card c, both holding a pair, each a sweep by score."""
    score, draws = poker_scores(), dealer_draws_table()
    scaled, scale = odds.scaled, odds.scale
    hands = sorted(
        (score[a * 2704 + b * 52 + c], a, b, c) for a, b, c in combinations(sorted(u), 3)
    )
    every: list[Item] = []
    by_card: dict[int, list[Item]] = {c: [] for c in u}
    by_pair: dict[tuple[int, int], list[Item]] = {}
    drawing = 0
    for s, a, b, c in hands:
        i = a * 2704 + b * 52 + c
        item = (s, scaled[i], not draws[i])
        drawing += draws[i]
        every.append(item)
        by_card[a].append(item)
        by_card[b].append(item)
        by_card[c].append(item)
        for p in ((a, b), (a, c), (b, c)):
            by_pair.setdefault(p, []).append(item)
    total = _sweep(every, scale)
    total -= sum(_sweep(items, scale) for items in by_card.values())
    total += sum(_sweep(items, scale) for items in by_pair.values())
    return Fraction(total, scale * comb(len(u) - 3, 3)), drawing


def mulligan_ante_value(cards: Sequence[Card], unseen: Sequence[Card], odds: AnteOdds) -> Fraction:
    """The Ante's (and so the Raise's) expected net per unit on a mulligan's new hand: exact
    where the dealer's first hand stands; where it draws, exact over every (D, N, X) when there
    are at most `EXACT_DEALS` deals, else the sampled estimate."""
    score, draws = poker_scores(), dealer_draws_table()
    u = sorted(card_numbers(unseen))
    n = len(u)
    stand_sum, drawing = _stand_branch(u, odds)
    if not drawing:
        return stand_sum / comb(n, 3)
    if comb(n, 3) * comb(n - 3, 3) * comb(n - 6, 3) <= EXACT_DEALS:
        total = Fraction(0)
        deals = 0
        for d in combinations(u, 3):
            if not draws[index(*d)]:
                continue
            left = [c for c in u if c not in d]
            for new in combinations(left, 3):
                ni = index(*new)
                rest = [c for c in left if c not in new]
                for x in combinations(rest, 3):
                    total += _g(ni, index(*x), score, odds.exact)
                    deals += 1
        draw_mean = total / deals
    else:
        draw_mean = _sampled_draw_mean(cards, u, odds)
    return (stand_sum + drawing * draw_mean) / comb(n, 3)


def _sampled_draw_mean(cards: Sequence[Card], u: list[int], ante: AnteOdds) -> Fraction:
    """The mean Ante result of N against X over deals whose D draws, sampled: `SAMPLES` deals
    of nine cards, each read in the six ways of giving its three hands the roles D, N and X,
    those where D draws counted."""
    score, draws = poker_scores(), dealer_draws_table()
    odds = ante.floats
    sample = seeded(cards, "second_chance mulligan").sample
    net = 0.0
    counted = 0
    for _ in range(SAMPLES):
        c = sample(u, 9)
        hands = (
            c[0] * 2704 + c[1] * 52 + c[2],
            c[3] * 2704 + c[4] * 52 + c[5],
            c[6] * 2704 + c[7] * 52 + c[8],
        )
        for r_d, r_n, r_x in _ROLES:
            if not draws[hands[r_d]]:
                continue
            mine, dealer = hands[r_n], hands[r_x]
            ps, ds = score[mine], score[dealer]
            net += odds[mine] if ps > ds else (0.0 if ps == ds else -1.0)
            counted += 1
    return Fraction(net) / counted if counted else Fraction(0)


def choice_values(
    cards: Sequence[Card],
    unseen: Sequence[Card],
    paytable: Paytable,
    ante_cents: int,
    mulligan_pair_plus_cents: int,
) -> dict[str, Fraction]:
    """Each choice's expected net in cents (the first hand's Pair Plus left out)."""
    odds = ante_odds(paytable)
    values = {
        STAND: ante_cents * stand_value(cards, unseen, odds),
        MULLIGAN: 2 * ante_cents * mulligan_ante_value(cards, unseen, odds),
    }
    if mulligan_pair_plus_cents:
        values[MULLIGAN] += mulligan_pair_plus_cents * mulligan_pair_plus_value(unseen, paytable)
    return values


def decision_cost(entry: Mapping[str, Any], n: int, paytable: Paytable) -> Decimal:
    """The seat's stand or mulligan's cost against the better choice, in cents."""
    seat = _seat(entry, n)
    cards = cards_at(seat.get("cards"), f"seat {n}'s cards")
    ante = stake(seat_wagers(seat, n, ("ante", "pair_plus")), "ante", n, required=True)
    mulligan = seat.get("mulligan")
    extra = 0
    if isinstance(mulligan, Mapping) and mulligan.get("pair_plus") not in (
        None,
        "",
        0,
        "0",
        "0.00",
    ):
        extra = stake(mulligan, "pair_plus", n, required=False)
    unseen = [c for c in DECK if c not in cards]
    values = choice_values(cards, unseen, paytable, ante, extra)
    return cost(values, MULLIGAN if mulligan is not None else STAND)


def _seat(entry: Mapping[str, Any], n: int) -> Mapping[str, Any]:
    for number, seat in seat_entries(entry):
        if number == n:
            return seat
    raise EngineError(Refusal.BAD_SEAT, f"the round has no seat {n}", field="seat")
