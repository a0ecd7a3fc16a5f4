"""Issue 24: on PostgreSQL the common answer is one statement (services
``_store_in_one_statement``): the question's UPDATE, the skill row's UPDATE or first
INSERT and the quiz's completion together, each conditional on the question's; a
skill row changed since the question was read makes the statement undo itself.

The first tests run inside the test's transaction (the statement then runs in a
savepoint); the last ones run in autocommit, as a site does, with answers posted by
threads at the same instant."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from teaching import mastery
from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
)
from tests.tutor.answering import answer_right, make_quiz, make_state, right, to_answer
from tutor.classroom import assignments
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.selectors import AnswerRead
from tutor.quizzes.services import AlreadyAnswered, answer, record_skill

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the one-statement answer is PostgreSQL's"
    ),
]


@pytest.fixture
def learner():
    return LearnerFactory()


def _statements(queries) -> list[str]:
    """What the answer sent, savepoints (the test's transaction) left out."""
    return [
        q["sql"].split()[0]
        for q in queries
        if "SAVEPOINT" not in q["sql"] and q["sql"] not in ("BEGIN", "COMMIT")
    ]


def test_an_answer_is_one_statement_and_stores_what_the_transaction_stored(learner):
    """The stored state against a review computed apart: test_answer_reads, which on
    PostgreSQL takes this path too. Here: the one statement, and the question's row."""
    quiz = make_quiz(learner, 4)
    make_state(learner, attempts=3)
    question, question_read = to_answer(learner, quiz, 0)
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, question, question_read)
    assert _statements(queries) == ["WITH"]
    row = QuizQuestion.objects.get(pk=question.pk)
    assert (row.answered_choice, row.correct) == (right(question), True)
    assert row.answered_at == row.skill_recorded_at == question.answered_at
    stored = SkillState.objects.get(learner=learner, skill="weis_value")
    assert (stored.attempts, outcome.mastery, outcome.next_open) == (4, stored.mastery, 1)
    quiz.refresh_from_db()
    assert quiz.completed_at is None


def test_a_first_answer_of_a_skill_makes_its_state_in_the_same_statement(learner):
    quiz = make_quiz(learner, 3, kind="trick")
    question, question_read = to_answer(learner, quiz, 0)
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, question, question_read)
    assert _statements(queries) == ["WITH"]
    stored = SkillState.objects.get(learner=learner, skill="trick")
    row = QuizQuestion.objects.get(pk=question.pk)
    expected = SkillState(learner=learner, skill="trick", mastery=mastery.P_INIT)
    expected.review(True, row.answered_at, None)
    assert stored.reviewed_values() == expected.reviewed_values()
    assert stored.fsrs_card is not None and stored.due_at is not None
    assert outcome.mastery == stored.mastery


def test_a_wrong_answer_is_stored_as_wrong(learner):
    quiz = make_quiz(learner, 3)
    make_state(learner, mastery=0.5, attempts=2, correct=2, streak=2)
    question, question_read = to_answer(learner, quiz, 0)
    wrong = next(c["key"] for c in question.question["choices"] if c["key"] != right(question))
    answer(learner=learner, question=question, read=question_read, choice=wrong)
    stored = SkillState.objects.get(learner=learner, skill="weis_value")
    assert (stored.attempts, stored.correct, stored.streak) == (3, 2, 0)
    assert QuizQuestion.objects.get(pk=question.pk).correct is False


def test_the_last_open_question_completes_the_quiz_in_the_same_statement(learner):
    quiz = make_quiz(learner, 2)
    other, other_read = to_answer(learner, quiz, 1)
    answer_right(learner, other, other_read)
    question, question_read = to_answer(learner, quiz, 0)
    assert question_read.open_after is None
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, question, question_read)
    assert _statements(queries) == ["WITH"]
    assert outcome.next_open is None
    quiz.refresh_from_db()
    assert quiz.completed_at == QuizQuestion.objects.get(pk=question.pk).answered_at


def test_a_state_changed_since_the_read_undoes_the_statement_and_both_count(learner):
    quiz = make_quiz(learner, 3)
    make_state(learner, mastery=0.4, attempts=3, correct=1, streak=0)
    question, question_read = to_answer(learner, quiz, 0)
    record_skill(learner, "weis_value", False, timezone.now())  # another tab, in between
    with CaptureQueriesContext(connection) as queries:
        answer_right(learner, question, question_read)
    # The statement, then the transaction: the question's UPDATE must have been undone,
    # or the transaction's would have found it answered.
    assert _statements(queries)[0] == "WITH" and "UPDATE" in _statements(queries)
    stored = SkillState.objects.get(learner=learner, skill="weis_value")
    assert (stored.attempts, stored.correct, stored.streak) == (5, 2, 1)
    row = QuizQuestion.objects.get(pk=question.pk)
    assert row.correct is True and row.skill_recorded_at is not None


def test_a_question_answered_elsewhere_counts_nothing_even_with_the_state_unchanged(learner):
    """The skill row's condition alone does not keep a refused answer from counting:
    the question may have been answered without the row changing (the row is what
    this read brought), so its write waits on the question's."""
    quiz = make_quiz(learner, 4)
    make_state(learner, attempts=2)
    stale, stale_read = to_answer(learner, quiz, 0)
    QuizQuestion.objects.filter(pk=stale.pk).update(
        answered_choice=right(stale), correct=True, answered_at=timezone.now()
    )
    with pytest.raises(AlreadyAnswered):
        answer_right(learner, stale, stale_read)
    assert SkillState.objects.get(learner=learner, skill="weis_value").attempts == 2


def test_a_first_answer_to_a_question_answered_elsewhere_makes_no_state(learner):
    quiz = make_quiz(learner, 4, kind="trick")
    stale, stale_read = to_answer(learner, quiz, 0)
    QuizQuestion.objects.filter(pk=stale.pk).update(
        answered_choice=right(stale), correct=True, answered_at=timezone.now()
    )
    with pytest.raises(AlreadyAnswered):
        answer_right(learner, stale, stale_read)
    assert not SkillState.objects.filter(learner=learner).exists()


def test_the_last_question_answered_elsewhere_leaves_the_completion_as_it_was(learner):
    quiz = make_quiz(learner, 1)
    stale, stale_read = to_answer(learner, quiz, 0)
    again, again_read = to_answer(learner, quiz, 0)
    answer(learner=learner, question=again, read=again_read, choice=right(stale))
    Quiz.objects.filter(pk=quiz.pk).update(completed_at=None)  # to see a second mark
    with pytest.raises(AlreadyAnswered):
        answer_right(learner, stale, stale_read)
    quiz.refresh_from_db()
    assert quiz.completed_at is None


def test_a_first_state_made_meanwhile_fails_the_insert_and_the_answer_counts_on_top(learner):
    quiz = make_quiz(learner, 4, kind="trick")
    this_tab, this_tab_read = to_answer(learner, quiz, 0)
    other_tab, other_tab_read = to_answer(learner, quiz, 1)
    answer_right(learner, other_tab, other_tab_read)
    answer_right(learner, this_tab, this_tab_read)
    stored = SkillState.objects.get(learner=learner, skill="trick")
    assert (stored.attempts, stored.correct, stored.streak) == (2, 2, 2)


def test_an_answer_whose_correctness_is_hidden_moves_no_mastery(learner, school_class):
    MembershipFactory(school_class=school_class, learner=learner)
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=3
    )
    quiz = assignments.start_or_resume(learner=learner, assignment=assignment)
    question, question_read = to_answer(learner, quiz, 0)
    with CaptureQueriesContext(connection) as queries:
        outcome = answer_right(learner, question, question_read)
    # (the SELECT: the assignment policy asks whether the learner is still in the class)
    assert [s for s in _statements(queries) if s != "SELECT"] == ["WITH"]
    assert outcome.mastery is None
    assert not SkillState.objects.filter(learner=learner).exists()
    row = QuizQuestion.objects.get(pk=question.pk)
    assert row.answered_at is not None and row.skill_recorded_at is None


# --- In autocommit, at the same instant ------------------------------------------------


def _answered_at_once(learner, reads: list[tuple[QuizQuestion, AnswerRead]]) -> list[object]:
    """Each read answered rightly, in threads released together, each with its own
    connection (closed after); what each answer returned or raised."""
    barrier = threading.Barrier(len(reads))
    results: list[object] = [None] * len(reads)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = answer_right(learner, *reads[index])
        except Exception as error:  # noqa: BLE001 - the test reads what each raised
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(reads))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_the_same_question_posted_at_once_is_stored_and_counted_once(learner):
    quiz = make_quiz(learner, 4)
    make_state(learner, attempts=2)
    reads = [to_answer(learner, quiz, 0) for _ in range(6)]
    results = _answered_at_once(learner, reads)
    stored = [r for r in results if not isinstance(r, Exception)]
    assert len(stored) == 1
    assert all(isinstance(r, AlreadyAnswered) for r in results if r not in stored)
    assert SkillState.objects.get(learner=learner, skill="weis_value").attempts == 3


@pytest.mark.django_db(transaction=True)
def test_questions_of_one_skill_posted_at_once_all_count(learner):
    """Every read brought the same state; all but one statement find it changed and
    are undone, then stored reading the row: each answer counts once."""
    quiz = make_quiz(learner, 8)
    make_state(learner, attempts=2, correct=0, streak=0)
    reads = [to_answer(learner, quiz, i) for i in range(6)]
    results = _answered_at_once(learner, reads)
    assert not [r for r in results if isinstance(r, Exception)]
    stored = SkillState.objects.get(learner=learner, skill="weis_value")
    assert (stored.attempts, stored.correct, stored.streak) == (8, 6, 6)
    assert QuizQuestion.objects.filter(quiz=quiz, skill_recorded_at__isnull=False).count() == 6


@pytest.mark.django_db(transaction=True)
def test_first_answers_of_one_skill_posted_at_once_all_count(learner):
    quiz = make_quiz(learner, 8, kind="trick")
    reads = [to_answer(learner, quiz, i) for i in range(5)]
    results = _answered_at_once(learner, reads)
    assert not [r for r in results if isinstance(r, Exception)]
    stored = SkillState.objects.get(learner=learner, skill="trick")
    assert (stored.attempts, stored.correct) == (5, 5)
