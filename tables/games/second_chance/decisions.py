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
  plus the Mulligan Pair Plus as placed (none when the seat stood) on N. All exact. The
  Mulligan Pair Plus: every N of the 49. The Ante and Raise, over every D the dealer stands on
  (`_stand_branch`): every N of the other 46, by sweeps over the hands in score order. Where D
  draws (`_draw_branch`), X comes after the player's draw and from the cards N left, so the
  discarded D takes cards from both N's and X's pools: every deal (D, N, X) is counted, as
  every disjoint (N, X) weighted by the drawing hands D avoiding both, that weight split by
  inclusion and exclusion into terms of N alone, of X alone and of a card or two of each,
  each summed over the hands in score order in integer arrays.
The first hand's Pair Plus is settled whichever choice is made, so it is left out.
Cost = the better value less the chosen one's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from math import comb, gcd
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tables.engine.cards import DECK, Card
from tables.engine.contract import cards_at, seat_entries, seat_wagers, stake
from tables.engine.decision_cost import cost
from tables.engine.edge_fast import card_numbers, index, poker_categories, poker_scores, table
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable

from . import game as second_chance

Ints = npt.NDArray[np.int64]
ROWS: Final = 1024  # hands per block of `_draw_branch`'s (hand, card) rows
STAND: Final = "stand"
MULLIGAN: Final = "mulligan"


@cache
def dealer_draws_table() -> list[bool]:
    """Per three-card hand index (`edge_fast`): whether the dealer replaces it."""
    return table(second_chance.dealer_draws, False)


@dataclass(frozen=True)
class AnteOdds:
    """Per hand index (`edge_fast`): the Ante/Raise odds the hand is paid at when it wins,
    exactly, and as integers over a common `scale` (a list, and an array: of 64-bit integers
    when they leave room to sum, else of Python integers)."""

    exact: list[Fraction]
    scaled: list[int]
    scale: int
    array: Any = field(compare=False)


@cache
def _ante_odds(lines: tuple[tuple[str, Fraction], ...]) -> AnteOdds:
    odds = dict(lines)
    scale = 1
    for o in odds.values():
        scale = scale * o.denominator // gcd(scale, o.denominator)
    by_category = {c: odds.get(c, Fraction(0)) for c in set(poker_categories())}
    exact = [by_category[c] for c in poker_categories()]
    as_int = {c: int(o * scale) for c, o in by_category.items()}
    scaled = [as_int[c] for c in poker_categories()]
    small = max(scaled) <= 1 << 30
    return AnteOdds(exact, scaled, scale, np.array(scaled, dtype=np.int64 if small else object))


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


def mulligan_ante_value(unseen: Sequence[Card], odds: AnteOdds) -> Fraction:
    """The Ante's (and so the Raise's) expected net per unit on a mulligan's new hand (exact):
    every D the dealer stands on, and every (D, N, X) where D draws."""
    u = sorted(card_numbers(unseen))
    n = len(u)
    stand_sum, drawing = _stand_branch(u, odds)
    if not drawing:
        return stand_sum / comb(n, 3)
    deals = odds.scale * comb(n - 3, 3) * comb(n - 6, 3)
    return (stand_sum + Fraction(_draw_branch(u, odds), deals)) / comb(n, 3)


@cache
def _arrays() -> tuple[Ints, Ints]:
    """`poker_scores` and `dealer_draws_table` (as 0 or 1) as arrays."""
    return (
        np.array(poker_scores(), dtype=np.int64),
        np.array(dealer_draws_table(), dtype=np.int64),
    )


@cache
def _layout(n: int) -> tuple[Ints, Ints, Ints]:
    """For n cards numbered 0..n-1: every hand's three cards (in order), every pair's two
    cards, and each ordered (card, card) pair's number (0 for a card with itself)."""
    hands = np.array(list(combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)
    pairs = np.array(list(combinations(range(n), 2)), dtype=np.int64).reshape(-1, 2)
    pair_of = np.zeros((n, n), dtype=np.int64)
    pair_of[pairs[:, 0], pairs[:, 1]] = np.arange(len(pairs))
    pair_of[pairs[:, 1], pairs[:, 0]] = np.arange(len(pairs))
    return hands, pairs, pair_of


def _draw_branch(u: Sequence[int], ante: AnteOdds) -> int:
    """Exactly, times `ante.scale`: the sum over every deal of three disjoint hands of the
    unseen cards u, the dealer's first hand D one the dealer draws on, the new hand N and the
    dealer's new hand X, of N's Ante result against X (N's odds when higher, 0 on a tie, -1
    when lower).

    It is the sum over disjoint (N, X) of that result times W(N + X), W(S) the drawing hands
    of u avoiding the cards S. By inclusion and exclusion, W(S) is the sum over the sets T of
    up to three of the cards S of (-1)^|T| times the drawing hands holding T, and splitting T
    into its cards in N and in X: W(N + X) = W(N) + W(X) - W(nothing) + the cross terms, a
    card c of N with a card d of X (+ the drawing hands holding both), two cards of N with a
    card d of X (- 1 when the three are a drawing hand), a card c of N with two of X (the
    same). So:
    - W(N) and W(X) - W(nothing): for each N, the hands X disjoint from N below and above
      it, counted and summed with the weight W(X) - W(nothing), from sums over the hands in
      score order (those of every hand, of the hands holding each card, of those holding each
      pair), less the hands holding a card of N, plus those holding two;
    - a card d of X with N's cards: for each N and card d outside it, the hands X holding d
      and disjoint from N below and above it (those holding d, less those holding d and a card
      of N, plus the hands of d and two of N), weighted by the cross terms of N's cards with d;
    - two cards of X with a card c of N: the same, with the roles of the hands exchanged: for
      each X and card c outside it, the hands N holding c and disjoint from X above it (their
      odds summed) and below it, weighted by the drawing hands of c and two of X's cards.
    The counts are 64-bit integers, far below their limit, and so are the odds sums but for
    paytables of outsize odds (Python integers then); the sum of N's odds times its counts, and
    the total, are Python integers."""
    scores, draws = _arrays()
    n = len(u)
    hands, pairs, pair_of = _layout(n)
    cards = np.array(u, dtype=np.int64)[hands]
    numbers = cards[:, 0] * 2704 + cards[:, 1] * 52 + cards[:, 2]
    a, b, c = hands[:, 0], hands[:, 1], hands[:, 2]
    drawing = draws[numbers]
    level = np.unique(scores[numbers], return_inverse=True)[1].astype(np.int64)
    top = int(level.max()) + 1  # the score levels are 0..top-1
    odds = ante.array[numbers]
    # hand number by its three cards in any order
    hand_of = np.zeros((n, n, n), dtype=np.int64)
    numbered = np.arange(len(hands))
    for x, y, z in permutations((a, b, c)):
        hand_of[x, y, z] = numbered
    ab, ac, bc = pair_of[a, b], pair_of[a, c], pair_of[b, c]

    # the drawing hands: all, holding each card, holding each pair; W(X) - W(nothing)
    every = int(drawing.sum())
    by_card = np.zeros(n, dtype=np.int64)
    np.add.at(by_card, hands.ravel(), np.repeat(drawing, 3))
    by_pair = np.zeros(len(pairs), dtype=np.int64)
    np.add.at(by_pair, np.concatenate((ab, ac, bc)), np.tile(drawing, 3))
    by_cards = np.zeros((n, n), dtype=np.int64)
    by_cards[pairs[:, 0], pairs[:, 1]] = by_pair
    by_cards[pairs[:, 1], pairs[:, 0]] = by_pair
    avoiding = -by_card[a] - by_card[b] - by_card[c] + by_pair[ab] + by_pair[ac] + by_pair[bc]
    avoiding -= drawing  # W(X) - W(nothing)

    width = top + 1

    def below(weight: Any) -> tuple[Any, Any, Any]:
        """Sums of `weight` over the hands whose score level is under l, at [l] (all hands),
        [card * width + l] (those holding the card) and [pair * width + l] (the pair)."""
        slot = level + 1
        all_ = np.zeros(width, dtype=weight.dtype)
        np.add.at(all_, slot, weight)
        card = np.zeros((n, width), dtype=weight.dtype)
        for x in (a, b, c):
            np.add.at(card, (x, slot), weight)
        pair = np.zeros((len(pairs), width), dtype=weight.dtype)
        for p in (ab, ac, bc):
            np.add.at(pair, (p, slot), weight)
        return (
            np.cumsum(all_),
            np.cumsum(card, axis=1).ravel(),
            np.cumsum(pair, axis=1).ravel(),
        )

    end = np.full(len(hands), top, dtype=np.int64)

    def disjoint(sums: tuple[Any, Any, Any], at: Ints) -> Any:
        """Per hand, its level `at`: the sum over the hands disjoint from it under `at`."""
        all_, card, pair = sums
        return (
            all_[at]
            - card[a * width + at]
            - card[b * width + at]
            - card[c * width + at]
            + pair[ab * width + at]
            + pair[ac * width + at]
            + pair[bc * width + at]
        )

    # per hand N: the sums over the hands X disjoint from it, below it (lower) and above it
    # (higher), of W(N + X) but for the term of a card of N with two of X (the last below)
    count = below(np.ones(len(hands), dtype=np.int64))
    weighted = below(avoiding)
    mine = avoiding + every  # W(N)
    lower = mine * disjoint(count, level) + disjoint(weighted, level)
    higher = mine * (disjoint(count, end) - disjoint(count, level + 1))
    higher += disjoint(weighted, end) - disjoint(weighted, level + 1)

    # each hand with each card d outside it: a row per hand, taken a block of rows at a time
    # (the arrays of a block stay small)
    paid = below(odds)
    exchanged = 0  # the sum over the hands X of the term of two cards of X with one of N
    for first in range(0, len(hands), ROWS):
        rows = slice(first, first + ROWS)
        a2, b2, c2 = a[rows, None], b[rows, None], c[rows, None]
        at, end2 = level[rows, None], end[rows, None]
        outside = np.ones((len(a2), n), dtype=bool)
        numbered2 = np.arange(len(a2))
        outside[numbered2, a[rows]] = outside[numbered2, b[rows]] = False
        outside[numbered2, c[rows]] = False
        d = np.nonzero(outside)[1].reshape(len(a2), n - 3)
        abd, acd, bcd = hand_of[a2, b2, d], hand_of[a2, c2, d], hand_of[b2, c2, d]
        ad, bd, cd = pair_of[a2, d] * width, pair_of[b2, d] * width, pair_of[c2, d] * width
        slots = (d * width, ad, bd, cd)

        # the hand as N, d a card of X: the hands X holding d disjoint from N, below and above
        threes = (level[abd], level[acd], level[bcd])
        under = _holding_d(count, slots, at) + sum((t < at for t in threes), start=np.int64(0))
        over = _holding_d(count, slots, end2) - _holding_d(count, slots, at + 1)
        over += sum((t > at for t in threes), start=np.int64(0))
        triples = drawing[abd] + drawing[acd] + drawing[bcd]
        cross = by_cards[a2, d] + by_cards[b2, d] + by_cards[c2, d] - triples
        lower[rows] += (cross * under).sum(axis=1)
        higher[rows] += (cross * over).sum(axis=1)

        # the hand as X, d a card of N: the hands N holding d disjoint from X, their odds
        # summed above X (and `under`, below it), weighted by the drawing hands of d and two
        # of X's cards
        paid_over = _holding_d(paid, slots, end2) - _holding_d(paid, slots, at + 1)
        for t, h in zip(threes, (abd, acd, bcd), strict=True):
            paid_over += odds[h] * (t > at)
        exchanged -= int((triples * paid_over).sum())
        exchanged += ante.scale * int((triples * under).sum())

    total = exchanged - ante.scale * int(higher.sum())
    for v in np.unique(odds):
        total += int(v) * int(lower[odds == v].sum())
    return total


def _holding_d(sums: tuple[Any, Any, Any], slots: tuple[Ints, ...], at: Ints) -> Any:
    """Per (hand, card d outside it), at level `at`: the sum under that level over the hands
    holding d, less those holding d and each card of the hand (the hands of d and two of its
    cards, taken off twice, are added back once by the caller). `slots` are d's and the pairs of d
    with each card of the hand, as row offsets of `sums`' card and pair tables."""
    _all, card, pair = sums
    dw, ad, bd, cd = slots
    return card[dw + at] - pair[ad + at] - pair[bd + at] - pair[cd + at]


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
        MULLIGAN: 2 * ante_cents * mulligan_ante_value(unseen, odds),
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
