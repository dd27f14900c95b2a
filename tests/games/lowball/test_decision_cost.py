"""Lowball's decision cost: which cards to throw away, valued over the unseen cards.

A modest case is checked exactly against settling every deal with the engine's
`lowball.settle`: eight unseen cards (every dealer hand, every ordered pair of new cards for
the player and for the dealer: 6,720 deals, each played with all seven choices). Random seat
hands and wagers on nine to twelve unseen cards are checked exactly against `every_deal`,
which plays every such deal through the lookup tables. On the full deck a known wrong discard
has its exact cost, which a seeded sample of deals agrees with within its error.
"""

import random
import statistics
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

import pytest

from tables import games
from tables.engine.cards import DECK, Card, parse_cards
from tables.engine.decision_cost import cost
from tables.engine.edge_fast import card_numbers
from tables.engine.paytable_types import Paytable
from tables.engine.progressive import MeterConfig
from tables.games.lowball import decisions
from tables.games.lowball import game as lowball
from tables.games.lowball.edge import lowball_names, lowball_scores
from tables.games.lowball.hands import is_a24
from tables.games.lowball.paytables import NAMED

PAYTABLE = NAMED["2"]
METER = MeterConfig()


def brute_force(
    cards: tuple[Card, ...], unseen: list[Card], ante: int, progressive: int
) -> dict[tuple[Card, ...], Fraction]:
    """Each choice's mean net in cents (stakes and jackpots included) over every deal."""
    options = decisions.choices(cards)
    totals = dict.fromkeys(options, 0)
    deals = 0
    for dealer in combinations(unseen, 3):
        left = [c for c in unseen if c not in dealer]
        gone = lowball.dealer_house_way(dealer).proposal
        for mine in permutations(left, 2):
            rest = [c for c in left if c not in mine]
            for theirs in permutations(rest, 2):
                for discard in options:
                    seat = lowball.Seat(
                        1,
                        ante,
                        ante,
                        cards,
                        discard=discard,
                        draw=mine[: len(discard)],
                        progressive_cents=progressive,
                    )
                    round_ = lowball.Round(
                        dealer,
                        (seat,),
                        dealer_draw=theirs[: len(gone)],
                        dealer_discard=gone,
                        progressive=METER,
                    )
                    totals[discard] += lowball.settle(round_, PAYTABLE).seats[0].net_cents
                deals += 1
    return {k: Fraction(v, deals) for k, v in totals.items()}


UNSEEN = parse_cards(["Ac", "3h", "4d", "5s", "7c", "9h", "Qd", "Ks"], where="deck")


def test_a_known_discard_costs_what_settling_every_deal_says() -> None:
    # 2-6 with a king: throwing the king away is the play; keeping it (standing pat) is not.
    cards = tuple(parse_cards(["2d", "6c", "Kh"], where="cards"))
    exact = brute_force(cards, UNSEEN, 1000, 100)
    values = decisions.choice_values(
        cards, UNSEEN, PAYTABLE, ante=1000, bonus=1000, progressive=100
    )
    # The values leave out what every choice shares (the progressive stake): compare costs.
    for choice in exact:
        assert cost(values, choice) == cost(exact, choice)
        assert values[choice] - values[()] == exact[choice] - exact[()]
    king = (cards[2],)
    assert cost(values, king) == Decimal("0.00")
    assert cost(values, ()) > 0


def test_a_4_2_a_first_hand_and_its_awards_agree_with_settling() -> None:
    cards = tuple(parse_cards(["Ah", "2h", "4s"], where="cards"))  # two colours
    unseen = parse_cards(["Ac", "2s", "4d", "5s", "7c", "9h", "Qd", "3c"], where="deck")
    exact = brute_force(cards, unseen, 500, 100)
    values = decisions.choice_values(cards, unseen, PAYTABLE, ante=500, bonus=500, progressive=100)
    for choice in exact:
        assert values[choice] - values[()] == exact[choice] - exact[()]
    assert cost(values, ()) == Decimal("0.00")


def entry(cards: list[str], discard: list[str]) -> dict[str, Any]:
    seat: dict[str, Any] = {"seat": 1, "wagers": {"ante": "10.00", "bonus": "10.00"}}
    seat.update(cards=cards, discard=discard, draw=["5c", "3d"][: len(discard)])
    return {
        "game": "lowball",
        "paytable": "1",
        "dealer": {"cards": ["Qs", "7d", "2c"], "draw": ["Ah"]},
        "seats": [seat],
    }


def test_on_the_full_deck_the_best_discard_is_free_and_a_bad_one_costs() -> None:
    game = games.banked("lowball")
    paytable = NAMED["1"]
    hand = ["Ah", "2s", "Kd"]
    assert game.decision_cost(entry(hand, ["Kd"]), 1, paytable) == Decimal("0.00")
    bad = game.decision_cost(entry(hand, ["Ah", "2s"]), 1, paytable)
    assert bad is not None and bad > Decimal("200")
    assert game.decision_cost(entry(hand, ["Ah", "2s"]), 1, paytable) == bad  # repeatable
    pat = game.decision_cost(entry(["Ah", "2s", "4d"], []), 1, paytable)
    assert pat == Decimal("0.00")


def every_deal(
    cards: tuple[Card, ...],
    unseen: list[Card],
    paytable: Paytable,
    *,
    ante: int,
    bonus: int,
    progressive: int = 0,
) -> dict[tuple[Card, ...], Fraction]:
    """Each choice's value (as `choice_values` leaves out what every choice shares) over every
    deal: every dealer hand, every ordered pair of the player's new cards and of the dealer's,
    each choice taking its first cards, scored by the lookup tables."""
    score, names = lowball_scores(), lowball_names()
    dealer_base = decisions.dealer_base_table()
    win = decisions._win_values(cards, paytable, ante, bonus, progressive, MeterConfig())
    options = decisions.choices(cards)
    plays = [decisions._base(card_numbers([c for c in cards if c not in gone])) for gone in options]
    u = sorted(card_numbers(unseen))
    totals = [Fraction(0)] * len(options)
    deals = 0
    for a, b, c in combinations(u, 3):
        dealer = a * 2704 + b * 52 + c
        base, k = dealer_base[dealer]
        left = [x for x in u if x not in (a, b, c)]
        for m0, m1 in permutations(left, 2):
            rest = [x for x in left if x not in (m0, m1)]
            mine = (0, m0, m0 * 52 + m1)
            for z0, z1 in permutations(rest, 2):
                theirs = score[base + (0, z0, z0 * 52 + z1)[k]]
                for i, (kept, j) in enumerate(plays):
                    hand = kept + mine[j]
                    if score[hand] < theirs:
                        totals[i] += win[names[hand]]
                    elif score[hand] > theirs:
                        totals[i] -= ante + bonus
                deals += 1
    return {o: t / deals for o, t in zip(options, totals, strict=True)}


def test_no_hand_beats_a_dealers_4_2_a_so_a_jackpot_deal_is_never_a_win() -> None:
    # The values count no jackpot case: a dealer's 4-2-A first hand stands and is the lowest.
    score, dealer_base = lowball_scores(), decisions.dealer_base_table()
    hands = [a * 2704 + b * 52 + c for a, b, c in combinations(range(52), 3)]
    lowest = min(score[h] for h in hands)
    for h in hands:
        four_two_ace = is_a24([DECK[h // 2704], DECK[h // 52 % 52], DECK[h % 52]])
        assert (score[h] == lowest) == four_two_ace
        if four_two_ace:
            assert dealer_base[h] == (h, 0)


def random_case(rng: random.Random, n: int, four_two_ace: bool) -> tuple[Any, ...]:
    """A seat hand, n unseen cards and wagers; with `four_two_ace` the seat holds 4-2-A and
    the unseen cards hold aces, deuces and fours enough for the dealer's 4-2-A."""
    if four_two_ace:
        low = [c for c in DECK if c.low_rank in (1, 2, 4)]
        cards = tuple(rng.sample(low, 3))
        while not is_a24(cards):
            cards = tuple(rng.sample(low, 3))
        rest = [c for c in DECK if c not in cards]
        low_left = [c for c in rest if c.low_rank in (1, 2, 4)]
        others = [c for c in rest if c.low_rank not in (1, 2, 4)]
        unseen = rng.sample(low_left, 5) + rng.sample(others, n - 5)
    else:
        deck = list(DECK)
        rng.shuffle(deck)
        cards, unseen = tuple(deck[:3]), deck[3 : 3 + n]
    paytable = NAMED[rng.choice(sorted(NAMED))]
    ante = rng.choice([100, 500, 1000])
    bonus = rng.choice([0, 100, 1000])
    progressive = 100 if four_two_ace else rng.choice([0, 100, 500])
    return cards, unseen, paytable, ante, bonus, progressive


@pytest.mark.parametrize(
    ("seed", "n", "four_two_ace"),
    [(seed, 9, seed % 3 == 0) for seed in range(12)] + [(12, 10, True), (13, 10, False)],
)
def test_on_few_unseen_cards_every_value_is_every_deals(
    seed: int, n: int, four_two_ace: bool
) -> None:
    rng = random.Random(seed)
    cards, unseen, paytable, ante, bonus, progressive = random_case(rng, n, four_two_ace)
    wagers = {"ante": ante, "bonus": bonus, "progressive": progressive}
    assert decisions.choice_values(cards, unseen, paytable, **wagers) == every_deal(
        cards, unseen, paytable, **wagers
    )


def test_twelve_unseen_cards_with_the_dealers_4_2_a() -> None:
    cards = tuple(parse_cards(["Ad", "2c", "4h"], where="cards"))
    unseen = parse_cards(
        ["As", "2h", "4c", "4d", "3s", "5h", "6c", "7d", "9s", "Th", "Jc", "Kd"], where="deck"
    )
    wagers = {"ante": 500, "bonus": 500, "progressive": 100}
    values = decisions.choice_values(cards, unseen, NAMED["1"], **wagers)
    assert values == every_deal(cards, unseen, NAMED["1"], **wagers)


def sampled_gap(
    cards: tuple[Card, ...], best: tuple[Card, ...], chosen: tuple[Card, ...], deals: int
) -> tuple[float, float]:
    """The mean and standard error of (best - chosen) over `deals` seeded random deals of
    seven unseen cards (three for the dealer, two for each draw, each taking its first
    cards), $10.00 Ante and Bonus, paytable 1."""
    score, names, dealer_base = lowball_scores(), lowball_names(), decisions.dealer_base_table()
    full = decisions._win_values(cards, NAMED["1"], 1000, 1000, 0, MeterConfig())
    u = sorted(card_numbers([c for c in DECK if c not in cards]))
    plays = [
        decisions._base(card_numbers([c for c in cards if c not in gone]))
        for gone in (best, chosen)
    ]
    rng = random.Random("lowball decision cost")
    gaps = []
    for _ in range(deals):
        a, b, c, m0, m1, z0, z1 = rng.sample(u, 7)
        base, k = dealer_base[a * 2704 + b * 52 + c]
        theirs = score[base + (0, z0, z0 * 52 + z1)[k]]
        net = []
        for kept, j in plays:
            hand = kept + (0, m0, m0 * 52 + m1)[j]
            mine = score[hand]
            net.append(float(full[names[hand]]) if mine < theirs else -2000.0 * (mine > theirs))
        gaps.append(net[0] - net[1])
    return statistics.fmean(gaps), statistics.stdev(gaps) / deals**0.5


@pytest.mark.parametrize(
    ("hand", "chosen", "best", "exact"),
    [
        # A-2-3 throwing the deuce (the 3 is the card to throw): 93.10 cents.
        (["Ah", "2s", "3d"], ["2s"], ["3d"], Decimal("93.10")),
        # 2-6-K standing pat, keeping the king (throwing it is the play): 1,775.70 cents.
        (["2d", "6c", "Kh"], [], ["Kh"], Decimal("1775.70")),
    ],
)
def test_on_the_full_deck_a_wrong_discard_costs_exactly_what_sampling_estimates(
    hand: list[str], chosen: list[str], best: list[str], exact: Decimal
) -> None:
    cards = tuple(parse_cards(hand, where="cards"))
    unseen = [c for c in DECK if c not in cards]
    values = decisions.choice_values(cards, unseen, NAMED["1"], ante=1000, bonus=1000)
    picked = tuple(c for c in cards if str(c) in chosen)
    top = tuple(c for c in cards if str(c) in best)
    assert max(values, key=lambda k: values[k]) == top
    assert cost(values, picked) == exact
    # The sample's estimates: 94.10 cents (standard error 2.52) and 1,779.55 (10.79).
    mean, error = sampled_gap(cards, top, picked, 40_000)
    assert abs(mean - float(exact)) < 4 * error
