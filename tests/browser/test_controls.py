"""The money controls and the floor's pages in a real browser, at the sizes the floor uses: a
tablet (1024x768), a phone (390x844) and a desk (1440x900).

- A Lowball round with seven seats and a progressive win: no payout element overflows its
  card, the page never scrolls sideways, nothing is hidden behind the Confirm button, and the
  main action is above the fold; the round waits for a pit boss, who signs off on the tablet.
- The pit boss's dashboard lists the sign-off waiting; the round record shows dollars and cards
  and replays the round step by step; the correction form; the reports fit a 1440 screen.

Every screen is saved as a screenshot (`SCREENSHOTS_DIR`, else a temporary folder)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from tables.models import Round, Table
from tables.selectors import round_state
from tables.services import rounds as svc
from tables.services.corrections import round_void
from tables.services.sessions import dealer_sign_in

from .test_tablet import expect, log_in

pytestmark = [pytest.mark.browser, pytest.mark.services]

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1440, "height": 900}

# Seven Lowball seats at the table maximum with the progressive: seat 1 holds 4-2-A of one
# colour (the progressive's award, and large bonus payouts: a sign-off), the others assorted.
SEVEN_SEATS = {
    1: "Ah 2d 4h",
    2: "Kd Qc Js",
    3: "9c 9d 3s",
    4: "As 3c 5d",
    5: "Td 8s 6c",
    6: "2s 7d Kc",
    7: "Qh 5s 3d",
}
DEALER = "6h 4d 2c"


@pytest.fixture
def shots() -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or "/tmp/casino-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def open_at(browser: Any, live_server: Any, demo_floor: None) -> Any:
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(viewport: dict[str, int], *, mobile: bool = False) -> Any:
        context = browser.new_context(
            viewport=viewport, base_url=live_server.url, has_touch=mobile, is_mobile=mobile
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def seven_seat_round_at_confirm() -> Round:
    """Played through the services to the confirm step (the tablet's steps are tested apart)."""
    table = Table.objects.get(name="LB-1")
    dealer = table.rounds.model.dealer.field.related_model.objects.get(username="dealer2")
    dealer_sign_in(dealer=dealer, table=table)
    wagers = {n: {"ante": "500.00", "progressive": "1.00"} for n in SEVEN_SEATS}
    r = svc.round_open(table=table, dealer=dealer, wagers=wagers)
    r = svc.round_deal(round=r, dealer=dealer, seat_cards=SEVEN_SEATS, dealer_cards=DEALER)
    for n in SEVEN_SEATS:
        r = svc.round_decide(round=r, dealer=dealer, seat=n, decision={"discard": [], "draw": []})
    advice = round_state(r)["advice"]
    spare = ["7c", "8c", "Tc"][: advice["draw_count"]]
    return svc.round_dealer(round=r, dealer=dealer, draw=spare)


OVERFLOWS = """
() => {
  const out = [];
  document.querySelectorAll('.seat-result').forEach((card) => {
    const box = card.getBoundingClientRect();
    card.querySelectorAll('*').forEach((el) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.right > box.right + 0.5 || r.left < box.left - 0.5 || r.bottom > box.bottom + 0.5) {
        const what = el.textContent.trim().slice(0, 30);
        out.push(`seat ${card.dataset.seat}: ${el.tagName}.${el.className} "${what}"`);
      }
    });
  });
  return out;
}
"""

HIDDEN_BEHIND = """
(selector) => {
  const out = [];
  document.querySelectorAll(selector).forEach((el) => {
    el.scrollIntoView({block: 'center'});
    const r = el.getBoundingClientRect();
    const points = [
      [r.left + 4, r.top + 4],
      [r.right - 4, r.bottom - 4],
      [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
    ];
    for (const [x, y] of points) {
      const top = document.elementFromPoint(x, y);
      if (top && !el.contains(top) && !top.contains(el)) {
        out.push(`${el.className} under ${top.tagName}.${top.className}`);
        break;
      }
    }
  });
  return out;
}
"""


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def above_the_fold(page: Any, selector: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= page.viewport_size["height"], f"{selector} below the fold"


@pytest.mark.parametrize(("size", "viewport"), [("tablet", TABLET), ("phone", PHONE)])
def test_payout_cards_never_overflow_and_nothing_hides_behind_confirm(
    open_at: Callable[..., Any], shots: Path, size: str, viewport: dict[str, int]
) -> None:
    r = seven_seat_round_at_confirm()
    page = open_at(viewport, mobile=size == "phone")
    log_in(page, "dealer2")
    page.goto(f"/tablet/table/{r.table_id}/")
    expect()(page.locator(".t-steps li.now")).to_have_text("Pay and close")
    assert page.locator(".seat-result").count() == 7
    above_the_fold(page, ".confirm-btn")
    assert page.evaluate(OVERFLOWS) == []
    no_sideways_scroll(page)
    assert page.evaluate(HIDDEN_BEHIND, ".seat-result, .totals, .dealer-result") == []
    page.screenshot(path=str(shots / f"{size}-confirm-seven-seats.png"), full_page=True)
    # the settle waits for a pit boss: the payouts stay on screen, nothing is paid
    page.click(".confirm-btn")
    expect()(page.locator("#approval")).to_be_visible()
    assert Round.objects.get(pk=r.pk).status == "open"
    assert page.evaluate(OVERFLOWS) == []
    no_sideways_scroll(page)
    above_the_fold(page, "#approve-form button")
    page.screenshot(path=str(shots / f"{size}-awaiting-sign-off.png"), full_page=True)
    page.fill("#id-approver", "pitboss")
    page.fill("#id-approver-password", "wrong")
    page.click("#approve-form button[type=submit]")
    expect()(page.locator("#err-approver-password")).to_contain_text("cannot sign off this payout")
    assert page.url.endswith(f"/tablet/table/{r.table_id}/")  # a GET: a reload never re-posts
    page.reload()
    expect()(page.locator("#approval")).to_be_visible()
    page.fill("#id-approver", "pitboss")
    page.fill("#id-approver-password", "demo")
    page.click("#approve-form button[type=submit]")
    expect()(page.locator("#next-round")).to_be_visible()
    assert Round.objects.get(pk=r.pk).approved_by.username == "pitboss"  # type: ignore[union-attr]
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / f"{size}-approved-result.png"), full_page=True)


def test_open_round_is_above_the_fold_and_a_misdeal_cancels(
    open_at: Callable[..., Any], shots: Path
) -> None:
    page = open_at(TABLET)
    log_in(page)
    page.locator('article[data-table="SC-1"] form button[type=submit]').click()
    above_the_fold(page, "#open-round")
    page.screenshot(path=str(shots / "tablet-wagers.png"))
    page.fill("#id-seat-1-ante", "1")
    page.fill("#id-seat-2-ante", "ten")
    page.click("#open-round")
    expect()(page.locator("#err-seat-1-ante")).to_be_visible()
    expect()(page.locator("#err-seat-2-ante")).to_contain_text("must be an amount in dollars")
    page.screenshot(path=str(shots / "tablet-wagers-refused.png"), full_page=True)
    page.reload()  # no 405: the refusal was answered with a redirect to this page
    expect()(page.locator(".t-steps li.now")).to_have_text("Wagers")
    page.fill("#id-seat-1-ante", "10")
    page.fill("#id-seat-2-ante", "")
    page.click("#open-round")
    expect()(page.locator(".t-steps li.now")).to_have_text("Cards")
    page.click("details.misdeal summary")
    page.fill("#id-reason", "misdeal: seat 1 got four cards")
    page.screenshot(path=str(shots / "tablet-misdeal.png"), full_page=True)
    asked: list[str] = []  # the misdeal asks once before anything is sent
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#cancel-form button[type=submit]")
    expect()(page.locator(".t-steps li.now")).to_have_text("Wagers")
    assert len(asked) == 1 and asked[0].startswith("Cancel round 1 as a misdeal?")
    assert Round.objects.get(table__name="SC-1").status == "cancelled"


def test_the_pit_boss_sees_the_sign_off_the_record_the_correction_and_the_reports(
    open_at: Callable[..., Any], shots: Path
) -> None:
    r = seven_seat_round_at_confirm()
    dealer = r.dealer
    with pytest.raises(svc.ApprovalRequired):
        svc.round_settle(round=r, dealer=dealer)
    page = open_at(DESK)
    log_in_as = "pitboss"
    page.goto("/accounts/login/?next=/")
    page.fill("input[name=username]", log_in_as)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/reports/dashboard/")
    expect()(page.locator(f'#awaiting-approval [data-round="{r.pk}"]')).to_be_visible()
    page.screenshot(path=str(shots / "desk-dashboard-sign-off.png"), full_page=True)
    page.click(f'#awaiting-approval [data-round="{r.pk}"] a.approve-link')
    expect()(page.locator("#approve-confirm")).to_contain_text("Seat 1")  # asks first
    page.click("#confirm-approve")
    expect()(page.locator("#large-payouts")).to_be_visible()
    page.screenshot(path=str(shots / "desk-dashboard-large-payout.png"), full_page=True)
    settled = Round.objects.get(pk=r.pk)
    assert settled.status == "settled"
    page.goto(f"/audit/rounds/{r.pk}/")
    expect()(page.locator(".replay")).to_be_visible()
    assert "cents" not in page.locator("main").inner_text()
    assert page.locator(".seat-result .pc").count() >= 21  # the cards drawn as cards
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "desk-round-record.png"), full_page=True)
    # Voided by another pit boss: the one who signed off its payout may not void it, and its
    # void waits for a second pit boss (its payout was signed off), the round still settled.
    made = {}
    for name in ("pitboss2", "pitboss3"):
        made[name] = get_user_model().objects.create_user(name, password="a long demo password")
        made[name].groups.add(Group.objects.get(name="pit_boss"))
    round_void(round=settled, by=made["pitboss2"], reason="the dealer's 4 was a 5")
    page.goto(f"/audit/rounds/{r.pk}/")
    waiting = page.locator("#void-waiting")
    expect()(waiting).to_contain_text("Void requested by pitboss2: the dealer's 4 was a 5")
    expect()(waiting.locator(".duties-refusal").first).to_contain_text(
        "You signed off the payout of round"
    )
    assert waiting.locator("button").count() == 0  # no button for the pit boss who signed off
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "desk-round-void-waiting.png"), full_page=True)
    waiting.screenshot(path=str(shots / "desk-void-waiting-refused.png"))
    page.goto("/reports/dashboard/")
    listed = page.locator(f'#voids-waiting [data-round="{r.pk}"]')
    expect()(listed).to_contain_text("another pit boss must approve its void")
    page.locator("#voids-waiting").screenshot(path=str(shots / "desk-dashboard-void-waiting.png"))
    # a third pit boss approves the void from the round's record, then corrects the round
    page = open_at(DESK)
    page.goto(f"/accounts/login/?next=/audit/rounds/{r.pk}/")
    page.fill("input[name=username]", "pitboss3")
    page.fill("input[name=password]", "a long demo password")
    page.click("button[type=submit]")
    page.wait_for_url(f"**/audit/rounds/{r.pk}/")
    page.screenshot(path=str(shots / "desk-round-void-approve.png"), full_page=True)
    page.locator("#void-waiting").screenshot(path=str(shots / "desk-void-waiting-approve.png"))
    page.click("#void-waiting button:has-text('Approve void')")
    expect()(page.locator("h1 .badge")).to_have_text("Voided")
    assert Round.objects.get(pk=r.pk).status == "voided"
    page.goto(f"/audit/rounds/{r.pk}/correct/")
    expect()(page.locator("#id-seat-1-cards")).to_have_value("Ah 2d 4h")
    page.fill("#id-seat-1-cards", "Ah 2d Zz")
    page.click("#correction-form .form-actions.top button")
    expect()(page.locator("#err-seat-1-cards")).to_be_visible()
    page.screenshot(path=str(shots / "desk-correction-refused.png"), full_page=True)
    page.goto(f"/reports/?by=table&period=day&day={settled.gaming_day:%Y-%m-%d}")
    no_sideways_scroll(page)
    page.screenshot(path=str(shots / "desk-reports.png"), full_page=True)
    page.goto("/audit/?q=cancel")
    page.goto("/tablet/")
    expect()(page.locator("h1")).to_contain_text("Not allowed")
    page.screenshot(path=str(shots / "desk-403.png"))
