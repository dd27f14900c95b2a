"""Three Card 2nd Chance: Pair Plus and Mulligan Pair Plus exactly, Ante+Raise by sampling.

- Pair Plus looks at the first hand alone: its figures are a count over the 22,100 hands.
- Mulligan Pair Plus rides on the hand a mulligan draws: three cards from the 49 the player
  does not hold (the dealer's cards are unseen, so every 3 of the 49 is equally likely). For
  each first hand the strategy swaps, the hands of each category left among the 49 follow by
  inclusion and exclusion: all hands of the category, less those holding one of the three
  thrown-away cards, plus those holding two, less the thrown-away hand itself. Exact over
  every (first hand, new hand) pair, the strategy's mix weighting each first hand.
- Ante+Raise needs the dealer's draw, after the player's: no way to count it in reasonable
  time was found, so it is sampled (heads-up: one seat against the dealer, one deck). The
  lookups are the engine's evaluators (`edge_fast`); the tests settle sampled rounds with
  `second_chance.settle` and compare.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations
from math import comb
from typing import Final

from tables.engine.cards import Card
from tables.engine.edge_fast import HANDS, cards_of, index, poker_categories, poker_scores, table
from tables.engine.edge_stats import Outcome, Sampler
from tables.engine.paytable_types import Paytable
from tables.engine.rankings import POKER_ORDER, Category, poker_value
from tables.engine.strategies import Mix

from . import game as second_chance

CATEGORIES: Final = tuple(reversed(POKER_ORDER))  # straight flush first
_R52: Final = range(52)


def _pair_plus_outcomes(
    counts: Mapping[Category, Fraction], odds: Mapping[str, Fraction]
) -> list[Outcome]:
    out = []
    for cat in CATEGORIES:
        win = odds.get(cat.value)
        out.append(
            Outcome(cat.value, win if win is not None else Fraction(-1), Fraction(1), counts[cat])
        )
    return out


def pair_plus(paytable: Paytable) -> list[Outcome]:
    """Pair Plus over all 22,100 first hands."""
    counts = {cat: Fraction(0) for cat in CATEGORIES}
    for hand in HANDS:
        counts[poker_value(cards_of(hand)).category] += 1
    return _pair_plus_outcomes(counts, paytable.tables["pair_plus"])


def swap_weights(mix: Mix[bool]) -> list[Fraction]:
    """Per hand (in `HANDS` order), the weight with which the strategy takes a mulligan."""
    weights = [Fraction(0)] * len(HANDS)
    for i, hand in enumerate(HANDS):
        cards = cards_of(hand)
        weights[i] = sum((w for w, play in mix.plays if play(cards)), Fraction(0))
    return weights


def mulligan_pair_plus(paytable: Paytable, mix: Mix[bool]) -> list[Outcome]:
    """Mulligan Pair Plus over every (swapped first hand, new hand from the other 49) pair."""
    n_cat = len(CATEGORIES)
    cat_index = {cat: i for i, cat in enumerate(CATEGORIES)}
    total = [0] * n_cat
    by_card = [[0] * n_cat for _ in range(52)]
    by_pair: dict[tuple[int, int], list[int]] = {}
    hand_cat = []
    for hand in HANDS:
        k = cat_index[poker_value(cards_of(hand)).category]
        hand_cat.append(k)
        total[k] += 1
        for c in hand:
            by_card[c][k] += 1
        for pair in combinations(hand, 2):
            row = by_pair.get(pair)
            if row is None:
                row = by_pair[pair] = [0] * n_cat
            row[k] += 1
    counts = [Fraction(0)] * n_cat
    for hand, k_hand, weight in zip(HANDS, hand_cat, swap_weights(mix), strict=True):
        if not weight:
            continue
        a, b, c = hand
        left = [
            total[k]
            - by_card[a][k]
            - by_card[b][k]
            - by_card[c][k]
            + by_pair[(a, b)][k]
            + by_pair[(a, c)][k]
            + by_pair[(b, c)][k]
            for k in range(n_cat)
        ]
        left[k_hand] -= 1
        assert sum(left) == comb(49, 3)
        for k in range(n_cat):
            counts[k] += weight * left[k]
    return _pair_plus_outcomes(
        dict(zip(CATEGORIES, counts, strict=True)), paytable.tables["pair_plus"]
    )


@dataclass(frozen=True)
class AnteRaiseTables:
    score: list[int]
    draws: list[bool]
    odds: list[float]  # the Ante/Raise odds of the hand's category (a win pays it per unit)
    keep: list[float]  # the probability the strategy keeps the hand


def ante_raise_tables(paytable: Paytable, mix: Mix[bool]) -> AnteRaiseTables:
    ante = paytable.tables["ante"]
    cats = poker_categories()
    return AnteRaiseTables(
        score=poker_scores(),
        draws=table(second_chance.dealer_draws, False),
        odds=[float(ante[c]) if c else 0.0 for c in cats],
        keep=table(
            lambda cards: float(sum((w for w, play in mix.plays if not play(cards)), Fraction(0))),
            0.0,
        ),
    )


# Every way to give the four three-card groups of a 12-card deal the roles (first hand,
# dealer's hand, mulligan, dealer's draw): each is on its own a uniformly random deal.
ROLES: Final = tuple(permutations(range(4)))


def ante_raise(paytable: Paytable, mix: Mix[bool], samples: int, rng: random.Random) -> Sampler:
    """Sample heads-up rounds of the Ante (and the Raise after a mulligan): `samples` deals
    of 12 cards, each played in all 24 role assignments (see `ROLES`). A mixed strategy is
    taken in expectation: both its choices are played, weighted."""
    t = ante_raise_tables(paytable, mix)
    score, draws, odds, keep = t.score, t.draws, t.odds, t.keep
    sample = rng.sample
    roles = ROLES
    per = 1.0 / len(roles)
    out = Sampler(group=len(roles))
    add = out.add
    for _ in range(samples):
        d = sample(_R52, 12)
        h = (
            d[0] * 2704 + d[1] * 52 + d[2],
            d[3] * 2704 + d[4] * 52 + d[5],
            d[6] * 2704 + d[7] * 52 + d[8],
            d[9] * 2704 + d[10] * 52 + d[11],
        )
        net = wag = square = 0.0
        for a, b, c, x in roles:
            first = h[a]
            dealer = h[b]
            if draws[dealer]:
                dealer = h[x]
            ds = score[dealer]
            k = keep[first]
            if k > 0.0:
                ps = score[first]
                g = odds[first] if ps > ds else (0.0 if ps == ds else -1.0)
                net += k * g
                square += k * g * g
                wag += k
            if k < 1.0:
                second = h[c]
                ps = score[second]
                g = 2.0 * odds[second] if ps > ds else (0.0 if ps == ds else -2.0)
                net += (1.0 - k) * g
                square += (1.0 - k) * g * g
                wag += (1.0 - k) * 2.0
        add(net * per, wag * per, square * per)
    return out


def play_deal(
    deal: Sequence[int], roles: Sequence[int], t: AnteRaiseTables, mulligan: bool
) -> tuple[float, float]:
    """The fast path's (net per unit of Ante, units wagered) for one role assignment of a
    12-card deal, with the player's choice given: for the tests."""
    h = [index(*deal[3 * g : 3 * g + 3]) for g in range(4)]
    a, b, c, x = roles
    dealer = h[x] if t.draws[h[b]] else h[b]
    player, units = (h[c], 2.0) if mulligan else (h[a], 1.0)
    ps, ds = t.score[player], t.score[dealer]
    if ps > ds:
        return units * t.odds[player], units
    return (0.0 if ps == ds else -units), units


def settle_sampled(
    deal: Sequence[int], roles: Sequence[int], mulligan: bool, paytable: Paytable
) -> int:
    """The engine's own settlement (in cents, 100-cent Ante) of one role assignment of a
    12-card deal: for the tests."""
    groups = [cards_of(deal[3 * g : 3 * g + 3]) for g in range(4)]
    first, dealer_cards, new, dealer_draw = (groups[r] for r in roles)
    seat = second_chance.Seat(1, 100, first, mulligan=new if mulligan else None)
    draw: tuple[Card, ...] = dealer_draw if second_chance.dealer_draws(dealer_cards) else ()
    result = second_chance.settle(
        second_chance.Round(dealer_cards, (seat,), dealer_draw=draw), paytable
    )
    return result.net_cents
