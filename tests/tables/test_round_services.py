"""Round services: a full round of each game, refusals that change nothing, rebet, idempotent
settle, version pinning, the progressive meter, and who may play."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from audit.models import AuditEvent
from tables import selectors
from tables.engine.contract import settle_round
from tables.engine.paytables import named
from tables.models import MeterEntry, Round, SettlementLine
from tables.services import ServiceError
from tables.services import rounds as svc
from tables.services.paytables import paytable_approve, paytable_assign, paytable_draft
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db


def play(
    table: Any,
    dealer: Any,
    wagers: dict[int, dict[str, str]],
    cards: dict[int, str],
    dealer_cards: str,
    decisions: dict[int, dict[str, Any]],
    draw: str = "",
    discard: str | None = None,
) -> Round:
    r = svc.round_open(table=table, dealer=dealer, wagers=wagers)
    r = svc.round_deal(round=r, dealer=dealer, seat_cards=cards, dealer_cards=dealer_cards)
    for seat in sorted(cards):
        r = svc.round_decide(round=r, dealer=dealer, seat=seat, decision=decisions.get(seat, {}))
    r = svc.round_dealer(
        round=r, dealer=dealer, draw=draw.split(), discard=discard.split() if discard else None
    )
    return r


@pytest.fixture
def signed_in(floor: dict[str, Any]) -> dict[str, Any]:
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    return floor


def test_second_chance_full_round_matches_the_engine(signed_in: dict[str, Any]) -> None:
    f = signed_in
    r = play(
        f["SC-1"],
        f["dealer"],
        {1: {"ante": "10.00", "pair_plus": "5.00"}, 4: {"ante": "25.00"}},
        {1: "9d 8h 2s", 4: "Kc Th 4d"},
        "Qs 7d 2c",
        {1: {"mulligan": True, "cards": "Jc Jd 4h", "pair_plus": "5.00"}},
        draw="Ah Kd 3c",
    )
    assert selectors.round_state(r)["step"] == selectors.STEP_CONFIRM
    preview = selectors.round_preview(r)
    r = svc.round_settle(round=r, dealer=f["dealer"])
    expected = settle_round(
        {
            "game": "second_chance",
            "dealer": {"cards": ["Qs", "7d", "2c"], "draw": ["Ah", "Kd", "3c"]},
            "seats": [
                {
                    "seat": 1,
                    "wagers": {"ante": "10.00", "pair_plus": "5.00"},
                    "cards": ["9d", "8h", "2s"],
                    "mulligan": {"cards": ["Jc", "Jd", "4h"], "pair_plus": "5.00"},
                },
                {"seat": 4, "wagers": {"ante": "25.00"}, "cards": ["Kc", "Th", "4d"]},
            ],
        }
    )
    assert r.status == Round.Status.SETTLED
    assert r.settlement == expected == preview
    lines = list(r.lines.values_list("seat", "wager", "stake_cents", "result", "net_cents"))
    assert lines == [
        (1, "ante", 1000, "win", 1000),
        (1, "raise", 1000, "win", 1000),
        (1, "pair_plus", 500, "lose", -500),
        (1, "mulligan_pair_plus", 500, "win", 500),
        (4, "ante", 2500, "lose", -2500),
    ]
    assert r.handle_cents == 5500 and r.house_win_cents == 500
    kinds = list(
        AuditEvent.objects.filter(object_id=str(r.pk), object_type="tables.round").values_list(
            "kind", flat=True
        )
    )
    assert kinds == [
        "round.opened",
        "round.cards_entered",
        "round.decision",
        "round.decision",
        "round.house_way",
        "round.settled",
    ]


def test_lowball_round_moves_the_progressive_meter(signed_in: dict[str, Any]) -> None:
    f = signed_in
    meter = f["LB-1"].meter
    before = meter.value_cents
    r = play(
        f["LB-1"],
        f["dealer2"],
        {1: {"ante": "10.00", "progressive": "1.00"}, 2: {"ante": "10.00", "bonus": "10.00"}},
        {1: "5d 3c Jh", 2: "9h 9c 2d"},
        "Kd 8s 3h",
        {1: {"discard": ["Jh"], "draw": ["Ac"]}, 2: {"discard": ["9h"], "draw": ["7s"]}},
        draw="6c",
    )
    assert r.house_way["discard"] == ["Kd"]
    r = svc.round_settle(round=r, dealer=f["dealer2"])
    meter.refresh_from_db()
    assert meter.value_cents == before + 20
    assert list(MeterEntry.objects.filter(round=r).values_list("kind", "amount_cents")) == [
        ("contribution", 20)
    ]
    seat1 = {line.wager: line for line in r.lines.filter(seat=1)}
    assert seat1["progressive"].award == "five_high" and seat1["progressive"].net_cents == 200
    assert seat1["bonus"].net_cents == 3000


def test_pyramid_round_with_set_it_for_me(floor: dict[str, Any]) -> None:
    dealer_sign_in(dealer=floor["dealer"], table=floor["PY-1"])
    r = play(
        floor["PY-1"],
        floor["dealer"],
        {1: {"ante": "10.00"}, 2: {"ante": "10.00"}},
        {1: "Ah Qd 3c", 2: "Jh Js 4c"},
        "Kc 9d 5h",
        {1: {"one_card": "Qd"}, 2: {"house_way": True}},
    )
    r = svc.round_settle(round=r, dealer=floor["dealer"])
    assert [s["lines"][0]["result"] for s in r.settlement["seats"]] == ["win", "push"]
    assert r.settlement["seats"][1]["one_card"] == "Jh"


def snapshot(r: Round) -> str:
    r.refresh_from_db()
    return json.dumps([r.entry, r.status, r.house_way], sort_keys=True)


@pytest.mark.parametrize(
    ("step", "kwargs", "named"),
    [
        ("deal", {"seat_cards": {1: "9d 8h 2s", 4: "Kc 9d 4d"}, "dealer_cards": "Qs 7d 2c"}, "9d"),
        ("deal", {"seat_cards": {1: "9d 8h 2s", 4: "Kc Th 4x"}, "dealer_cards": "Qs 7d 2c"}, "4x"),
        ("deal", {"seat_cards": {1: "9d 8h", 4: "Kc Th 4d"}, "dealer_cards": "Qs 7d 2c"}, "seat 1"),
        ("deal", {"seat_cards": {1: "9d 8h 2s"}, "dealer_cards": "Qs 7d 2c"}, "seat 4"),
        (
            "deal",
            {
                "seat_cards": {1: "9d 8h 2s", 4: "Kc Th 4d", 5: "5c 5d 5h"},
                "dealer_cards": "Qs 7d 2c",
            },
            "seat 5",
        ),
    ],
)
def test_a_refused_deal_names_the_card_or_seat_and_saves_nothing(
    signed_in: dict[str, Any], step: str, kwargs: dict[str, Any], named: str
) -> None:
    f = signed_in
    r = svc.round_open(
        table=f["SC-1"], dealer=f["dealer"], wagers={1: {"ante": "10.00"}, 4: {"ante": "25.00"}}
    )
    before = snapshot(r)
    events = AuditEvent.objects.count()
    with pytest.raises(ServiceError) as err:
        svc.round_deal(round=r, dealer=f["dealer"], **kwargs)
    assert named in err.value.message
    assert snapshot(r) == before
    assert AuditEvent.objects.count() == events


def test_a_dealer_draw_against_the_house_way_is_refused_and_saves_nothing(
    signed_in: dict[str, Any],
) -> None:
    f = signed_in
    r = svc.round_open(table=f["SC-1"], dealer=f["dealer"], wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(
        round=r, dealer=f["dealer"], seat_cards={1: "9h 8h 2s"}, dealer_cards="Ks 7d 2c"
    )
    r = svc.round_decide(round=r, dealer=f["dealer"], seat=1, decision={})
    before = snapshot(r)
    with pytest.raises(ServiceError) as err:
        svc.round_dealer(round=r, dealer=f["dealer"], draw=["Ah", "Kd", "3c"])
    assert err.value.code == "house_way" and "stands" in err.value.message
    assert snapshot(r) == before


def test_wagers_are_checked_against_the_table_limits(signed_in: dict[str, Any]) -> None:
    f = signed_in
    with pytest.raises(ServiceError) as err:
        svc.round_open(table=f["SC-1"], dealer=f["dealer"], wagers={3: {"ante": "1000.00"}})
    assert "seat 3 ante" in err.value.message and "500.00" in err.value.message
    with pytest.raises(ServiceError) as err:
        svc.round_open(
            table=f["SC-1"], dealer=f["dealer"], wagers={3: {"ante": "10.00", "raise": "10.00"}}
        )
    assert "raise" in err.value.message
    with pytest.raises(ServiceError):
        svc.round_open(
            table=f["LB-1"], dealer=f["dealer2"], wagers={2: {"ante": "10.00", "bonus": "5.00"}}
        )
    with pytest.raises(ServiceError):
        svc.round_open(
            table=f["LB-1"],
            dealer=f["dealer2"],
            wagers={2: {"ante": "10.00", "progressive": "5.00"}},
        )
    with pytest.raises(ServiceError):
        svc.round_open(table=f["SC-1"], dealer=f["dealer"], wagers={8: {"ante": "10.00"}})
    assert not Round.objects.exists()


def test_rebet_offers_the_last_rounds_wagers(signed_in: dict[str, Any]) -> None:
    f = signed_in
    assert selectors.last_wagers(f["SC-1"]) == {}
    play(
        f["SC-1"],
        f["dealer"],
        {2: {"ante": "15.00", "pair_plus": "5.00"}},
        {2: "9d 8h 2s"},
        "Ks 7d 2c",
        {},
    )
    assert selectors.last_wagers(f["SC-1"]) == {2: {"ante": "15.00", "pair_plus": "5.00"}}


def test_settle_is_idempotent_with_a_key_and_never_settles_twice(signed_in: dict[str, Any]) -> None:
    f = signed_in
    r = play(f["SC-1"], f["dealer"], {1: {"ante": "10.00"}}, {1: "9d 8h 2s"}, "Ks 7d 2c", {})
    first = svc.round_settle(round=r, dealer=f["dealer"], idempotency_key="tablet-1-abc")
    again = svc.round_settle(round=r, dealer=f["dealer"], idempotency_key="tablet-1-abc")
    assert again.pk == first.pk and again.settlement == first.settlement
    assert SettlementLine.objects.filter(round=r).count() == 1
    with pytest.raises(ServiceError) as err:
        svc.round_settle(round=r, dealer=f["dealer"], idempotency_key="tablet-2-xyz")
    assert err.value.status == 409
    with pytest.raises(ServiceError):
        svc.round_settle(round=r, dealer=f["dealer"])
    assert SettlementLine.objects.filter(round=r).count() == 1


def test_a_round_settles_under_the_paytable_version_it_started_with(
    signed_in: dict[str, Any],
) -> None:
    f = signed_in
    table = f["SC-1"]
    r = svc.round_open(table=table, dealer=f["dealer"], wagers={1: {"ante": "10.00"}})
    lines = named("second_chance", "default").as_data()
    lines["ante"]["straight"] = "5"
    v2 = paytable_draft(
        author=f["admin"],
        game="second_chance",
        name="default",
        lines=lines,
        limits=table.paytable_version.limits,
    )
    paytable_approve(version=v2, approver=f["admin2"])
    paytable_assign(table=table, version=v2, by=f["admin"])
    r = svc.round_deal(
        round=r, dealer=f["dealer"], seat_cards={1: "9s Td Jc"}, dealer_cards="Ks 4d 2c"
    )
    r = svc.round_decide(round=r, dealer=f["dealer"], seat=1, decision={})
    r = svc.round_dealer(round=r, dealer=f["dealer"])
    r = svc.round_settle(round=r, dealer=f["dealer"])
    assert r.paytable_version_id != v2.pk
    assert r.lines.get(wager="ante").net_cents == 1500  # 3 to 2 under v1, not 5 to 1
    nxt = play(table, f["dealer"], {1: {"ante": "10.00"}}, {1: "9s Td Jc"}, "Ks 4d 2c", {})
    nxt = svc.round_settle(round=nxt, dealer=f["dealer"])
    assert nxt.paytable_version_id == v2.pk and nxt.lines.get(wager="ante").net_cents == 5000


def test_only_the_dealer_signed_in_at_the_table_plays(signed_in: dict[str, Any]) -> None:
    f = signed_in
    for user in ("dealer2", "pitboss", "admin", "auditor"):
        with pytest.raises(PermissionDenied):
            svc.round_open(table=f["SC-1"], dealer=f[user], wagers={1: {"ante": "10.00"}})
    r = svc.round_open(table=f["SC-1"], dealer=f["dealer"], wagers={1: {"ante": "10.00"}})
    with pytest.raises(PermissionDenied):
        svc.round_deal(
            round=r, dealer=f["pitboss"], seat_cards={1: "9d 8h 2s"}, dealer_cards="Ks 7d 2c"
        )
    with pytest.raises(PermissionDenied):
        dealer_sign_in(dealer=f["pitboss"], table=f["PY-1"])


def test_one_open_round_per_table(signed_in: dict[str, Any]) -> None:
    f = signed_in
    svc.round_open(table=f["SC-1"], dealer=f["dealer"], wagers={1: {"ante": "10.00"}})
    with pytest.raises(ServiceError) as err:
        svc.round_open(table=f["SC-1"], dealer=f["dealer"], wagers={1: {"ante": "10.00"}})
    assert err.value.status == 409
