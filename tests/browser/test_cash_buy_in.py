"""A large cash buy-in at the tablet, in a real browser: $3,500.00 without a patron is refused
naming the patron field, what was typed kept and nothing saved; described as a new patron it is
taken, on the MTL, and the patron's number shown; the compliance officer reads it on the day's
MTL. Screenshots of the refusal and of the compliance page at 1024 px."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from accounting.models import Slip
from compliance.models import MtlEntry, Patron

from .test_accounting import dealer_at_sc1, expect, log_in

pytestmark = [pytest.mark.browser, pytest.mark.services]


def test_a_large_cash_buy_in_names_its_patron_at_the_tablet(
    new_page: Callable[..., Any], shots_dir: Path
) -> None:
    page = new_page()
    page.set_viewport_size({"width": 1024, "height": 768})
    dealer_at_sc1(page)
    page.click("text=Chips: buy-in, fills, tray")
    page.select_option("#buy-in-seat", "3")
    page.fill("#other-amount", "3500")
    page.click("#buy-in .a-other button[type=submit]")
    notice = page.locator("#buy-in-patron").locator("xpath=ancestor::form[1]")
    expect()(page.locator("body")).to_contain_text("patron: a cash buy-in of $3,000.00 or more")
    page.screenshot(path=str(shots_dir / "cash-buy-in-refused-1024.png"), full_page=True)
    assert notice.count() == 1
    expect()(page.locator("#other-amount")).to_have_value("3500")
    assert not Slip.objects.filter(kind="buy_in").exists()
    assert not Patron.objects.exists()

    # Described as a new patron: taken, on the MTL.
    page.locator(".a-describe summary").click()
    page.fill('input[name="sex"]', "male")
    page.fill('input[name="clothing"]', "grey suit, red tie")
    page.click("#buy-in .a-other button[type=submit]")
    page.screenshot(path=str(shots_dir / "cash-buy-in-described-1024.png"), full_page=True)
    expect()(page.locator("#notice")).to_contain_text("$3,500.00")
    patron = Patron.objects.get()
    expect()(page.locator("#notice")).to_contain_text("$3,500.00")
    slip = Slip.objects.get(kind="buy_in")
    assert slip.amount_cents == 350000 and slip.cash_transaction.patron == patron
    assert MtlEntry.objects.get().patron == patron

    desk = new_page()
    desk.set_viewport_size({"width": 1024, "height": 768})
    log_in(desk, "compliance", "/compliance/")
    expect()(desk.locator("body")).to_contain_text(patron.number)
    expect()(desk.locator("body")).to_contain_text("$3,500.00")
    desk.screenshot(path=str(shots_dir / "compliance-day-1024.png"), full_page=True)
    overflow = desk.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, "the compliance page scrolls sideways at 1024 px"
