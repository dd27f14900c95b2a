"""Browser tests: Playwright (sync API) drives headless Debian Chromium against pytest-django's
`live_server`. One browser per session; each test gets a fresh page and the demo floor."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import override_settings

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: the browser tests need Debian's chromium package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        pytest.skip("Playwright for Python is not installed (pip install -e '.[dev]')")
    # Playwright's sync API runs an event loop in this thread; without this Django's ORM
    # refuses to run "from an async context" (the tests read the database to check the page).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as pw:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def demo_floor(transactional_db: Any) -> None:
    """The demo floor in the live server's database (seed_demo runs only with DEBUG on)."""
    with override_settings(DEBUG=True), open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)


@pytest.fixture
def new_page(browser: Any, live_server: Any, demo_floor: None) -> Iterator[Callable[..., Any]]:
    """Open a page on the live server: a 10-inch tablet unless told otherwise (`phone=True`,
    or `javascript=False` to check the pages work without it). JavaScript errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(*, phone: bool = False, javascript: bool = True) -> Any:
        context = browser.new_context(
            viewport=PHONE if phone else TABLET,
            base_url=live_server.url,
            has_touch=phone,
            is_mobile=phone,
            java_script_enabled=javascript,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    return new_page()


@pytest.fixture(scope="session")
def shots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each step's screenshot goes (a temporary folder; its path is printed with -s)."""
    path = tmp_path_factory.mktemp("tablet-screenshots")
    print(f"\ntablet screenshots: {path}")
    return path
