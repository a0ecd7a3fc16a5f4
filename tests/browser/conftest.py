"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser).

Without /usr/bin/chromium they are skipped with a visible reason, unless
JASS_REQUIRE_BROWSER=1 (CI), where a missing browser is an error.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

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
