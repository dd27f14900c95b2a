"""A Rhode Island hand's mistakes on the dealer tablet in a real browser (1024x768 and
768x1024): an action taken back with "Undo last action" after its confirmation, a fold that
asks first ("Back" changes nothing, "Yes" enters it), and the next hand called a misdeal
before the flop, its buy-ins filled in again. Targets at least 44 px; no sideways scroll."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tables.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.services]

SIZES = {"landscape": {"width": 1024, "height": 768}, "portrait": {"width": 768, "height": 1024}}


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


@pytest.fixture(params=list(SIZES))
def sized_page(
    request: pytest.FixtureRequest, browser: Any, live_server: Any, demo_floor: None
) -> Iterator[tuple[str, Any]]:
    context = browser.new_context(viewport=SIZES[request.param], base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield request.param, page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def big_enough(page: Any, selector: str) -> None:
    for box in [b.bounding_box() for b in page.locator(selector).all()]:
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (selector, box)


def act(page: Any, label: str) -> None:
    page.locator("#action-form button.ri-action", has_text=label).first.click()


def test_undo_a_confirmed_fold_and_a_misdeal(sized_page: tuple[str, Any], shots_dir: Path) -> None:
    size, page = sized_page

    def shot(name: str) -> None:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"
        page.screenshot(path=str(shots_dir / f"ri-mistakes-{size}-{name}.png"), full_page=True)

    page.goto("/accounts/login/?next=/tablet/")
    page.fill("input[name=username]", "dealer")
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/tablet/")
    page.locator('article[data-table="RI-1"]').locator(
        "form button[type=submit], a.button"
    ).first.click()
    page.fill("#id-seat-1-buy_in", "100")
    page.fill("#id-seat-2-buy_in", "100")
    page.click("#buyins-form button[type=submit]")
    page.fill("#id-hole-0", "Ah")
    page.fill("#id-hole-1", "Kc")
    page.click("#hole-form button[type=submit]")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 1 to act")
    expect()(page.locator("#undo")).to_have_count(0)  # the hole cards are not taken back

    # A bet entered by mistake: undone after its confirmation.
    act(page, "Bet $10.00")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 2 to act")
    big_enough(page, "#undo, #hand-controls summary")
    page.click("#undo")
    expect()(page.locator("#confirm-question")).to_contain_text("Take back: Seat 1 bets")
    big_enough(page, "#confirm-yes, #confirm-back")
    shot("1-undo-confirm")
    page.click("#confirm-yes")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 1 to act")
    assert Hand.objects.get(status="open").record["actions"] == []

    # Seat 1 bets, seat 2 folds: the fold asks first; Back changes nothing.
    act(page, "Bet $10.00")
    act(page, "Fold")
    expect()(page.locator("#confirm-question")).to_contain_text("Seat 2 folds")
    shot("2-fold-confirm")
    page.click("#confirm-back")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 2 to act")
    assert Hand.objects.get(status="open").record["actions"] == ["bet"]
    act(page, "Fold")
    page.click("#confirm-yes")
    expect()(page.locator("#finish-form h2")).to_contain_text("Hand over")
    page.click("#finish-form button[type=submit]")

    # The next hand: a card exposed before the flop, called a misdeal.
    page.click("#buyins-form button[type=submit]")
    page.fill("#id-hole-0", "2c")
    page.fill("#id-hole-1", "3d")
    page.click("#hole-form button[type=submit]")
    expect()(page.locator("#action-form h2")).to_contain_text("to act")
    page.locator("#hand-controls summary").click()
    page.fill("#id-reason", "seat 1's card exposed")
    page.click("#misdeal")
    expect()(page.locator("#confirm-question")).to_contain_text("Misdeal: seat 1's card exposed")
    shot("3-misdeal-confirm")
    page.click("#confirm-yes")
    expect()(page.locator("#buyins-form h2")).to_have_text("Buy-ins for the next hand")
    expect()(page.locator("#buyins-form")).to_contain_text("(a misdeal) are filled in")
    shot("4-after-misdeal")
    assert Hand.objects.filter(status="misdeal").count() == 1
