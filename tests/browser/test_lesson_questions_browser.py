"""A learner answers the question at the end of a lesson in place (htmx), asks for
another one, and the answer counts toward mastery."""

import pytest
from playwright.sync_api import Page, expect

from tests.factories import LearnerFactory, LessonFactory
from tutor.quizzes.models import Quiz, SkillState

pytestmark = pytest.mark.django_db(transaction=True)

BODY = """Stöck sind König und Ober im Trumpf.

## Die Frist

Die Ansage gilt nur bis zur nächsten Karte [R6.3]. Wer hält, sagt es selbst [R6.4].

## Alles oder nichts

Zu spät ist verloren [R6.5]. Beide Karten bei einer Person [R6.1], mit der zweiten
Karte angesagt [R6.2], auch mitten in der Runde [R6.4a].
"""


def test_learner_answers_a_lesson_question_in_place(live_server, page: Page, client):
    LessonFactory(
        slug="stoeck",
        position=11,
        rules=["R6.1", "R6.2", "R6.3", "R6.4", "R6.4a", "R6.5"],
        sources=["ST-DE"],
        bodies={"de": BODY, "en": BODY},
        bodies__title="Stöck",
    )
    learner = LearnerFactory(username="lea")
    client.force_login(learner)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])

    page.goto(live_server.url + "/lessons/stoeck/")
    card = page.locator("#lesson-q-stoeck")
    expect(card.locator('input[name="choice"]').first).to_be_visible()
    question = Quiz.objects.get(learner=learner, source="lesson").questions.get()
    right = question.question["answer"]

    # htmx: only the card changes, the page stays (a marker set on the page survives)
    page.evaluate("window.__stayed = true")
    card.locator(f'input[name="choice"][value="{right}"]').check()
    card.get_by_role("button", name="Antworten").click()
    feedback = page.locator("#lesson-q-stoeck .feedback")
    expect(feedback).to_contain_text("Richtig!")
    assert page.evaluate("window.__stayed") is True
    href = feedback.locator(".lesson-links a").first.get_attribute("href")
    assert href.startswith("/lessons/stoeck/#")
    expect(page.locator(f"h2#{href.partition('#')[2]}")).to_have_count(1)
    state = SkillState.objects.get(learner=learner, skill="stoeck")
    assert state.attempts == 1 and state.correct == 1

    page.locator("#lesson-q-stoeck").get_by_role("button", name="Noch eine Frage").click()
    expect(page.locator('#lesson-q-stoeck input[name="choice"]').first).to_be_visible()
    assert page.evaluate("window.__stayed") is True
    assert Quiz.objects.get(learner=learner, source="lesson").questions.count() == 2
