from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from tutor.accounts.models import User
from tutor.lessons.models import LessonText
from tutor.quizzes.models import Quiz
from tutor.table.models import TableRound

from .models import Assignment, LiveSession, Membership, SchoolClass

if TYPE_CHECKING:
    from typing import TypedDict

    from django_stubs_ext import WithAnnotations

    class _QuizCounts(TypedDict):
        answered: int
        right: int

    CountedQuiz = WithAnnotations[Quiz, _QuizCounts]  # a Quiz with the two counts annotated


def classes_taught_by(teacher: User) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(teacher=teacher).annotate(learner_count=Count("memberships"))


def classes_of_learner(learner: User) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(memberships__learner=learner).select_related("teacher")


def members(school_class: SchoolClass) -> QuerySet[Membership]:
    return school_class.memberships.select_related("learner").order_by("learner__username")


@dataclass(frozen=True)
class DueRow:
    assignment: Assignment
    status: str  # upcoming, open, in_progress, submitted, done, missed
    open_attempt: Quiz | None
    answered: int
    best_score: int | None
    attempts_used: int
    late_now: bool
    # Rounds at the table (0 and None for a quiz).
    rounds_started: int = 0
    rounds_finished: int = 0
    open_round: TableRound | None = None
    decisions_right: int = 0
    decisions_judged: int = 0

    @property
    def can_start(self) -> bool:
        return self.status in {"open", "in_progress", "submitted"}

    @property
    def round_number(self) -> int:
        """The round the learner plays next (1-based): the unfinished one, or the next."""
        if self.open_round is not None and self.open_round.assignment_index is not None:
            return self.open_round.assignment_index + 1
        return min(self.rounds_finished + 1, self.assignment.round_count)


def _table_status(assignment: Assignment, rounds: list[TableRound], now: datetime) -> str:
    finished = sum(1 for r in rounds if r.finished_at is not None)
    if now < assignment.opens_at:
        return "upcoming"
    if finished >= assignment.round_count:
        return "done"
    if assignment.is_closed(now):
        return "done" if finished else "missed"
    return "in_progress" if rounds else "open"


def _table_row(assignment: Assignment, rounds: list[TableRound], now: datetime) -> DueRow:
    tallies = [counts for r in rounds for counts in (r.tally or {}).values()]
    right = sum(c.get("right", 0) for c in tallies)
    return DueRow(
        assignment=assignment,
        status=_table_status(assignment, rounds, now),
        open_attempt=None,
        answered=0,
        best_score=None,
        attempts_used=0,
        late_now=now > assignment.due_at,
        rounds_started=len(rounds),
        rounds_finished=sum(1 for r in rounds if r.finished_at is not None),
        open_round=next((r for r in rounds if r.finished_at is None), None),
        decisions_right=right,
        decisions_judged=right + sum(c.get("wrong", 0) for c in tallies),
    )


def learner_assignments(learner: User, now: datetime | None = None) -> list[DueRow]:
    """Every assignment of the learner's classes with what they can do now (4 queries)."""
    now = now or timezone.now()
    assignments = list(
        # Live sessions are joined from their own box (running_live_sessions).
        Assignment.objects.filter(school_class__memberships__learner=learner)
        .exclude(activity=Assignment.Activity.LIVE)
        .select_related("school_class")
        .order_by("due_at", "id")
    )
    # Keyed by assignment_id, which the query keeps non-null; the counts are annotated.
    attempts: dict[int | None, list[CountedQuiz]] = {}
    for quiz in Quiz.objects.filter(learner=learner, assignment__in=assignments).annotate(
        answered=Count("questions", filter=Q(questions__answered_at__isnull=False)),
        right=Count("questions", filter=Q(questions__correct=True)),
    ):
        attempts.setdefault(quiz.assignment_id, []).append(quiz)
    table_rounds: dict[int | None, list[TableRound]] = {}
    for round_ in (
        TableRound.objects.filter(
            learner=learner, assignment__in=[a for a in assignments if a.is_table]
        )
        .only("id", "assignment_id", "assignment_index", "finished_at", "tally")
        .order_by("assignment_index", "id")
    ):
        table_rounds.setdefault(round_.assignment_id, []).append(round_)
    return [
        _table_row(a, table_rounds.get(a.pk, []), now)
        if a.is_table
        else _quiz_row(a, attempts.get(a.pk, []), now)
        for a in assignments
    ]


def _quiz_status(assignment: Assignment, mine: Sequence[Quiz], now: datetime) -> str:
    open_attempt = any(q.submitted_at is None for q in mine)
    submitted = any(q.submitted_at is not None for q in mine)
    if now < assignment.opens_at:
        return "upcoming"
    if open_attempt:
        return "missed" if assignment.is_closed(now) else "in_progress"
    if assignment.is_closed(now):
        return "done" if submitted else "missed"
    if len(mine) >= assignment.attempts_allowed:
        return "done"
    return "submitted" if submitted else "open"


def _quiz_row(assignment: Assignment, mine: list[CountedQuiz], now: datetime) -> DueRow:
    open_attempt = next((q for q in mine if q.submitted_at is None), None)
    return DueRow(
        assignment=assignment,
        status=_quiz_status(assignment, mine, now),
        open_attempt=open_attempt,
        answered=open_attempt.answered if open_attempt else 0,
        best_score=max((q.right for q in mine if q.submitted_at is not None), default=None),
        attempts_used=len(mine),
        late_now=now > assignment.due_at,
    )


def assignment_barring_tools(
    user: User | AnonymousUser, now: datetime | None = None
) -> Assignment | None:
    """An open assignment attempt of ``user`` whose teacher did not allow the Weis tool,
    or None. While there is one, the Weis tool shows a notice instead of results."""
    if not user.is_authenticated or not user.is_learner:
        return None
    now = now or timezone.now()
    return _barring(Quiz, {"submitted_at__isnull": True}, user, now) or _barring(
        TableRound, {"finished_at__isnull": True}, user, now
    )


def _barring(
    model: type[Quiz] | type[TableRound], unfinished: dict[str, Any], user: User, now: datetime
) -> Assignment | None:
    """The first open assignment (by due date) of the user's unfinished quiz attempts
    or table rounds (``model``) whose teacher did not allow tools, in a class the user
    is still in."""
    rows = (
        model.objects.filter(
            learner=user,
            assignment__tools_allowed=False,
            assignment__opens_at__lte=now,
            assignment__school_class__memberships__learner=user,
            **unfinished,
        )
        .select_related("assignment")
        .order_by("assignment__due_at")
    )
    for row in rows:
        if row.assignment is not None and row.assignment.is_open(now):
            return row.assignment
    return None


def running_live_sessions(learner: User) -> list[LiveSession]:
    """The live sessions running now in the learner's classes (tutor.live; for the
    dashboard, which sits in this app)."""
    return list(
        LiveSession.objects.select_related("assignment__school_class")
        .filter(assignment__school_class__memberships__learner=learner)
        .exclude(phase=LiveSession.Phase.FINISHED)
        .order_by("-assignment__opens_at")
    )


def lesson_title(slug: str, language: str) -> str | None:
    """The title of lesson ``slug`` in ``language`` (None when it has no text there)."""
    return (
        LessonText.objects.filter(lesson__slug=slug, language=language)
        .values_list("title", flat=True)
        .first()
    )
