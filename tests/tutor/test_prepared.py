"""Prepared queries (tutor.core.prepared): the same rows as the ORM, or a clear refusal."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    QuizFactory,
    QuizQuestionFactory,
    SkillStateFactory,
)
from tutor.core.prepared import PreparedQuery, PreparedQueryError
from tutor.quizzes import selectors
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState

pytestmark = pytest.mark.django_db


QUESTION = PreparedQuery(
    lambda quiz_id, learner_id, position: (
        QuizQuestion.objects.select_related("quiz", "quiz__assignment")
        .exclude(quiz__source=Quiz.Source.LESSON)
        .filter(quiz_id=quiz_id, quiz__learner_id=learner_id, position=position)
    ),
    quiz_id=int,
    learner_id=int,
    position=int,
)


def orm_question(quiz_id: int, learner_id: int, position: int) -> QuizQuestion | None:
    return (
        QuizQuestion.objects.select_related("quiz", "quiz__assignment")
        .exclude(quiz__source=Quiz.Source.LESSON)
        .filter(quiz_id=quiz_id, quiz__learner_id=learner_id, position=position)
        .first()
    )


def rows_of(obj):
    """Every field of a question, its quiz and the quiz's assignment, as loaded."""
    quiz = obj.quiz
    return (
        model_to_dict(obj),
        {name: getattr(obj, name) for name in ("shown_at", "answered_at", "skill_recorded_at")},
        model_to_dict(quiz),
        {name: getattr(quiz, name) for name in ("created_at", "completed_at", "submitted_at")},
        model_to_dict(quiz.assignment) if quiz.assignment else None,
    )


@pytest.fixture
def questions():
    """Questions of practice quizzes and of an attempt, some answered, of two learners."""
    learner, other = LearnerFactory(), LearnerFactory()
    practice = QuizFactory(learner=learner)
    attempt = QuizFactory(learner=learner, assignment=AssignmentFactory(), attempt=1)
    lesson = QuizFactory(learner=learner, source=Quiz.Source.LESSON)
    foreign = QuizFactory(learner=other)
    made = []
    for quiz in (practice, attempt, lesson, foreign):
        for position in range(3):
            made.append(QuizQuestionFactory(quiz=quiz, position=position, kind="trick"))
    answered = made[1]
    answered.answered_at = timezone.now() - timedelta(minutes=3)
    answered.shown_at = answered.answered_at - timedelta(seconds=12)
    answered.answered_choice, answered.correct = "a", True
    answered.skill_recorded_at = answered.answered_at  # counted for mastery already
    answered.save()
    return learner, other, [practice, attempt, lesson, foreign]


def test_first_gives_what_the_orm_gives_for_every_combination(questions):
    learner, other, quizzes = questions
    for quiz in quizzes:
        for who in (learner, other):
            for position in (0, 1, 2, 3, 32767):
                prepared = QUESTION.first(quiz_id=quiz.pk, learner_id=who.pk, position=position)
                expected = orm_question(quiz.pk, who.pk, position)
                if expected is None:
                    assert prepared is None
                    continue
                assert prepared is not None
                assert rows_of(prepared) == rows_of(expected)
                # The related rows came with it: no query when they are read.
                with CaptureQueriesContext(connection) as queries:
                    _ = prepared.quiz.assignment
                assert len(queries) == 0


def test_first_is_one_query_and_is_counted(questions):
    learner, _other, quizzes = questions
    QUESTION.first(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=0)  # compiled
    with CaptureQueriesContext(connection) as queries:
        QUESTION.first(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=1)
    assert len(queries) == 1
    assert "quizzes_quiz" in queries[0]["sql"]


def test_converted_values_are_those_of_the_orm(questions):
    learner, _other, quizzes = questions
    got = QUESTION.first(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=1)
    assert got is not None
    assert got.answered_at is not None and got.answered_at.tzinfo is not None
    assert isinstance(got.question, dict) and got.question["choices"]
    assert got.correct is True


def test_exists_gives_what_the_orm_gives(questions):
    learner, other, quizzes = questions
    for quiz in quizzes:
        assert selectors.has_open_questions(quiz.pk) == (
            QuizQuestion.objects.filter(quiz=quiz, answered_at__isnull=True).exists()
        )
    QuizQuestion.objects.filter(quiz=quizzes[3]).update(answered_at=timezone.now())
    assert selectors.has_open_questions(quizzes[3].pk) is False
    assert selectors.has_open_questions(10**9) is False


def test_the_released_answers_check_of_one_learner_is_the_orm_query(questions):
    learner, other, quizzes = questions
    now = timezone.now()
    assert selectors.released_answers([learner.pk], now) == []
    # Answered, not counted yet, and practice (released at once): it waits.
    QuizQuestion.objects.filter(quiz=quizzes[3], position=0).update(answered_at=now)
    assert [q.quiz.learner_id for q in selectors.released_answers([other.pk], now)] == [other.pk]
    assert selectors.released_answers([learner.pk], now) == []
    # Several learners still go through the ORM, with the same answer.
    both = selectors.released_answers([learner.pk, other.pk], now)
    assert [q.quiz.learner_id for q in both] == [other.pk]


def test_skill_row_is_read_locked_inside_the_transaction():
    state = SkillStateFactory(skill="trick")
    skill_row = PreparedQuery(
        lambda learner_id, skill: SkillState.objects.select_for_update().filter(
            learner_id=learner_id, skill=skill
        ),
        learner_id=int,
        skill=str,
    )
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        got = skill_row.first(learner_id=state.learner_id, skill="trick")
        assert skill_row.first(learner_id=state.learner_id, skill="stoeck") is None
    assert got is not None and got.pk == state.pk and got.mastery == state.mastery
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[0]["sql"]


def test_values_of_the_wrong_type_are_refused(questions):
    learner, _other, quizzes = questions
    with pytest.raises(PreparedQueryError, match="'position' must be int, not str"):
        QUESTION.first(quiz_id=quizzes[0].pk, learner_id=learner.pk, position="1")
    with pytest.raises(PreparedQueryError, match="must be int, not bool"):
        QUESTION.first(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=True)
    with pytest.raises(PreparedQueryError, match="Expected values"):
        QUESTION.first(quiz_id=quizzes[0].pk, learner_id=learner.pk)


def test_a_query_whose_sql_depends_on_a_value_is_refused():
    # A list of n values has n placeholders: the SQL changes with n.
    first_n = PreparedQuery(lambda n: QuizQuestion.objects.filter(position__in=range(n)), n=int)
    with pytest.raises(PreparedQueryError, match="depends on the values"):
        first_n.exists(n=3)


def test_a_parameter_the_sql_does_not_use_is_refused():
    unused = PreparedQuery(lambda quiz_id: QuizQuestion.objects.all(), quiz_id=int)
    with pytest.raises(PreparedQueryError, match="not found in the SQL: quiz_id"):
        unused.first(quiz_id=1)


def test_a_value_used_in_a_changed_form_is_refused():
    # contains wraps the value in %...%: substituting the plain value would be wrong.
    contains = PreparedQuery(
        lambda text: QuizQuestion.objects.filter(kind__contains=text), text=str
    )
    with pytest.raises(PreparedQueryError, match="changed form"):
        contains.exists(text="trick")


def test_only_int_and_str_parameters():
    with pytest.raises(PreparedQueryError, match="only int and str"):
        PreparedQuery(lambda when: QuizQuestion.objects.filter(answered_at=when), when=float)
    with pytest.raises(PreparedQueryError, match="at least one parameter"):
        PreparedQuery(lambda: QuizQuestion.objects.all())
