"""Rated play in a real browser: the dealer rates a seat by card at the tablet (typed as a
barcode scanner types it, then Enter), a barred card is refused with the message to call the
pit boss, the player leaves; the pit boss sees the player on the floor page and the refused card
on the dashboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from players.models import Rating, RefusedCardAlert

pytestmark = [pytest.mark.browser, pytest.mark.services]


def expect() -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect


def log_in(page: Any, username: str, then: str) -> None:
    page.goto(f"/accounts/login/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{then}")


def test_seating_by_card_at_the_tablet_and_the_floor_page(new_page: Callable[..., Any]) -> None:
    page = new_page()
    log_in(page, "dealer", "/tablet/")
    page.locator('article[data-table="SC-1"]').locator("form button[type=submit]").first.click()
    expect()(page.locator(".t-head h1")).to_contain_text("SC-1")
    page.click("#rated-players")
    expect()(page.locator("#seats-h")).to_have_text("Seats")

    # A scanner types the card's digits and Enter into the seat's field.
    page.locator("#card-3").press_sequentially("100001")
    page.locator("#card-3").press("Enter")
    expect()(page.locator("#notice")).to_contain_text("Seat 3: card 100001, Alice, rated")
    expect()(page.locator('li[data-seat="3"] .rated')).to_have_text("card 100001 · Alice")
    assert Rating.objects.get(ended_at__isnull=True).seat == 3

    # A barred card: refused, nothing seated, an alert for the pit boss.
    page.locator("#card-4").fill("100004")
    page.locator("#card-4").press("Enter")
    expect()(page.locator("#seating-error")).to_contain_text("call the pit boss")
    assert Rating.objects.count() == 1 and RefusedCardAlert.objects.count() == 1

    boss = new_page()
    log_in(boss, "pitboss", "/players/floor/")
    row = boss.locator('#on-floor tr[data-card="100001"]')
    expect()(row).to_contain_text("Alice Martin")
    expect()(row).to_contain_text("SC-1")
    expect()(row).to_contain_text("Seat 3")
    boss.goto("/reports/dashboard/")
    expect()(boss.locator("#refused-cards")).to_contain_text("card 100004")
    boss.locator("#refused-cards button").click()
    expect()(boss.locator("#refused-cards")).to_have_count(0)

    # The player leaves: the rating ends.
    page.goto(f"/players/tablet/{Rating.objects.get().table_id}/")
    page.click('button[data-unseat="3"]')
    expect()(page.locator("#notice")).to_contain_text("Seat 3: rating ended")
    assert Rating.objects.get().ended_at is not None
    boss.goto("/players/floor/")
    expect()(boss.locator("#on-floor")).to_contain_text("No rated player is seated.")
