"""R12: an assignment takes work only from a member, once open, until it closes.

The policy is written once (``tutor.core.assignment_policy``); every place that takes
work asks it. Each refusal reason is checked here through every entry point: starting
(or resuming) a quiz assignment, starting a table assignment, answering a quiz
question and a move at the table, each with the policy's reason and its one message.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from teaching.table import reference_move
from tests.factories import AssignmentFactory, MembershipFactory, TableAssignmentFactory
from tutor.classroom import assignments
from tutor.classroom.models import Assignment, Membership
from tutor.core.assignment_policy import Refusal, WorkRefused, refusal
from tutor.quizzes.services import AttemptClosed, QuizError, answer
from tutor.table import services as table_services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def refuse(assignment: Assignment, reason: Refusal) -> None:
    """Make ``assignment`` refuse its one member for ``reason`` (and for no other)."""
    now = timezone.now()
    if reason is Refusal.NOT_MEMBER:
        Membership.objects.filter(school_class_id=assignment.school_class_id).delete()
    elif reason is Refusal.NOT_OPEN:
        Assignment.objects.filter(pk=assignment.pk).update(
            opens_at=now + timedelta(days=1), due_at=now + timedelta(days=2)
        )
    else:
        Assignment.objects.filter(pk=assignment.pk).update(due_at=now - timedelta(minutes=1))


def start_quiz(learner, assignment, reason):
    refuse(assignment, reason)
    assignments.start_or_resume(learner=learner, assignment=_fresh(assignment))


def start_table(learner, assignment, reason):
    refuse(assignment, reason)
    assignments.start_table_round(learner=learner, assignment=_fresh(assignment))


def answer_quiz(learner, assignment, reason):
    quiz = assignments.start_or_resume(learner=learner, assignment=assignment)
    question = quiz.questions.order_by("position").first()
    refuse(assignment, reason)
    question = type(question).objects.select_related("quiz__assignment").get(pk=question.pk)
    answer(learner=learner, question=question, choice=question.question["answer"])


def move_at_table(learner, assignment, reason):
    round_ = assignments.start_table_round(learner=learner, assignment=assignment)
    move = reference_move(table_services.table_of(round_))
    refuse(assignment, reason)
    round_ = type(round_).objects.select_related("assignment").get(pk=round_.pk)
    table_services.play_move(learner=learner, round_=round_, move=move, expected_count=0)


def _fresh(assignment: Assignment) -> Assignment:
    return Assignment.objects.get(pk=assignment.pk)


ENTRY_POINTS = {
    # name: (how, table assignment?, the app's own exception class)
    "start a quiz": (start_quiz, False, assignments.AssignmentError),
    "start a table round": (start_table, True, assignments.AssignmentError),
    "answer a question": (answer_quiz, False, AttemptClosed),
    "move at the table": (move_at_table, True, table_services.RoundError),
}


@pytest.mark.parametrize("reason", list(Refusal), ids=lambda r: r.value)
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_r12_every_entry_point_refuses_for_the_policy_reason(reason, entry):
    how, table, app_error = ENTRY_POINTS[entry]
    factory = TableAssignmentFactory if table else AssignmentFactory
    assignment = factory(title="Stöck üben", question_count=2)
    learner = MembershipFactory(school_class=assignment.school_class).learner
    with pytest.raises(WorkRefused) as refused:
        how(learner, assignment, reason)
    assert refused.value.refusal is reason
    # Each app's views still catch the refusal by their own exception class.
    assert isinstance(refused.value, app_error)
    # One message per reason, whichever entry point refused.
    assert str(refused.value) == reason.message("Stöck üben")


def test_r12_the_policy_asks_membership_before_the_dates():
    now = timezone.now()
    assignment = AssignmentFactory(opens_at=now + timedelta(days=1), due_at=now + timedelta(days=2))
    outsider = MembershipFactory().learner
    member = MembershipFactory(school_class=assignment.school_class).learner
    assert refusal(assignment, outsider.pk, now) is Refusal.NOT_MEMBER
    assert refusal(assignment, member.pk, now) is Refusal.NOT_OPEN
    assert refusal(assignment, member.pk, now + timedelta(days=1, seconds=1)) is None


def test_r12_late_work_accepted_keeps_the_assignment_open_after_its_due_date():
    now = timezone.now()
    assignment = AssignmentFactory(
        due_at=now - timedelta(minutes=1), late_policy=Assignment.LatePolicy.MARK_LATE
    )
    member = MembershipFactory(school_class=assignment.school_class).learner
    assert refusal(assignment, member.pk, now) is None
    assignment.late_policy = Assignment.LatePolicy.REFUSE
    assert refusal(assignment, member.pk, now) is Refusal.CLOSED


def test_r12_a_refused_table_start_is_not_caught_as_a_quiz_error(client):
    assignment = TableAssignmentFactory()
    learner = MembershipFactory(school_class=assignment.school_class).learner
    refuse(assignment, Refusal.CLOSED)
    with pytest.raises(assignments.AssignmentError) as refused:
        assignments.start_table_round(learner=learner, assignment=_fresh(assignment))
    assert not isinstance(refused.value, QuizError)
    # The start view says why on the dashboard instead of failing.
    client.force_login(learner)
    response = client.post(
        reverse("classroom:assignment_start", args=[assignment.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response["Location"] == reverse("dashboard")
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "this assignment takes no more work" in page


def test_r12_resuming_is_refused_to_a_removed_learner_but_shows_a_closed_attempt():
    assignment = AssignmentFactory(question_count=1)
    learner = MembershipFactory(school_class=assignment.school_class).learner
    quiz = assignments.start_or_resume(learner=learner, assignment=assignment)
    refuse(assignment, Refusal.CLOSED)
    # The attempt begun stays readable; answering it asks the policy again.
    assert assignments.start_or_resume(learner=learner, assignment=_fresh(assignment)) == quiz
    refuse(assignment, Refusal.NOT_MEMBER)
    with pytest.raises(WorkRefused) as refused:
        assignments.start_or_resume(learner=learner, assignment=_fresh(assignment))
    assert refused.value.refusal is Refusal.NOT_MEMBER
