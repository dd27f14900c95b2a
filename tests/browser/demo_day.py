"""A demo gaming day for the page-fit tests: rounds at every banked table and poker hands at
the poker tables, a progressive jackpot signed off by a pit boss, a large payout still waiting
for its sign-off, a voided round and its correction (all through the services)."""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tables import games
from tables.models import Hand, Round, Table
from tables.selectors import round_state
from tables.services import rounds as svc
from tables.services.controls import round_approve
from tables.services.corrections import round_correct, round_void
from tables.simulation import dealer_for, play_hand, play_round

# Lowball seats at the table maximum with the progressive: seat 1 holds 4-2-A of one colour
# (the progressive's award and large bonus payouts: a sign-off).
JACKPOT_SEATS = {
    1: "Ah 2d 4h",
    2: "Kd Qc Js",
    3: "9c 9d 3s",
    4: "As 3c 5d",
    5: "Td 8s 6c",
    6: "2s 7d Kc",
    7: "Qh 5s 3d",
}
JACKPOT_DEALER = "6h 4d 2c"


@dataclass
class DemoDay:
    jackpot: Round  # signed off and paid
    waiting: Round  # a large payout waiting for a pit boss
    voided: Round
    correction: Round
    hand: Hand


def large_payout_at_confirm() -> Round:
    """A seven-seat Lowball round with a progressive win at its confirm step: its settle waits
    for a pit boss's sign-off."""
    table = Table.objects.get(name="LB-1")
    dealer = dealer_for(table)
    wagers = {n: {"ante": "500.00", "progressive": "1.00"} for n in JACKPOT_SEATS}
    r = svc.round_open(table=table, dealer=dealer, wagers=wagers)
    r = svc.round_deal(
        round=r, dealer=dealer, seat_cards=JACKPOT_SEATS, dealer_cards=JACKPOT_DEALER
    )
    for n in JACKPOT_SEATS:
        r = svc.round_decide(round=r, dealer=dealer, seat=n, decision={"discard": [], "draw": []})
    spare = ["7c", "8c", "Tc"][: round_state(r)["advice"]["draw_count"]]
    r = svc.round_dealer(round=r, dealer=dealer, draw=spare)
    with contextlib.suppress(svc.ApprovalRequired):  # its settle waits for the sign-off
        svc.round_settle(round=r, dealer=dealer)
    return Round.objects.get(pk=r.pk)


def pit_boss(name: str) -> object:
    User = get_user_model()
    user, created = User.objects.get_or_create(username=name)
    if created:
        user.set_password("a long demo password")
        user.save()
    user.groups.add(Group.objects.get(name="pit_boss"))
    return user


def demo_day(rounds: int = 4, seed: int = 30) -> DemoDay:
    rng = random.Random(seed)
    played: dict[str, list[Round | Hand]] = {}
    for table in Table.objects.select_related("paytable_version", "meter").order_by("name"):
        dealer = dealer_for(table)
        pvp = isinstance(games.get(table.game), games.PlayerVsPlayerGame)
        play_one = play_hand if pvp else play_round
        played[table.name] = [play_one(table, dealer, rng) for _ in range(rounds)]
    boss = pit_boss("pitboss2")
    jackpot = round_approve(round=large_payout_at_confirm(), by=boss)
    waiting = large_payout_at_confirm()
    sc1 = [r for r in played["SC-1"] if isinstance(r, Round)]
    voided = round_void(round=sc1[0], by=boss, reason="the dealer's cards were misread")
    to_correct = round_void(round=sc1[1], by=boss, reason="seat cards entered wrong")
    entry = {k: v for k, v in to_correct.entry.items() if k not in ("decided", "dealer_done")}
    correction = round_correct(voided=to_correct, by=boss, entry=entry)
    hand = next(h for rows in played.values() for h in rows if isinstance(h, Hand))
    return DemoDay(
        jackpot=jackpot, waiting=waiting, voided=voided, correction=correction, hand=hand
    )
