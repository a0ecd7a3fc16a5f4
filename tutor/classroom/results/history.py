"""One learner's history in a class: attempts, rounds, skills and progress."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tutor.accounts.models import User
from tutor.quizzes.models import Quiz
from tutor.quizzes.selectors import SkillRow, skill_rows
from tutor.table.models import TableRound

from ..models import Assignment, SchoolClass
from .common import IN_PROGRESS, STATUS_LABELS, SUBMITTED, _percent
from .progress import Progress, learner_progress
from .table import tallies

# --- one learner ---------------------------------------------------------------------


@dataclass(frozen=True)
class AttemptRecord:
    attempt: int
    right: int
    answered: int
    total: int
    started_at: datetime
    submitted_at: datetime | None
    late: bool

    @property
    def percent(self) -> int | None:
        return _percent(self.right, self.total)

    @property
    def status(self) -> str:
        return SUBMITTED if self.submitted_at else IN_PROGRESS

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS[self.status])


@dataclass(frozen=True)
class RoundRecord:
    """One round of a table assignment, as a learner's history shows it."""

    index: int  # 0-based, as stored
    right: int
    judged: int
    started_at: datetime
    finished_at: datetime | None
    late: bool

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def percent(self) -> int | None:
        return _percent(self.right, self.judged)

    @property
    def status_label(self) -> str:
        return str(_("finished") if self.finished_at else STATUS_LABELS[IN_PROGRESS])


@dataclass
class AssignmentHistory:
    assignment: Assignment
    attempts: list[AttemptRecord]
    rounds: list[RoundRecord] = field(default_factory=list)  # table assignments

    @property
    def best(self) -> AttemptRecord | None:
        submitted = [a for a in self.attempts if a.submitted_at is not None]
        if not submitted:
            return None
        return max(submitted, key=lambda a: (a.right, -a.attempt))


@dataclass
class LearnerHistory:
    school_class: SchoolClass
    learner: User
    assignments: list[AssignmentHistory]
    skills: list[SkillRow]
    progress: Progress | None = None

    @property
    def has_table(self) -> bool:
        return any(item.assignment.is_table for item in self.assignments)


def learner_history(
    school_class: SchoolClass, learner: User, now: datetime | None = None
) -> LearnerHistory:
    """Every assignment of the class (newest due first) with the learner's attempts."""
    now = now or timezone.now()
    assignments = list(school_class.assignments.order_by("-due_at", "-id"))
    quizzes = (
        Quiz.objects.filter(learner=learner, assignment__school_class=school_class)
        .annotate(
            n_right=Count("questions", filter=Q(questions__correct=True)),
            n_answered=Count("questions", filter=Q(questions__answered_at__isnull=False)),
            n_total=Count("questions"),
        )
        .order_by("assignment_id", "attempt")
    )
    # Keyed by assignment_id, never None here (the queries filter by assignment).
    records: dict[int | None, list[AttemptRecord]] = defaultdict(list)
    for quiz in quizzes:
        records[quiz.assignment_id].append(
            AttemptRecord(
                attempt=quiz.attempt,
                right=quiz.n_right,
                answered=quiz.n_answered,
                total=quiz.n_total,
                started_at=quiz.created_at,
                submitted_at=quiz.submitted_at,
                late=quiz.late,
            )
        )
    rounds: dict[int | None, list[RoundRecord]] = defaultdict(list)
    due: dict[int | None, datetime] = {a.pk: a.due_at for a in assignments}
    for round_ in (
        TableRound.objects.filter(learner=learner, assignment__school_class=school_class)
        .only("id", "assignment_id", "assignment_index", "tally", "created_at", "finished_at")
        .order_by("assignment_id", "assignment_index", "id")
    ):
        tally = tallies([round_])
        rounds[round_.assignment_id].append(
            RoundRecord(
                index=round_.assignment_index or 0,
                right=sum(t.right for t in tally),
                judged=sum(t.judged for t in tally),
                started_at=round_.created_at,
                finished_at=round_.finished_at,
                late=round_.finished_at is not None
                and round_.finished_at > due[round_.assignment_id],
            )
        )
    skills = skill_rows(learner, now)
    return LearnerHistory(
        school_class=school_class,
        learner=learner,
        assignments=[
            AssignmentHistory(a, records.get(a.pk, []), rounds.get(a.pk, [])) for a in assignments
        ],
        skills=skills,
        progress=learner_progress(learner, now, school_class),
    )
