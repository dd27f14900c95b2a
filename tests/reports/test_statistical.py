"""The regulator's statistical report: a played history whose month to date and year to date
are the sums of its days to the cent, per table and per type of game; fluctuations opening one
investigation each, explained and signed by a pit boss who had no part in that table's day;
refusals that save nothing; `regulator_report --kind statistical` and the page."""

from __future__ import annotations

import json
import os
from datetime import date, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command
from django.db import DatabaseError, transaction
from django.db.models import F
from django.test import Client, override_settings
from django.urls import reverse

from audit.kinds import EventKind
from audit.models import AuditEvent
from core.errors import SeparationOfDuties, ServiceError
from reports import statistical
from reports.models import StatisticalExplanation, StatisticalInvestigation
from reports.statistical import PERIODS, open_investigations, statistical_report
from tables.engine.strategies import Strategy
from tables.models import PaytableVersion, Round
from tables.services.figures import paytable_figures_compute

from ..helpers import messages_of, person

pytestmark = pytest.mark.django_db

DAYS = 4


@pytest.fixture
def history(floor: dict[str, Any]) -> dict[str, Any]:
    """A few gaming days of seeded play at SC-1, LB-1 and PY-1 with their slips, and the
    paytable versions' theoretical figures."""
    for pk in PaytableVersion.objects.filter(status="approved").values_list("pk", flat=True):
        paytable_figures_compute(version_id=pk, seed=7, strategies=(Strategy.OPTIMAL,))
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command(
            "seed_history",
            "--rounds=240",
            f"--days={DAYS}",
            "--tables=3",
            "--seed=3",
            "--slips",
            "--rebuild",
            stdout=quiet,
        )
    days = sorted(set(Round.objects.values_list("gaming_day", flat=True)))
    return {**floor, "days": days, "last": days[-1]}


def _by(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    return {row[key]: row for row in rows}


def test_month_and_year_to_date_are_the_sums_of_the_days_to_the_cent(
    history: dict[str, Any],
) -> None:
    last = history["last"]
    report = statistical_report(day=last)
    assert {row["table"] for row in report["tables"]} == {"SC-1", "LB-1", "PY-1"}
    daily = {d: statistical_report(day=d) for d in history["days"]}
    for kind, key in (("tables", "table"), ("games", "game")):
        for name, row in _by(report[kind], key).items():
            for period, start in (
                ("mtd", last.replace(day=1)),
                ("ytd", last.replace(month=1, day=1)),
            ):
                days = [d for d in history["days"] if start <= d <= last]
                parts = [_by(daily[d][kind], key).get(name) for d in days]
                parts = [p["day"] for p in parts if p is not None]
                assert row[period]["drop_cents"] == sum(p["drop_cents"] for p in parts)
                assert row[period]["win_cents"] == sum(p["win_cents"] for p in parts)
                assert row[period]["drop_cents"] > 0
                hold = statistical.percent(row[period]["win_cents"], row[period]["drop_cents"])
                assert row[period]["hold_percent"] == hold
                assert str(hold).count(".") == 1 and len(str(hold).split(".")[1]) == 2
                low, high = row[period]["band_cents"]
                assert low <= row[period]["theoretical_win_cents"] <= high
            assert row["day"]["last_year"] is None  # no play a year before
    # A game's row is the sum of its tables' (one table per game on the demo floor).
    for table in report["tables"]:
        game = _by(report["games"], "game")[table["game"]]
        assert game["ytd"]["drop_cents"] == table["ytd"]["drop_cents"]


def test_the_same_period_last_year_is_beside_it(
    history: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With "last year" moved to the day before, the day's last-year figures are the day
    before's own; a period with no play a year before is empty (None)."""
    last, before = history["days"][-1], history["days"][-2]
    assert _by(statistical_report(day=last)["tables"], "table")["PY-1"]["day"]["last_year"] is None
    previous = _by(statistical_report(day=before)["tables"], "table")
    monkeypatch.setattr(statistical, "year_before", lambda d: d - timedelta(days=1))
    for name, row in _by(statistical_report(day=last)["tables"], "table").items():
        was = previous[name]["day"]
        assert row["day"]["last_year"] == {
            "drop_cents": was["drop_cents"],
            "win_cents": was["win_cents"],
            "hold_percent": was["hold_percent"],
        }


def test_a_day_without_play_is_an_empty_form(history: dict[str, Any]) -> None:
    quiet = date(history["last"].year, 1, 1)
    if quiet in history["days"]:
        pytest.skip("the history reaches the first of January")
    report = statistical_report(day=quiet)
    assert report["tables"] == [] and report["games"] == []
    out = StringIO()
    call_command(
        "regulator_report", "--kind", "statistical", "--day", quiet.isoformat(), stdout=out
    )
    assert "No play." in out.getvalue()


def test_refusals_name_the_field(history: dict[str, Any]) -> None:
    tomorrow = statistical.today() + timedelta(days=1)
    with pytest.raises(ServiceError) as err:
        statistical_report(day=tomorrow)
    assert err.value.field == "day" and "has not happened yet" in err.value.message
    with pytest.raises(ServiceError) as err:
        statistical_report(day=history["last"], table="NOPE-9")
    assert err.value.field == "table" and "NOPE-9" in err.value.message
    with pytest.raises(ServiceError) as err:
        statistical_report(day=history["days"][0] - timedelta(days=400), table="PY-1")
    assert err.value.field == "table" and "PY-1 did not play" in err.value.message
    future = tomorrow.replace(day=1) + timedelta(days=40)
    with pytest.raises(ServiceError) as err:
        statistical.month_day(future.strftime("%Y-%m"))
    assert err.value.field == "month" and "has not begun" in err.value.message
    with pytest.raises(ServiceError) as err:
        statistical.month_day("2026-13")
    assert err.value.field == "month"
    for args, words in (
        (["--month", future.strftime("%Y-%m")], "has not begun"),
        (["--day", tomorrow.isoformat()], "has not happened yet"),
        (["--day", history["last"].isoformat(), "--table", "NOPE-9"], "NOPE-9"),
        (["--day", "yesterday"], "--day must be a date"),
    ):
        with pytest.raises(CommandError, match=words):
            call_command("regulator_report", "--kind", "statistical", *args, stdout=StringIO())
    assert not StatisticalInvestigation.objects.exists()


def test_the_command_prints_the_forms_figures(history: dict[str, Any]) -> None:
    last = history["last"]
    out = StringIO()
    call_command(
        "regulator_report", "--kind", "statistical", "--day", last.isoformat(), "--json", stdout=out
    )
    data = json.loads(out.getvalue())
    assert data == json.loads(json.dumps(statistical.as_json(statistical_report(day=last))))
    py = _by(data["tables"], "table")["PY-1"]
    assert isinstance(py["mtd"]["drop_cents"], int)
    figures = _by(statistical_report(day=last)["tables"], "table")["PY-1"]
    assert py["mtd"]["hold_percent"] == str(figures["mtd"]["hold_percent"])
    out = StringIO()
    call_command(
        "regulator_report",
        "--kind",
        "statistical",
        "--month",
        last.strftime("%Y-%m"),
        "--json",
        stdout=out,
    )
    month = json.loads(out.getvalue())
    assert month["gaming_day"] == statistical.month_day(last.strftime("%Y-%m")).isoformat()
    assert month["month"] == last.strftime("%Y-%m")
    out = StringIO()
    call_command(
        "regulator_report",
        "--kind",
        "statistical",
        "--day",
        last.isoformat(),
        "--table",
        "PY-1",
        stdout=out,
    )
    text = out.getvalue()
    assert "PY-1" in text and "month to date" in text and "$" in text and "SC-1" not in text


@override_settings(CASINO_STATISTICAL_THRESHOLD_POINTS="0")
def test_a_fluctuation_opens_one_investigation_a_pit_boss_explains_and_closes(
    history: dict[str, Any],
) -> None:
    last = history["last"]
    report = statistical_report(day=last)
    fluctuations = sum(
        row[p]["fluctuation"] for row in report["tables"] + report["games"] for p in PERIODS
    )
    assert fluctuations > 0  # with no threshold nearly every period is one
    opened = open_investigations(day=last)
    assert len(opened) == fluctuations
    events = AuditEvent.objects.filter(kind=EventKind.STATISTICAL_INVESTIGATION_OPENED)
    assert events.count() == fluctuations
    assert open_investigations(day=last) == []  # once per table or game, period and day
    assert StatisticalInvestigation.objects.count() == fluctuations

    inv = next(i for i in opened if i.table_id is not None)
    table = inv.table
    dealt = Round.objects.filter(table=table, gaming_day=last).values_list("dealer", flat=True)
    dealer = type(history["pitboss"]).objects.get(pk=dealt.first())
    # A dealer who also holds the pit boss role dealt there that day: refused, nothing saved.
    dealer.groups.add(*type(history["pitboss"].groups.first()).objects.filter(name="pit_boss"))
    dealer = type(dealer).objects.get(pk=dealer.pk)
    with pytest.raises(SeparationOfDuties):
        statistical.explain_investigation(investigation=inv, text="A big winner", by=dealer)
    # The demo pit boss signed the table's slips that day: refused too.
    with pytest.raises(SeparationOfDuties):
        statistical.explain_investigation(
            investigation=inv, text="A big winner", by=history["pitboss"]
        )
    manager = person("shiftmanager", "pit_boss")
    with pytest.raises(ServiceError) as err:
        statistical.explain_investigation(investigation=inv, text="  ", by=manager)
    assert err.value.field == "text" and table.name in err.value.message
    with pytest.raises(PermissionDenied):
        statistical.explain_investigation(
            investigation=inv, text="fine", by=person("clerk", "auditor")
        )
    assert not StatisticalExplanation.objects.exists()

    statistical.explain_investigation(
        investigation=inv, text="A player won $4,000 on the Ante at seat 3", by=manager
    )
    assert inv.pk not in set(statistical.unexplained().values_list("pk", flat=True))
    assert statistical.unexplained().count() == fluctuations - 1
    assert AuditEvent.objects.filter(
        kind=EventKind.STATISTICAL_INVESTIGATION_EXPLAINED, table_name=table.name
    ).exists()
    with pytest.raises(ServiceError) as err:
        statistical.explain_investigation(investigation=inv, text="again", by=manager)
    assert err.value.status == 409
    assert StatisticalExplanation.objects.count() == 1
    # History: the database refuses to change or delete either row.
    for rows, name in (
        (StatisticalInvestigation.objects.filter(pk=inv.pk), "win_cents"),
        (StatisticalExplanation.objects.all(), "text"),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            rows.update(**{name: F(name)})
        with pytest.raises(DatabaseError), transaction.atomic():
            rows.delete()


def test_within_the_band_and_threshold_nothing_opens(history: dict[str, Any]) -> None:
    with override_settings(CASINO_STATISTICAL_THRESHOLD_POINTS="999"):
        report = statistical_report(day=history["last"])
        expected = sum(
            bool(row[p]["outside_band"])
            for row in report["tables"] + report["games"]
            for p in PERIODS
        )
        opened = open_investigations(day=history["last"])
    assert len(opened) == expected
    assert all(i.outside_band and not i.past_threshold for i in opened)


@override_settings(CASINO_STATISTICAL_THRESHOLD_POINTS="0")
def test_the_page_shows_the_report_and_the_explain_form(history: dict[str, Any]) -> None:
    last = history["last"]
    manager = person("floormanager", "pit_boss")
    client = Client()
    client.force_login(manager)
    url = reverse("reports:statistical")
    page = client.get(url, {"day": last.isoformat()})
    assert page.status_code == 200
    html = page.content.decode()
    assert "PY-1" in html and "Month to date" in html and "$" in html
    response = client.post(reverse("reports:statistical_review"), {"day": last.isoformat()})
    assert response.status_code == 302
    inv = StatisticalInvestigation.objects.filter(table__isnull=False).first()
    assert inv is not None
    page = client.get(url, {"day": last.isoformat()})
    assert f'data-investigation="{inv.pk}"' in page.content.decode()
    response = client.post(
        reverse("reports:statistical_explain", args=[inv.pk]), {"text": ""}, follow=True
    )
    assert any("explanation" in m for m in messages_of(response))
    assert not StatisticalExplanation.objects.exists()
    response = client.post(
        reverse("reports:statistical_explain", args=[inv.pk]),
        {"text": "Two big winners on the Ante"},
        follow=True,
    )
    assert any("explained and signed" in m for m in messages_of(response))
    assert StatisticalExplanation.objects.get().by == manager
    # An auditor reads the page but neither reviews nor explains; a dealer cannot read it.
    auditor = Client()
    auditor.force_login(person("reader", "auditor"))
    assert auditor.get(url, {"day": last.isoformat()}).status_code == 200
    other = StatisticalInvestigation.objects.filter(explanation__isnull=True).first()
    assert (
        auditor.post(
            reverse("reports:statistical_explain", args=[other.pk]), {"text": "x"}
        ).status_code
        == 403
    )
    dealer = Client()
    dealer.force_login(history["dealer"])
    assert dealer.get(url).status_code in (302, 403)
    tomorrow = statistical.today() + timedelta(days=1)
    page = client.get(url, {"day": tomorrow.isoformat()})
    assert page.status_code == 400
    assert any("has not happened yet" in m for m in messages_of(page))
