"""The record's verification in a real browser: a tampered record's failed run on the pit
boss's dashboard, an auditor verifying the record now from the trail, a note refused when
blank and accepted when written, the alert gone. Nothing overflows at 1280x800 or 390x844.
Screenshots go to `SCREENSHOTS_DIR`, else /tmp/casino-screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from reports.models import VerificationRun
from reports.verification import verify_now
from tests.audit.tamper import raw

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop (see tests/browser)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.skipif(
        not Path("/usr/bin/chromium").exists(),
        reason="no Chromium at /usr/bin/chromium: the browser tests need Debian's chromium",
    ),
]


@pytest.fixture
def shots() -> Path:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or "/tmp/casino-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def sign_in(page: Any, username: str, to: str) -> None:
    page.goto(f"/accounts/login/?next={to}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"**{to}")


def fits(page: Any) -> bool:
    """Nothing wider than the window (no sideways scrolling of the page)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_failed_run_on_the_dashboard_then_verified_and_acknowledged(
    new_page: Any,  # noqa: F811 - the fixture imported above
    shots: Path,
    eager_celery: Any,
) -> None:
    raw("UPDATE audit_auditevent SET data = %s WHERE seq = 3", ['{"forged": true}'])
    failed = verify_now(trigger="nightly")
    assert failed.ok is False

    for phone in (False, True):
        page = new_page(phone=phone)
        sign_in(page, "pitboss", "/reports/dashboard/")
        panel = page.locator("#record-panel")
        assert "alerting" in (panel.get_attribute("class") or "")
        assert "NOT whole" in panel.inner_text()
        assert page.locator("#record-stat .stat-value").inner_text() == "Not whole"
        assert fits(page), "the dashboard scrolls sideways"
        panel.scroll_into_view_if_needed()
        suffix = "phone" if phone else "tablet"
        page.screenshot(path=str(shots / f"record-dashboard-failed-{suffix}.png"), full_page=True)

    page = new_page()
    sign_in(page, "auditor", "/audit/")
    button = page.locator("#verify-now")
    assert button.is_visible() and button.inner_text() == "Verify the record now"
    assert fits(page), "the trail scrolls sideways"
    page.screenshot(path=str(shots / "record-trail-button.png"))
    button.click()
    page.wait_for_url("**/audit/record/")
    assert "The record is NOT whole" in page.locator(".messages").inner_text()
    mine = VerificationRun.objects.exclude(pk=failed.pk).get()
    assert mine.requested_by is not None and mine.requested_by.get_username() == "auditor"
    assert fits(page), "the record page scrolls sideways"
    page.screenshot(path=str(shots / "record-page.png"), full_page=True)

    form = page.locator(f"#run-{failed.pk} form")
    form.locator("textarea").fill("   ")
    form.locator("button").click()
    error = page.locator(f"#note-error-{failed.pk}")
    assert "the note field is empty" in error.inner_text()
    page.screenshot(path=str(shots / "record-note-refused.png"), full_page=True)
    form = page.locator(f"#run-{failed.pk} form")
    form.locator("textarea").fill("Event 3 restored from the backup; database access reviewed.")
    form.locator("button").click()
    page.wait_for_url("**/audit/record/")
    assert "acknowledged" in page.locator(".messages").inner_text()
    failed.refresh_from_db()
    assert failed.acknowledged_at is not None

    page.goto("/reports/dashboard/")
    # the auditor's own run (the chain is still broken) is the one alert left
    assert page.locator("#record-panel .record-failure").count() == 1
    assert page.locator(f'#record-panel [data-run="{failed.pk}"]').count() == 0
