import re

import pytest
from playwright.sync_api import Page, expect

from tests.factories import PASSWORD, LearnerFactory
from tutor.quizzes.models import Quiz

pytestmark = pytest.mark.django_db(transaction=True)


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(PASSWORD)
    page.get_by_role("button", name="Anmelden").click()


def test_short_quiz_one_right_one_wrong(live_server, page: Page):
    learner = LearnerFactory(username="lea")
    log_in(page, live_server.url, "lea")
    page.goto(live_server.url + "/practice/")
    page.get_by_role("checkbox", name="Welche Stufe der Leiter entscheidet").check()
    page.get_by_label("Fragen").fill("2")
    page.get_by_role("button", name="Üben beginnen").click()

    quiz = Quiz.objects.get(learner=learner)
    first, second = quiz.questions.order_by("position")
    wrong = next(
        c["key"] for c in second.question["choices"] if c["key"] != second.question["answer"]
    )

    page.locator(f'input[name="choice"][value="{first.question["answer"]}"]').check()
    page.get_by_role("button", name="Antworten").click()
    feedback = page.locator(".feedback")
    expect(feedback).to_contain_text("Richtig!")
    expect(feedback.locator(".ladder-step--decides")).to_have_count(1)

    page.get_by_role("link", name="Nächste Frage").click()
    # htmx swapped the next card in (no new page): the address, the title, the
    # breadcrumb and the focus follow it.
    expect(page).to_have_url(re.compile(rf"/practice/{quiz.pk}/q/1/$"))
    expect(page).to_have_title(re.compile(r"^Frage 2 von 2 · Jass$"))
    expect(page.locator("#question-crumbs")).to_contain_text("Frage 2 von 2")
    expect(page.locator("#question-card")).to_be_focused()
    page.locator(f'input[name="choice"][value="{wrong}"]').check()
    page.get_by_role("button", name="Antworten").click()
    expect(page.locator(".feedback")).to_contain_text("Nicht ganz.")
    expect(page.locator(".choice--answer")).to_contain_text("richtige Antwort")
    expect(page.locator(".feedback .ladder-step--decides")).to_contain_text("entscheidet")

    page.get_by_role("link", name="Zusammenfassung").click()
    expect(page.locator(".lead")).to_contain_text("1 von 2")
    # Each answer stored when its form was drawn (the page's, then the card htmx
    # swapped in), from the note the browser posted with it (tutor.quizzes.showing).
    for question in quiz.questions.order_by("position"):
        assert question.shown_at is not None
        assert question.shown_at <= question.answered_at
