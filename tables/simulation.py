"""Playing random legal rounds through the same services the tablet uses (demos, load and
report tests). Cards and decisions come from `tables.engine.simulate`; wagers are chosen
within the table's limits. A player-vs-player table plays random legal hands instead: random
buy-ins, then the game's `random_step` (cards, and actions among the legal ones) through
`tables.services.hands`, one step at a time, to the finish."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db.models import QuerySet

from core.roles import Role
from tables import games
from tables.engine.money import format_cents
from tables.models import DealerSession, Hand, Round, Table
from tables.selectors import settings_in_force
from tables.services import hands as hand_svc
from tables.services import rounds as svc
from tables.services.controls import round_approve, round_step_back
from tables.services.sessions import dealer_sign_in

TYPICAL = "typical"  # a game between players' simulated play (its rake simulation's)
STAKES_CENTS = (500, 1000, 2500, 5000, 10000, 100, 200)


def _stake(rng: random.Random, limits: dict[str, Any], wager: str) -> str:
    lim = limits.get(wager, {"min_cents": 100, "max_cents": 10**9})
    options = [c for c in STAKES_CENTS if lim["min_cents"] <= c <= lim["max_cents"]] or [
        lim["min_cents"]
    ]
    return format_cents(rng.choice(options))


def dealer_for(table: Table) -> AbstractBaseUser:
    """The dealer signed in at the table, else a simulation dealer signed in for the purpose."""
    session = (
        DealerSession.objects.filter(table=table, ended_at__isnull=True)
        .select_related("dealer")
        .first()
    )
    if session is not None:
        return session.dealer
    User = get_user_model()
    user, created = User.objects.get_or_create(username=f"sim-{table.name}".lower()[:150])
    if created:
        user.set_unusable_password()
        user.save()
    user.groups.add(Group.objects.get(name=Role.DEALER.value))
    dealer_sign_in(dealer=user, table=table)
    return user


def play_round(
    table: Table,
    dealer: AbstractBaseUser,
    rng: random.Random,
    *,
    seats: int | None = None,
    strategy: str | None = None,
    step_back: str | None = None,
) -> Round:
    """One random legal round at `table`, step by step through the services, settled; the
    players play `strategy` (`tables.engine.strategies`; None: the simulator's own mix).
    `step_back="decisions"`: the decisions are entered, taken back and entered again, as a
    dealer fixing a mistaken tap does."""
    version = table.paytable_version
    assert version is not None
    seats = min(seats, table.seats) if seats else None
    game = games.banked(table.game)
    data = game.random_round(rng, seats, strategy=strategy)
    data["seats"] = [s for s in data["seats"] if s["seat"] <= table.seats] or data["seats"][:1]
    for s in data["seats"]:
        s["seat"] = min(s["seat"], table.seats)
    wagers: dict[int, dict[str, str]] = {}
    meter_wager = format_cents(table.meter.wager_cents) if table.meter is not None else None

    def stake(wager: str) -> str:
        return _stake(rng, version.limits, wager)

    for s in data["seats"]:
        wagers[s["seat"]] = game.simulated_wagers(s, stake, meter_wager)
    round_ = svc.round_open(table=table, dealer=dealer, wagers=wagers)
    round_ = svc.round_deal(
        round=round_,
        dealer=dealer,
        seat_cards={s["seat"]: s["cards"] for s in data["seats"]},
        dealer_cards=data["dealer"]["cards"],
    )
    decisions = {s["seat"]: game.simulated_decision(s, stake) for s in data["seats"]}
    for _entered in range(2 if step_back == "decisions" else 1):
        if _entered:
            round_ = round_step_back(round=round_, dealer=dealer, to="decisions")
        for seat, decision in decisions.items():
            round_ = svc.round_decide(round=round_, dealer=dealer, seat=seat, decision=decision)
    round_ = svc.round_dealer(
        round=round_,
        dealer=dealer,
        draw=data["dealer"].get("draw") or [],
        discard=data["dealer"].get("discard"),
    )
    try:
        return svc.round_settle(round=round_, dealer=dealer)
    except svc.ApprovalRequired:  # a large payout: the simulation's pit boss signs it off
        return round_approve(round=round_, by=simulation_pit_boss())


def simulation_pit_boss() -> AbstractBaseUser:
    """The pit boss who signs off the simulation's large payouts (on the chain as such)."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username="sim-pitboss")
    if created:
        user.set_unusable_password()
        user.save()
    user.groups.add(Group.objects.get(name=Role.PIT_BOSS.value))
    return user


BUY_INS_CENTS = (1500, 2500, 5000, 10000, 20000, 50000)


def play_hand(
    table: Table,
    dealer: AbstractBaseUser,
    rng: random.Random,
    *,
    seats: int | None = None,
    strategy: str | None = None,
) -> Hand:
    """One random legal hand at a player-vs-player table, step by step through the services,
    finished: 2 or more players (`seats`, at most the settings' players) with random buy-ins.
    `strategy` `typical`: the players play as the game's rake simulation assumes, each buying
    in for the stack it plays with (the table's theoretical rake is figured for that play)."""
    game = games.player_vs_player(table.game)
    version = settings_in_force(table)
    assert version is not None
    most = min(game.max_players(version.values), table.seats)
    count = max(2, min(seats or rng.randint(2, most), most))
    least = game.min_buy_in(version.values)
    chosen = sorted(rng.sample(range(1, table.seats + 1), count))
    players = {n: max(least, rng.choice(BUY_INS_CENTS)) for n in chosen}
    terms = game.rake_terms(version.values) if strategy == TYPICAL else None
    if terms is not None:
        players = {n: max(least, terms.stack_chips * terms.chip_cents) for n in chosen}
    hand = hand_svc.hand_open(table=table, dealer=dealer, players=players)
    while (step := game.random_step(rng, hand.record, strategy=strategy)) is not None:
        hand = hand_svc.hand_act(hand=hand, dealer=dealer, step=step)
    return hand_svc.hand_finish(hand=hand, dealer=dealer)


def simulate(
    tables: QuerySet[Table] | list[Table],
    rounds: int,
    *,
    seed: int | None = None,
    seats: int | None = None,
    strategy: str | None = None,
) -> dict[str, Any]:
    """Play `rounds` rounds (a player-vs-player table: hands) per table; a JSON-ready summary
    per table and in all (a hand's house win is its rake)."""
    rng = random.Random(seed)
    summary: dict[str, Any] = {"rounds": 0, "handle_cents": 0, "house_win_cents": 0, "tables": {}}
    if strategy is not None:
        summary["strategy"] = strategy
    for table in tables:
        dealer = dealer_for(table)
        if isinstance(games.get(table.game), games.PlayerVsPlayerGame):
            hand_summary = {"game": table.game, "hands": 0, "pots_cents": 0, "rake_cents": 0}
            for _ in range(rounds):
                hand = play_hand(table, dealer, rng, seats=seats, strategy=strategy)
                hand_summary["hands"] += 1
                hand_summary["pots_cents"] += hand.pot_cents
                hand_summary["rake_cents"] += hand.rake_cents
            hand_summary["house_win_cents"] = hand_summary["rake_cents"]
            summary["tables"][table.name] = hand_summary
            summary["hands"] = summary.get("hands", 0) + hand_summary["hands"]
            summary["house_win_cents"] += hand_summary["rake_cents"]
            continue
        per = {"game": table.game, "rounds": 0, "handle_cents": 0, "house_win_cents": 0}
        for _ in range(rounds):
            r = play_round(table, dealer, rng, seats=seats, strategy=strategy)
            per["rounds"] += 1
            per["handle_cents"] += r.handle_cents
            per["house_win_cents"] += r.house_win_cents
        summary["tables"][table.name] = per
        for key in ("rounds", "handle_cents", "house_win_cents"):
            summary[key] += per[key]
    return summary
