"""When a question was shown: noted, signed, in its answer form, and stored with the
answer (tutor/quizzes/showing.py). Showing a question writes nothing."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings
from django.utils import timezone

from teaching import mastery
from teaching.generators import KINDS
from tests.factories import QuizQuestionFactory
from tests.tutor.test_quizzes import q_url, right_and_wrong
from tutor.quizzes import showing
from tutor.quizzes.models import QuizQuestion, SkillState
from tutor.quizzes.selectors import answer_seconds
from tutor.quizzes.services import AlreadyAnswered, answer, create_quiz

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
NOTE = re.compile(r'name="shown" value="([^"]*)"')


@pytest.fixture
def quiz(learner):
    return create_quiz(learner=learner, kinds=list(KINDS[:3]), seeds=[1, 2, 3])


def note_in(html: str) -> str:
    (note,) = NOTE.findall(html)
    return note


# --- the note ------------------------------------------------------------------------


def test_a_note_reads_back_for_its_question_only():
    when = datetime(2026, 12, 6, 9, 0, 1, 500000, tzinfo=UTC)
    note = showing.note(12, 3, when)
    later = when + timedelta(seconds=9)
    assert showing.shown_at(note, 12, 3, later) == when
    assert showing.shown_at(note, 12, 4, later) is None  # another position
    assert showing.shown_at(note, 13, 3, later) is None  # another quiz


@pytest.mark.parametrize(
    "edit",
    [
        lambda n: n.replace(":", "1:", 1),  # the time changed
        lambda n: n[:-1] + ("A" if n[-1] != "A" else "B"),  # the signature changed
        lambda n: n.split(":")[0],  # no signature
        lambda n: "",
        lambda n: "x" * 5000,
        lambda n: "12.3.1:" + n.split(":")[1],  # another value, the same signature
    ],
)
def test_a_note_that_does_not_verify_reads_as_none(edit):
    when = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
    assert showing.shown_at(edit(showing.note(12, 3, when)), 12, 3, when) is None


def test_a_note_signed_with_another_key_reads_as_none():
    when = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
    with override_settings(SECRET_KEY="another-site-" + "k" * 40):
        foreign = showing.note(12, 3, when)
    assert showing.shown_at(foreign, 12, 3, when) is None


def test_a_note_from_a_clock_ahead_counts_as_now():
    now = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
    note = showing.note(12, 3, now + timedelta(seconds=4))
    assert showing.shown_at(note, 12, 3, now) == now


# --- showing writes nothing -----------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx card"])
def test_showing_a_question_writes_nothing_and_its_form_notes_when(client, learner, quiz, headers):
    client.force_login(learner)
    client.get(q_url(quiz, 0))  # the session's own first writes, if any, out of the way
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(q_url(quiz, 1), headers=headers)
    after = timezone.now()
    assert response.status_code == 200
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().split()[0].upper() in {"UPDATE", "INSERT", "DELETE"}
    ]
    assert writes == []
    assert quiz.questions.get(position=1).shown_at is None
    noted = showing.shown_at(note_in(response.content.decode()), quiz.pk, 1, after)
    assert noted is not None and before - timedelta(milliseconds=1) <= noted <= after


def test_an_answered_questions_card_has_no_form_and_no_note(client, learner, quiz):
    client.force_login(learner)
    question = quiz.questions.get(position=0)
    right, _wrong = right_and_wrong(question)
    client.post(q_url(quiz, 0, "answer"), {"choice": right})
    assert NOTE.findall(client.get(q_url(quiz, 0)).content.decode()) == []


# --- the answer stores it ---------------------------------------------------------------


def test_the_answer_stores_when_its_form_was_drawn(client, learner, quiz):
    client.force_login(learner)
    note = note_in(client.get(q_url(quiz, 0), headers=HX).content.decode())
    question = quiz.questions.get(position=0)
    right, _wrong = right_and_wrong(question)
    response = client.post(q_url(quiz, 0, "answer"), {"choice": right, "shown": note}, headers=HX)
    assert response.status_code == 200
    question.refresh_from_db()
    assert question.shown_at == showing.shown_at(note, quiz.pk, 0, timezone.now())
    assert question.shown_at <= question.answered_at


def test_r_fsrs_a_quick_right_answer_is_easy_from_the_noted_showing(client, learner, quiz):
    """A right answer 2-15 s after the form was drawn is Easy (README, FSRS): the time
    counts from the note, which the answer stored."""
    client.force_login(learner)
    question = quiz.questions.get(position=0)
    note = showing.note(quiz.pk, 0, timezone.now() - timedelta(seconds=8))
    right, _wrong = right_and_wrong(question)
    client.post(q_url(quiz, 0, "answer"), {"choice": right, "shown": note}, headers=HX)
    question.refresh_from_db()
    seconds = answer_seconds(question)
    assert seconds is not None and 8 <= seconds < mastery.EASY_SECONDS
    assert mastery.rating(True, seconds).name == "Easy"
    state = SkillState.objects.get(learner=learner, skill=question.kind)
    assert (state.fsrs_card, state.due_at) == mastery.review(
        None, True, seconds, question.answered_at
    )


@pytest.mark.parametrize(
    "note",
    [
        "",
        "forged",
        pytest.param("other", id="another question's note"),
        pytest.param("edited", id="an edited note"),
    ],
)
def test_an_answer_whose_note_does_not_verify_is_stored_without_a_time(client, learner, quiz, note):
    """The answer counts all the same; its time unknown, a right answer is Good."""
    client.force_login(learner)
    real = showing.note(quiz.pk, 0, timezone.now() - timedelta(seconds=8))
    note = {
        "other": showing.note(quiz.pk, 1, timezone.now() - timedelta(seconds=8)),
        "edited": real.replace(".0.", ".0.1", 1),
    }.get(note, note)
    question = quiz.questions.get(position=0)
    right, _wrong = right_and_wrong(question)
    response = client.post(q_url(quiz, 0, "answer"), {"choice": right, "shown": note}, headers=HX)
    assert response.status_code == 200
    question.refresh_from_db()
    assert question.answered_choice == right and question.shown_at is None
    assert answer_seconds(question) is None
    assert mastery.rating(True, answer_seconds(question)).name == "Good"


@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_a_refused_answer_draws_the_form_again_with_its_note(client, learner, quiz, headers):
    """No choice (400): the form comes back with the note it was posted with, so the
    answer that follows is timed from the first drawing, not from the refusal."""
    client.force_login(learner)
    note = showing.note(quiz.pk, 0, timezone.now() - timedelta(seconds=30))
    response = client.post(q_url(quiz, 0, "answer"), {"shown": note}, headers=headers)
    assert response.status_code == 400
    assert note_in(response.content.decode()) == note


def test_a_second_answer_keeps_the_first_answers_showing(learner, quiz):
    question = QuizQuestion.objects.select_related("quiz__assignment").get(quiz=quiz, position=0)
    first = timezone.now() - timedelta(seconds=20)
    right, wrong = right_and_wrong(question)
    answer(learner=learner, question=question, choice=right, shown_at=first)
    again = QuizQuestion.objects.select_related("quiz__assignment").get(pk=question.pk)
    with pytest.raises(AlreadyAnswered):
        answer(learner=learner, question=again, choice=wrong, shown_at=timezone.now())
    question.refresh_from_db()
    assert question.shown_at == first and question.answered_choice == right


def test_a_stored_showing_stays_whatever_the_note_says(learner):
    """A live question's showing is stored when the teacher asks it (services.mark_shown):
    an answer's note does not move it."""
    question = QuizQuestionFactory(quiz__learner=learner)
    asked = timezone.now() - timedelta(seconds=40)
    QuizQuestion.objects.filter(pk=question.pk).update(shown_at=asked)
    question = QuizQuestion.objects.select_related("quiz__assignment").get(pk=question.pk)
    later = timezone.now() - timedelta(seconds=5)
    answer(learner=learner, question=question, choice=question.question["answer"], shown_at=later)
    question.refresh_from_db()
    assert question.shown_at == asked
