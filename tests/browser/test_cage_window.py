"""The cage's window in a real browser: a described patron's chips bought with cash, on the
MTL; a second purchase takes the patron's day past $10,000 and opens a CTR; the next is refused
until the cashier identifies the patron (the typed values kept, nothing saved), then taken;
the day's totals. Screenshots at 1024 px."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from compliance.models import CashTransaction, Ctr, MtlEntry, Patron

from .test_accounting import expect, log_in

pytestmark = [pytest.mark.browser, pytest.mark.services]


def _record(page: Any, kind: str, amount: str, patron: str = "") -> None:
    page.select_option('#record select[name="kind"]', kind)
    page.fill('#record input[name="amount"]', amount)
    page.fill('#record input[name="patron"]', patron)
    page.click("#record button[type=submit]")


def test_the_cage_window_refuses_until_the_patron_is_identified(
    new_page: Callable[..., Any], shots_dir: Path
) -> None:
    page = new_page()
    page.set_viewport_size({"width": 1024, "height": 768})
    log_in(page, "cage", "/compliance/cage/")

    # A described patron's $6,000.00 of chips: a new patron number, on the MTL.
    page.select_option('#record select[name="kind"]', "chips_bought")
    page.fill('#record input[name="amount"]', "6000.00")
    page.locator("#record details summary").click()
    page.fill('#record input[name="sex"]', "female")
    page.fill('#record input[name="clothing"]', "green coat")
    page.click("#record button[type=submit]")
    expect()(page.locator("#recorded")).to_contain_text("$6,000.00")
    expect()(page.locator("#recorded")).to_contain_text("on the MTL")
    expect()(page.locator("#transactions")).to_contain_text("$6,000.00")
    patron = Patron.objects.get()
    assert MtlEntry.objects.get().patron == patron

    # $5,000.00 more: the day is $11,000.00, a CTR.
    _record(page, "chips_bought", "5000.00", patron.number)
    expect()(page.locator("#cash-in")).to_have_text("$11,000.00")
    assert Ctr.objects.get().patron == patron

    # The next is refused until the patron is identified; nothing saved, the typed values kept.
    _record(page, "chips_bought", "500.00", patron.number)
    expect()(page.locator(".alert")).to_contain_text("identify the patron at the cage")
    expect()(page.locator('#record input[name="amount"]')).to_have_value("500.00")
    expect()(page.locator('#record input[name="patron"]')).to_have_value(patron.number)
    page.screenshot(path=str(shots_dir / "cage-refused-until-identified-1024.png"), full_page=True)
    assert CashTransaction.objects.count() == 2

    page.click(f"text=Identify {patron.number}")
    page.wait_for_url(f"**/compliance/patrons/{patron.number}/")
    form = page.locator("#identify")
    form.locator('input[name="name"]').fill("Alma Ruiz")
    form.locator('input[name="date_of_birth"]').fill("1968-09-30")
    form.locator('input[name="address"]').fill("4 Bay Street, Reno, NV 89501")
    form.locator('select[name="id_type"]').select_option("passport")
    form.locator('input[name="id_number"]').fill("X1234567")
    form.locator('input[name="id_issuer"]').fill("United States")
    expiry = (date.today() + timedelta(days=900)).isoformat()
    form.locator('input[name="id_expiry"]').fill(expiry)
    form.locator('input[name="occupation"]').fill("nurse")
    form.locator("button[type=submit]").click()
    expect()(page.locator("body")).to_contain_text("Alma Ruiz")
    assert Patron.objects.get().is_identified

    page.goto("/compliance/cage/")
    _record(page, "chips_bought", "500.00", patron.number)
    expect()(page.locator("#cash-in")).to_have_text("$11,500.00")
    page.screenshot(path=str(shots_dir / "cage-window-1024.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, "the cage's window scrolls sideways at 1024 px"
    assert CashTransaction.objects.count() == 3
