"""Rhode Island Hold 'Em hands through the services: whole hands (a fold, an all-in with a side
pot, a split), every step audited, refusals that change nothing, the void, the guards."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction

from audit.models import AuditEvent
from core.errors import ServiceError
from tables.games.rhode_island.replay import replay_rhode_island
from tables.models import Hand, HandPlayer, TableSettingsVersion
from tables.services import hands as svc
from tables.services.sessions import dealer_sign_in
from tables.services.table_settings import (
    table_settings_approve,
    table_settings_assign,
    table_settings_draft,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def ri(floor: dict[str, Any]) -> dict[str, Any]:
    """RI-1 (demo settings: ante $5, bets $10/$20/$20, 3 raises, rake 5% capped at $3), the
    dealer signed in."""
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    return {**floor, "table": floor["RI-1"]}


def play(hand: Hand, dealer: Any, *steps: dict[str, Any]) -> Hand:
    for step in steps:
        hand = svc.hand_act(hand=hand, dealer=dealer, step=step)
    return hand


def test_a_fold_on_the_flop_ends_the_hand_and_the_rake_is_the_houses(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 10_000, 3: 10_000})
    hand = play(
        hand,
        d,
        {"hole": ["Ah", "7c"]},
        {"action": "bet", "player": 0},
        {"action": "call", "player": 1},
        {"flop": "Kd"},
        {"action": "bet", "player": 0},
        {"action": "fold", "player": 1},
    )
    hand = svc.hand_finish(hand=hand, dealer=d)
    # pot: antes 1000 + 2000 first round; the flop bet comes back: 3000, rake 5% = 150.
    assert (hand.status, hand.pot_cents, hand.rake_cents) == ("finished", 3000, 150)
    players = list(hand.players.order_by("position"))
    assert [p.payoff_cents for p in players] == [1350, -1500]
    assert [p.stack_after_cents for p in players] == [11_350, 8_500]
    assert sum(p.payoff_cents for p in players) == -hand.rake_cents  # type: ignore[misc]
    assert hand.gaming_day is not None and hand.shift
    # The stored record replays to the same result with `replay`.
    assert replay_rhode_island(hand.record)["payoffs"] == [1350, -1500]
    kinds = list(
        AuditEvent.objects.filter(object_id=str(hand.pk), object_type="tables.hand")
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds == ["hand.opened"] + ["hand.step"] * 6 + ["hand.finished"]


def test_a_fold_before_the_flop_pays_no_rake(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={2: 5000, 4: 5000}, first=1)
    hand = play(hand, d, {"hole": ["2c", "9h"]}, {"action": "bet"}, {"action": "fold"})
    hand = svc.hand_finish(hand=hand, dealer=d)
    assert (hand.pot_cents, hand.rake_cents) == (1000, 0)
    assert [p.payoff_cents for p in hand.players.order_by("position")] == [-500, 500]


def test_an_all_in_builds_a_side_pot_the_short_stack_cannot_win(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    # Player 0 has only $15: all-in on the first round's call-and-more.
    hand = svc.hand_open(
        table=ri["table"], dealer=d, players={1: 1500, 2: 10_000, 3: 10_000}, first=1
    )
    hand = play(
        hand,
        d,
        {"hole": ["Ah", "Kc", "Qc"]},
        {"action": "bet", "player": 1},
        {"action": "call", "player": 2},
        {"action": "call", "player": 0},  # all-in for 1000 of the 1000 to call
        {"flop": "Ad"},
        {"action": "bet", "player": 1},
        {"action": "call", "player": 2},
        {"turn": "2s"},
        {"action": "check", "player": 1},
        {"action": "check", "player": 2},
    )
    view = svc_view(hand)
    assert view["waiting"] == "over"
    pots = view["outcome"]["pots"]
    assert [p["players"] for p in pots] == [[0, 1, 2], [1, 2]]
    hand = svc.hand_finish(hand=hand, dealer=d)
    # main pot 4500 (3 x 1500) to player 0's pair of aces, less the $3 cap of rake;
    # side pot 4000 (the flop bets): K high vs Q high with an ace and a 2 -> player 1.
    assert hand.pot_cents == 8500 and hand.rake_cents == 300
    payoffs = [p.payoff_cents for p in hand.players.order_by("position")]
    assert payoffs == [4500 - 300 - 1500, 4000 - 3500, -3500]


def svc_view(hand: Hand) -> dict[str, Any]:
    from tables import games

    hand.refresh_from_db()
    return games.player_vs_player(hand.game).view(hand.record)


def test_a_split_pot_hands_the_odd_chip_from_the_first_player(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 10_000, 2: 10_000, 5: 10_000})
    hand = play(
        hand,
        d,
        {"hole": ["Ah", "Ac", "3d"]},
        {"action": "check"},
        {"action": "check"},
        {"action": "check"},
        {"flop": "Kd"},
        {"action": "check"},
        {"action": "check"},
        {"action": "check"},
        {"turn": "Ks"},
        {"action": "check"},
        {"action": "check"},
        {"action": "check"},
    )
    hand = svc.hand_finish(hand=hand, dealer=d)
    # pot 1500, rake 75 -> 1425 split by two: 713 to player 0 (first), 712 to player 1.
    assert (hand.pot_cents, hand.rake_cents) == (1500, 75)
    assert [p.payoff_cents for p in hand.players.order_by("position")] == [213, 212, -500]
    assert hand.result["winners"] == [0, 1]


def test_refused_steps_name_the_fault_and_change_nothing(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 10_000, 2: 10_000})
    before_events = AuditEvent.objects.count()
    cases = [
        ({"action": "check"}, "hole"),  # no hole cards yet
        ({"hole": ["Ah"]}, "hole"),
        ({"hole": ["Ah", "Ah"]}, "hole card"),
        ({"hole": ["Zz", "Ah"]}, "player 0's hole card"),
    ]
    for step, field in cases:
        with pytest.raises(ServiceError) as err:
            svc.hand_act(hand=hand, dealer=d, step=step)
        assert field in (err.value.field or "") or field in err.value.message
    hand = play(hand, d, {"hole": ["Ah", "Kd"]})
    record = dict(Hand.objects.get(pk=hand.pk).record)
    for step, words in [
        ({"action": "raise"}, "no bet yet"),
        ({"action": "call"}, "no bet to face"),
        ({"action": "check", "player": 1}, "out of turn"),
        ({"flop": "2c"}, "cannot be dealt now"),
        ({"action": "shove"}, "not an action"),
    ]:
        with pytest.raises(ServiceError, match=words):
            svc.hand_act(hand=hand, dealer=d, step=step)
    hand = play(hand, d, {"action": "bet"}, {"action": "call"})
    with pytest.raises(ServiceError, match="K♦ in the flop .* \\(Seat 2's hole card\\)"):
        svc.hand_act(hand=hand, dealer=d, step={"flop": "Kd"})  # already a hole card
    with pytest.raises(ServiceError, match="not over"):
        svc.hand_finish(hand=hand, dealer=d)
    after = Hand.objects.get(pk=hand.pk)
    assert after.record["actions"] == record["actions"] + ["bet", "call"]
    assert after.status == "open"
    # Only the accepted steps were audited (hole, bet, call).
    assert AuditEvent.objects.count() == before_events + 3


def test_the_raise_cap_is_the_tables_setting(ri: dict[str, Any]) -> None:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 100_000, 2: 100_000})
    hand = play(
        hand,
        d,
        {"hole": ["Ah", "Kd"]},
        {"action": "bet"},
        {"action": "raise"},
        {"action": "raise"},
        {"action": "raise"},
    )
    with pytest.raises(ServiceError, match="raise cap"):
        svc.hand_act(hand=hand, dealer=d, step={"action": "raise"})
    legal = svc_view(hand)["legal"]
    assert [(a["action"], a["amount"]) for a in legal] == [("fold", 0), ("call", 1000)]


def test_buy_ins_are_checked_by_seat(ri: dict[str, Any]) -> None:
    d, t = ri["dealer"], ri["table"]
    for players, field in [
        ({1: 10_000}, "players"),
        ({1: 10_000, 9: 10_000}, "seat 9"),
        ({1: 10_000, 2: "lots"}, "seat 2 buy_in"),
        ({1: 10_000, 2: -5}, "seat 2 buy_in"),
        ({str(n): 1000 for n in range(1, 7)} | {"01": 5}, "seat 1"),
    ]:
        with pytest.raises(ServiceError) as err:
            svc.hand_open(table=t, dealer=d, players=players)
        assert err.value.field == field
    assert not Hand.objects.exists()


def test_only_the_dealer_signed_in_plays_and_only_a_pit_boss_voids(ri: dict[str, Any]) -> None:
    t = ri["table"]
    for user in ("dealer2", "pitboss", "admin", "auditor"):
        with pytest.raises(PermissionDenied):
            svc.hand_open(table=t, dealer=ri[user], players={1: 1000, 2: 1000})
    hand = svc.hand_open(table=t, dealer=ri["dealer"], players={1: 1000, 2: 1000})
    for user in ("dealer", "admin", "auditor"):
        with pytest.raises(PermissionDenied):
            svc.hand_void(hand=hand, by=ri[user], reason="misdeal")
    with pytest.raises(ServiceError, match="reason"):
        svc.hand_void(hand=hand, by=ri["pitboss"], reason="  ")
    voided = svc.hand_void(hand=hand, by=ri["pitboss"], reason="misdeal")
    assert voided.status == "voided"
    with pytest.raises(ServiceError, match="not_open|already"):
        svc.hand_act(hand=hand, dealer=ri["dealer"], step={"hole": ["Ah", "Kd"]})


def _finished(ri: dict[str, Any]) -> Hand:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 10_000, 2: 10_000})
    hand = play(hand, d, {"hole": ["Ah", "7c"]}, {"action": "bet"}, {"action": "fold"})
    return svc.hand_finish(hand=hand, dealer=d)


def test_a_finished_hand_is_voided_but_never_edited(ri: dict[str, Any]) -> None:
    hand = _finished(ri)
    for sql in (
        "UPDATE tables_hand SET rake_cents = 0 WHERE id = %s",
        "UPDATE tables_hand SET record = '{}' WHERE id = %s",
        "DELETE FROM tables_hand WHERE id = %s",
        "UPDATE tables_handplayer SET payoff_cents = 0, stack_after_cents = buy_in_cents "
        "WHERE hand_id = %s",
        "DELETE FROM tables_handplayer WHERE hand_id = %s",
    ):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cur:
            cur.execute(sql, [hand.pk])
    voided = svc.hand_void(hand=hand, by=ri["pitboss"], reason="wrong table")
    assert (voided.status, voided.rake_cents, voided.pot_cents) == ("voided", 0, 1000)
    with pytest.raises(ServiceError, match="already voided"):
        svc.hand_void(hand=hand, by=ri["pitboss"], reason="again")
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cur:
        cur.execute("UPDATE tables_hand SET void_reason = 'x' WHERE id = %s", [hand.pk])


def test_payoffs_that_do_not_sum_to_minus_the_rake_are_refused_by_the_database(
    ri: dict[str, Any],
) -> None:
    d = ri["dealer"]
    hand = svc.hand_open(table=ri["table"], dealer=d, players={1: 10_000, 2: 10_000})
    HandPlayer.objects.filter(hand=hand).update(payoff_cents=100, stack_after_cents=10_100)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(pk=hand.pk).update(
            status="finished",
            result={},
            finished_at="2026-01-01T00:00:00Z",
            gaming_day="2026-01-01",
        )


def test_hands_open_only_under_approved_settings(floor: dict[str, Any]) -> None:
    admin, admin2 = floor["admin"], floor["admin2"]
    draft = table_settings_draft(
        author=admin,
        game="rhode_island",
        name="heads-up",
        values={"players": 2, "ante_cents": 100, "bets_cents": [200, 400, 400], "raise_cap": 2},
    )
    with pytest.raises(ServiceError, match="not approved"):
        table_settings_assign(table=floor["RI-1"], version=draft, by=admin)
    with pytest.raises(PermissionDenied):
        table_settings_approve(version=draft, approver=admin)
    approved = table_settings_approve(version=draft, approver=admin2)
    assert approved.values["rake_percent"] == "0" and approved.values["rake_cap_cents"] is None
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSettingsVersion.objects.filter(pk=approved.pk).update(values={})
    table_settings_assign(table=floor["RI-1"], version=approved, by=admin)
    dealer_sign_in(dealer=floor["dealer"], table=floor["RI-1"])
    with pytest.raises(ServiceError, match="2 to 2 players"):
        svc.hand_open(
            table=floor["RI-1"], dealer=floor["dealer"], players={1: 1000, 2: 1000, 3: 1000}
        )
    hand = svc.hand_open(table=floor["RI-1"], dealer=floor["dealer"], players={1: 900, 2: 1000})
    assert hand.record["ante"] == 100 and hand.record["raise_cap"] == 2
    assert hand.settings_version == approved


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"players": 11}, "players"),
        ({"players": 1}, "players"),
        ({"bets_cents": [100, 200]}, "bets_cents"),
        ({"bets_cents": [100, 0, 200]}, "bets_cents[1]"),
        ({"rake_percent": "101"}, "rake_percent"),
        ({"rake_percent": "abc"}, "rake_percent"),
        ({"rake_cap_cents": -1}, "rake_cap_cents"),
        ({"ante_cents": -5}, "ante_cents"),
        ({"limit": 3}, "limit"),
    ],
)
def test_bad_table_settings_are_refused_naming_the_field(
    floor: dict[str, Any], values: dict[str, Any], field: str
) -> None:
    base = {"players": 2, "ante_cents": 100, "bets_cents": [200, 400, 400], "raise_cap": 3}
    with pytest.raises(ServiceError) as err:
        table_settings_draft(
            author=floor["admin"], game="rhode_island", name="x", values=base | values
        )
    assert err.value.field == field
