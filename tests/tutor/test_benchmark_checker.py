"""The web benchmark's reconciliation must notice every kind of lost or extra answer.

The load run itself is too long for the suite (``make bench``); its verdict rests on
``reconcile``, so that is tested here against planted errors.
"""

import pytest

from bench.data import Ack, reconcile
from tests.factories import LearnerFactory
from tutor.quizzes.models import Quiz, SkillState
from tutor.quizzes.services import answer, create_quiz

# reconcile() closes its connection, as the benchmark process needs; a test
# transaction would not survive that on PostgreSQL.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def answered():
    """A learner with a three-question quiz, two questions answered and acknowledged."""
    learner = LearnerFactory()
    quiz = create_quiz(learner=learner, kinds=["ladder_step"] * 3, seeds=[1, 2, 3])
    acks = []
    for position in (0, 1):
        question = quiz.questions.get(position=position)
        choice = question.question["choices"][position]["key"]
        answer(learner=learner, question=question, choice=choice)
        acks.append(Ack(learner.username, quiz.pk, position, choice, "class"))
    return learner, quiz, acks


def test_matching_acknowledgements_are_clean(answered):
    learner, _quiz, acks = answered
    report = reconcile([learner.pk], acks)
    assert report.clean
    assert (report.acknowledged, report.answered_in_db, report.skill_states) == (2, 2, 1)


def test_an_acknowledged_answer_that_is_not_stored_is_lost(answered):
    learner, quiz, acks = answered
    report = reconcile([learner.pk], [*acks, Ack(learner.username, quiz.pk, 2, "a", "class")])
    assert len(report.lost) == 1 and "not stored" in report.lost[0]
    assert not report.clean


def test_an_acknowledged_answer_stored_with_another_choice_is_lost(answered):
    learner, quiz, acks = answered
    stored = acks[0].choice
    other = next(k for k in "abcde" if k != stored)
    wrong = Ack(learner.username, quiz.pk, 0, other, "class")
    report = reconcile([learner.pk], [wrong, acks[1]])
    assert len(report.lost) == 1 and f"stored {stored!r}" in report.lost[0]


def test_a_stored_answer_nobody_was_told_about_is_unacknowledged(answered):
    learner, _quiz, acks = answered
    report = reconcile([learner.pk], acks[:1])
    assert len(report.unacknowledged) == 1 and not report.lost


def test_two_200s_for_one_question_are_a_duplicate(answered):
    learner, _quiz, acks = answered
    report = reconcile([learner.pk], [*acks, acks[0]])
    assert len(report.duplicated) == 1


def test_a_409_retry_after_a_crash_is_not_a_duplicate(answered):
    learner, _quiz, acks = answered
    retry = Ack(acks[0].learner, acks[0].quiz_id, 0, acks[0].choice, "fault", how="409")
    assert reconcile([learner.pk], [*acks, retry]).clean


def test_a_skill_state_that_counted_too_many_answers_is_a_duplicate(answered):
    learner, _quiz, acks = answered
    state = SkillState.objects.get(learner=learner)
    state.attempts += 1
    state.save()
    report = reconcile([learner.pk], acks)
    assert len(report.skill_mismatches) == 1 and len(report.duplicated) == 1


def test_a_wrong_completion_mark_is_reported(answered):
    learner, quiz, acks = answered
    Quiz.objects.filter(pk=quiz.pk).update(completed_at="2026-01-01T00:00:00Z")
    report = reconcile([learner.pk], acks)
    assert len(report.completion_mismatches) == 1
