"""Lowball's decision cost: which cards to throw away, valued over the unseen cards.

A modest case is checked exactly against settling every deal with the engine's
`lowball.settle`: eight unseen cards (every dealer hand, every ordered pair of new cards for
the player and for the dealer: 6,720 deals, each played with all seven choices). The full deck
is the documented estimate, checked here for its direction and its repeatability.
"""

from decimal import Decimal
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any

from tables import games
from tables.engine.cards import Card, parse_cards
from tables.engine.decision_cost import cost
from tables.engine.progressive import MeterConfig
from tables.games.lowball import decisions
from tables.games.lowball import game as lowball
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
