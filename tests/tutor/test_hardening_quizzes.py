"""Issue 12, items 1, 4 and 5: what a learner sees cannot reveal correctness before an
assignment releases it, removal ends access to open attempts, and the Weis tool does
not answer graded questions."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import (
    AssignmentFactory,
    MembershipFactory,
    QuizFactory,
    QuizQuestionFactory,
)
from tutor.classroom import assignments
from tutor.classroom.models import Assignment, Membership
from tutor.quizzes.models import QuizQuestion, SkillState
from tutor.quizzes.selectors import skill_rows
from tutor.quizzes.services import AttemptClosed, answer, settle_released_answers

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def member(school_class):
    return MembershipFactory(school_class=school_class).learner


def _wrong(question: QuizQuestion) -> str:
    data = question.question
    return next(c["key"] for c in data["choices"] if c["key"] != data["answer"])


# Tokens that differ on every render whatever was answered (the CSRF token, the note of
# when a form was drawn: tutor.quizzes.showing).
_VOLATILE = re.compile(r'(csrfmiddlewaretoken" value="|"x-csrftoken": "|name="shown" value=")[^"]+')


def _pages(client, quiz) -> dict[str, str]:
    caches["fragments"].clear()
    urls = {
        "dashboard": reverse("dashboard"),
        "practice": reverse("quizzes:practice"),
        "question": reverse("quizzes:question", args=[quiz.pk, 0]),
        "next question": reverse("quizzes:question", args=[quiz.pk, 1]),
        "summary": reverse("quizzes:summary", args=[quiz.pk]),
        "home": reverse("home"),
        "lessons": reverse("lessons:overview"),
    }
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        pages[name] = _VOLATILE.sub(r"\1…", response.content.decode())
    return pages


def test_r12_1_no_page_depends_on_correctness_before_the_due_date(client, school_class, member):
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=2
    )
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    question = quiz.questions.get(position=0)
    client.force_login(member)
    seen = {}
    for label, choice in (("right", question.question["answer"]), ("wrong", _wrong(question))):
        with transaction.atomic():
            point = transaction.savepoint()
            client.post(reverse("quizzes:answer", args=[quiz.pk, 0]), {"choice": choice})
            seen[label] = _pages(client, quiz)
            transaction.savepoint_rollback(point)
    for name in seen["right"]:
        assert seen["right"][name] == seen["wrong"][name], f"the {name} page tells right from wrong"


def test_r12_1_mastery_moves_once_the_explanations_are_released(school_class, member):
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=1
    )
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    question = quiz.questions.get()
    before = {row.skill: row.mastery for row in skill_rows(member)}
    answer(learner=member, question=question, choice=question.question["answer"])
    assert {row.skill: row.mastery for row in skill_rows(member)} == before
    assert not SkillState.objects.filter(learner=member).exists()
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    after = {row.skill: row.mastery for row in skill_rows(member)}
    assert after[question.kind] > before[question.kind]
    # Pages only read: the answer is stored by the settling service, and counted once.
    assert not SkillState.objects.filter(learner=member).exists()
    assert settle_released_answers([member.pk]) == 1
    assert {row.skill: row.mastery for row in skill_rows(member)} == after
    assert settle_released_answers([member.pk]) == 0
    assert SkillState.objects.get(learner=member, skill=question.kind).attempts == 1


def test_r12_1_an_answer_on_the_page_counts_the_released_answers_first(
    client, school_class, member
):
    """The page's answer learns in the question's own query whether released answers
    wait (issue 24); they are stored before its own, and with none waiting it asks
    nothing more."""
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=1
    )
    released = assignments.start_or_resume(learner=member, assignment=assignment).questions.get()
    answer(learner=member, question=released, choice=released.question["answer"])
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    practice = QuizFactory(learner=member)
    for position in range(2):
        QuizQuestionFactory(quiz=practice, position=position, kind=released.kind)
    client.force_login(member)
    url = reverse("quizzes:answer", args=[practice.pk, 0])
    assert client.post(url, {"choice": "a"}).status_code == 302
    released.refresh_from_db()
    assert released.skill_recorded_at is not None
    assert SkillState.objects.get(learner=member, skill=released.kind).attempts == 2
    with CaptureQueriesContext(connection) as queries:
        url = reverse("quizzes:answer", args=[practice.pk, 1])
        assert client.post(url, {"choice": "a"}).status_code == 302
    assert not [q for q in queries if q["sql"].startswith('SELECT 1 AS "a"')]
    assert SkillState.objects.get(learner=member, skill=released.kind).attempts == 3


def test_r12_1_immediate_explanations_count_at_once(school_class, member):
    assignment = AssignmentFactory(
        school_class=school_class, explanations="immediately", question_count=1
    )
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    question = quiz.questions.get()
    answer(learner=member, question=question, choice=question.question["answer"])
    state = SkillState.objects.get(learner=member, skill=question.kind)
    assert state.attempts == 1
    question.refresh_from_db()
    assert question.skill_recorded_at == question.answered_at


def test_r12_4_a_removed_learner_cannot_answer_or_submit_an_open_attempt(
    client, school_class, member
):
    assignment = AssignmentFactory(school_class=school_class, question_count=2)
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    first, second = quiz.questions.order_by("position")
    answer(learner=member, question=first, choice=first.question["answer"])
    Membership.objects.filter(learner=member).delete()
    client.force_login(member)
    assert client.get(reverse("quizzes:question", args=[quiz.pk, 1])).status_code == 404
    response = client.post(
        reverse("quizzes:answer", args=[quiz.pk, 1]), {"choice": second.question["answer"]}
    )
    assert response.status_code == 404
    with pytest.raises(AttemptClosed, match="no longer in the class|nicht mehr in der Klasse"):
        answer(learner=member, question=second, choice=second.question["answer"])
    with pytest.raises(AttemptClosed):
        assignments.submit(learner=member, quiz=quiz)
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.answered_at is None
    assert first.answered_at is not None  # what was saved stays
    quiz.refresh_from_db()
    assert quiz.submitted_at is None


def _weis_tool(client):
    return client.get(
        reverse("weistool:tool"),
        {
            "contract": "H",
            "rules": "default",
            "seat0_text": "H6 H7 H8 H9",
            "seat1_text": "C6 C7 C8",
        },
        headers={"Accept-Language": "en"},
    ).content.decode()


def test_r12_5_weis_tool_shows_a_notice_during_an_assignment_without_tools(
    client, school_class, member
):
    assignment = AssignmentFactory(school_class=school_class)
    client.force_login(member)
    assert "writes Weis" in _weis_tool(client)  # not started yet: the tool works
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    html = _weis_tool(client)
    assert "writes Weis" not in html and assignment.title in html
    assignments.submit(learner=member, quiz=quiz)
    assert "writes Weis" in _weis_tool(client)


def test_r12_5_tools_allowed_keeps_the_tool(client, school_class, member):
    assignment = AssignmentFactory(school_class=school_class, tools_allowed=True)
    assignments.start_or_resume(learner=member, assignment=assignment)
    client.force_login(member)
    assert "writes Weis" in _weis_tool(client)


def test_r12_5_a_closed_assignment_no_longer_bars_the_tool(client, school_class, member):
    assignment = AssignmentFactory(school_class=school_class)
    assignments.start_or_resume(learner=member, assignment=assignment)
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(hours=1))
    client.force_login(member)
    assert "writes Weis" in _weis_tool(client)


def test_r12_5_assignment_form_sets_tools_allowed(client, teacher, school_class):
    client.force_login(teacher)
    now = timezone.localtime()
    data = {
        "title": "Mit Werkzeug",
        "kinds": ["weis_value"],
        "question_count": 2,
        "rules_preset": "default",
        "opens_at": now.strftime("%Y-%m-%dT%H:%M"),
        "due_at": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "attempts_allowed": 1,
        "same_questions": "1",
        "explanations": "immediately",
        "late_policy": "refuse",
        "tools_allowed": "on",
    }
    client.post(reverse("classroom:assignment_create", args=[school_class.pk]), data)
    assert Assignment.objects.get(title="Mit Werkzeug").tools_allowed is True
