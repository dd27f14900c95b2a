"""Mulligan's players' display on its own screen, in a real browser, beside the dealer's tablet:

- a pit boss issues the table's display key on the Displays page and the screen opens it (no
  account signed in there: no staff link, no navigation, no sign-out on the page);
- on the tablet, a game called a misdeal (confirmed), then a game with an auction taken back
  (undo, confirmed) and two confirmed folds that end it; then the next game is dealt;
- the display follows all of it without a reload (a marker set in the page survives): each
  game's turn, the misdeal's empty table, the winner, then the next game; it never shows a hand
  before the end, and its key opens neither the tablet nor any other page.

Screenshots of the display at 1024x768 and 768x1024 (`SCREENSHOTS_DIR`, else
/tmp/casino-screenshots)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tables.models import Hand
from tests.games.mulligan.floor import mulligan_table

from .test_mulligan import expect, headline, log_in

pytestmark = [pytest.mark.browser, pytest.mark.services]

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
HANDS = ("3d 4d 5d 6d 8s", "9c 9d 9h 7s 7c", "Ah Kh Qh Jh 2c")


@pytest.fixture
def shots() -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or "/tmp/casino-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def faces(page: Any) -> set[str]:
    return set(re.findall(r'data-card="(\w\w)"', page.locator("#mg-display").inner_html()))


def open_and_deal(tablet: Any) -> None:
    for seat in (1, 2, 3):
        tablet.fill(f"#id-seat-{seat}-buy_in", "20")
    tablet.click("#buyins-form button[type=submit]")
    expect()(tablet.locator("#deal-form")).to_be_visible()
    for p, cards in enumerate(HANDS):
        tablet.fill(f"#id-hand_{p}", cards)
    tablet.click("#deal-form button[type=submit]")
    headline(tablet, "Turn 1: Seat 1 is the auctioneer: skip, fold or auction a card")


def test_the_display_follows_the_table_across_games_on_its_own_key(
    new_page: Any, shots: Path
) -> None:
    users = {u.username: u for u in get_user_model().objects.all()}
    table = mulligan_table(users, sign_in=False)

    # The pit boss issues the table's display key; its link is shown once.
    boss = new_page()
    boss.goto("/accounts/login/?next=/tablet/displays/")
    boss.fill("input[name=username]", "pitboss")
    boss.fill("input[name=password]", "demo")
    boss.click("button[type=submit]")
    boss.wait_for_url("**/tablet/displays/")
    boss.locator(f'tr[data-table="{table.name}"] button', has_text="Issue a display key").click()
    link = boss.locator(".issued-key a[data-link]").inner_text()
    assert "/display/" in link

    # The table's screen opens the link: one tap, then the display, with no staff chrome.
    display = new_page()
    display.set_viewport_size(LANDSCAPE)
    display.goto(link)
    expect()(display.locator("h1")).to_have_text("Open a table's players' display")
    display.screenshot(path=str(shots / "mulligan-display-sign-in-1024.png"), full_page=True)
    display.click("button[type=submit]")
    display.wait_for_url(f"**/tablet/table/{table.pk}/mulligan/display/")
    headline(display, "No game is running at this table.")
    for chrome in ("nav", "header.topbar", "a[href*='/tablet/']", "form[action*='logout']"):
        expect()(display.locator(chrome)).to_have_count(0)
    assert "Sign out" not in display.content() and "Dealer tablet" not in display.content()
    display.evaluate("window.sameDocument = true")  # gone if the page were ever reloaded

    tablet = new_page()
    tablet.set_viewport_size(LANDSCAPE)
    log_in(tablet)
    tablet.locator(f'article[data-table="{table.name}"]').locator(
        "form button[type=submit], a.button"
    ).first.click()
    expect()(tablet.locator(".t-head h1")).to_contain_text(table.name)

    # Game 1: dealt, then called a misdeal before the first auction (asked, then confirmed).
    open_and_deal(tablet)
    headline(display, "Turn 1: Seat 1 is the auctioneer")
    assert faces(display) == set()  # no hand before the end
    tablet.locator("#hand-controls summary").click()
    tablet.fill("#id-reason", "seat 2's card exposed")
    tablet.click("#misdeal")
    expect()(tablet.locator("#confirm-question")).to_contain_text("seat 2's card exposed")
    tablet.click("#confirm-yes")
    expect()(tablet.locator("#buyins-form")).to_contain_text("(a misdeal) are filled in")
    headline(display, "No game is running at this table.")

    # Game 2 (the next seat auctions first): an auction entered by mistake is taken back
    # (asked, then confirmed).
    tablet.click("#buyins-form button[type=submit]")
    expect()(tablet.locator("#deal-form")).to_be_visible()
    for p, cards in enumerate(HANDS):
        tablet.fill(f"#id-hand_{p}", cards)
    tablet.click("#deal-form button[type=submit]")
    turn_1 = "Turn 1: Seat 2 is the auctioneer: skip, fold or auction a card"
    headline(tablet, turn_1)
    headline(display, turn_1)
    form = tablet.locator("#auction-form")
    form.locator('label.pick:has([data-card="7c"])').click()
    form.locator("button[type=submit]").click()
    headline(tablet, "Turn 1: Seat 2 auctions 7♣")
    headline(display, "Turn 1: Seat 2 auctions 7♣")
    tablet.click("#undo")
    expect()(tablet.locator("#confirm-question")).to_contain_text("Take back")
    tablet.click("#confirm-yes")
    headline(tablet, turn_1)
    headline(display, turn_1)
    assert Hand.objects.get(table=table, status="open").record["actions"] == []
    display.screenshot(path=str(shots / "mulligan-display-game-1024.png"), full_page=True)

    # Seat 2 skips; seats 3 and 1 fold, each asked first: the game ends, the system decides.
    tablet.locator("form:has(input[name=do][value=skip]) button").click()
    headline(tablet, "Turn 2: Seat 3 is the auctioneer")
    for turn in (2, 3):
        tablet.locator("form:has(input[name=do][value=fold]) button").click()
        expect()(tablet.locator("#confirm-question")).to_contain_text("folds")
        tablet.click("#confirm-yes")
        if turn == 2:
            headline(tablet, "Turn 3: Seat 1 is the auctioneer")
    headline(tablet, "The game is over (by a fold): Seat ")
    over = tablet.locator("p.headline").inner_text().strip()
    headline(display, over)
    expect()(display.locator(".mg-result h2")).to_contain_text(over.split(": ")[-1])
    assert faces(display) >= {c for h in HANDS for c in h.split()}  # every hand, at the end
    display.screenshot(path=str(shots / "mulligan-display-over-1024.png"), full_page=True)
    display.set_viewport_size(PORTRAIT)
    display.screenshot(path=str(shots / "mulligan-display-over-768.png"), full_page=True)
    display.set_viewport_size(LANDSCAPE)

    # The dealer confirms the result and deals the next game: the display shows it on its own.
    tablet.click("#finish-form button[type=submit]")
    expect()(tablet.locator("#buyins-form")).to_be_visible()
    headline(display, over)  # until the next game is dealt
    tablet.click("#buyins-form button[type=submit]")
    expect()(tablet.locator("#deal-form")).to_be_visible()
    for p, cards in enumerate(("2s 3s 4s 5s 9d", "Kc Kd Ks 7d 7h", "Qc Qd Jc Jd 6h")):
        tablet.fill(f"#id-hand_{p}", cards)
    tablet.click("#deal-form button[type=submit]")
    headline(tablet, "Turn 1:")
    headline(display, "Turn 1:")
    expect()(display.locator(".mg-result")).to_have_count(0)
    assert faces(display) == set()
    assert display.evaluate("window.sameDocument") is True  # no reload on the way
    assert Hand.objects.filter(table=table).count() == 3
    display.screenshot(path=str(shots / "mulligan-display-next-game-1024.png"), full_page=True)
    display.set_viewport_size(PORTRAIT)
    display.screenshot(path=str(shots / "mulligan-display-next-game-768.png"), full_page=True)
    width = display.evaluate("document.documentElement.scrollWidth")
    assert width <= PORTRAIT["width"], f"the display scrolls sideways ({width}px)"

    # The display's key opens nothing else: not the tablet, not the API.
    display.goto(f"/tablet/table/{table.pk}/")
    assert "/accounts/login/" in display.url
    api = display.request.get("/api/hands/")
    assert api.status in (401, 403)
