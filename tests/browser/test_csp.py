"""The Content-Security-Policy breaks nothing: the pages that run scripts (the tablet, the
dashboard's charts, the admin, the API docs) load with no policy violation in the console."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

PAGES = {
    "dealer": ["/tablet/", "/"],
    "pitboss": ["/reports/dashboard/", "/audit/", "/admin/", "/accounting/"],
    "auditor": ["/accounting/reconciliation/"],
    "cage": ["/accounting/"],
    "security": ["/admin/auth/user/", "/admin/auth/user/add/", "/api/docs/"],
}


@pytest.mark.parametrize("username", sorted(PAGES))
def test_no_page_violates_the_content_security_policy(new_page: Any, username: str) -> None:
    page = new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    for path in PAGES[username]:
        response = page.goto(path)
        assert response is not None and response.status == 200, path
        assert "Content-Security-Policy" in {k.title(): v for k, v in response.headers.items()}
        page.wait_for_load_state("networkidle")
        if path == "/api/docs/":
            page.wait_for_selector(".swagger-ui .info", timeout=10_000)
        if path == "/reports/dashboard/":
            page.wait_for_selector("canvas")
    assert not violations, violations
