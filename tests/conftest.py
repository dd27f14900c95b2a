"""Suite-wide test settings.

With CASINO_REQUIRE_SERVICES=1 (CI sets it) a test skipped for a missing service or browser
fails instead: CI must really exercise PostgreSQL, Redis, the worker and Chromium.
"""

from __future__ import annotations

import os

import pytest

REQUIRE_SERVICES = os.environ.get("CASINO_REQUIRE_SERVICES", "") not in ("", "0", "false")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_SERVICES and report.skipped and item.get_closest_marker("services") is not None:
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped, but CASINO_REQUIRE_SERVICES is set: {reason}"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Tests create many users; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
