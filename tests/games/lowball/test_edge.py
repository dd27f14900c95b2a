"""Lowball's house-edge sampling against its own settlement, and the jackpot's exact count."""

from __future__ import annotations

import random

import pytest

from tables.engine.edge_fast import card_numbers, cards_of
from tables.engine.paytables import named
from tables.engine.progressive import MeterConfig
from tables.engine.strategies import Strategy
from tables.games.lowball import edge as edge_lowball
from tables.games.lowball import rules as lowball_rules


@pytest.mark.parametrize("paytable", ["1", "2", "3"])
def test_lowball_sampled_rounds_settle_as_the_engine_settles_them(paytable: str) -> None:
    rng = random.Random(int(paytable))
    table = named("lowball", paytable)
    meter = MeterConfig()
    mix = lowball_rules.STRATEGIES[Strategy.TYPICAL]
    t = edge_lowball.lowball_tables(table, mix, meter)
    seen_jackpot = False
    for i in range(600):
        deal = rng.sample(range(52), 12)
        if i % 50 == 0:  # now and then both first hands 4-2-A
            p, d = rng.sample(edge_lowball.A24_HANDS, 2)
            if not set(p) & set(d):
                rest = [c for c in rng.sample(range(52), 52) if c not in p + d][:6]
                deal = list(p + d + tuple(rest))
        roles = (0, 1, 2, 3) if i % 50 == 0 else rng.choice(edge_lowball.ROLES)
        first = cards_of(deal[3 * roles[0] : 3 * roles[0] + 3])
        for _weight, play in mix.plays:
            discard = play(first)
            kept = card_numbers([c for c in first if c not in discard])
            main, prog = edge_lowball.play_deal(deal, roles, t, kept)
            main_cents, prog_cents, jackpot = edge_lowball.settle_sampled(
                deal, roles, discard, table, meter, t
            )
            assert main_cents == round(main * 100)
            if jackpot:
                seen_jackpot = True
                assert prog == -1.0  # the jackpot is counted exactly, apart
            else:
                assert prog_cents == round(prog * 100)
    assert seen_jackpot


def test_the_jackpot_count_is_every_pair_of_disjoint_4_2_a_hands() -> None:
    assert len(edge_lowball.A24_HANDS) == 60
    # 60 player hands; the dealer's 4-2-A from the 3 cards left of each rank, less flushes.
    assert edge_lowball.jackpot_deals() == sum(
        1 for p in edge_lowball.A24_HANDS for d in edge_lowball.A24_HANDS if not set(p) & set(d)
    )
    assert edge_lowball.jackpot_deals() == 1524
