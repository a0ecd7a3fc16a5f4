"""Review scheduling by FSRS in the site (issue 15, item 4): answers schedule the skill
through teaching.mastery, practice still puts due and weak skills first, and the
skills learners had before FSRS keep their schedule across the migration."""

from __future__ import annotations

import importlib
import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone
from fsrs import Rating, State

from teaching import mastery
from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
    QuizQuestionFactory,
)
from tutor.classroom import assignments
from tutor.classroom.models import Assignment
from tutor.quizzes.models import QuizQuestion, SkillState
from tutor.quizzes.selectors import skill_rows
from tutor.quizzes.services import (
    AlreadyAnswered,
    answer,
    answer_seconds,
    record_skill,
    settle_released_answers,
)

pytestmark = pytest.mark.django_db

legacy = importlib.import_module("tutor.quizzes.migrations.0004_skill_fsrs_card")


def wrong_choice(question: QuizQuestion) -> str:
    data = question.question
    return next(c["key"] for c in data["choices"] if c["key"] != data["answer"])


def shown(question: QuizQuestion, seconds_ago: float) -> QuizQuestion:
    """The question as the answer view reads it, shown ``seconds_ago``."""
    QuizQuestion.objects.filter(pk=question.pk).update(
        shown_at=timezone.now() - timedelta(seconds=seconds_ago)
    )
    return QuizQuestion.objects.select_related("quiz").get(pk=question.pk)


def answer_kind(learner, kind: str, correct: bool, seconds_ago: float | None = None):
    question = QuizQuestionFactory(quiz__learner=learner, kind=kind)
    if seconds_ago is not None:
        question = shown(question, seconds_ago)
    choice = question.question["answer"] if correct else wrong_choice(question)
    answer(learner=learner, question=question, choice=choice)
    return SkillState.objects.get(learner=learner, skill=kind)


# --- answers schedule the skill ------------------------------------------------------


def test_a_wrong_answer_brings_a_skill_due_sooner_than_a_right_one(learner):
    wrong = answer_kind(learner, "stoeck", correct=False)
    right = answer_kind(learner, "target", correct=True)
    assert wrong.due_at < right.due_at
    # The stored card is the schedule: its due date is the column practice sorts by.
    for state in (wrong, right):
        assert datetime.fromisoformat(state.fsrs_card["due"]) == state.due_at


def test_a_wrong_answer_after_weeks_of_right_ones_brings_the_skill_back_soon(learner):
    start = timezone.now() - timedelta(days=60)
    when = start
    for _ in range(4):
        state = record_skill(learner, "trick", True, when)
        when = state.due_at
    assert state.fsrs_card["state"] == State.Review
    interval = state.due_at - state.last_answered_at
    assert interval >= timedelta(days=7)
    after_wrong = record_skill(learner, "trick", False, when)
    assert after_wrong.due_at - when <= timedelta(hours=1)


def test_a_fast_right_answer_gets_a_later_due_than_a_slow_one(learner):
    fast = answer_kind(learner, "stoeck", correct=True, seconds_ago=8)
    slow = answer_kind(learner, "target", correct=True, seconds_ago=90)
    assert fast.due_at > slow.due_at
    assert fast.due_at - fast.last_answered_at >= timedelta(days=1)


def test_a_question_whose_showing_was_not_recorded_is_rated_good(learner):
    """No shown_at: the time is unknown, so a right answer is Good, not Easy."""
    unknown = answer_kind(learner, "stoeck", correct=True)
    slow = answer_kind(learner, "target", correct=True, seconds_ago=90)
    assert unknown.due_at - unknown.last_answered_at == slow.due_at - slow.last_answered_at


def test_the_answer_view_uses_the_time_since_the_question_was_shown(client, learner):
    question = QuizQuestionFactory(quiz__learner=learner, kind="weis_value")
    client.force_login(learner)
    url = reverse("quizzes:question", args=[question.quiz_id, question.position])
    assert client.get(url).status_code == 200  # marks it shown
    QuizQuestion.objects.filter(pk=question.pk).update(
        shown_at=timezone.now() - timedelta(seconds=8)
    )
    client.post(
        reverse("quizzes:answer", args=[question.quiz_id, question.position]),
        {"choice": question.question["answer"]},
    )
    question.refresh_from_db()
    assert 8 <= answer_seconds(question) < mastery.EASY_SECONDS
    state = SkillState.objects.get(learner=learner, skill="weis_value")
    expected = mastery.review(None, True, answer_seconds(question), question.answered_at)
    assert (state.fsrs_card, state.due_at) == expected


def test_the_table_trainer_has_no_time_so_right_is_good(learner):
    when = timezone.now()
    state = record_skill(learner, "stoeck", True, when)
    assert (state.fsrs_card, state.due_at) == mastery.review(None, True, None, when)
    assert state.fsrs_card["state"] == State.Learning  # Easy would have skipped learning


def test_a_second_answer_changes_no_schedule(learner):
    question = QuizQuestionFactory(quiz__learner=learner, kind="stoeck")
    answer(learner=learner, question=question, choice=wrong_choice(question))
    before = SkillState.objects.get(learner=learner, skill="stoeck")
    with pytest.raises(AlreadyAnswered):
        answer(learner=learner, question=question, choice=question.question["answer"])
    after = SkillState.objects.get(learner=learner, skill="stoeck")
    assert (after.fsrs_card, after.due_at, after.attempts) == (
        before.fsrs_card,
        before.due_at,
        before.attempts,
    )


def test_a_released_answer_is_scheduled_from_when_it_was_given(school_class):
    """An assignment that explains after its due date counts its answers then; the
    review is the answer's, at the time it was given and with the time it took."""
    member = MembershipFactory(school_class=school_class).learner
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=1
    )
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    question = shown(quiz.questions.get(), seconds_ago=8)
    answer(learner=member, question=question, choice=question.question["answer"])
    assert not SkillState.objects.filter(learner=member).exists()
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    assert settle_released_answers([member.pk]) == 1
    question.refresh_from_db()
    state = SkillState.objects.get(learner=member, skill=question.kind)
    expected = mastery.review(None, True, answer_seconds(question), question.answered_at)
    assert (state.fsrs_card, state.due_at) == expected
    assert mastery.rating(True, answer_seconds(question)).name == "Easy"


def test_answer_seconds():
    now = timezone.now()
    question = QuizQuestion(shown_at=now - timedelta(seconds=12), answered_at=now)
    assert answer_seconds(question) == 12
    assert answer_seconds(question, now + timedelta(seconds=3)) == 15
    assert answer_seconds(QuizQuestion(answered_at=now)) is None
    assert (
        answer_seconds(QuizQuestion(shown_at=now + timedelta(seconds=5), answered_at=now)) is None
    )


# --- practice still picks due and weak skills first ----------------------------------


def test_practice_ranks_a_due_skill_before_one_not_due_at_the_same_mastery(learner):
    ago = timezone.now() - timedelta(minutes=5)
    record_skill(learner, "stoeck", False, ago)  # due a minute after: overdue now
    record_skill(learner, "target", True, ago)  # due ten minutes after: not yet
    SkillState.objects.filter(learner=learner).update(mastery=0.9)
    rows = {row.skill: row for row in skill_rows(learner)}
    assert rows["stoeck"].due_at < timezone.now() < rows["target"].due_at
    assert rows["stoeck"].priority > rows["target"].priority


def test_practice_ranks_a_weak_skill_first(learner):
    for _ in range(3):
        record_skill(learner, "stoeck", False, timezone.now())
        record_skill(learner, "target", True, timezone.now())
    ranked = [row.skill for row in sorted(skill_rows(learner), key=lambda row: -row.priority)]
    # Skills never practised (mastery P_INIT, due at once) come first, as before FSRS.
    assert ranked.index("stoeck") < ranked.index("target") == len(ranked) - 1


def test_the_demo_class_schedules_from_the_answers_moved_into_the_past():
    """make_demo_class answers at the real time and then moves the answers into past
    weeks; every skill's schedule is the one those answers give at their moved times,
    applied in the order they counted."""
    call_command(
        "make_demo_class", learners=3, assignments=3, seed=12, teacher="fsrs", stdout=io.StringIO()
    )
    states = SkillState.objects.filter(learner__memberships__school_class__teacher__username="fsrs")
    assert states.count() >= 3
    long_intervals = 0
    for state in states:
        counted = QuizQuestion.objects.filter(
            quiz__learner=state.learner_id, kind=state.skill, skill_recorded_at__isnull=False
        ).order_by("skill_recorded_at", "answered_at", "pk")
        card, due = None, None
        for question in counted:
            card, due = mastery.review(
                card, question.correct, answer_seconds(question), question.answered_at
            )
        assert (state.fsrs_card, state.due_at) == (card, due)
        assert state.due_at < timezone.now() + timedelta(days=mastery.MAX_INTERVAL_DAYS)
        long_intervals += state.due_at - state.last_answered_at > timedelta(days=1)
    # Spaced over weeks, some skills earned intervals longer than a day.
    assert long_intervals


# --- migrating the schedule from before FSRS -----------------------------------------


LAST = datetime(2026, 2, 1, 17, 45, tzinfo=UTC)


@pytest.mark.parametrize("streak", range(8))
def test_legacy_card_keeps_the_due_date_and_the_interval(streak):
    days = legacy.OLD_REVIEW_DAYS[min(streak, 5)]
    due = LAST + timedelta(days=days)
    card = legacy.card_from_legacy(
        streak=streak, attempts=streak + 2, correct=streak + 1, last_answered_at=LAST, due_at=due
    )
    assert datetime.fromisoformat(card["due"]) == due
    assert datetime.fromisoformat(card["last_review"]) == LAST
    # Reviewed when due, the card goes on from where it was.
    _c, after_wrong = mastery.review(card, False, None, due)
    _c, after_right = mastery.review(card, True, None, due)
    assert after_wrong < after_right
    if streak == 0:
        assert card["state"] == State.Learning
    else:
        assert card["state"] == State.Review
        # FSRS at the desired retention would have scheduled this card exactly so.
        assert mastery.SCHEDULER._next_interval(stability=card["stability"]) == days
        assert after_right - due > timedelta(days=days)


def test_legacy_card_difficulty_follows_the_share_of_wrong_answers():
    def difficulty(correct):
        return legacy.card_from_legacy(
            streak=3, attempts=10, correct=correct, last_answered_at=LAST, due_at=None
        )["difficulty"]

    assert difficulty(10) == pytest.approx(legacy.FIRST_GOOD_DIFFICULTY)
    assert difficulty(10) < difficulty(6) < difficulty(3) <= legacy.MAX_DIFFICULTY
    # The frozen constant is what fsrs computes for a first Good.
    first_good = mastery.SCHEDULER._initial_difficulty(rating=Rating.Good, clamp=True)
    assert first_good == pytest.approx(legacy.FIRST_GOOD_DIFFICULTY)


def test_legacy_card_without_an_answer_is_none():
    assert (
        legacy.card_from_legacy(streak=0, attempts=0, correct=0, last_answered_at=None, due_at=None)
        is None
    )


BEFORE = [("quizzes", "0003_skill_recorded_at")]
AFTER = [("quizzes", "0004_skill_fsrs_card")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_migration_keeps_every_learners_schedule():
    try:
        # Made with today's model: other apps' migrations stay applied while quizzes
        # goes back, so the historical User may lack columns the table has.
        user = LearnerFactory()
        apps = migrate(BEFORE)
        old = apps.get_model("quizzes", "SkillState")
        rows = {
            "stoeck": dict(streak=0, attempts=3, correct=1, days=0),
            "target": dict(streak=2, attempts=5, correct=4, days=3),
            "trick": dict(streak=9, attempts=12, correct=11, days=30),
        }
        for skill, row in rows.items():
            old.objects.create(
                learner_id=user.pk,
                skill=skill,
                mastery=0.5,
                attempts=row["attempts"],
                correct=row["correct"],
                streak=row["streak"],
                last_answered_at=LAST,
                due_at=LAST + timedelta(days=row["days"]),
            )
        old.objects.create(learner_id=user.pk, skill="weis_value", mastery=0.25)  # never answered

        apps = migrate(AFTER)
        states = {s.skill: s for s in apps.get_model("quizzes", "SkillState").objects.all()}
        assert states["weis_value"].fsrs_card is None and states["weis_value"].due_at is None
        for skill, row in rows.items():
            state = states[skill]
            due = LAST + timedelta(days=row["days"])
            assert state.due_at == due, skill
            assert (state.streak, state.attempts, state.correct, state.mastery) == (
                row["streak"],
                row["attempts"],
                row["correct"],
                0.5,
            )
            assert datetime.fromisoformat(state.fsrs_card["due"]) == due
        assert states["stoeck"].fsrs_card["state"] == State.Learning
        assert states["trick"].fsrs_card["stability"] == 30

        # Backwards drops the cards and keeps the rest.
        apps = migrate(BEFORE)
        back = {s.skill: s for s in apps.get_model("quizzes", "SkillState").objects.all()}
        assert not hasattr(back["trick"], "fsrs_card")
        assert back["trick"].due_at == LAST + timedelta(days=30)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
