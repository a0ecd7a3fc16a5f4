"""The Content-Security-Policy in a real browser: the pages and their htmx requests run
without a single violation (no inline script, no eval, no injected <style>)."""

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, LearnerFactory
from tutor.lessons.services import load_course
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db(transaction=True)


def watch_csp(page: Page) -> list[str]:
    """Chromium reports each refused script, style or request on the console."""
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return violations


def test_pages_and_htmx_run_without_csp_violations(live_server, page: Page):
    load_course()
    learner = LearnerFactory(username="csp")
    quiz = create_quiz(learner=learner, kinds=["stoeck"], seeds=[3])
    violations = watch_csp(page)
    base = live_server.url

    for path in ("/", "/lessons/", "/lessons/cards/", "/accounts/login/"):
        page.goto(base + path)
        expect(page.locator("main")).to_be_visible()
    page.goto(base + "/weis/")
    page.locator('.player-panel[data-seat="0"] .pick:has(input[value="H6"])').click()
    page.locator('.player-panel[data-seat="0"] .pick:has(input[value="H7"])').click()
    page.locator('.player-panel[data-seat="0"] .pick:has(input[value="H8"])').click()
    expect(page.locator(".verdict")).to_contain_text("20")  # the htmx partial arrived

    page.goto(base + "/accounts/login/")
    page.get_by_label("Benutzername").fill("csp")
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()
    page.goto(f"{base}/practice/{quiz.pk}/q/0/")
    page.locator('input[name="choice"]').first.check()
    page.get_by_role("button", name="Antworten").click()
    expect(page.locator(".feedback")).to_be_visible()  # answered through htmx
    page.goto(base + "/dashboard/")
    assert page.evaluate("typeof htmx") == "object"
    assert violations == []
