"""Issue 24: the question read to be answered brings what the answer needs (the
learner's state of its skill, the quiz's other open questions), so the answer asks
no query of its own for them; and what it brought is never trusted when it may be
stale: a skill row written in between is read again, and so is the quiz's last open
question."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from teaching import mastery
from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
    QuizFactory,
    QuizQuestionFactory,
)
from tests.tutor.answering import answer_right, make_quiz, make_state, right, to_answer
from tutor.classroom import assignments
from tutor.classroom.models import Assignment
from tutor.quizzes import selectors
from tutor.quizzes.models import SkillState
from tutor.quizzes.services import AlreadyAnswered, answer, record_skill

pytestmark = pytest.mark.django_db


@pytest.fixture
def learner():
    return LearnerFactory()


def _skill_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith("SELECT") and "skillstate" in q["sql"]]


def _open_reads(queries) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].startswith("SELECT") and '"answered_at" IS NULL' in q["sql"]
    ]


def test_the_question_to_answer_brings_the_skill_state_and_the_open_questions(learner):
    quiz = make_quiz(learner, 4)
    state = make_state(learner, mastery=0.4, attempts=3)
    make_state(learner, "trick")  # another skill: not this one
    make_state(LearnerFactory())  # another learner's: not this one
    question, question_read = to_answer(learner, quiz, 1)
    assert question_read.skill_before.pk == state.pk
    assert (question_read.skill_before.mastery, question_read.skill_before.attempts) == (0.4, 3)
    assert (question_read.open_after, question_read.open_after_next) == (0, 2)
    newcomer = LearnerFactory()
    fresh, fresh_read = to_answer(newcomer, make_quiz(newcomer, 1), 0)
    assert fresh_read.skill_before is None  # no state yet: no row joined
    # The page's question does not carry them.
    assert not hasattr(selectors.question_of(learner, quiz.pk, 1), "skill_before")


def test_the_learners_pages_read_a_digest_of_the_content_with_the_question(learner):
    """The card's fragments are kept under the question's content digest; the pages'
    read brings it from the database, the same for the same content (a classmate's
    copy), another for another question."""
    quiz = make_quiz(learner, 2)
    source = quiz.questions.get(position=0)
    mate = LearnerFactory()
    copied = QuizFactory(learner=mate)
    QuizQuestionFactory(quiz=copied, position=0, kind=source.kind, question=source.question)
    mine = selectors.question_of(learner, quiz.pk, 0)
    theirs, _read = selectors.question_to_answer(mate, copied.pk, 0)
    other = selectors.question_of(learner, quiz.pk, 1)
    assert mine.content_digest.startswith("md5:")
    assert mine.content_digest == theirs.content_digest != other.content_digest
    assert not source.content_digest.startswith("md5:")  # read another way: Python's


def test_an_answer_writes_the_state_it_brought_without_reading_it_again(learner):
    quiz = make_quiz(learner, 4)
    make_state(learner, mastery=0.4, attempts=3)
    question, question_read = to_answer(learner, quiz, 0)
    expected = copy.copy(question_read.skill_before)
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, question, question_read)
    assert _skill_reads(queries) == []
    assert _open_reads(queries) == []  # «Next question» came with the question
    assert outcome.next_open == 1
    assert question_read.skill_before.attempts == 3  # the read stays as it was read
    stored = SkillState.objects.get(learner=learner, skill="weis_value")
    question.refresh_from_db()
    expected.review(True, question.answered_at, None)  # never shown: time unknown
    assert stored.reviewed_values() == expected.reviewed_values()
    assert stored.attempts == 4 and outcome.mastery == stored.mastery


def test_a_state_written_after_the_question_was_read_is_read_again_and_counts_both(learner):
    """Another tab's answer of the same skill lands between the read and the write:
    the write that expects the old row misses, and the row is read and reviewed."""
    quiz = make_quiz(learner, 3)
    make_state(learner, mastery=0.4, attempts=3)
    question, question_read = to_answer(learner, quiz, 0)
    record_skill(learner, "weis_value", False, timezone.now())  # the other tab
    with CaptureQueriesContext(connection) as queries:
        answer_right(learner, question, question_read)
    assert len(_skill_reads(queries)) == 1
    stored = SkillState.objects.get(learner=learner, skill="weis_value")
    assert (stored.attempts, stored.correct, stored.streak) == (5, 1, 1)


def test_a_first_answer_of_a_skill_makes_its_state_with_one_insert(learner):
    quiz = make_quiz(learner, 2, kind="trick")
    question, question_read = to_answer(learner, quiz, 0)
    assert question_read.skill_before is None
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, question, question_read)
    assert _skill_reads(queries) == []
    writes = [q["sql"].split()[0] for q in queries if "skillstate" in q["sql"]]
    assert writes == ["INSERT"]
    stored = SkillState.objects.get(learner=learner, skill="trick")
    question.refresh_from_db()
    expected = SkillState(learner=learner, skill="trick", mastery=mastery.P_INIT)
    expected.review(True, question.answered_at, None)
    assert stored.reviewed_values() == expected.reviewed_values()
    assert (stored.attempts, stored.correct, outcome.mastery) == (1, 1, stored.mastery)


def test_first_answers_of_one_skill_from_two_tabs_both_count(learner):
    """Both questions were read while the learner had no state of the skill; the
    other tab's answer makes it first, so this answer's INSERT fails: the answer is
    stored again, reading the row, and counts on top of the other."""
    quiz = make_quiz(learner, 3, kind="trick")
    this_tab, this_tab_read = to_answer(learner, quiz, 0)
    other_tab, other_tab_read = to_answer(learner, quiz, 1)
    answer_right(learner, other_tab, other_tab_read)
    outcome = answer_right(learner, this_tab, this_tab_read)
    stored = SkillState.objects.get(learner=learner, skill="trick")
    assert (stored.attempts, stored.correct, stored.streak) == (2, 2, 2)
    assert outcome.mastery == stored.mastery and outcome.next_open == 2
    this_tab.refresh_from_db()
    assert this_tab.answered_choice == right(this_tab) and this_tab.skill_recorded_at


def test_a_released_answer_settled_first_is_not_overwritten(learner, school_class):
    """An answer released since it was given counts before this one (settle), which
    may make or change the state the question read: it is read again, not trusted."""
    MembershipFactory(school_class=school_class, learner=learner)
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=1
    )
    graded = assignments.start_or_resume(learner=learner, assignment=assignment).questions.get()
    answer(learner=learner, question=graded, choice=right(graded))
    assert not SkillState.objects.filter(learner=learner).exists()  # not released yet
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    quiz = make_quiz(learner, 2, kind=graded.kind)
    question, question_read = to_answer(learner, quiz, 0)
    assert question_read.answers_waiting and question_read.skill_before is None
    answer_right(learner, question, question_read)
    stored = SkillState.objects.get(learner=learner, skill=graded.kind)
    assert (stored.attempts, stored.correct) == (2, 2)


def test_answers_in_any_order_lead_to_the_first_open_question_and_complete_the_quiz(learner):
    quiz = make_quiz(learner, 4)
    order_and_next = [(2, 0), (0, 1), (3, 1), (1, None)]
    for position, next_open in order_and_next:
        question, question_read = to_answer(learner, quiz, position)
        outcome = answer_right(learner, question, question_read)
        assert outcome.next_open == next_open, position
    quiz.refresh_from_db()
    assert quiz.completed_at is not None


def test_with_one_other_question_open_the_answer_asks_again_and_sees_it_answered(learner):
    """The last two questions answered from two tabs: the question was read while the
    other was open, the other tab answered it before this answer was stored. The
    answer asks again in its transaction, finds none open and marks the quiz."""
    quiz = make_quiz(learner, 2)
    first, first_read = to_answer(learner, quiz, 0)
    assert (first_read.open_after, first_read.open_after_next) == (1, None)
    other_tab, other_tab_read = to_answer(learner, quiz, 1)
    answer_right(learner, other_tab, other_tab_read)
    quiz.refresh_from_db()
    assert quiz.completed_at is None  # that tab read question 0 open
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, first, first_read)
    assert len(_open_reads(queries)) == 1
    assert outcome.next_open is None
    quiz.refresh_from_db()
    assert quiz.completed_at is not None


def test_a_question_answered_elsewhere_is_refused_whatever_it_brought(learner):
    quiz = make_quiz(learner, 2)
    make_state(learner, attempts=2)
    stale, stale_read = to_answer(learner, quiz, 0)
    again, again_read = to_answer(learner, quiz, 0)
    answer(learner=learner, question=again, read=again_read, choice=right(stale))
    with pytest.raises(AlreadyAnswered):
        answer_right(learner, stale, stale_read)
    assert SkillState.objects.get(learner=learner, skill="weis_value").attempts == 3
