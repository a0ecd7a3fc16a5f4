"""Selectors fetch, services write (review 2026-12-04 §3.3), R12.1.

An assignment that explains after its due date counts its answers toward mastery once
the due date has passed. The pages that show mastery (the dashboard, practice, the
teacher's mastery grid and learner history, the data export) count such released
answers without writing anything; the settling service stores the same numbers, and
the pages show the same before and after it ran, whatever order they read in.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import AssignmentFactory, MembershipFactory
from tutor.classroom import assignments, privacy, results
from tutor.classroom.models import Assignment
from tutor.quizzes.models import SkillState
from tutor.quizzes.selectors import skill_rows
from tutor.quizzes.services import answer, settle_released_answers

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


@pytest.fixture
def released(school_class):
    """A member answered an "after the due date" assignment (one right, one wrong),
    and its due date has just passed."""
    member = MembershipFactory(school_class=school_class).learner
    assignment = AssignmentFactory(
        school_class=school_class, explanations="after_due", question_count=2
    )
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    first, second = quiz.questions.order_by("position")
    answer(learner=member, question=first, choice=first.question["answer"])
    wrong = next(
        c["key"] for c in second.question["choices"] if c["key"] != second.question["answer"]
    )
    answer(learner=member, question=second, choice=wrong)
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    return member


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if WRITE.match(q["sql"])]


def grid_numbers(school_class):
    return [
        [(cell.mastery, cell.attempts, cell.correct) for cell in row.cells]
        for row in results.mastery_grid(school_class).rows
    ]


def test_r12_1_pages_count_released_answers_without_writing(
    client, teacher, school_class, released
):
    member = released
    pages = [
        (member, reverse("dashboard")),
        (member, reverse("quizzes:practice")),
        (teacher, reverse("classroom:class_mastery", args=[school_class.pk])),
        (teacher, reverse("classroom:learner_history", args=[school_class.pk, member.pk])),
    ]
    for user, url in pages:
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        assert writes(queries.captured_queries) == [], url
    with CaptureQueriesContext(connection) as queries:
        privacy.collect(privacy.Access(member, member, privacy.Relation.SELF))
    assert writes(queries.captured_queries) == []
    # Nothing was stored, yet the pages counted both answers.
    assert not SkillState.objects.filter(learner=member).exists()
    shown = {row.skill: (row.attempts, row.correct) for row in skill_rows(member)}
    assert sum(a for a, _c in shown.values()) == 2
    assert sum(c for _a, c in shown.values()) == 1


def test_r12_1_settling_stores_what_the_pages_showed(school_class, released):
    member = released
    rows_before = skill_rows(member)
    grid_before = grid_numbers(school_class)
    progress_before = results.learner_progress(member)
    assert settle_released_answers([member.pk]) == 2
    assert skill_rows(member) == rows_before
    assert grid_numbers(school_class) == grid_before
    # Progress reads the stored count times; before settling it counted the released
    # answers "now", after it at the time they were settled: the same week.
    assert results.learner_progress(member) == progress_before
    stored = SkillState.objects.filter(learner=member)
    assert sum(s.attempts for s in stored) == 2


def test_r12_1_the_dashboard_reads_the_same_in_any_order(school_class, released):
    member = released
    progress_first = results.learner_progress(member)
    rows_after = skill_rows(member)
    assert results.learner_progress(member) == progress_first
    assert skill_rows(member) == rows_after
    assert progress_first.counted == 2
