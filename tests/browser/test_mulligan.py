"""Mulligan in a real browser: a dealer plays a whole game for chips under Secret Offers on the
tablet (the deal, an auction with its offers, a mulligan and its draws in order, a swap, the
folds that end it, the winner the system decided with every hand shown), while the players'
table display, open beside it, never shows a Secret Offer nor a hand until the end.
Screenshots at 1024x768 and 390x844."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tables.games.mulligan.game import Variant
from tables.models import Hand
from tests.games.mulligan.floor import mulligan_table

pytestmark = [pytest.mark.browser, pytest.mark.services]

SMALL = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


def expect() -> Any:
    from playwright.sync_api import expect as pw_expect

    return pw_expect


def log_in(page: Any, username: str = "dealer") -> None:
    page.goto("/accounts/login/?next=/tablet/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url("**/tablet/")


def shown_cards(page: Any) -> set[str]:
    return set(re.findall(r'data-card="(\w\w)"', page.content()))


def offer(page: Any, player: int, card: str, chips: str | None = None) -> None:
    form = page.locator(f"#offer-{player}")
    form.locator(f'label.pick:has([data-card="{card}"])').click()
    if chips is not None:
        form.locator("input[name=chips]").fill(chips)
    form.locator("button[type=submit]").click()
    expect()(page.locator(f"#offer-{player}")).to_have_count(0)


def auction(page: Any, card: str, chips: str) -> None:
    form = page.locator("#auction-form")
    form.locator(f'label.pick:has([data-card="{card}"])').click()
    form.locator("input[name=chips]").fill(chips)
    form.locator("button[type=submit]").click()
    expect()(page.locator("#auction-form")).to_have_count(0)


def headline(page: Any, text: str) -> None:
    expect()(page.locator("p.headline")).to_contain_text(text)


def test_a_whole_game_on_the_tablet_and_the_table_display_under_secret_offers(
    new_page: Any, shots_dir: Path
) -> None:
    users = {u.username: u for u in get_user_model().objects.all()}
    table = mulligan_table(
        users, {Variant.SECRET_OFFERS, Variant.CHIPS}, sign_in=False, rake_percent="10"
    )
    tablet = new_page()
    tablet.set_viewport_size(SMALL)
    log_in(tablet)
    tablet.locator(f'article[data-table="{table.name}"]').locator(
        "form button[type=submit], a.button"
    ).first.click()
    expect()(tablet.locator(".t-head h1")).to_contain_text(table.name)
    display = new_page(phone=True)
    log_in(display)
    display.goto(f"/tablet/table/{table.pk}/mulligan/display/")
    expect()(display.locator("p.headline")).to_have_text("No game is running at this table.")

    def shoot(name: str) -> None:
        tablet.screenshot(path=str(shots_dir / f"mulligan-{name}-1024.png"), full_page=True)
        display.reload()
        display.screenshot(path=str(shots_dir / f"mulligan-{name}-display-390.png"), full_page=True)

    # Buy-ins for seats 1 to 3, then the deal (player 0, seat 1, auctions first).
    for seat in (1, 2, 3):
        tablet.fill(f"#id-seat-{seat}-buy_in", "20")
    tablet.click("#buyins-form button[type=submit]")
    expect()(tablet.locator("#deal-form")).to_be_visible()
    for p, cards in enumerate(("3d 4d 5d 6d 8s", "9c 9d 9h 7s 7c", "Ah Kh Qh Jh 2c")):
        tablet.fill(f"#id-hand_{p}", cards)
    shoot("deal")
    tablet.click("#deal-form button[type=submit]")
    headline(tablet, "Turn 1: Seat 1 is the auctioneer: skip, fold or auction a card")

    # Player 0 auctions 8s with $2.00; players 1 and 2 offer face down.
    auction(tablet, "8s", "2")
    headline(tablet, "offers due from seats 2, 3")
    offer(tablet, 1, "7c")
    offer(tablet, 2, "2c", "0.50")
    headline(tablet, "every offer is in; Seat 1 swaps with one or mulligans")
    assert {"7c", "2c"} <= shown_cards(tablet)  # the house sees every offer
    shoot("secret-offers")
    # The players' display: the auctioned card and chips, never the Secret Offers, no hand.
    assert shown_cards(display) == {"8s"}
    html = display.content()
    assert "7♣" not in html and "2♣" not in html and "$0.50" in html
    expect()(display.locator(".mg-offers .pc.back")).to_have_count(2)
    expect()(display.locator(".mg-seats .pc.back")).to_have_count(12)

    # A mulligan: the ring goes to the discard pile; the draws in order (0, 1, 2).
    draws = tablet.locator("#mulligan-form input[name^=draw_]")
    expect()(draws).to_have_count(3)
    assert [draws.nth(i).get_attribute("name") for i in range(3)] == ["draw_0", "draw_1", "draw_2"]
    tablet.fill("#id-draw_0", "Tc")
    tablet.fill("#id-draw_1", "Ah")  # already in player 2's hand: refused
    tablet.fill("#id-draw_2", "Qc")
    tablet.click("#mulligan-form button[type=submit]")
    expect()(tablet.locator(".t-alert")).to_contain_text(
        "A♥ drawn by Seat 2 is already in Seat 3's hand"
    )
    tablet.fill("#id-draw_1", "Jc")
    tablet.click("#mulligan-form button[type=submit]")
    headline(tablet, "Turn 2: Seat 2 is the auctioneer")
    display.reload()
    assert shown_cards(display) == {"8s", "7c", "2c"}  # discarded: face up at last
    expect()(display.locator("[data-pot]")).to_have_text("$2.50")

    # Player 1 auctions 9c; player 2 offers Ah, player 0 offers 3d; player 1 takes Ah.
    auction(tablet, "9c", "1")
    offer(tablet, 2, "Ah")
    offer(tablet, 0, "3d")
    tablet.locator("form:has(input[name=offer_of][value='2']) button").click()
    headline(tablet, "Turn 3: Seat 3 is the auctioneer")
    display.reload()
    assert "A♥" not in display.content()  # the swapped offer stays secret
    # Player 2 folds; player 0 folds (each confirmed): the game ends, the system names the winner.
    tablet.locator("form:has(input[name=do][value=fold]) button").click()
    tablet.locator("#confirm-yes").click()
    headline(tablet, "Turn 4: Seat 1 is the auctioneer")
    tablet.locator("form:has(input[name=do][value=fold]) button").click()
    tablet.locator("#confirm-yes").click()
    # Player 0's 3d 4d 5d 6d Tc (a low straight) beats a pair of queens and a pair of nines.
    headline(tablet, "The game is over (by a fold): Seat 1 wins")
    expect()(tablet.locator(".mg-result h2")).to_have_text("Seat 1 wins with low straight")
    expect()(tablet.locator(".mg-result")).to_contain_text("Pot $2.50, house rake $0.25")
    shoot("over")
    for seat in display.locator(".mg-seat").all():  # every hand shown at the end
        expect()(seat.locator(".pc:not(.back)")).to_have_count(5)
    expect()(display.locator(".mg-result h2")).to_contain_text("Seat 1 wins")
    tablet.set_viewport_size(PHONE)
    tablet.screenshot(path=str(shots_dir / "mulligan-over-390.png"), full_page=True)
    tablet.set_viewport_size(SMALL)
    # The dealer confirms; the hand is finished with the pot, the rake and the payoffs.
    tablet.click("#finish-form button[type=submit]")
    expect()(tablet.locator("#buyins-form")).to_be_visible()
    hand = Hand.objects.get(table=table)
    assert hand.status == Hand.Status.FINISHED and hand.result["winner"] == 0
    assert (hand.pot_cents, hand.rake_cents) == (250, 25)
    # Player 0: -$2.00 on the ring, +$2.25 from the pot; player 1's $1.00 went with the 9c to
    # player 2, whose $0.50 went to the pot in the mulligan.
    assert [p.payoff_cents for p in hand.players.order_by("position")] == [25, -100, 50]

    display.set_viewport_size(SMALL)
    display.screenshot(path=str(shots_dir / "mulligan-over-display-1024.png"), full_page=True)
