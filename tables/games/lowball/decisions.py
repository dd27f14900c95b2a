"""Three Card Lowball's decision cost: which of the seat's cards to throw away.

What the player knew: the seat's first three cards. The seven choices are standing pat and
throwing away any one or any two of them (all three is not allowed). The other 49 cards are
unseen, so the dealer's first hand D, the player's new cards P and the dealer's new cards Q
are disjoint draws from them, every such deal equally likely (heads-up, as `edge` takes the
game); the dealer throws away by the house way (`game.dealer_house_way`'s proposal where the
house way leaves a choice, as the tablet proposes it) and draws k = 0, 1 or 2 cards.

The value of a choice is its expected net in cents with the wagers as placed: the Ante (even
money) and the Bonus (the table's bonus paytable, a push off it) when the final hand is lower
than the dealer's, both lost when it is higher, a push on a tie; and, with a progressive
stake, the fixed award the seat would win (200 or 50 on a 4-2-A first hand, else 10 or 3 on a
final hand four or five high, when lower than the dealer's). What every choice shares is left
out: the progressive stake (always taken) and the jackpot (judged on both first hands alone;
a jackpot deal is never a win, as no hand is lower than the dealer's 4-2-A).

Exact, every deal counted: a choice keeping K and drawing j cards is worth
sum over P of sum over the dealer's deals (D, Q) avoiding P, each weighted by
1 / (C(49, j) C(49 - j, 3) C(46 - j, k)). The dealer's deals of all the unseen cards are
counted once per decision by their final hand's score (`_dealer`): all of them, those holding
each unseen card, those holding each two, so that the deals avoiding P are all of them, less
those holding a card of P, plus those holding both (inclusion and exclusion). A dealer who
keeps one card and draws two is counted by the pairs Q of new cards, each scored once, with
how many of its thrown pairs avoid Q. Against each P the seat's final hand is then looked up
in running sums over the scores: higher (the seat wins, by its hand's name) or lower (it
loses). Counts are whole numbers (numpy int64), the values Fractions.
Cost = the best value less the chosen one's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tables.engine.cards import DECK, Card
from tables.engine.contract import cards_at, meter_config, seat_entries, seat_wagers, stake
from tables.engine.decision_cost import cost
from tables.engine.edge_fast import card_numbers, table
from tables.engine.errors import EngineError, Refusal
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig

from . import game as lowball
from .edge import lowball_names, lowball_scores
from .hands import is_a24

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


def _win_values(
    cards: Sequence[Card],
    paytable: Paytable,
    ante: int,
    bonus: int,
    progressive: int,
    meter: MeterConfig,
) -> dict[str, Fraction]:
    """A winning final hand's net in cents, by the hand's name, the progressive's fixed award
    included. A jackpot deal (the dealer's first hand 4-2-A too, the seat's single award) is
    never a win: the house way stands on 4-2-A and no hand is lower."""
    odds = paytable.tables["bonus"]
    awards = lowball.meter_awards(meter)
    scale = Fraction(progressive, meter.wager_cents)
    first: Fraction | None = None
    if progressive and is_a24(cards):
        one = len({c.is_red for c in cards}) == 1
        first = scale * awards[lowball.ONE_COLOUR if one else lowball.TWO_COLOUR]
    full = {}
    for name in set(lowball_names()) - {""}:
        value = Fraction(ante) + bonus * odds.get(name, Fraction(0))
        if first is not None:
            value += first
        elif progressive and name in _FOUR_HIGH:
            value += scale * awards[lowball.FOUR_HIGH]
        elif progressive and name == "five_high":
            value += scale * awards[lowball.FIVE_HIGH]
        full[name] = value
    return full


@cache
def _triples(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every three of n cards (local numbers, each row increasing), as three columns."""
    rows = np.array(list(combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)
    return rows[:, 0], rows[:, 1], rows[:, 2]


@dataclass(frozen=True)
class _Arrays:
    """The lookup tables as arrays, per hand index: the low score's place among all scores
    (lower is better; -1 off the table), the name's place in `names`, the house way's kept
    part (`_base`) and how many cards the dealer draws."""

    score: npt.NDArray[np.int64]
    name: npt.NDArray[np.int64]
    names: tuple[str, ...]
    dealer_base: npt.NDArray[np.int64]
    dealer_draws: npt.NDArray[np.int64]
    scores: int


@cache
def _arrays() -> _Arrays:
    raw = np.array(lowball_scores(), dtype=np.int64)
    distinct = np.unique(raw[raw >= 0])
    score = np.where(raw >= 0, np.searchsorted(distinct, raw), -1).astype(np.int64)
    names = tuple(sorted(set(lowball_names())))
    place = {name: i for i, name in enumerate(names)}
    name = np.array([place[x] for x in lowball_names()], dtype=np.int64)
    base = np.array(dealer_base_table(), dtype=np.int64)
    return _Arrays(
        score=score,
        name=name,
        names=names,
        dealer_base=base[:, 0],
        dealer_draws=base[:, 1],
        scores=len(distinct),
    )


def _weights(n: int, j: int) -> tuple[npt.NDArray[np.int64], int]:
    """A deal's weight by the dealer's draws k (0, 1, 2) when the player draws j of the n
    unseen cards, and their common denominator: the dealer draws k of the m = n - 3 - j cards
    left, so a deal weighs 1 / (C(n, j) C(n - j, 3) C(m, k)) = w[k] / denominator."""
    m = n - 3 - j
    weights = np.array([m * (m - 1), m - 1, 2], dtype=np.int64)
    return weights, comb(n, j) * comb(n - j, 3) * m * (m - 1)


@dataclass(frozen=True)
class _Dealer:
    """The dealer's deals (a first hand D of the unseen cards, the house way's new cards Q from
    the rest: every D, every Q) counted by the final hand's score. `every[k, s]`: the deals whose
    D draws k cards; `one[k, c, s]`: those holding the unseen card c (in D or Q); `two[c * n +
    c2, s]` (c < c2): those holding both, each weighted by its k as `_weights(n, 2)` says."""

    every: npt.NDArray[np.int64]
    one: npt.NDArray[np.int64]
    two: npt.NDArray[np.int64]


def _dealer(u: npt.NDArray[np.int64], t: _Arrays) -> _Dealer:
    n, size = len(u), t.scores
    w = _weights(n, 2)[0]
    every = np.zeros((3, size), dtype=np.int64)
    one = np.zeros((3, n * size), dtype=np.int64)
    two = np.zeros(n * n * size, dtype=np.int64)
    two_rows = two.reshape(n * n, size)
    local = np.full(52, -1, dtype=np.int64)
    local[u] = np.arange(n)
    h1, h2, h3 = _triples(n)
    hand = u[h1] * 2704 + u[h2] * 52 + u[h3]
    base, draws = t.dealer_base[hand], t.dealer_draws[hand]

    def pair(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.minimum(a, b) * n + np.maximum(a, b)

    def deals(k: int, cards: list[npt.NDArray[np.int64]], s: npt.NDArray[np.int64]) -> None:
        """One deal per row: its cards (local numbers) and its final score."""
        np.add.at(every[k], s, 1)
        for c in cards:
            np.add.at(one[k], c * size + s, 1)
        for a, b in combinations(cards, 2):
            np.add.at(two, pair(a, b) * size + s, w[k])

    # D stands: its own cards.
    pat = draws == 0
    deals(0, [h1[pat], h2[pat], h3[pat]], t.score[hand[pat]])

    # D keeps two cards (a, b) and throws x: every new card q of the other n - 3.
    r = draws == 1
    b1 = base[r]
    a, b = local[b1 // 2704], local[b1 // 52 % 52]
    x = h1[r] + h2[r] + h3[r] - a - b
    q = np.broadcast_to(np.arange(n), (len(b1), n))
    fresh = (q != a[:, None]) & (q != b[:, None]) & (q != x[:, None])
    s1 = t.score[b1[:, None] + u[None, :]][fresh]
    rows = [np.broadcast_to(c[:, None], q.shape)[fresh] for c in (a, b, x)]
    deals(1, [*rows, q[fresh]], s1)

    # D keeps one card d and throws X = {x1, x2}: grouped by d, every pair Q of new cards of
    # the n - 1 other than d is scored once and counted by the thrown pairs X that avoid it.
    r = draws == 2
    kept = local[base[r] // 2704]
    ti, tj, tl = h1[r], h2[r], h3[r]
    x1 = np.where(ti == kept, tj, ti)
    x2 = np.where(tl == kept, tj, tl)
    p1, p2 = (np.asarray(v, dtype=np.int64) for v in np.triu_indices(n, 1))
    cards = np.arange(n)
    for d in np.unique(kept):
        mine = kept == d
        xa, xb = x1[mine], x2[mine]
        thrown = np.zeros((n, n), dtype=np.int64)  # 1 where {c, c2} is one of d's X
        thrown[xa, xb] = thrown[xb, xa] = 1
        deg = thrown.sum(1)
        other = (p1 != d) & (p2 != d)
        q1, q2 = p1[other], p2[other]
        s = t.score[u[d] * 2704 + u[q1] * 52 + u[q2]]
        # Deals per Q: the X avoiding Q.
        wq = len(xa) - deg[q1] - deg[q2] + thrown[q1, q2]
        dd = np.full_like(q1, d)
        np.add.at(every[2], s, wq)
        for c in (dd, q1, q2):
            np.add.at(one[2], c * size + s, wq)
        for c, c2 in ((dd, q1), (dd, q2), (q1, q2)):
            np.add.at(two, pair(c, c2) * size + s, w[2] * wq)
        # Deals per (Q, x), x a thrown card not in Q: the X holding x and avoiding Q.
        xs = np.flatnonzero(deg)
        v = deg[xs][None, :] - thrown[q1][:, xs] - thrown[q2][:, xs]
        v[(q1[:, None] == xs[None, :]) | (q2[:, None] == xs[None, :])] = 0
        held = v != 0
        xv = np.broadcast_to(xs[None, :], v.shape)[held]
        sv = np.broadcast_to(s[:, None], v.shape)[held]
        vv = v[held]
        y = np.zeros(n * size, dtype=np.int64)
        np.add.at(y, xv * size + sv, vv)
        one[2] += y
        two_rows[pair(dd[:1].repeat(n), cards)] += w[2] * y.reshape(n, size)
        for qv in (q1, q2):
            qh = np.broadcast_to(qv[:, None], v.shape)[held]
            np.add.at(two, pair(xv, qh) * size + sv, w[2] * vv)
        # Deals per X: the Q avoiding both its cards (all, less those holding x1 or x2, plus
        # Q = X itself).
        every_q = np.bincount(s, minlength=size).astype(np.int64)
        holding = np.zeros((n, size), dtype=np.int64)
        np.add.at(holding, (q1, s), 1)
        np.add.at(holding, (q2, s), 1)
        block = every_q[None, :] - holding[xa] - holding[xb]
        block[np.arange(len(xa)), t.score[u[d] * 2704 + u[xa] * 52 + u[xb]]] += 1
        two_rows[xa * n + xb] += w[2] * block
    return _Dealer(every, one.reshape(3, n, size), two_rows)


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
    """Each choice's expected net in cents (what every choice shares left out), exactly."""
    meter = meter or MeterConfig()
    t = _arrays()
    win = _win_values(cards, paytable, ante, bonus, progressive, meter)
    u = np.array(sorted(card_numbers(unseen)), dtype=np.int64)
    n = len(u)
    if n < 7:
        raise ValueError("a Lowball deal takes seven of the unseen cards")
    dealer = _dealer(u, t)
    every, one, two = dealer.every, dealer.one, dealer.two
    c_every, c_one, c_two = np.cumsum(every, 1), np.cumsum(one, 2), np.cumsum(two, 1)
    all_every, all_one, all_two = c_every[:, -1], c_one[:, :, -1], c_two[:, -1]

    draws_of = {
        0: np.zeros((1, 0), dtype=np.int64),
        1: np.arange(n, dtype=np.int64)[:, None],
        2: np.stack(np.triu_indices(n, 1), axis=1).astype(np.int64),
    }
    values: dict[Choice, Fraction] = {}
    for gone in choices(cards):
        kept = card_numbers([c for c in cards if c not in gone])
        new = draws_of[len(gone)]  # the player's new cards (local numbers), a draw per row
        parts = [np.full(len(new), c, dtype=np.int64) for c in kept]
        parts += [u[new[:, k]] for k in range(len(gone))]
        mine = parts[0] * 2704 + parts[1] * 52 + parts[2]
        ps = t.score[mine]
        weights, denominator = _weights(n, len(gone))
        # Per draw and per k: the dealer's deals avoiding the new cards, scoring higher (the
        # seat wins) and lower (it loses): all, less those holding a new card, plus (two
        # new cards) those holding both.
        above = all_every[:, None] - c_every[:, ps]
        below = c_every[:, ps] - every[:, ps]
        for k in range(len(gone)):
            c = new[:, k]
            at = c_one[:, c, ps]
            above -= all_one[:, c] - at
            below -= at - one[:, c, ps]
        wins, losses = weights @ above, weights @ below
        if len(gone) == 2:
            both = new[:, 0] * n + new[:, 1]
            at = c_two[both, ps]
            wins += all_two[both] - at
            losses += at - two[both, ps]
        won = np.zeros(len(t.names), dtype=np.int64)  # weighted wins by the hand's name
        np.add.at(won, t.name[mine], wins)
        total = Fraction(-int(losses.sum()) * (ante + bonus))
        for place, name in enumerate(t.names):
            if won[place]:
                total += int(won[place]) * win[name]
        values[gone] = total / denominator
    return values


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
