"""The pit-boss dashboard in a real browser: a pit boss signs in, sees every table on the floor
with its dealer and today's win, both charts drawn by Chart.js, the floor refreshing itself
(htmx, every 30 s) and the charts too (every 60 s), then drills down from a table to its
rounds and from a round to its record. Screenshots at 1280x800 and 390x844."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reports.templatetags.reports_money import dollars
from tables import games
from tables.models import Hand, Round, Table
from tables.simulation import dealer_for, play_hand, play_round

# Playwright's sync API runs an event loop in this thread (see conftest.py).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.skipif(
        not Path("/usr/bin/chromium").exists(),
        reason="no Chromium at /usr/bin/chromium: the browser tests need Debian's chromium",
    ),
]


def expect() -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect


def play(n: int, seed: int = 4) -> dict[str, list[Round | Hand]]:
    """n rounds at each banked table, n hands at each poker table (a hand's win is its rake)."""
    rng = random.Random(seed)
    played: dict[str, list[Round | Hand]] = {}
    for table in Table.objects.select_related("paytable_version", "meter").order_by("name"):
        dealer = dealer_for(table)
        pvp = isinstance(games.get(table.game), games.PlayerVsPlayerGame)
        play_one = play_hand if pvp else play_round
        played[table.name] = [play_one(table, dealer, rng) for _ in range(n)]
    return played


def sign_in(page: Any, username: str = "pitboss") -> None:
    page.goto("/accounts/login/?next=/reports/dashboard/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/reports/dashboard/")


def chart_drawn(page: Any, canvas_id: str) -> int:
    """How many labels the Chart.js instance on the canvas holds (fails if there is none)."""
    return page.evaluate(
        """id => {
            const chart = Chart.getChart(document.getElementById(id));
            if (chart === undefined) { throw new Error("no chart on #" + id); }
            return chart.data.labels.length;
        }""",
        canvas_id,
    )


def test_a_pit_boss_watches_the_floor_and_drills_down_to_a_round(
    new_page: Callable[..., Any], live_server: Any, shots_dir: Path
) -> None:
    played = play(3)
    page = new_page()
    page.clock.install()  # htmx's and dashboard.js's timers run on a clock the test moves
    sign_in(page)
    floor = page.locator("#floor")
    for name, rounds in played.items():
        tile = floor.locator(f"[data-table='{name}']")
        expect()(tile).to_be_visible()
        expect()(tile.locator(".dealer")).to_have_text(f"sim-{name.lower()}")
        expect()(tile.locator(".pace")).to_have_text("3")
        expect()(tile.locator(".win-today")).to_have_text(
            dollars(sum(r.house_win_cents for r in rounds))
        )
    assert chart_drawn(page, "chart-by-table") == Table.objects.count()  # RI-1, MG-1 too
    assert chart_drawn(page, "chart-by-day") == 30
    page.screenshot(path=shots_dir / "dashboard-1280x800.png", full_page=True)

    # The floor refreshes itself: a round settled meanwhile shows after 30 seconds.
    more = play(1, seed=8)
    with page.expect_response("**/reports/dashboard/floor/"):
        page.clock.fast_forward("00:31")
    expect()(floor.locator("[data-table='SC-1'] .pace")).to_have_text("4")
    total = sum(r.house_win_cents for r in played["SC-1"] + more["SC-1"])
    expect()(floor.locator("[data-table='SC-1'] .win-today")).to_have_text(dollars(total))
    # And the charts poll their figures once a minute, updating the same Chart instances.
    with page.expect_response("**/reports/dashboard/charts.json*") as charts:
        page.clock.fast_forward("00:31")
    assert charts.value.ok
    expect()(page.locator("#chart-status")).to_contain_text("Charts updated")
    assert chart_drawn(page, "chart-by-table") == Table.objects.count()  # RI-1, MG-1 too

    page.locator("[data-table='SC-1'] a.tile-link").click()
    page.wait_for_url("**/reports/tables/*/rounds/?day=*")
    rows = page.locator("table.rounds tbody tr")
    expect()(rows).to_have_count(4)
    page.screenshot(path=shots_dir / "drill-down-1280x800.png", full_page=True)
    newest = more["SC-1"][0]
    page.get_by_role("link", name=f"#{newest.number}", exact=True).click()
    page.wait_for_url(f"**/audit/rounds/{newest.pk}/")
    expect()(page.locator("h1")).to_contain_text(f"Round SC-1 #{newest.number}")

    page.goto("/reports/?by=table&period=day")
    expect()(page.locator("table.report.hold tfoot")).to_contain_text("Total")
    page.screenshot(path=shots_dir / "reports-1280x800.png", full_page=True)


def test_the_dashboard_on_a_phone(
    new_page: Callable[..., Any], live_server: Any, shots_dir: Path
) -> None:
    play(2)
    page = new_page(phone=True)
    sign_in(page)
    expect()(page.locator("#floor [data-table='PY-1']")).to_be_visible()
    assert chart_drawn(page, "chart-by-table") == Table.objects.count()  # RI-1, MG-1 too
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the dashboard scrolls sideways on a phone ({width}px)"
    page.screenshot(path=shots_dir / "dashboard-390x844.png", full_page=True)
    page.locator("[data-table='LB-1'] a.tile-link").click()
    expect()(page.locator("table.rounds tbody tr")).to_have_count(2)
    page.screenshot(path=shots_dir / "drill-down-390x844.png", full_page=True)
    page.goto("/reports/?by=dealer&period=mtd")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the table scrolls
    page.screenshot(path=shots_dir / "reports-390x844.png", full_page=True)
    page.goto("/reports/alerts/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_dealer_is_refused_the_dashboard(new_page: Callable[..., Any], live_server: Any) -> None:
    page = new_page()
    page.goto("/accounts/login/?next=/")
    page.fill("input[name=username]", "dealer")
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    response = page.goto("/reports/dashboard/")
    assert response is not None and response.status == 403
