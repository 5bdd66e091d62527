"""Real Chromium (Debian's ``chromium`` package) driven by Playwright.

Playwright downloads no browser here: it launches /usr/bin/chromium. The fixtures give a
page at a tablet viewport against pytest-django's ``live_server``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls made by
# the test itself (fixtures, asserts) are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TABLET = {"width": 768, "height": 1024}
PROJECTOR = {"width": 1920, "height": 1080}


_SHARED: dict[str, Any] = {"users": 0}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. Playwright's sync API runs an event loop in the main
    thread while it is started, and a later test's ``async_to_sync`` refuses to run beside
    it, so it stops when the module is done. Other folders import these fixtures, and each
    import is a fixture of its own; a second Playwright cannot start inside the first one's
    event loop, so every copy shares one, closed when the last copy is done."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("Chromium is missing: apt-get install chromium (.ci/run installs it)")
    if not _SHARED["users"]:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _SHARED.update(playwright=playwright, browser=playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS))
    _SHARED["users"] += 1
    try:
        yield _SHARED["browser"]
    finally:
        _SHARED["users"] -= 1
        if not _SHARED["users"]:
            _SHARED["browser"].close()
            _SHARED["playwright"].stop()


@pytest.fixture
def tablet_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=TABLET, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def projector_page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PROJECTOR, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def login(page: Any, live_server_url: str, username: str, password: str) -> None:
    """Log in through the real login form."""
    page.goto(f"{live_server_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit], form button")
    page.wait_for_load_state()
