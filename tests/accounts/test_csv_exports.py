"""Every CSV export defuses cells that start like a spreadsheet formula (= + - @): the events
export, the hold reports and a table's rounds."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in, dealer_sign_out

pytestmark = pytest.mark.django_db
NAMES = ['=HYPERLINK("http://evil.example","x")', "+cmd", "-2+3", "@SUM(A1)"]


def rows(response: Any) -> list[list[str]]:
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(content.decode())))


def _play(floor: Any, username: str) -> None:
    user = type(floor["dealer"]).objects.create_user(username, password="x")
    user.groups.add(Group.objects.get(name="dealer"))
    dealer_sign_in(dealer=user, table=floor["PY-1"])
    r = svc.round_open(table=floor["PY-1"], dealer=user, wagers={1: {"ante": "10.00"}})
    r = svc.round_deal(round=r, dealer=user, seat_cards={1: "9d 8h 2s"}, dealer_cards="Kc 7d 2c")
    r = svc.round_decide(round=r, dealer=user, seat=1, decision={"house_way": True})
    r = svc.round_dealer(round=r, dealer=user, draw=[])
    svc.round_settle(round=r, dealer=user, idempotency_key=username)
    dealer_sign_out(dealer=user)


def _unsafe(cells: list[str]) -> list[str]:
    return [c for c in cells if c[:1] in ("=", "+", "@") or (c[:1] == "-" and not _number(c))]


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_the_events_export_defuses_formula_names(floor: Any) -> None:
    for name in NAMES:
        _play(floor, name)
    client = Client()
    client.force_login(floor["auditor"])
    table = rows(client.get("/audit/events.csv"))
    cells = [cell for row in table for cell in row]
    assert not _unsafe(cells)
    names = {row[3] for row in table[1:]}
    assert {f"'{n}" for n in NAMES} <= names


def test_the_report_and_rounds_exports_defuse_formula_names(floor: Any) -> None:
    from django.utils import timezone

    for name in NAMES:
        _play(floor, name)
    client = Client()
    client.force_login(floor["pitboss"])
    from tables.gaming_day import gaming_day_of

    # The rounds' gaming day (it starts at 06:00: before then it is yesterday's), not the date.
    day = gaming_day_of(timezone.now()).isoformat()
    for url in (
        f"/reports/hold.csv?by=dealer&day={day}",
        f"/reports/tables/{floor['PY-1'].pk}/rounds.csv?day={day}",
    ):
        table = rows(client.get(url))
        cells = [cell for row in table for cell in row]
        assert not _unsafe(cells), url
        assert any(c.startswith("'=HYPERLINK") for c in cells), url


def test_negative_amounts_stay_numbers() -> None:
    from defusedcsv import csv as safe_csv

    out = io.StringIO()
    safe_csv.writer(out).writerow(["-12.50", -1250, "-x"])
    assert out.getvalue().strip() == "-12.50,-1250,'-x"
