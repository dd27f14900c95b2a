"""The pit-boss dashboard: who may see it; the floor (dealer signed in, rounds in the last hour,
today's win and hold agreeing with the settlement lines, alerts when a hold leaves its band);
reports for every grouping and period whose totals agree to the cent with the settlements,
and their CSV; the drill-down from a table to its rounds and their records; alert rules."""

from __future__ import annotations

import csv
import io
import random
import re
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import Count, Q, Sum
from django.test import Client
from django.utils import timezone

from audit.models import AuditEvent
from reports.alerts import alert_rule_save, applicable_rule, breach
from reports.models import HoldAlertRule, StaleReport
from reports.reporting import hold_percent, rebuild_stale
from reports.templatetags.reports_money import dollars, percent
from tables.models import Round, SettlementLine, Table
from tables.services.corrections import round_void
from tables.services.sessions import dealer_sign_in
from tables.simulation import dealer_for, play_round

pytestmark = pytest.mark.django_db

# 18:00 UTC on 10 March: gaming day 2026-03-10 (it starts at 06:00), the 14:00 shift.
NOW = datetime(2026, 3, 10, 18, 0, tzinfo=UTC)
TODAY = date(2026, 3, 10)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """`timezone.now()` everywhere (settling, sign-ins, the dashboard) reads this clock."""
    settings.TIME_ZONE = "UTC"
    settings.CASINO_GAMING_DAY_START = "06:00"
    settings.CASINO_SHIFTS = ["06:00", "14:00", "22:00"]
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    return clock


def client_for(username: str) -> Client:
    c = Client()
    assert c.login(username=username, password="demo")
    return c


def play_at(
    clock: Clock, moment: datetime, table: Table, n: int, rng: random.Random
) -> list[Round]:
    clock.now = moment
    dealer = dealer_for(table)
    try:
        return [play_round(table, dealer, rng) for _ in range(n)]
    finally:
        clock.now = NOW


def settled_lines(**filters: Any) -> dict[str, int]:
    lines = SettlementLine.objects.filter(round__status=Round.Status.SETTLED, **filters)
    sums = lines.aggregate(
        stake=Sum("stake_cents"), net=Sum("net_cents"), hands=Count("id", filter=Q(wager="ante"))
    )
    return {
        "handle_cents": sums["stake"] or 0,
        "win_cents": -(sums["net"] or 0),
        "hands": sums["hands"],
    }


def tile(html: str, table: str) -> str:
    match = re.search(rf'<article[^>]*data-table="{table}".*?</article>', html, re.S)
    assert match, f"no tile for {table} on the floor"
    return match.group(0)


def fact(tile_html: str, name: str) -> str:
    match = re.search(rf'<dd class="{name}[^"]*">(.*?)</dd>', tile_html, re.S)
    assert match, f"no {name} in the tile"
    return match.group(1).strip()


@pytest.fixture
def played(floor: dict[str, Any], clock: Clock) -> dict[str, list[Round]]:
    """Today: dealer at SC-1 (3 rounds two hours ago, 4 ten minutes ago), dealer2 at LB-1 (5
    rounds twenty minutes ago), nobody at PY-1. Reports are left stale: nothing has rebuilt
    them (no transaction commits in these tests), so the dashboard must."""
    rng = random.Random(5)
    dealer_sign_in(dealer=floor["dealer"], table=floor["SC-1"])
    dealer_sign_in(dealer=floor["dealer2"], table=floor["LB-1"])
    sc = play_at(clock, NOW - timedelta(hours=2), floor["SC-1"], 3, rng)
    sc += play_at(clock, NOW - timedelta(minutes=10), floor["SC-1"], 4, rng)
    lb = play_at(clock, NOW - timedelta(minutes=20), floor["LB-1"], 5, rng)
    assert {r.gaming_day for r in sc + lb} == {TODAY}
    return {"SC-1": sc, "LB-1": lb}


DASHBOARD_URLS = [
    "/reports/dashboard/",
    "/reports/dashboard/floor/",
    "/reports/dashboard/charts.json",
    "/reports/",
    "/reports/?by=dealer&period=mtd",
    "/reports/hold.csv",
    "/reports/hold.csv?by=shift&period=ytd",
    "/reports/tables/{table}/rounds/",
    "/reports/tables/{table}/rounds.csv",
    "/reports/alerts/",
]


@pytest.mark.parametrize("url", DASHBOARD_URLS)
@pytest.mark.parametrize(
    ("user", "status"), [("pitboss", 200), ("auditor", 200), ("dealer", 403), ("admin", 403)]
)
def test_who_sees_the_dashboard(floor: dict[str, Any], url: str, user: str, status: int) -> None:
    url = url.format(table=floor["SC-1"].pk)
    assert client_for(user).get(url).status_code == status


@pytest.mark.parametrize("url", DASHBOARD_URLS)
def test_anonymous_is_sent_to_sign_in(floor: dict[str, Any], url: str) -> None:
    response = Client().get(url.format(table=floor["SC-1"].pk))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/reports/")


@pytest.mark.parametrize(
    ("former", "now"),
    [
        ("/audit/dashboard/", "/reports/dashboard/"),
        ("/audit/dashboard/floor/", "/reports/dashboard/floor/"),
        ("/audit/dashboard/charts.json?period=ytd", "/reports/dashboard/charts.json?period=ytd"),
        ("/audit/reports/?by=dealer&period=mtd", "/reports/?by=dealer&period=mtd"),
        ("/audit/reports.csv?by=shift", "/reports/hold.csv?by=shift"),
        (
            "/audit/tables/{table}/rounds/?day=2026-03-10",
            "/reports/tables/{table}/rounds/?day=2026-03-10",
        ),
        ("/audit/tables/{table}/rounds.csv", "/reports/tables/{table}/rounds.csv"),
        ("/audit/alerts/", "/reports/alerts/"),
        ("/audit/alerts/7/", "/reports/alerts/7/"),
        ("/audit/alerts/7/active/", "/reports/alerts/7/active/"),
    ],
)
def test_the_reports_former_addresses_redirect_for_good(
    floor: dict[str, Any], former: str, now: str
) -> None:
    """The reports' pages live under /reports/; their former addresses under /audit/ (the
    trail's) redirect permanently, the query kept, a form's POST still a POST (308)."""
    table = floor["SC-1"].pk
    c = client_for("pitboss")
    for method in (c.get, c.post):
        response = method(former.format(table=table))
        assert response.status_code == 308
        assert response["Location"] == now.format(table=table)
    if "/alerts/7/" not in former:  # no such rule: only its address is checked
        assert c.get(former.format(table=table), follow=True).status_code == 200


def test_a_refused_dashboard_is_in_the_trail(floor: dict[str, Any]) -> None:
    client_for("dealer").get("/reports/dashboard/")
    refused = AuditEvent.objects.filter(kind="permission.refused", actor_name="dealer").last()
    assert refused is not None and refused.data["path"] == "/reports/dashboard/"


def test_a_signed_out_floor_poll_sends_the_whole_page_to_sign_in(floor: dict[str, Any]) -> None:
    response = Client().get(
        "/reports/dashboard/floor/",
        headers={
            "HX-Request": "true",
            "HX-Current-URL": "http://testserver/reports/dashboard/?period=mtd&day=2026-03-01",
        },
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == (
        "/accounts/login/?next=/reports/dashboard/%3Fperiod%3Dmtd%26day%3D2026-03-01"
    )


def test_the_floor_shows_dealers_pace_and_todays_win_from_the_settlements(
    played: dict[str, list[Round]], floor: dict[str, Any]
) -> None:
    assert StaleReport.objects.filter(gaming_day=TODAY).count() == 2
    page = client_for("pitboss").get("/reports/dashboard/").content.decode()
    assert not StaleReport.objects.exists()  # the floor rebuilt today's stale reports first

    sc, lb, py = tile(page, "SC-1"), tile(page, "LB-1"), tile(page, "PY-1")
    assert fact(sc, "dealer") == "dealer"
    assert fact(lb, "dealer") == "dealer2"
    assert fact(py, "dealer") == "—"
    assert fact(sc, "pace") == "4"  # the three rounds of two hours ago are not in the last hour
    assert fact(lb, "pace") == "5"
    assert fact(py, "pace") == "0"
    for name, tile_html in (("SC-1", sc), ("LB-1", lb)):
        day = settled_lines(round__table__name=name, round__gaming_day=TODAY)
        assert fact(tile_html, "win-today") == dollars(day["win_cents"])
        assert fact(tile_html, "hold-today") == percent(
            hold_percent(day["win_cents"], day["handle_cents"])
        )
        assert day["win_cents"] == sum(r.house_win_cents for r in played[name])
    assert fact(py, "win-today") == "$0.00"
    assert fact(py, "hold-today") == "—"
    everything = settled_lines(round__gaming_day=TODAY)
    assert dollars(everything["win_cents"]) in page.split('class="floor-grid"')[0]


def test_the_floor_refreshes_itself_with_htmx(played: dict[str, list[Round]]) -> None:
    c = client_for("auditor")
    page = c.get("/reports/dashboard/").content.decode()
    assert 'hx-get="/reports/dashboard/floor/"' in page
    assert 'hx-trigger="every 30s"' in page
    assert "vendor/chartjs/chart.umd.min.js" in page and "js/dashboard.js" in page
    assert "cdn" not in page.lower()
    partial = c.get("/reports/dashboard/floor/", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<section id="floor"') and "<html" not in partial
    assert 'hx-trigger="every 30s"' in partial  # swapped outerHTML: it keeps polling
    assert 'data-table="SC-1"' in partial


def test_the_charts_have_hold_and_win_by_table_and_by_day(
    played: dict[str, list[Round]],
) -> None:
    data = client_for("pitboss").get("/reports/dashboard/charts.json?period=day").json()
    by_table = data["by_table"]
    assert by_table["labels"] == ["LB-1", "MG-1", "PY-1", "RI-1", "SC-1"]
    for name, win, hold in zip(
        by_table["labels"], by_table["win_cents"], by_table["hold_percent"], strict=True
    ):
        day = settled_lines(round__table__name=name, round__gaming_day=TODAY)
        assert win == day["win_cents"]
        expected = hold_percent(day["win_cents"], day["handle_cents"])
        assert hold == (None if expected is None else str(expected))
    by_day = data["by_day"]
    assert len(by_day["labels"]) == 30 and by_day["labels"][-1] == TODAY.isoformat()
    assert by_day["win_cents"][-1] == settled_lines(round__gaming_day=TODAY)["win_cents"]
    assert by_day["win_cents"][0] is None and by_day["hold_percent"][0] is None


def test_an_alert_shows_when_a_tables_hold_leaves_its_band(
    played: dict[str, list[Round]], floor: dict[str, Any]
) -> None:
    HoldAlertRule.objects.all().delete()  # from a floor without the default rule
    rebuild_stale()
    day = settled_lines(round__table__name="SC-1", round__gaming_day=TODAY)
    hold = hold_percent(day["win_cents"], day["handle_cents"])
    assert hold is not None
    # A band every table's hold is far inside, for the whole floor...
    alert_rule_save(
        by=floor["pitboss"],
        table=None,
        game="",
        min_hold_percent=Decimal("-1000"),
        max_hold_percent=Decimal("1000"),
        min_handle_cents=0,
    )
    c = client_for("pitboss")
    page = c.get("/reports/dashboard/floor/").content.decode()
    assert "Hold low" not in page and "Hold high" not in page
    # ...and one for SC-1 alone that its hold is above: SC-1's rule wins over the global one.
    alert_rule_save(
        by=floor["pitboss"],
        table=floor["SC-1"],
        game="",
        min_hold_percent=hold - Decimal("200"),
        max_hold_percent=hold - Decimal("100"),
        min_handle_cents=day["handle_cents"],
    )
    page = c.get("/reports/dashboard/floor/").content.decode()
    assert "Hold high" in tile(page, "SC-1")
    assert "Hold" not in tile(page, "LB-1").split("<dl")[0]
    assert re.search(r'class="stat alerting">.*?<span class="stat-value">1</span>', page, re.S)
    # Not enough handle yet: no alert.
    rule = HoldAlertRule.objects.get(table=floor["SC-1"])
    alert_rule_save(
        by=floor["pitboss"],
        rule=rule,
        table=floor["SC-1"],
        game="",
        min_hold_percent=rule.min_hold_percent,
        max_hold_percent=rule.max_hold_percent,
        min_handle_cents=day["handle_cents"] + 1,
    )
    assert "Hold high" not in c.get("/reports/dashboard/floor/").content.decode()


def test_the_rule_for_a_table_then_its_game_then_every_table(floor: dict[str, Any]) -> None:
    every = HoldAlertRule(pk=1, min_hold_percent=5, max_hold_percent=30)
    game = HoldAlertRule(pk=2, game="lowball", min_hold_percent=10, max_hold_percent=40)
    table = HoldAlertRule(pk=3, table=floor["LB-1"], min_hold_percent=0, max_hold_percent=50)
    off = HoldAlertRule(pk=4, table=floor["PY-1"], min_hold_percent=0, max_hold_percent=1)
    off.is_active = False
    rules = [every, game, table, off]
    assert applicable_rule(floor["LB-1"], rules) is table
    assert applicable_rule(floor["LB-1"], [every, game]) is game
    assert applicable_rule(floor["PY-1"], rules) is every
    assert applicable_rule(floor["SC-1"], [game]) is None
    assert breach(every, hold_percent=Decimal("4.99"), handle_cents=100) == "low"
    assert breach(every, hold_percent=Decimal("30.01"), handle_cents=100) == "high"
    assert breach(every, hold_percent=Decimal("30.00"), handle_cents=100) is None
    assert breach(every, hold_percent=None, handle_cents=0) is None


def test_a_default_alert_rule_watches_every_table_out_of_the_box(floor: dict[str, Any]) -> None:
    rule = HoldAlertRule.objects.get()
    assert rule.table is None and not rule.game and rule.is_active
    assert (rule.min_hold_percent, rule.max_hold_percent) == (Decimal("-20.00"), Decimal("60.00"))
    page = client_for("pitboss").get("/reports/alerts/").content.decode()
    assert "Every table" in page and "-20.00% to 60.00%" in page


def test_a_pit_boss_adds_changes_and_deactivates_alert_rules(floor: dict[str, Any]) -> None:
    HoldAlertRule.objects.all().delete()  # from a floor without the default rule
    c = client_for("pitboss")
    response = c.post(
        "/reports/alerts/",
        {
            "table": floor["SC-1"].pk,
            "min_hold_percent": "5",
            "max_hold_percent": "35",
            "min_handle": "500.00",
        },
    )
    assert response.status_code == 302
    rule = HoldAlertRule.objects.get()
    assert (rule.table, rule.min_handle_cents, rule.is_active) == (floor["SC-1"], 50000, True)
    created = AuditEvent.objects.get(kind="hold_alert.created")
    assert created.data["rule"]["max_hold_percent"] == "35.00" and created.actor_name == "pitboss"

    again = c.post(
        "/reports/alerts/",
        {"table": floor["SC-1"].pk, "min_hold_percent": "1", "max_hold_percent": "2"},
    )
    assert again.status_code == 400 and "already watches SC-1" in again.content.decode()
    backwards = c.post(
        "/reports/alerts/", {"game": "pyramid", "min_hold_percent": "9", "max_hold_percent": "2"}
    )
    assert backwards.status_code == 400 and HoldAlertRule.objects.count() == 1

    assert c.get(f"/reports/alerts/{rule.pk}/").status_code == 200
    c.post(
        f"/reports/alerts/{rule.pk}/",
        {"game": "lowball", "min_hold_percent": "10", "max_hold_percent": "40", "min_handle": ""},
    )
    rule.refresh_from_db()
    assert (rule.table, rule.game, rule.min_hold_percent) == (None, "lowball", Decimal("10"))
    assert AuditEvent.objects.get(kind="hold_alert.changed").data["before"]["table"] == "SC-1"

    c.post(f"/reports/alerts/{rule.pk}/active/", {"active": "0"})
    rule.refresh_from_db()
    assert not rule.is_active and AuditEvent.objects.filter(kind="hold_alert.deactivated")
    assert "Inactive" in c.get("/reports/alerts/").content.decode()


def test_an_auditor_reads_the_alert_rules_but_cannot_change_them(floor: dict[str, Any]) -> None:
    HoldAlertRule.objects.all().delete()  # from a floor without the default rule
    rule = alert_rule_save(
        by=floor["pitboss"],
        table=None,
        game="",
        min_hold_percent=Decimal("5"),
        max_hold_percent=Decimal("30"),
        min_handle_cents=0,
    )
    c = client_for("auditor")
    page = c.get("/reports/alerts/").content.decode()
    assert "Every table" in page and "5.00% to 30.00%" in page and "New rule" not in page
    data = {"game": "pyramid", "min_hold_percent": "1", "max_hold_percent": "2"}
    assert c.post("/reports/alerts/", data).status_code == 403
    assert c.get(f"/reports/alerts/{rule.pk}/").status_code == 403
    assert c.post(f"/reports/alerts/{rule.pk}/active/", {"active": "0"}).status_code == 403
    rule.refresh_from_db()
    assert rule.is_active and HoldAlertRule.objects.count() == 1


@pytest.fixture
def history(floor: dict[str, Any], clock: Clock) -> list[Round]:
    """Rounds on four gaming days: today, earlier this month, earlier this year and last year;
    one of today's rounds voided."""
    rng = random.Random(9)
    rounds: list[Round] = []
    for moment, per_table in (
        (NOW - timedelta(minutes=30), 3),
        (datetime(2026, 3, 2, 20, 0, tzinfo=UTC), 2),
        (datetime(2026, 2, 14, 23, 30, tzinfo=UTC), 2),  # the grave shift
        (datetime(2025, 12, 31, 12, 0, tzinfo=UTC), 1),
    ):
        for name in ("SC-1", "LB-1", "PY-1"):
            rounds += play_at(clock, moment, floor[name], per_table, rng)
    victim = next(r for r in rounds if r.gaming_day == TODAY and r.table.name == "LB-1")
    round_void(round=victim, by=floor["pitboss"], reason="wrong card")
    return rounds


PERIOD_STARTS = {
    "day": TODAY,
    "mtd": date(2026, 3, 1),
    "ytd": date(2026, 1, 1),
    "30d": TODAY - timedelta(days=29),
}
GROUPINGS = ["table", "game", "paytable_version", "dealer", "shift", "gaming_day"]


def test_reports_agree_to_the_cent_with_the_settlements_for_every_grouping_and_period(
    history: list[Round],
) -> None:
    c = client_for("auditor")
    for period, start in PERIOD_STARTS.items():
        in_period = {"round__gaming_day__gte": start, "round__gaming_day__lte": TODAY}
        expected = settled_lines(**in_period)
        voids = Round.objects.filter(
            status=Round.Status.VOIDED, gaming_day__gte=start, gaming_day__lte=TODAY
        ).count()
        for by in GROUPINGS:
            response = c.get("/reports/", {"by": by, "period": period, "day": "2026-03-10"})
            assert response.status_code == 200
            report = response.context["report"]
            total = report["total"]
            assert total["handle_cents"] == expected["handle_cents"], (by, period)
            assert total["win_cents"] == expected["win_cents"], (by, period)
            assert total["hands"] == expected["hands"], (by, period)
            assert total["voids"] == voids, (by, period)
            assert sum(r["win_cents"] for r in report["rows"]) == total["win_cents"]
            assert sum(total["handle_by_wager"].values()) == total["handle_cents"]
            page = response.content.decode()
            assert dollars(total["win_cents"]) in page and percent(total["hold_percent"]) in page
    # The groupings split what they should: by dealer, each dealer's own rounds.
    report = c.get("/reports/", {"by": "dealer", "period": "ytd", "day": "2026-03-10"})
    for row in report.context["report"]["rows"]:
        mine = settled_lines(
            round__dealer__username=row["dealer__username"], round__gaming_day__gte="2026-01-01"
        )
        assert row["win_cents"] == mine["win_cents"]
    by_shift = c.get("/reports/", {"by": "shift", "period": "ytd", "day": "2026-03-10"})
    assert {r["shift"] for r in by_shift.context["report"]["rows"]} == {"14:00", "22:00"}


def test_every_report_exports_as_csv_matching_the_page(history: list[Round]) -> None:
    c = client_for("pitboss")
    for by in GROUPINGS:
        for period in PERIOD_STARTS:
            params = {"by": by, "period": period, "day": "2026-03-10"}
            page = c.get("/reports/", params).context["report"]
            response = c.get("/reports/hold.csv", params)
            assert response.status_code == 200
            assert response["Content-Type"].startswith("text/csv")
            assert f"hold-by-{by}-{period}-2026-03-10.csv" in response["Content-Disposition"]
            rows = list(csv.DictReader(io.StringIO(response.content.decode())))
            *data, total = rows
            assert len(data) == len(page["rows"])
            assert total[next(iter(total))] == "TOTAL"

            def cents(text: str) -> int:
                return int(Decimal(text) * 100)

            for line, row in zip(data, page["rows"], strict=True):
                assert cents(line["handle"]) == row["handle_cents"]
                assert cents(line["win"]) == row["win_cents"]
                assert int(line["rounds"]) == row["rounds"]
                assert line["hold_percent"] == str(row["hold_percent"] or "")
                for wager in page["wagers"]:
                    assert cents(line[f"handle_{wager}"]) == row["handle_by_wager"].get(wager, 0)
            assert cents(total["win"]) == sum(cents(r["win"]) for r in data)
            assert cents(total["handle"]) == page["total"]["handle_cents"]
            assert int(total["voids"]) == page["total"]["voids"]
    everything = settled_lines(round__gaming_day__gte="2026-01-01")
    response = c.get("/reports/hold.csv", {"by": "game", "period": "ytd", "day": "2026-03-10"})
    total = list(csv.DictReader(io.StringIO(response.content.decode())))[-1]
    assert int(Decimal(total["win"]) * 100) == everything["win_cents"]


def test_names_in_a_csv_never_open_as_spreadsheet_formulas(
    floor: dict[str, Any], clock: Clock
) -> None:
    from django.contrib.auth.models import Group

    sly = type(floor["dealer"]).objects.create_user("+cmd", password="demo")
    sly.groups.add(Group.objects.get(name="dealer"))
    dealer_sign_in(dealer=sly, table=floor["PY-1"])
    play_round(floor["PY-1"], sly, random.Random(1))
    c = client_for("pitboss")
    report = c.get("/reports/hold.csv", {"by": "dealer", "day": "2026-03-10"}).content.decode()
    assert "\n'+cmd," in report.replace("\r\n", "\n")
    rounds = c.get(f"/reports/tables/{floor['PY-1'].pk}/rounds.csv?day=2026-03-10").content
    assert ",'+cmd," in rounds.decode()


def test_bad_report_parameters(floor: dict[str, Any]) -> None:
    c = client_for("pitboss")
    assert c.get("/reports/hold.csv", {"by": "colour"}).status_code == 400
    assert c.get("/reports/hold.csv", {"day": "10/03/2026"}).status_code == 400
    page = c.get("/reports/", {"by": "colour", "period": "mtd"})
    assert page.status_code == 200 and "not understood" in page.content.decode()
    assert page.context["query"]["by"] == "table" and page.context["query"]["period"] == "mtd"
    assert c.get(f"/reports/tables/{floor['SC-1'].pk}/rounds/?day=soon").status_code == 400
    assert c.get("/reports/tables/999999/rounds/").status_code == 404


def test_drill_down_from_the_floor_to_a_tables_rounds_to_a_round_record(
    played: dict[str, list[Round]], floor: dict[str, Any]
) -> None:
    c = client_for("pitboss")
    sc1 = floor["SC-1"]
    floor_page = c.get("/reports/dashboard/").content.decode()
    link = f"/reports/tables/{sc1.pk}/rounds/?day=2026-03-10"
    assert f'href="{link}"' in tile(floor_page, "SC-1")
    page = c.get(link).content.decode()
    for r in played["SC-1"]:
        assert f'<a href="/audit/rounds/{r.pk}/">#{r.number}</a>' in page
        assert dollars(r.house_win_cents) in page
    for r in played["LB-1"]:
        assert f'href="/audit/rounds/{r.pk}/"' not in page
    day = settled_lines(round__table=sc1, round__gaming_day=TODAY)
    assert dollars(day["win_cents"]) in page and dollars(day["handle_cents"]) in page
    record = c.get(f"/audit/rounds/{played['SC-1'][0].pk}/")
    assert record.status_code == 200 and f"#{played['SC-1'][0].number}" in record.content.decode()
    # Another day has none of them; its CSV has a line per round of the day.
    assert (
        "No rounds at SC-1"
        in c.get(f"/reports/tables/{sc1.pk}/rounds/?day=2026-03-09").content.decode()
    )
    lines = list(
        csv.DictReader(
            io.StringIO(
                c.get(f"/reports/tables/{sc1.pk}/rounds.csv?day=2026-03-10").content.decode()
            )
        )
    )
    assert sorted(int(x["number"]) for x in lines) == sorted(r.number for r in played["SC-1"])
    assert sum(int(Decimal(x["win"]) * 100) for x in lines) == day["win_cents"]


def test_a_report_row_opens_the_drill_down(history: list[Round], floor: dict[str, Any]) -> None:
    c = client_for("auditor")
    by_day = c.get("/reports/", {"by": "gaming_day", "period": "ytd", "day": "2026-03-10"})
    assert 'href="/reports/?by=table&amp;period=day&amp;day=2026-02-14"' in by_day.content.decode()
    by_table = c.get("/reports/", {"by": "table", "period": "day", "day": "2026-02-14"})
    assert (
        f'href="/reports/tables/{floor["PY-1"].pk}/rounds/?day=2026-02-14"'
        in by_table.content.decode()
    )


def test_money_is_written_as_dollars_from_cents() -> None:
    assert dollars(123456) == "$1,234.56"
    assert dollars(-5) == "-$0.05"
    assert dollars(0) == "$0.00"
    assert dollars(-100000000) == "-$1,000,000.00"
    assert percent(Decimal("12.3")) == "12.30%"
    assert percent(None) == "—"
