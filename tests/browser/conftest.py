"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser).

Without /usr/bin/chromium they are skipped with a visible reason, unless
JASS_REQUIRE_BROWSER=1 (CI), where a missing browser is an error.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page

# Playwright's sync API runs an event loop; Django's ORM must be allowed beside it.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
HERE = Path(__file__).parent


def chromium_available() -> bool:
    return Path(CHROMIUM).exists() or shutil.which("chromium") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    browser_items = [item for item in items if HERE in Path(str(item.fspath)).parents]
    for item in browser_items:
        item.add_marker(pytest.mark.browser)
    if browser_items and not chromium_available():
        if os.environ.get("JASS_REQUIRE_BROWSER") == "1":
            raise pytest.UsageError(f"JASS_REQUIRE_BROWSER=1 but no Chromium at {CHROMIUM}")
        skip = pytest.mark.skip(
            reason=f"no Chromium at {CHROMIUM}: apt-get install chromium (CI installs it)"
        )
        for item in browser_items:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(autouse=True)
def close_what_the_test_opened(browser: Browser):
    """Close every browser context a test opened, when it ends.

    A context left open keeps its pages alive for the rest of the run: a live page
    polls the server every second, and those requests reached the live server while
    later tests ran, with no database access allowed (a traceback in another test's
    captured stderr; CI of 2026-12-05). pytest-django's database fixtures are set up
    before this one, so this teardown runs while the test's database is still there.
    """
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def phone(browser, browser_context_args: dict):  # a page at phone width
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 390, "height": 844}}
    )
    yield context.new_page()
    context.close()


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    # A Swiss pupil's browser: LocaleMiddleware picks German from Accept-Language.
    return {**browser_context_args, "locale": "de-CH"}


@pytest.fixture
def sign_in(live_server):
    """``sign_in(context, user)``: give a browser context a logged-in session for
    ``user`` (``None``: no session). Tests that are not about logging in skip the form
    and its deliberately slow password hash."""

    def sign(context: BrowserContext, user) -> None:
        context.clear_cookies(name="sessionid")
        if user is None:
            return
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])

    return sign


@pytest.fixture
def browser_for(browser: Browser, browser_context_args: dict, live_server):
    """``browser_for(width, lang)``: a new page in its own context at that width, whose
    browser asks for ``lang`` (Accept-Language and Django's language cookie)."""
    contexts: list[BrowserContext] = []

    def make(width: int, lang: str) -> Page:
        context = browser.new_context(
            **{
                **browser_context_args,
                "viewport": {"width": width, "height": 844 if width < 600 else 900},
                "locale": {"de": "de-CH", "fr": "fr-CH"}.get(lang, "en"),
            }
        )
        context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
        )
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
