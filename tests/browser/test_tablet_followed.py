"""The house games' tablet in a real browser, at 1024x768 and 768x1024:

- a payout signed off on the pit boss's dashboard is followed: the waiting tablet moves on its
  own to the round's payout ("Pay seat 1 ...") before the next wagers; and the whole way, the
  pit boss tapping "Approve and pay" on the dashboard in a second browser ("Pay seat 2 ...");
- a misdeal asks once, and refused for want of a reason gives back the cards tapped;
- leaving the table while a round is open asks first;
- every button, link, checkbox, radio and summary is at least 44 x 44 px (a checkbox or radio
  hidden inside a tappable label counts as that label), read from each element's box on the page.

Every screen is saved as a screenshot (`SCREENSHOTS_DIR`, else a temporary folder)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tables.models import Round, Table
from tables.selectors import round_state
from tables.services import controls
from tables.services import rounds as svc
from tables.services.sessions import dealer_sign_in

from .test_controls import (
    DEALER,
    no_sideways_scroll,
    open_at,  # noqa: F401  (a fixture)
    seven_seat_round_at_confirm,
    shots,  # noqa: F401  (a fixture)
)
from .test_tablet import at_step, expect, log_in, sign_in_at

pytestmark = [pytest.mark.browser, pytest.mark.services]

SIZES = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}

SMALL_TARGETS = """
() => {
  const out = [];
  const seen = new Set();
  const targets = 'body button, body a, body summary, body select, ' +
    'body input[type=checkbox], body input[type=radio], body input[type=submit]';
  document.querySelectorAll(targets).forEach((el) => {
    let target = el;
    const style = getComputedStyle(el);
    if ((el.type === 'checkbox' || el.type === 'radio') && style.opacity === '0') {
      target = el.closest('label') || el;  // the tappable card around a hidden input
    }
    if (seen.has(target)) return;
    seen.add(target);
    if (target.closest('[hidden], details:not([open]) > :not(summary)')) return;
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;  // not shown
    if (r.width < 43.5 || r.height < 43.5) {
      const what = (target.textContent || target.name || '').trim().slice(0, 30);
      const size = `${r.width.toFixed(0)}x${r.height.toFixed(0)}`;
      out.push(`${target.tagName}.${target.className} "${what}" ${size}`);
    }
  });
  return out;
}
"""


def targets_ok(page: Any) -> None:
    assert page.evaluate(SMALL_TARGETS) == []
    no_sideways_scroll(page)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_tablet_follows_a_sign_off_made_on_the_dashboard(
    open_at: Callable[..., Any],  # noqa: F811
    shots: Path,  # noqa: F811
    size: str,
) -> None:
    r = seven_seat_round_at_confirm()
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=r.dealer)
    page = open_at(SIZES[size])
    log_in(page, "dealer2")
    page.goto(f"/tablet/table/{r.table_id}/")
    expect()(page.locator("#approval")).to_be_visible()
    targets_ok(page)
    page.screenshot(path=str(shots / f"{size}-waiting-for-the-dashboard.png"), full_page=True)
    boss = get_user_model().objects.get(username="pitboss")
    controls.round_approve(round=r, by=boss)  # what the dashboard's button does
    # the poll (every 5 s) sees the round paid and moves the tablet to its payout
    page.wait_for_url(f"**/tablet/round/{r.pk}/", timeout=15_000)
    expect()(page.locator("#pay-list")).to_contain_text("Pay seat 1 $")
    expect()(page.locator(".signed-off")).to_contain_text("Signed off by pit boss pitboss")
    expect()(page.locator(".award-words").first).to_contain_text("paid")
    targets_ok(page)
    page.screenshot(path=str(shots / f"{size}-payout-followed.png"), full_page=True)
    page.click("#next-round")
    at_step(page, "Wagers")


def seat_2_round_at_confirm() -> Round:
    """Seat 2 alone at LB-1 with a $500 ante and the winning low (A-2-4): paid past the table's
    sign-off threshold. Played through the services to the confirm step."""
    table = Table.objects.get(name="LB-1")
    dealer = get_user_model().objects.get(username="dealer2")
    dealer_sign_in(dealer=dealer, table=table)
    r = svc.round_open(
        table=table, dealer=dealer, wagers={2: {"ante": "500.00", "progressive": "1.00"}}
    )
    r = svc.round_deal(round=r, dealer=dealer, seat_cards={2: "Ah 2d 4h"}, dealer_cards=DEALER)
    r = svc.round_decide(round=r, dealer=dealer, seat=2, decision={"discard": [], "draw": []})
    spare = ["7c", "8c", "Tc"][: round_state(r)["advice"]["draw_count"]]
    return svc.round_dealer(round=r, dealer=dealer, draw=spare)


def test_a_pit_boss_approves_on_the_dashboard_and_the_tablet_follows_to_the_payout(
    open_at: Callable[..., Any],  # noqa: F811
    shots: Path,  # noqa: F811
) -> None:
    """The whole way a large payout takes: the dealer's tablet waits; the pit boss, signed in
    on another screen, taps "Approve and pay" on the dashboard; the tablet moves on its own to
    the payout, seat 2's included."""
    r = seat_2_round_at_confirm()
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=r.dealer)
    tablet = open_at(SIZES["landscape"])
    log_in(tablet, "dealer2")
    tablet.goto(f"/tablet/table/{r.table_id}/")
    expect()(tablet.locator("#approval")).to_be_visible()
    dashboard = open_at(SIZES["landscape"])
    dashboard.goto("/accounts/login/?next=/reports/dashboard/")
    dashboard.fill("input[name=username]", "pitboss")
    dashboard.fill("input[name=password]", "demo")
    dashboard.click("button[type=submit]")
    dashboard.wait_for_url("**/reports/dashboard/")
    row = dashboard.locator(f'#awaiting-approval .approval-row[data-round="{r.pk}"]')
    expect()(row).to_contain_text("Seat 2 is paid $")
    dashboard.screenshot(path=str(shots / "dashboard-large-payout-waiting.png"), full_page=True)
    row.locator("a.approve-link").click()
    expect()(dashboard.locator("#approve-confirm")).to_contain_text("Seat 2")  # asks first
    dashboard.click("#confirm-approve")
    expect()(dashboard.locator("#large-payouts")).to_be_visible()
    expect()(dashboard.locator(f'.approval-row[data-round="{r.pk}"]')).to_have_count(0)
    r.refresh_from_db()
    assert r.status == Round.Status.SETTLED and r.approved_by.get_username() == "pitboss"
    tablet.wait_for_url(f"**/tablet/round/{r.pk}/", timeout=15_000)
    expect()(tablet.locator("#pay-list")).to_contain_text("Pay seat 2 $")
    expect()(tablet.locator(".signed-off")).to_contain_text("Signed off by pit boss pitboss")
    tablet.screenshot(path=str(shots / "dashboard-large-payout-followed.png"), full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_misdeal_asks_once_and_keeps_the_cards_tapped(
    open_at: Callable[..., Any],  # noqa: F811
    shots: Path,  # noqa: F811
    size: str,
) -> None:
    page = open_at(SIZES[size])
    log_in(page)
    sign_in_at(page, "LB-1")
    expect()(page.locator("input[name=seat-1-progressive]")).to_be_visible()
    targets_ok(page)  # the wagers, with the progressive checkbox
    page.screenshot(path=str(shots / f"{size}-lowball-wagers.png"), full_page=True)
    page.fill("#id-seat-1-ante", "10")
    page.check("input[name=seat-1-progressive]")
    page.click("#open-round")
    at_step(page, "Cards")
    for card in ("Ah", "2d", "4c", "Ks"):
        page.click(f'.gc[data-card="{card}"]')
    targets_ok(page)
    page.screenshot(path=str(shots / f"{size}-cards-tapped.png"), full_page=True)
    page.click("details.misdeal summary")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#cancel-form button[type=submit]")
    expect()(page.locator("#err-reason")).to_contain_text('The reason ("Why") is missing')
    assert len(asked) == 1 and "misdeal" in asked[0]
    assert page.input_value("#id-seat-1-cards") == "Ah 2d 4c"
    assert page.input_value("#id-dealer-cards") == "Ks"
    assert Round.objects.get(table__name="LB-1").status == "open"
    targets_ok(page)
    page.screenshot(path=str(shots / f"{size}-misdeal-refused.png"), full_page=True)
    # declined: nothing is sent
    page.fill("#id-reason", "misdeal: seat 1 got four cards")
    page.once("dialog", lambda d: d.dismiss())
    page.click("#cancel-form button[type=submit]")
    page.wait_for_timeout(300)
    assert Round.objects.get(table__name="LB-1").status == "open"
    page.once("dialog", lambda d: d.accept())
    page.click("#cancel-form button[type=submit]")
    at_step(page, "Wagers")
    assert Round.objects.get(table__name="LB-1").status == "cancelled"


def test_leaving_an_open_round_asks_first(
    open_at: Callable[..., Any],  # noqa: F811
    shots: Path,  # noqa: F811
) -> None:
    page = open_at(SIZES["landscape"])
    log_in(page)
    sign_in_at(page, "SC-1")
    page.fill("#id-seat-1-ante", "10")
    page.click("#open-round")
    at_step(page, "Cards")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#leave-table")
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Round 1 is still open at SC-1")
    at_step(page, "Cards")  # still here, still signed in
    table = Table.objects.get(name="SC-1")
    assert table.dealer_sessions.filter(ended_at__isnull=True).exists()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_chips_page_targets(
    open_at: Callable[..., Any],  # noqa: F811
    shots: Path,  # noqa: F811
    size: str,
) -> None:
    page = open_at(SIZES[size])
    log_in(page)
    sign_in_at(page, "SC-1")
    page.click("text=Chips: buy-in, fills, tray")
    page.click('[data-buy-in="100"]')
    expect()(page.locator("#notice")).to_contain_text("Buy-in")
    expect()(page.locator(".a-void button")).to_contain_text("Ask to void slip")
    targets_ok(page)
    page.screenshot(path=str(shots / f"{size}-chips-void.png"), full_page=True)
