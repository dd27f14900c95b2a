"""The count in the hold reports: each table row of `hold_report --json`, the CSV and the report
page gains drop, fills, credits, count win, hold % of drop, variance and expected drop; the
dashboard shows the day's count and the open variance alerts; a round voided after the count
is compared again."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounting.models import VarianceAlert
from tables.models import Round
from tables.services.corrections import round_void

from .conftest import Clock
from .test_reconciliation import DAY, run_day

pytestmark = pytest.mark.django_db


def hold_report(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("hold_report", "--day", DAY.isoformat(), "--json", *args, stdout=out)
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


def signed_in(floor: dict[str, Any], who: str) -> Client:
    client = Client()
    client.force_login(floor[who])
    return client


def test_hold_report_json_carries_the_count(pit: dict[str, Any], clock: Clock) -> None:
    wins = run_day(pit, clock, missing_in="14:00")
    report = hold_report()
    (sc,) = report["tables"]
    assert sc["table"] == "SC-1" and sc["win_cents"] == sum(wins.values())
    assert sc["drop_cents"] == sc["expected_drop_cents"] == 285000
    assert sc["count_win_cents"] == sum(wins.values()) - 2500
    assert sc["variance_cents"] == -2500
    assert sc["fills_cents"] > 0 and sc["credits_cents"] == 40000
    assert sc["hold_percent_drop"] is not None and "." in sc["hold_percent_drop"]
    assert report["total"]["variance_cents"] == -2500
    assert report["total"]["drop_cents"] == 285000


def test_an_incomplete_count_is_null_not_zero(pit: dict[str, Any], clock: Clock) -> None:
    from .conftest import play

    clock.set(7)
    play(pit, 0)
    (sc,) = hold_report()["tables"]
    assert sc["count_win_cents"] is None and sc["variance_cents"] is None
    assert sc["drop_cents"] == 0 and sc["hold_percent_drop"] is None


def test_the_csv_and_the_page_carry_the_count(pit: dict[str, Any], clock: Clock) -> None:
    run_day(pit, clock, missing_in="22:00")
    boss = signed_in(pit, "pitboss")
    query = {"by": "shift", "period": "day", "day": DAY.isoformat()}
    response = boss.get(reverse("reports:reports_csv"), query)
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    by_shift = {r["shift"]: r for r in rows}
    assert by_shift["22:00"]["variance"] == "-25.00"
    assert by_shift["06:00"]["variance"] == "0.00"
    assert by_shift["TOTAL"]["variance"] == "-25.00"
    assert by_shift["06:00"]["drop"] == by_shift["06:00"]["expected_drop"] == "950.00"
    assert {"fills", "credits", "count_win", "hold_percent_drop"} <= set(rows[0])
    page = boss.get(reverse("reports:reports"), query).content.decode()
    assert "Hold % of drop" in page and 'data-variance="-2500"' in page
    # Grouped by dealer the count has no columns (a drop box belongs to no dealer).
    by_dealer = boss.get(reverse("reports:reports_csv"), {**query, "by": "dealer"})
    assert "variance" not in by_dealer.content.decode().splitlines()[0]


def test_the_dashboard_shows_the_open_variance_alerts(pit: dict[str, Any], clock: Clock) -> None:
    run_day(pit, clock, missing_in="14:00")
    page = signed_in(pit, "auditor").get(reverse("reports:dashboard")).content.decode()
    assert "Variance -$25.00 at SC-1, gaming day 2026-11-20, shift 14:00" in page


def test_a_round_voided_after_the_count_is_compared_again(
    pit: dict[str, Any], clock: Clock
) -> None:
    run_day(pit, clock)
    assert not VarianceAlert.objects.exists()
    r = Round.objects.filter(shift="06:00", players_net_cents__lte=-2000).first()
    assert r is not None
    round_void(round=r, by=pit["pitboss"], reason="misdeal found on the camera")
    (alert,) = VarianceAlert.objects.all()
    assert (alert.shift, alert.variance_cents) == ("06:00", -r.players_net_cents)
