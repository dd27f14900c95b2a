"""Three Card Lowball: the Ante+Bonus and the progressive, by sampling; the jackpot exactly.

Both draws depend on the cards, the player's before the dealer's, so the rounds are sampled
(heads-up: one seat against the dealer, one deck). A sample deals 12 cards as four groups of
three and plays every way of giving the groups the roles (the player's first hand, the
dealer's, the player's draw, the dealer's draw): 24 rounds, each on its own a uniformly random
deal, whose mean is one observation. A mixed strategy is taken in expectation.

The progressive's jackpot (the player's first three cards and the dealer's both 4-2-A) is
rare and pays the meter, so it is counted exactly instead of sampled: of the 407,170,400
(player, dealer) first hands, `jackpot_deals()` are both 4-2-A. The sampled net leaves the
jackpot out (such a round loses its stake and wins no fixed award: the jackpot is the seat's
single award) and the exact part is added back. The rounds whose first hand is 4-2-A (where
the 200 and 50 awards are) are sampled apart, in two strata (one colour, two colours) of
known weight, so these rare large awards add little to the spread of the estimate.

Lookups are the engine's evaluators (`edge_fast`); the tests settle sampled rounds with
`lowball.settle` and compare.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import permutations
from typing import Final

from tables.engine.cards import Card
from tables.engine.edge_fast import HANDS, card_numbers, cards_of, index, table
from tables.engine.edge_stats import Sampler
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import JACKPOT, MeterConfig
from tables.engine.rankings import low_value
from tables.engine.strategies import Mix

from . import game as lowball
from .hands import is_a24, lowball_hand_name


@cache
def lowball_scores() -> list[int]:
    """Every three-card hand's low score (`edge_fast.table`)."""
    return table(lambda cards: low_value(cards).score, -1)


@cache
def lowball_names() -> list[str]:
    """Every three-card hand's name as the contract writes it (`lowball_hand_name`)."""
    return table(lowball_hand_name, "")


_R52: Final = range(52)
ROLES: Final = tuple(permutations(range(4)))


@cache
def jackpot_deals() -> int:
    """(player, dealer) first-hand pairs, disjoint, both 4-2-A: out of 407,170,400."""
    a24 = [set(h) for h in HANDS if is_a24(cards_of(h))]
    return sum(1 for p in a24 for d in a24 if not p & d)


@dataclass(frozen=True)
class LowballTables:
    score: list[int]
    bonus: list[float]  # the bonus odds of a winning final hand (0.0: it pushes)
    award: list[float]  # the fixed progressive award of a winning final hand, in wager units
    first_award: list[float]  # the award of a winning 4-2-A first hand (one or two colours)
    dealer_kept: list[tuple[int, ...]]  # the dealer's cards kept by the house way
    kept: list[tuple[tuple[float, tuple[int, ...]], ...]]  # (weight, cards kept) per play
    # The same as index arithmetic: a final hand is `base + offset[group][draws]`.
    dealer_base: list[tuple[int, int]]  # (base, cards drawn)
    plays: list[tuple[tuple[float, int, int], ...]]  # (weight, base, cards drawn)


def _base(kept: tuple[int, ...]) -> tuple[int, int]:
    """The index part of the kept cards (first places), and how many cards are drawn."""
    weights = (2704, 52, 1)
    return sum(c * w for c, w in zip(kept, weights, strict=False)), 3 - len(kept)


def _kept(cards: Sequence[Card], discard: Sequence[Card]) -> tuple[int, ...]:
    return card_numbers([c for c in cards if c not in discard])


def lowball_tables(
    paytable: Paytable, mix: Mix[tuple[Card, ...]], meter: MeterConfig
) -> LowballTables:
    odds = paytable.tables["bonus"]
    names = lowball_names()
    unit = meter.wager_cents
    awards = lowball.meter_awards(meter)
    final_award = {
        "a24_one_colour": awards[lowball.FOUR_HIGH],
        "a24_two_colour": awards[lowball.FOUR_HIGH],
        "a34": awards[lowball.FOUR_HIGH],
        "five_high": awards[lowball.FIVE_HIGH],
    }

    def first(cards: tuple[Card, ...]) -> float:
        if not is_a24(cards):
            return 0.0
        one = len({c.is_red for c in cards}) == 1
        return awards[lowball.ONE_COLOUR if one else lowball.TWO_COLOUR] / unit

    def plays(cards: tuple[Card, ...]) -> tuple[tuple[float, tuple[int, ...]], ...]:
        merged: dict[tuple[int, ...], Fraction] = {}
        for weight, play in mix.plays:
            kept = _kept(cards, play(cards))
            merged[kept] = merged.get(kept, Fraction(0)) + weight
        return tuple((float(w), k) for k, w in merged.items())

    def dealer(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], tuple[int, int]]:
        kept = _kept(cards, lowball.dealer_house_way(cards).proposal)
        return kept, _base(kept)

    def player(
        cards: tuple[Card, ...],
    ) -> tuple[tuple[tuple[float, tuple[int, ...]], ...], tuple[tuple[float, int, int], ...]]:
        options = plays(cards)
        return options, tuple((w, *_base(k)) for w, k in options)

    no_dealer: tuple[tuple[int, ...], tuple[int, int]] = ((), (0, 0))
    no_player: tuple[
        tuple[tuple[float, tuple[int, ...]], ...], tuple[tuple[float, int, int], ...]
    ] = ((), ())
    dealers = table(dealer, no_dealer)
    players = table(player, no_player)
    return LowballTables(
        score=lowball_scores(),
        bonus=[float(odds[n]) if n in odds else 0.0 for n in names],
        award=[final_award.get(n, 0) / unit for n in names],
        first_award=table(first, 0.0),
        dealer_kept=[k for k, _ in dealers],
        kept=[k for k, _ in players],
        dealer_base=[b for _, b in dealers],
        plays=[b for _, b in players],
    )


def _final(kept: tuple[int, ...], draw: Sequence[int]) -> int:
    n = len(kept)
    if n == 3:
        return kept[0] * 2704 + kept[1] * 52 + kept[2]
    if n == 2:
        return kept[0] * 2704 + kept[1] * 52 + draw[0]
    return kept[0] * 2704 + draw[0] * 52 + draw[1]


PAIRS: Final = tuple(permutations(range(4), 2))


def sample(t: LowballTables, samples: int, rng: random.Random) -> tuple[Sampler, Sampler]:
    """(Ante+Bonus per unit of Ante, progressive per unit of its wager). The progressive's
    sample counts 0 for a round whose first hand is 4-2-A: `sample_a24` samples those.

    In the 24 role assignments each (hand, draw) pair of groups is used twice, so the
    dealer's and the player's final hands are worked out once per pair (12 each)."""
    if all(len(options) <= 1 for options in t.plays):
        return _sample_pure(t, samples, rng)
    score, bonus, award, first_award = t.score, t.bonus, t.award, t.first_award
    dealer_base, plays = t.dealer_base, t.plays
    main = Sampler(group=len(ROLES))
    prog = Sampler(group=len(ROLES))
    draw_sample = rng.sample
    per = 1.0 / len(ROLES)
    pairs = PAIRS
    for _ in range(samples):
        d = draw_sample(_R52, 12)
        a0, a1, a2, b0, b1, b2, c0, c1, c2, x0, x1, x2 = d
        h = (
            a0 * 2704 + a1 * 52 + a2,
            b0 * 2704 + b1 * 52 + b2,
            c0 * 2704 + c1 * 52 + c2,
            x0 * 2704 + x1 * 52 + x2,
        )
        offsets = (
            (0, a0, a0 * 52 + a1),
            (0, b0, b0 * 52 + b1),
            (0, c0, c0 * 52 + c1),
            (0, x0, x0 * 52 + x1),
        )
        dealer = [0] * 16
        player: list[list[tuple[float, int, float, float, float]]] = [[]] * 16
        for i, j in pairs:
            hand = h[i]
            off = offsets[j]
            db = dealer_base[hand]
            dealer[i * 4 + j] = score[db[0] + off[db[1]]]
            outs = []
            skip = first_award[hand] > 0.0
            lose = 0.0 if skip else -1.0
            for weight, base, n in plays[hand]:
                final = base + off[n]
                win = 0.0 if skip else award[final] - 1.0
                outs.append((weight, score[final], 1.0 + bonus[final], win, lose))
            player[i * 4 + j] = outs
        m_net = m_sq = p_net = p_sq = 0.0
        for a, b, c, x in ROLES:
            ds = dealer[b * 4 + x]
            for weight, ps, win, pwin, plose in player[a * 4 + c]:
                if ps < ds:
                    m_net += weight * win
                    m_sq += weight * win * win
                    p_net += weight * pwin
                    p_sq += weight * pwin * pwin
                else:
                    if ps > ds:
                        m_net -= weight * 2.0
                        m_sq += weight * 4.0
                    p_net += weight * plose
                    p_sq -= weight * plose
        main.add(m_net * per, 2.0, m_sq * per)
        prog.add(p_net * per, 1.0, p_sq * per)
    return main, prog


# Per role assignment: the (player's hand, player's draw) and (dealer's hand, dealer's draw)
# pairs of groups, as indexes into the 16 per-pair results.
ROLE_KEYS: Final = tuple((a * 4 + c, b * 4 + x) for a, b, c, x in ROLES)


def _sample_pure(t: LowballTables, samples: int, rng: random.Random) -> tuple[Sampler, Sampler]:
    """`sample` for a strategy with one play per hand (the same figures, faster): the per-pair
    results are flat lists, the 24 assignments index them."""
    score, bonus, award, first_award = t.score, t.bonus, t.award, t.first_award
    dealer_base = t.dealer_base
    single = [options[0][1:] if options else (0, 0) for options in t.plays]
    main = Sampler(group=len(ROLES))
    prog = Sampler(group=len(ROLES))
    draw_sample = rng.sample
    per = 1.0 / len(ROLES)
    pairs = tuple((i, j, i * 4 + j) for i, j in PAIRS)
    keys = ROLE_KEYS
    dealer = [0] * 16
    player = [0] * 16
    win = [0.0] * 16
    pwin = [0.0] * 16
    plose = [0.0] * 16
    for _ in range(samples):
        d = draw_sample(_R52, 12)
        a0, a1, a2, b0, b1, b2, c0, c1, c2, x0, x1, x2 = d
        h = (
            a0 * 2704 + a1 * 52 + a2,
            b0 * 2704 + b1 * 52 + b2,
            c0 * 2704 + c1 * 52 + c2,
            x0 * 2704 + x1 * 52 + x2,
        )
        offsets = (
            (0, a0, a0 * 52 + a1),
            (0, b0, b0 * 52 + b1),
            (0, c0, c0 * 52 + c1),
            (0, x0, x0 * 52 + x1),
        )
        for i, j, k in pairs:
            hand = h[i]
            off = offsets[j]
            db = dealer_base[hand]
            dealer[k] = score[db[0] + off[db[1]]]
            pb = single[hand]
            final = pb[0] + off[pb[1]]
            player[k] = score[final]
            win[k] = 1.0 + bonus[final]
            if first_award[hand]:
                pwin[k] = plose[k] = 0.0
            else:
                pwin[k] = award[final] - 1.0
                plose[k] = -1.0
        m_net = m_sq = p_net = p_sq = 0.0
        for pk, dk in keys:
            ps = player[pk]
            ds = dealer[dk]
            if ps < ds:
                g = win[pk]
                m_net += g
                m_sq += g * g
                g = pwin[pk]
                p_net += g
                p_sq += g * g
            else:
                if ps > ds:
                    m_net -= 2.0
                    m_sq += 4.0
                g = plose[pk]
                p_net += g
                p_sq -= g
        main.add(m_net * per, 2.0, m_sq * per)
        prog.add(p_net * per, 1.0, p_sq * per)
    return main, prog


# The 60 first hands that are 4-2-A, and the roles of the other three groups.
A24_HANDS: Final = tuple(h for h in HANDS if is_a24(cards_of(h)))
A24_ONE_COLOUR: Final = tuple(
    h for h in A24_HANDS if len({c.is_red for c in cards_of(h)}) == 1
)  # 12 hands
A24_TWO_COLOUR: Final = tuple(h for h in A24_HANDS if h not in A24_ONE_COLOUR)  # 48 hands
A24_ROLES: Final = tuple(permutations(range(1, 4)))


def sample_a24(
    t: LowballTables, samples: int, rng: random.Random, hands: Sequence[tuple[int, int, int]]
) -> Sampler:
    """The progressive per unit given a first hand among `hands`, 4-2-A hands of one colour
    or of two (strata of weights 12/22,100 and 48/22,100, where the 200 and 50 awards are):
    the first hand drawn from them, nine more cards from the other 49 played in the six role
    assignments. The jackpot is left out (-1)."""
    score, first_award = t.score, t.first_award
    dealer_kept, kept_by = t.dealer_kept, t.kept
    out = Sampler(group=len(A24_ROLES))
    per = 1.0 / len(A24_ROLES)
    for _ in range(samples):
        hand = rng.choice(hands)
        rest = rng.sample([c for c in _R52 if c not in hand], 9)
        groups = (hand, rest[0:3], rest[3:6], rest[6:9])
        h = [index(*g) for g in groups]
        first = h[0]
        p_net = p_sq = 0.0
        for b, c, x in A24_ROLES:
            dealer_first = h[b]
            ds = score[_final(dealer_kept[dealer_first], groups[x])]
            for weight, kept in kept_by[first]:
                ps = score[_final(kept, groups[c])]
                # a loss, a push or the jackpot (counted exactly apart) is -1
                won = ps < ds and not first_award[dealer_first]
                pg = first_award[first] - 1.0 if won else -1.0
                p_net += weight * pg
                p_sq += weight * pg * pg
        out.add(p_net * per, 1.0, p_sq * per)
    return out


def play_deal(
    deal: Sequence[int], roles: Sequence[int], t: LowballTables, kept: tuple[int, ...]
) -> tuple[float, float]:
    """The fast path's nets (Ante+Bonus per unit of Ante, progressive per unit, jackpot
    left out) for one role assignment, the player keeping `kept`: for the tests."""
    groups = [tuple(deal[3 * g : 3 * g + 3]) for g in range(4)]
    h = [index(*g) for g in groups]
    a, b, c, x = roles
    ds = t.score[_final(t.dealer_kept[h[b]], groups[x])]
    final = _final(kept, groups[c])
    ps = t.score[final]
    fa = t.first_award[h[a]]
    if ps < ds:
        if fa and t.first_award[h[b]]:
            return 1.0 + t.bonus[final], -1.0
        return 1.0 + t.bonus[final], (fa or t.award[final]) - 1.0
    return (0.0, -1.0) if ps == ds else (-2.0, -1.0)


def settle_sampled(
    deal: Sequence[int],
    roles: Sequence[int],
    discard: Sequence[Card],
    paytable: Paytable,
    meter: MeterConfig,
    t: LowballTables,
) -> tuple[int, int, bool]:
    """The engine's own settlement of one role assignment (Ante and Bonus 100 cents each):
    (Ante+Bonus net cents, progressive net cents, whether it was the jackpot). The dealer
    discards what the fast path's table says: where the house way leaves a free choice
    (which card of a pair), the engine proposes by the order the cards are entered in and
    accepts either, and the table holds the choice for the cards in deck order."""
    groups = [cards_of(deal[3 * g : 3 * g + 3]) for g in range(4)]
    first, dealer_cards, draw, dealer_draw = (groups[r] for r in roles)
    kept = set(cards_of(t.dealer_kept[index(*deal[3 * roles[1] : 3 * roles[1] + 3])]))
    dealer_discard = tuple(c for c in dealer_cards if c not in kept)
    seat = lowball.Seat(
        1,
        100,
        100,
        first,
        discard=tuple(discard),
        draw=draw[: len(discard)],
        progressive_cents=meter.wager_cents,
    )
    result = lowball.settle(
        lowball.Round(
            dealer_cards,
            (seat,),
            dealer_draw=dealer_draw[: len(dealer_discard)],
            dealer_discard=dealer_discard,
            progressive=meter,
        ),
        paytable,
    )
    lines = {line.wager: line for line in result.seats[0].lines}
    main = lines["ante"].net_cents + lines["bonus"].net_cents
    jackpot = lines["progressive"].award == JACKPOT
    return main, lines["progressive"].net_cents, jackpot
