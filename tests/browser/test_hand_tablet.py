"""Rhode Island Hold 'Em on the dealer tablet in a real browser, on a 1024x768 tablet and on a
390x844 phone: the dealer enters the buy-ins, the hole cards, every action (only the legal ones
are offered, with their amounts), the flop and the turn; pot and stacks are shown throughout;
an all-in builds a side pot; who wins what is shown before confirm. A refused card is shown at
its field. Each step is saved as a screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tables.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.services]

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}


def expect() -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect


@pytest.fixture(params=list(SIZES))
def sized_page(
    request: pytest.FixtureRequest, browser: Any, live_server: Any, demo_floor: None
) -> Iterator[tuple[str, Any]]:
    size = request.param
    phone = size == "phone"
    context = browser.new_context(
        viewport=SIZES[size],
        base_url=live_server.url,
        has_touch=phone,
        is_mobile=phone,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield size, page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def log_in_at_ri(page: Any) -> None:
    page.goto("/accounts/login/?next=/tablet/")
    page.fill("input[name=username]", "dealer")
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/tablet/")
    card = page.locator('article[data-table="RI-1"]')
    card.locator("form button[type=submit], a.button").first.click()
    expect()(page.locator(".t-head h1")).to_contain_text("RI-1")


def offered(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#action-form button.ri-action").all_inner_texts()]


def act(page: Any, label: str) -> None:
    page.locator("#action-form button.ri-action", has_text=label).first.click()


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"


def big_enough(page: Any, selector: str) -> None:
    for box in [b.bounding_box() for b in page.locator(selector).all()]:
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, box


def test_a_whole_hand_on_the_tablet_and_the_phone(
    sized_page: tuple[str, Any], shots_dir: Path
) -> None:
    size, page = sized_page

    def shot(name: str) -> None:
        no_sideways_scroll(page)
        page.screenshot(path=str(shots_dir / f"ri-{size}-{name}.png"), full_page=True)

    log_in_at_ri(page)
    expect()(page.locator("#buyins-form h2")).to_have_text("Buy-ins for the next hand")
    page.fill("#id-seat-1-buy_in", "15")
    page.fill("#id-seat-2-buy_in", "100")
    page.fill("#id-seat-4-buy_in", "100")
    shot("1-buy-ins")
    page.click("#buyins-form button[type=submit]")

    expect()(page.locator("#hole-form h2")).to_have_text("Hole cards")
    page.fill("#id-hole-0", "Ah")
    page.fill("#id-hole-1", "Ah")  # the same card twice: refused at the field
    page.fill("#id-hole-2", "Qc")
    page.click("#hole-form button[type=submit]")
    expect()(page.locator("#hole-form .field-error").first).to_contain_text("A♥")
    assert Hand.objects.get(status="open").record["hole"] == []
    shot("2-refused-hole-card")
    page.fill("#id-hole-1", "Kc")
    page.click("#hole-form button[type=submit]")

    expect()(page.locator("#action-form h2")).to_contain_text("seat 1 to act")
    expect()(page.locator("#pot")).to_have_text("$15.00")  # the antes, as on the hole cards'
    assert offered(page) == ["Check", "Bet $10.00 (all-in)"]
    big_enough(page, "#action-form button.ri-action")
    shot("3-first-to-act")
    act(page, "Check")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 2 to act")
    act(page, "Bet $10.00")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 4 to act")
    assert offered(page) == ["Fold", "Call $10.00", "Raise $20.00"]
    act(page, "Call $10.00")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 1 to act")
    assert offered(page) == ["Fold", "Call $10.00 (all-in)"]
    shot("4-all-in-call")
    act(page, "Call $10.00 (all-in)")

    expect()(page.locator("#board-form h2")).to_have_text("Deal the flop")
    expect()(page.locator("#pot")).to_have_text("$45.00")
    page.fill("#id-flop", "Ad")
    page.click("#board-form button[type=submit]")
    expect()(page.locator("#action-form h2")).to_contain_text("seat 2 to act")
    act(page, "Bet $20.00")
    act(page, "Call $20.00")
    expect()(page.locator("#board-form h2")).to_have_text("Deal the turn")
    expect()(page.locator('.ri-player[data-seat="4"] .stack')).to_have_text("$65.00")
    shot("5-side-pot-before-turn")
    page.fill("#id-turn", "2s")
    page.click("#board-form button[type=submit]")
    act(page, "Check")
    act(page, "Check")

    expect()(page.locator("#finish-form h2")).to_contain_text("Hand over")
    pots = page.locator(".ri-pots li").all_inner_texts()
    assert "Main pot $45.00" in pots[0] and "won by seat 1: $42.00" in pots[0]
    assert "Side pot 1 $40.00" in pots[1] and "won by seat 2: $40.00" in pots[1]
    expect()(page.locator("#finish-form")).to_contain_text("rake $3.00")
    shot("6-who-wins-what")
    page.click("#finish-form button[type=submit]")

    expect()(page.locator("#buyins-form h2")).to_have_text("Buy-ins for the next hand")
    expect()(page.locator("#last-hand")).to_contain_text("pot $85.00, rake $3.00")
    expect()(page.locator("#id-seat-1-buy_in")).to_have_value("42.00")
    shot("7-next-hand")
    hand = Hand.objects.get(status="finished")
    assert hand.rake_cents == 300
    assert [p.payoff_cents for p in hand.players.order_by("position")] == [2700, 500, -3500]
