"""Prepared queries (tutor.core.prepared): the same rows as the ORM, or a clear refusal."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Value
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
from tutor.quizzes import services as quiz_services
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState

pytestmark = pytest.mark.django_db


# The site's own prepared queries, checked against the ORM's answers.
QUESTION = selectors._QUESTION
UNCHANGED = quiz_services._UNCHANGED_SKILL_ROW


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
                prepared = QUESTION.one(quiz_id=quiz.pk, learner_id=who.pk, position=position)
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
    QUESTION.one(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=0)  # compiled
    with CaptureQueriesContext(connection) as queries:
        QUESTION.one(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=1)
    assert len(queries) == 1
    assert "quizzes_quiz" in queries[0]["sql"]


def test_converted_values_are_those_of_the_orm(questions):
    learner, _other, quizzes = questions
    got = QUESTION.one(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=1)
    assert got is not None
    assert got.answered_at is not None and got.answered_at.tzinfo is not None
    assert isinstance(got.question, dict) and got.question["choices"]
    assert got.correct is True


OPEN = PreparedQuery(
    lambda quiz_id: QuizQuestion.objects.filter(quiz_id=quiz_id, answered_at__isnull=True),
    quiz_id=int,
)


def orm_next_open(quiz_id: int) -> int | None:
    found = QuizQuestion.objects.filter(quiz_id=quiz_id, answered_at__isnull=True)
    first = found.order_by("position").first()
    return first.position if first else None


def test_exists_and_first_give_what_the_orm_gives(questions):
    _learner, _other, quizzes = questions
    quiz_ids = [quiz.pk for quiz in quizzes] + [10**9]  # and a quiz that does not exist
    seen = []
    for quiz in quizzes:
        for position in (2, 0, 1):  # answered out of order, as a learner may
            for quiz_id in quiz_ids:
                expected = QuizQuestion.objects.filter(quiz_id=quiz_id, answered_at__isnull=True)
                assert OPEN.exists(quiz_id=quiz_id) == expected.exists()
                assert selectors.next_open_position(quiz_id) == orm_next_open(quiz_id)
                seen.append(orm_next_open(quiz_id))
            QuizQuestion.objects.filter(quiz=quiz, position=position).update(
                answered_at=timezone.now()
            )
    assert {0, 1, None} <= set(seen)  # the first open, a later one, and none open


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
        got = skill_row.one(learner_id=state.learner_id, skill="trick")
        assert skill_row.one(learner_id=state.learner_id, skill="stoeck") is None
    assert got is not None and got.pk == state.pk and got.mastery == state.mastery
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[0]["sql"]


def test_values_of_the_wrong_type_are_refused(questions):
    learner, _other, quizzes = questions
    with pytest.raises(PreparedQueryError, match="'position' must be int, not str"):
        QUESTION.one(quiz_id=quizzes[0].pk, learner_id=learner.pk, position="1")
    with pytest.raises(PreparedQueryError, match="must be int, not bool"):
        QUESTION.one(quiz_id=quizzes[0].pk, learner_id=learner.pk, position=True)
    with pytest.raises(PreparedQueryError, match="Expected values"):
        QUESTION.one(quiz_id=quizzes[0].pk, learner_id=learner.pk)


def test_a_query_whose_sql_depends_on_a_value_is_refused():
    # A list of n values has n placeholders: the SQL changes with n.
    first_n = PreparedQuery(lambda n: QuizQuestion.objects.filter(position__in=range(n)), n=int)
    with pytest.raises(PreparedQueryError, match="depends on the values"):
        first_n.exists(n=3)


def test_a_parameter_the_sql_does_not_use_is_refused():
    unused = PreparedQuery(lambda quiz_id: QuizQuestion.objects.all(), quiz_id=int)
    with pytest.raises(PreparedQueryError, match="not found in the SQL: quiz_id"):
        unused.one(quiz_id=1)


def test_a_value_used_in_a_changed_form_is_refused():
    # contains wraps the value in %...%: substituting the plain value would be wrong.
    contains = PreparedQuery(
        lambda text: QuizQuestion.objects.filter(kind__contains=text), text=str
    )
    with pytest.raises(PreparedQueryError, match="changed form"):
        contains.exists(text="trick")


def test_only_plain_value_types():
    with pytest.raises(PreparedQueryError, match="only int, str, float and datetime"):
        PreparedQuery(lambda kinds: QuizQuestion.objects.filter(kind__in=kinds), kinds=list)
    with pytest.raises(PreparedQueryError, match="at least one parameter"):
        PreparedQuery(lambda: QuizQuestion.objects.all())


def test_float_and_datetime_values_select_as_the_orm_selects():
    when = timezone.now().replace(microsecond=123456)
    state = SkillStateFactory(mastery=0.3125, attempts=4, last_answered_at=when)
    match = {"pk": state.pk, "attempts": 4, "mastery": 0.3125, "last_answered_at": when}
    assert UNCHANGED.exists(**match)
    assert UNCHANGED.one(**match).pk == state.pk
    for changed in (
        {"attempts": 5},
        {"mastery": 0.3126},
        {"last_answered_at": when + timedelta(microseconds=1)},
    ):
        values = match | changed
        assert not UNCHANGED.exists(**values)
        assert not SkillState.objects.filter(**values).exists()
    # The same instant in another time zone is the same value, as for the ORM.
    zurich = when.astimezone(ZoneInfo("Europe/Zurich"))
    assert UNCHANGED.exists(**(match | {"last_answered_at": zurich}))
    assert UNCHANGED.update({"attempts": 5}, **match) == 1
    assert UNCHANGED.update({"attempts": 6}, **match) == 0  # no longer unchanged


def test_none_and_naive_datetimes_are_refused():
    state = SkillStateFactory(mastery=0.5, attempts=1, last_answered_at=timezone.now())
    match = {"pk": state.pk, "attempts": 1, "mastery": 0.5}
    with pytest.raises(PreparedQueryError, match="must be datetime, not NoneType"):
        UNCHANGED.exists(**match, last_answered_at=None)
    with pytest.raises(PreparedQueryError, match="aware datetime"):
        UNCHANGED.exists(**match, last_answered_at=datetime(2026, 1, 1))
    with pytest.raises(PreparedQueryError, match="must be float, not int"):
        UNCHANGED.exists(**{**match, "mastery": 1}, last_answered_at=timezone.now())


UNANSWERED = PreparedQuery(
    lambda pk: QuizQuestion.objects.filter(pk=pk, answered_at__isnull=True), pk=int
)
FIELDS = ("answered_choice", "correct", "answered_at", "skill_recorded_at", "question")


def test_update_writes_what_the_orm_writes_and_counts_rows(questions):
    _learner, _other, quizzes = questions
    mine = QuizQuestionFactory(quiz=quizzes[0], position=7)
    theirs = QuizQuestionFactory(quiz=quizzes[0], position=8)
    now = timezone.now()
    changes = {
        "answered_choice": "b",
        "correct": False,
        "answered_at": now,
        "skill_recorded_at": None,  # bound as NULL
        "question": {**mine.question, "note": "ä «x»"},  # JSON through its field
    }
    assert UNANSWERED.update(changes, pk=mine.pk) == 1
    QuizQuestion.objects.filter(pk=theirs.pk, answered_at__isnull=True).update(
        **{**changes, "question": {**theirs.question, "note": "ä «x»"}}
    )
    got, expected = (QuizQuestion.objects.get(pk=q.pk) for q in (mine, theirs))
    assert [getattr(got, f) for f in FIELDS[:4]] == [getattr(expected, f) for f in FIELDS[:4]]
    assert got.question["note"] == expected.question["note"] == "ä «x»"
    # The condition holds the second time no more: nothing written.
    assert UNANSWERED.update({**changes, "answered_choice": "c"}, pk=mine.pk) == 0
    assert QuizQuestion.objects.get(pk=mine.pk).answered_choice == "b"
    assert UNANSWERED.update(changes, pk=10**9) == 0


def test_update_sets_only_the_named_columns_and_is_one_statement(questions):
    _learner, _other, quizzes = questions
    question = QuizQuestion.objects.get(quiz=quizzes[0], position=0)
    with CaptureQueriesContext(connection) as queries:
        assert UNANSWERED.update({"shown_at": timezone.now()}, pk=question.pk) == 1
    assert len(queries) == 1 and queries[0]["sql"].startswith("UPDATE")
    after = QuizQuestion.objects.get(pk=question.pk)
    assert after.shown_at is not None
    before = model_to_dict(question) | {"shown_at": after.shown_at}
    assert model_to_dict(after) == before  # nothing else changed


def test_update_refuses_joins_and_what_is_not_a_column():
    joined = PreparedQuery(
        lambda learner_id: QuizQuestion.objects.filter(quiz__learner_id=learner_id),
        learner_id=int,
    )
    with pytest.raises(PreparedQueryError, match="one table"):
        joined.update({"shown_at": None}, learner_id=1)
    with pytest.raises(PreparedQueryError, match="is a relation"):
        UNANSWERED.update({"quiz": None}, pk=1)
    with pytest.raises(PreparedQueryError, match="not a column"):
        UNANSWERED.update({"id": 3}, pk=1)


def test_annotations_come_on_the_instances_as_the_orm_sets_them(questions):
    """The question to answer knows whether the learner's answers wait to count: the
    same flag as the ORM's annotation, and the same question."""
    learner, other, quizzes = questions
    to_answer = selectors._QUESTION_TO_ANSWER
    waiting = Exists(
        QuizQuestion.objects.filter(
            quiz__learner_id=OuterRef("quiz__learner_id"),
            answered_at__isnull=False,
            skill_recorded_at__isnull=True,
        )
    )
    seen = set()
    for step in range(2):
        if step == 1:  # one of the other learner's answers now waits
            QuizQuestion.objects.filter(quiz=quizzes[3], position=0).update(
                answered_at=timezone.now()
            )
        for quiz in quizzes:
            who = other if quiz is quizzes[3] else learner
            got = to_answer.one(quiz_id=quiz.pk, learner_id=who.pk, position=2)
            expected = (
                QuizQuestion.objects.annotate(answers_waiting=waiting)
                .exclude(quiz__source=Quiz.Source.LESSON)
                .filter(quiz_id=quiz.pk, quiz__learner_id=who.pk, position=2)
                .first()
            )
            if expected is None:
                assert got is None
                continue
            assert got is not None and rows_of(got) == rows_of(expected)
            assert got.answers_waiting is expected.answers_waiting
            seen.add((who.pk, got.answers_waiting))
    assert seen == {(learner.pk, False), (other.pk, False), (other.pk, True)}


def test_an_update_by_an_annotation_is_refused():
    annotated = PreparedQuery(
        lambda pk: QuizQuestion.objects.annotate(n=Value(1)).filter(pk=pk), pk=int
    )
    with pytest.raises(PreparedQueryError, match="annotation"):
        annotated.update({"shown_at": None}, pk=1)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan is read here")
def test_the_answers_waiting_are_found_through_their_partial_index(questions):
    """Every answer asks whether the learner has answers waiting to count; the partial
    index ``quizquestion_unsettled`` answers it, where the query used to read every
    question the learner ever answered (issue 24). The index's condition must stay the
    query's, or the database silently stops using it."""
    learner, _other, quizzes = questions
    sql, params = selectors._QUESTION_TO_ANSWER._build(
        quiz_id=quizzes[0].pk, learner_id=learner.pk, position=2
    ).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
    assert "quizquestion_unsettled" in plan, plan
