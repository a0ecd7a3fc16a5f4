import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.factories import PASSWORD, LearnerFactory, TeacherFactory
from tutor.quizzes.models import Quiz

pytestmark = pytest.mark.django_db(transaction=True)


def new_page(browser: Browser, browser_context_args: dict) -> Page:
    return browser.new_context(**browser_context_args).new_page()


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()


def test_teacher_sets_work_learner_joins_and_submits(live_server, browser, browser_context_args):
    TeacherFactory(username="frau_keller")
    LearnerFactory(username="jürg")
    base = live_server.url

    teacher = new_page(browser, browser_context_args)
    log_in(teacher, base, "frau_keller")
    teacher.goto(base + "/classes/")
    teacher.get_by_label("Name der Klasse").fill("Klasse 5c")
    teacher.get_by_role("button", name="Klasse erstellen").click()
    code = teacher.locator(".join-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{8}", code)

    teacher.get_by_role("link", name="Neue Aufgabe").click()
    teacher.get_by_label("Titel").fill("Stöck-Probe")
    teacher.get_by_role("checkbox", name="Welche Stufe der Leiter entscheidet").check()
    teacher.get_by_label("Anzahl Fragen").fill("2")
    teacher.get_by_role("button", name="Aufgabe stellen").click()
    expect(teacher.locator(".messages")).to_contain_text("Stöck-Probe")

    learner = new_page(browser, browser_context_args)
    log_in(learner, base, "jürg")
    learner.goto(base + "/classes/join/")
    learner.get_by_label("Beitrittscode").fill(code.lower())
    learner.get_by_role("button", name="Beitreten").click()
    expect(learner.locator(".messages")).to_contain_text("Klasse 5c")

    learner.goto(base + "/dashboard/")
    learner.get_by_role("button", name="Beginnen").click()
    quiz = Quiz.objects.get(learner__username="jürg")
    for question in quiz.questions.order_by("position"):
        learner.locator(f'input[name="choice"][value="{question.question["answer"]}"]').check()
        learner.get_by_role("button", name="Antworten").click()
        expect(learner.locator(".feedback")).to_contain_text("Richtig!")
        link = learner.get_by_role("link", name=re.compile("Nächste Frage|Zusammenfassung"))
        link.click()
    learner.get_by_role("button", name="Bei der Lehrperson abgeben").click()
    expect(learner.locator(".messages")).to_contain_text("Abgegeben")

    teacher.reload()
    teacher.get_by_role("link", name="Ergebnisse").first.click()
    expect(teacher.locator("main")).to_contain_text("jürg")
    expect(teacher.locator("main")).to_contain_text("2/2")
