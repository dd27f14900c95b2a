"""Table accounting in a real browser: the dealer counts the tray on the denomination grid (the
running total follows the counts), takes a buy-in in two taps, and confirms a fill the pit boss
requested and the cage issued; the pit boss signs the tray count at the slip desk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounting.models import Slip
from accounting.services import slip_create, slip_sign
from tables.models import Table

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


def dealer_at_sc1(page: Any) -> None:
    log_in(page, "dealer", "/tablet/")
    page.locator('article[data-table="SC-1"]').locator("form button[type=submit]").first.click()
    expect()(page.locator(".t-head h1")).to_contain_text("SC-1")


def test_the_tray_count_and_a_buy_in_on_the_tablet(
    new_page: Callable[..., Any], django_user_model: Any
) -> None:
    page = new_page()
    dealer_at_sc1(page)
    page.click("text=Chips: buy-in, fills, tray")
    expect()(page.locator("#tray-h")).to_have_text("Tray count: opening")
    page.fill('input[name="chip_2500"]', "40")
    page.fill('input[name="chip_10000"]', "12")
    page.fill('input[name="chip_500"]', "3")
    expect()(page.locator("#tray-total")).to_have_text("$2,215.00")
    page.click("#tray-form button[type=submit]")
    expect()(page.locator("#notice")).to_contain_text("Opener")
    expect()(page.locator("#notice")).to_contain_text("$2,215.00")
    opener = Slip.objects.get(kind="opener")
    assert opener.chips == {"500": 3, "2500": 40, "10000": 12}
    assert opener.amount_cents == 221500 and opener.status == "pending"
    expect()(page.locator("#tray-h")).to_have_text("Tray count: closing")

    # A buy-in: the tablet's table page has the Chips button (tap 1), then the amount (tap 2).
    page.click("text=Back to the game")
    page.click("text=Chips: buy-in, fills, tray")
    page.click('button[data-buy-in="100"]')
    expect()(page.locator("#notice")).to_contain_text("Buy-in $100.00 — counts")
    buy_in = Slip.objects.get(kind="buy_in")
    assert buy_in.amount_cents == 10000 and buy_in.created_by.username == "dealer"

    # The pit boss signs the dealer's opener at the slip desk.
    boss = new_page()
    log_in(boss, "pitboss", "/accounting/")
    row = boss.locator(f'#awaiting tr[data-slip="{opener.number}"]')
    expect()(row).to_contain_text("$2,215.00")
    row.locator("button[type=submit]").click()
    expect()(boss.locator(".messages")).to_contain_text(f"You signed slip {opener.number}")
    opener.refresh_from_db()
    assert opener.status == "signed"


def test_the_dealer_confirms_a_fill(new_page: Callable[..., Any], django_user_model: Any) -> None:
    users = {u.username: u for u in django_user_model.objects.all()}
    table = Table.objects.get(name="SC-1")
    page = new_page()
    dealer_at_sc1(page)
    fill = slip_create(table=table, kind="fill", by=users["pitboss"], chips={"100.00": 10})
    # The cage issues it at the slip desk.
    cage = new_page()
    log_in(cage, "cage", "/accounting/")
    cage.locator(f'#awaiting tr[data-slip="{fill.number}"] button[type=submit]').click()
    expect()(cage.locator(".messages")).to_contain_text("awaits its next signature")
    # The dealer confirms receipt on the tablet.
    page.click("text=Chips: buy-in, fills, tray")
    item = page.locator(f'#to-confirm li[data-slip="{fill.number}"]')
    expect()(item).to_contain_text("received at the table")
    item.locator("button[type=submit]").click()
    expect()(page.locator("#notice")).to_contain_text(f"Slip {fill.number}: Fill")
    expect()(page.locator("#notice")).to_contain_text("counts")
    expect()(page.locator("#to-confirm")).to_contain_text("Nothing awaits you.")
    fill.refresh_from_db()
    assert fill.status == "signed"
    assert [s.by.username for s in fill.signatures.all()] == ["cage", "dealer"]
    # A second fill is refused to the dealer while the cage has not issued it.
    second = slip_create(table=table, kind="fill", by=users["pitboss"], chips={"25.00": 4})
    page.reload()
    expect()(page.locator(f'#to-confirm li[data-slip="{second.number}"]')).to_have_count(0)
    slip_sign(slip=second, by=users["cage"])
    page.reload()
    expect()(page.locator(f'#to-confirm li[data-slip="{second.number}"]')).to_have_count(1)
