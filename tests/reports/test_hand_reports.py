"""Finished player-vs-player hands in the hold reports and the dashboard: the rake is the house's
win; hands, pots and rake by table, dealer, shift and day; a voided hand leaves them."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from reports.floor import chart_series, floor_status
from reports.reporting import rebuild, rebuild_day
from reports.selectors import hold_rows, totals
from tables.models import Hand
from tables.services import hands as svc
from tables.services.sessions import dealer_sign_in

pytestmark = pytest.mark.django_db


def _hand(ri: Any, dealer: Any, steps: list[dict[str, Any]]) -> Hand:
    hand = svc.hand_open(table=ri, dealer=dealer, players={1: 10_000, 2: 10_000, 3: 10_000})
    for step in steps:
        hand = svc.hand_act(hand=hand, dealer=dealer, step=step)
    return svc.hand_finish(hand=hand, dealer=dealer)


CHECKED_DOWN = [
    {"hole": ["Ah", "Kc", "2d"]},
    *[{"action": "check"}] * 3,
    {"flop": "7s"},
    *[{"action": "check"}] * 3,
    {"turn": "8s"},
    *[{"action": "check"}] * 3,
]  # pot 1500, rake 5% = 75
BET_AND_CALLED = [
    {"hole": ["Ah", "Kc", "2d"]},
    {"action": "bet"},
    {"action": "call"},
    {"action": "call"},
    {"flop": "7s"},
    *[{"action": "check"}] * 3,
    {"turn": "8s"},
    *[{"action": "check"}] * 3,
]  # pot 4500, rake 5% = 225


@pytest.fixture
def hands(floor: dict[str, Any]) -> dict[str, Any]:
    ri = floor["RI-1"]
    dealer_sign_in(dealer=floor["dealer"], table=ri)
    one = _hand(ri, floor["dealer"], CHECKED_DOWN)
    two = _hand(ri, floor["dealer"], BET_AND_CALLED)
    three = _hand(ri, floor["dealer"], CHECKED_DOWN)
    svc.hand_void(hand=three, by=floor["pitboss"], reason="cards exposed")
    assert one.gaming_day is not None
    rebuild(one.gaming_day, ri.pk)
    return {**floor, "day": one.gaming_day, "ri": ri, "hands": [one, two, three]}


def test_the_rake_is_the_houses_win_and_the_hands_pots_and_rake_are_counted(
    hands: dict[str, Any],
) -> None:
    day = hands["day"]
    (row,) = hold_rows(start=day, end=day, by="table", table="RI-1")
    assert row["pvp_hands"] == 2
    assert row["pots_cents"] == 1500 + 4500
    assert row["rake_cents"] == 75 + 225
    assert row["win_cents"] == 300
    assert row["voids"] == 1
    assert row["handle_cents"] == 0 and row["hold_percent"] is None
    for by, key in (("dealer", "dealer__username"), ("shift", "shift"), ("gaming_day", None)):
        rows = [r for r in hold_rows(start=day, end=day, by=by) if r["rake_cents"]]
        assert len(rows) == 1 and rows[0]["rake_cents"] == 300
        if key == "dealer__username":
            assert rows[0][key] == "dealer"
    assert totals(hold_rows(start=day, end=day, by="table"))["rake_cents"] == 300


def test_the_rebuild_is_idempotent_and_a_void_leaves_the_figures(hands: dict[str, Any]) -> None:
    day = hands["day"]
    rebuild_day(day)
    rebuild_day(day)
    (row,) = hold_rows(start=day, end=day, by="table", table="RI-1")
    assert (row["pvp_hands"], row["rake_cents"], row["voids"]) == (2, 300, 1)
    svc.hand_void(hand=hands["hands"][1], by=hands["pitboss"], reason="wrong settings")
    rebuild(day, hands["ri"].pk)
    (row,) = hold_rows(start=day, end=day, by="table", table="RI-1")
    assert (row["pvp_hands"], row["rake_cents"], row["win_cents"], row["voids"]) == (
        1,
        75,
        75,
        2,
    )


def test_the_dashboard_shows_the_hands_and_the_rake(hands: dict[str, Any]) -> None:
    floor = floor_status(now=timezone.now(), gaming_day=hands["day"])
    tile = next(t for t in floor.tables if t.table.name == "RI-1")
    assert (tile.hands, tile.pots_cents, tile.rake_cents, tile.win_cents) == (2, 6000, 300, 300)
    assert tile.rounds_last_hour == 2
    assert floor.total["rake_cents"] == 300
    charts = chart_series(start=hands["day"], end=hands["day"])
    i = charts["by_table"]["labels"].index("RI-1")
    assert charts["by_table"]["win_cents"][i] == 300
    assert charts["by_table"]["hold_percent"][i] is None
    client = Client()
    client.force_login(hands["pitboss"])
    page = client.get("/reports/dashboard/floor/").content.decode()
    assert "Hands today" in page and "$3.00" in page
    report = client.get(
        f"/reports/hold.csv?by=table&period=day&day={hands['day'].isoformat()}"
    ).content.decode()
    rows = list(csv.DictReader(io.StringIO(report)))
    ri = next(r for r in rows if r["table"] == "RI-1")
    assert (ri["poker_hands"], ri["pots"], ri["rake"], ri["win"]) == ("2", "60.00", "3.00", "3.00")


def test_the_tables_day_lists_its_hands_and_a_pit_boss_voids_one_from_its_record(
    hands: dict[str, Any],
) -> None:
    ri, day = hands["ri"], hands["day"]
    one = hands["hands"][0]
    auditor = Client()
    auditor.force_login(hands["auditor"])
    page = auditor.get(f"/reports/tables/{ri.pk}/rounds/?day={day.isoformat()}").content.decode()
    assert 'id="hands-finished">2<' in page and 'id="hands-rake">$3.00<' in page
    assert f"/audit/hands/{one.pk}/" in page
    record = auditor.get(f"/audit/hands/{one.pk}/").content.decode()
    assert "Hand opened" in record and "Hand finished" in record and "Seat 1 checks" in record
    assert "Void this hand" not in record
    auditor.post(f"/audit/hands/{one.pk}/void/", {"reason": "x"})
    one.refresh_from_db()
    assert one.status == "finished"  # an auditor reads, never voids
    pit = Client()
    pit.force_login(hands["pitboss"])
    assert "Void this hand" in pit.get(f"/audit/hands/{one.pk}/").content.decode()
    pit.post(f"/audit/hands/{one.pk}/void/", {"reason": "dealer misread the turn"})
    one.refresh_from_db()
    assert one.status == "voided" and one.void_reason == "dealer misread the turn"
    dealer = Client()
    dealer.force_login(hands["dealer"])
    assert dealer.get(f"/audit/hands/{one.pk}/").status_code == 403
