"""The pit boss's and the auditor's pages fit their screens, after a demo day with a jackpot, a
large payout waiting, poker hands, a void and a correction (tests/browser/demo_day.py):

- at a desk (1440x900): the dashboard, the hold reports, the trail's search, a round's record
  and a poker hand's record, the approve confirmation and the 400 page;
- on a tablet (1024x768): the dashboard, a table's day on the floor, the reports, a round's and
  a hand's record and the reconciliation.

On each, the page itself checks (JavaScript in the page) that no element is wider than the box
that holds it, that no box scrolls sideways inside the page, that no text spills out of its box,
and that the document does not scroll sideways. A pit boss then approves the waiting payout
through its confirm page with JavaScript off. Every page is saved as a screenshot
(`SCREENSHOTS_DIR`, else /tmp/casino-screenshots)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tables.models import Round, Table

from .demo_day import DemoDay, demo_day

pytestmark = [pytest.mark.browser, pytest.mark.services]

DESK = {"width": 1440, "height": 900}
TABLET = {"width": 1024, "height": 768}

# Every element laid out in the flow (not fixed or absolute, not hidden) against its parent's
# box; every box that scrolls sideways; every block whose text is wider than itself.
MISFITS = """
() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) {
    out.push(`the document is ${doc.scrollWidth}px wide in a ${window.innerWidth}px window`);
  }
  const name = (el) => {
    const classes = typeof el.className === 'string' ? el.className.trim() : '';
    const id = el.id ? '#' + el.id : '';
    return el.tagName.toLowerCase() + id + (classes ? '.' + classes.split(/\\s+/).join('.') : '');
  };
  document.querySelectorAll('body *').forEach((el) => {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') return;
    if (style.position === 'fixed' || style.position === 'absolute') return;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    const parent = el.parentElement;
    const p = parent.getBoundingClientRect();
    const text = (el.textContent || '').trim().slice(0, 40);
    if (parent !== document.body && r.width > p.width + 1) {
      const sizes = `${Math.round(r.width)}px in ${Math.round(p.width)}px`;
      out.push(`${name(el)} is wider than ${name(parent)} (${sizes}): "${text}"`);
    }
    const table = ['TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR'].includes(el.tagName);
    if (!table && style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) {
      const scrolls = ['auto', 'scroll'].includes(style.overflowX);
      const sizes = `${el.scrollWidth}px in ${el.clientWidth}px`;
      out.push(`${name(el)} ${scrolls ? 'scrolls sideways' : 'spills'} (${sizes}): "${text}"`);
    }
  });
  return out.slice(0, 20);
}
"""


@pytest.fixture
def shots() -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or "/tmp/casino-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def day(demo_floor: None) -> DemoDay:
    return demo_day()


@pytest.fixture
def open_as(browser: Any, live_server: Any, day: DemoDay) -> Iterator[Callable[..., Any]]:
    """A signed-in page at a screen size; JavaScript errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(username: str, viewport: dict[str, int], *, javascript: bool = True) -> Any:
        context = browser.new_context(
            viewport=viewport, base_url=live_server.url, java_script_enabled=javascript
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto("/accounts/login/?next=/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "demo")
        page.click("button[type=submit]")
        page.wait_for_load_state()
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def fits(page: Any, url: str, shot: Path, *, status: int = 200) -> None:
    response = page.goto(url)
    assert response is not None and response.status == status, url
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(shot), full_page=True)
    misfits = page.evaluate(MISFITS)
    assert misfits == [], f"{url} at {page.viewport_size['width']}px: {misfits}"


def test_the_desk_pages_fit_1440(open_as: Callable[..., Any], day: DemoDay, shots: Path) -> None:
    boss = open_as("pitboss", DESK)
    today = day.jackpot.gaming_day.isoformat()
    sc1 = Table.objects.get(name="SC-1").pk
    for name, url, status in [
        ("dashboard", "/reports/dashboard/", 200),
        ("reports-by-table", f"/reports/?by=table&period=day&day={today}", 200),
        ("reports-by-shift", f"/reports/?by=shift&period=mtd&day={today}", 200),
        ("reports-by-paytable", f"/reports/?by=paytable_version&period=ytd&day={today}", 200),
        ("trail", "/audit/", 200),
        ("trail-search", "/audit/?q=void", 200),
        ("round-jackpot", f"/audit/rounds/{day.jackpot.pk}/", 200),
        ("round-voided", f"/audit/rounds/{day.voided.pk}/", 200),
        ("round-correction", f"/audit/rounds/{day.correction.pk}/", 200),
        ("hand", f"/audit/hands/{day.hand.pk}/", 200),
        ("approve-confirm", f"/audit/rounds/{day.waiting.pk}/approve/", 200),
        ("bad-day", f"/reports/tables/{sc1}/rounds/?day=abc", 400),
    ]:
        fits(boss, url, shots / f"fit-1440-{name}.png", status=status)
    # the tiles and the reports say a tiny handle's hold with its handle, never a wild figure
    boss.goto(f"/reports/?by=table&period=day&day={today}")
    for cell in boss.locator("table.report.hold td.key:nth-child(6)").all_inner_texts():
        assert cell == "—" or cell.endswith("%") or cell.startswith("n/a (handle $"), cell


def test_the_tablet_pages_fit_1024(open_as: Callable[..., Any], day: DemoDay, shots: Path) -> None:
    boss = open_as("pitboss", TABLET)
    today = day.jackpot.gaming_day.isoformat()
    lb1 = Table.objects.get(name="LB-1").pk
    mg1 = day.hand.table_id
    for name, url in [
        ("dashboard", "/reports/dashboard/"),
        ("floor-lb1", f"/reports/tables/{lb1}/rounds/?day={today}"),
        ("floor-poker", f"/reports/tables/{mg1}/rounds/?day={today}"),
        ("reports", f"/reports/?by=table&period=day&day={today}"),
        ("reports-by-day", f"/reports/?by=gaming_day&period=30d&day={today}"),
        ("round-jackpot", f"/audit/rounds/{day.jackpot.pk}/"),
        ("round-correction", f"/audit/rounds/{day.correction.pk}/"),
        ("hand", f"/audit/hands/{day.hand.pk}/"),
        ("reconciliation", f"/accounting/reconciliation/?day={today}"),
        ("approve-confirm", f"/audit/rounds/{day.waiting.pk}/approve/"),
    ]:
        fits(boss, url, shots / f"fit-1024-{name}.png")


def test_approve_and_pay_takes_a_second_press_without_javascript(
    open_as: Callable[..., Any], day: DemoDay, shots: Path
) -> None:
    from playwright.sync_api import expect

    boss = open_as("pitboss", DESK, javascript=False)
    boss.goto("/reports/dashboard/")
    row = boss.locator(f'#awaiting-approval [data-round="{day.waiting.pk}"]')
    row.get_by_role("link", name="Approve and pay…").click()
    boss.wait_for_url(f"**/audit/rounds/{day.waiting.pk}/approve/")
    confirm = boss.locator("#approve-confirm")
    expect(confirm.locator("h1")).to_contain_text(f"LB-1 round #{day.waiting.number}")
    expect(confirm.locator('tr[data-seat="1"]')).to_contain_text("Seat 1")
    expect(confirm.locator('tr[data-seat="1"]')).to_contain_text("paid $5,699.00")
    expect(confirm.locator("#paid-total")).to_have_text("$7,701.00")
    assert Round.objects.get(pk=day.waiting.pk).status == "open"  # one press paid nothing
    confirm.screenshot(path=str(shots / "fit-1440-approve-confirm-box.png"))
    boss.click("#confirm-approve")
    boss.wait_for_url("**/reports/dashboard/")
    expect(boss.locator(".messages")).to_contain_text("approved and paid")
    paid = Round.objects.get(pk=day.waiting.pk)
    assert paid.status == "settled" and paid.approved_by.username == "pitboss"  # type: ignore[union-attr]
