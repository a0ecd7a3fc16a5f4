"""One assignment's results: learners by questions, statistics per kind and position."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q

from tutor.accounts.models import User
from tutor.quizzes.models import Quiz, QuizQuestion

from ..models import Assignment, SchoolClass
from .common import (
    BASIS_LABELS,
    BEST_SUBMITTED,
    CELL_LABELS,
    IN_PROGRESS,
    LATEST_OPEN,
    NOT_STARTED,
    RIGHT,
    STATUS_LABELS,
    SUBMITTED,
    UNANSWERED,
    WRONG,
    Column,
    _mean,
    _members,
    _percent,
    _seconds,
    best_attempt,
    format_seconds,
    skill_label,
)
from .items import ItemAnalysis, item_analysis
from .picks import Pick, WrongChoice, _wrong_choices

# --- assignment results --------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    state: str  # RIGHT, WRONG or UNANSWERED
    seconds: int | None = None
    choice: str = ""
    mistake: str = ""

    @property
    def symbol(self) -> str:
        return {RIGHT: "✓", WRONG: "✗"}.get(self.state, "–")

    @property
    def label(self) -> str:
        return str(CELL_LABELS[self.state])

    @property
    def time_text(self) -> str:
        return format_seconds(self.seconds)


@dataclass
class ResultRow:
    learner: User
    status: str
    attempts_used: int
    basis: str | None = None  # BEST_SUBMITTED, LATEST_OPEN, or None when not started
    attempt: int | None = None  # the attempt number the cells show
    cells: list[Cell] = field(default_factory=list)
    right: int = 0
    answered: int = 0
    total: int = 0
    submitted_at: datetime | None = None
    late: bool = False
    open_attempt: bool = False  # an unsubmitted attempt exists besides the one shown
    seconds: int | None = None  # time over all timed answers

    @property
    def percent(self) -> int | None:
        return _percent(self.right, self.total) if self.basis else None

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS[self.status])

    @property
    def basis_label(self) -> str:
        return str(BASIS_LABELS[self.basis]) if self.basis else ""

    @property
    def time_text(self) -> str:
        return format_seconds(self.seconds)


@dataclass(frozen=True)
class KindStat:
    kind: str
    label: str
    answered: int
    right: int
    top_wrong: WrongChoice | None
    questions: int = 0  # of this kind, in every attempt, answered or not
    wrong_choices: tuple[WrongChoice, ...] = ()  # every mistake picked, most picked first

    @property
    def wrong(self) -> int:
        return self.answered - self.right

    @property
    def unanswered(self) -> int:
        return self.questions - self.answered

    @property
    def right_share(self) -> int | None:
        """Per cent of every question of this kind (answered or not) that was right."""
        return _percent(self.right, self.questions)

    @property
    def unanswered_share(self) -> int | None:
        return _percent(self.unanswered, self.questions)

    @property
    def facility(self) -> int | None:
        """Per cent of the answers that were right; None when nobody answered."""
        return _percent(self.right, self.answered)


@dataclass(frozen=True)
class ColumnStat:
    column: Column
    right: int
    answered: int

    @property
    def facility(self) -> int | None:
        return _percent(self.right, self.answered)


@dataclass(frozen=True)
class Averages:
    learners: int
    started: int
    submitted: int
    not_started: int
    late: int
    mean_percent: int | None  # mean score of the submitted work
    mean_seconds: int | None  # mean time per timed answer, in the work shown
    columns: list[ColumnStat]

    @property
    def mean_time_text(self) -> str:
        return format_seconds(self.mean_seconds)


@dataclass
class AssignmentResults:
    assignment: Assignment
    school_class: SchoolClass
    columns: list[Column]
    rows: list[ResultRow]
    by_kind: list[KindStat]
    averages: Averages
    items: ItemAnalysis | None = None


def assignment_columns(assignment: Assignment) -> list[Column]:
    kinds = assignment.kinds or [""]
    return [
        Column(position=i, kind=kinds[i % len(kinds)], label=skill_label(kinds[i % len(kinds)]))
        for i in range(assignment.question_count)
    ]


def assignment_results(assignment: Assignment, deck: str = "swiss") -> AssignmentResults:
    """Learners by questions for one assignment, with statistics per kind and position.

    Every member is a row, also those who never started. A row shows the learner's
    best submitted attempt (most right answers; the earlier one on a tie), or, when
    nothing is submitted, their latest attempt in progress. Statistics per kind count
    every answer of every attempt of the class's members.
    """
    school_class = assignment.school_class
    columns = assignment_columns(assignment)
    members = _members(school_class)

    quizzes = list(
        Quiz.objects.filter(
            assignment=assignment, learner__memberships__school_class=school_class
        ).order_by("learner_id", "attempt")
    )
    questions = (
        QuizQuestion.objects.filter(
            quiz__assignment=assignment, quiz__learner__memberships__school_class=school_class
        )
        .defer("question")
        .order_by("quiz_id", "position")
    )
    by_quiz: dict[int, dict[int, QuizQuestion]] = defaultdict(dict)
    for question in questions:
        by_quiz[question.quiz_id][question.position] = question
    # The stored question (choices, mistakes) is only needed for wrong answers, and,
    # with the same questions for everybody, for one first attempt: the item analysis
    # lists every wrong choice each question offered, picked or not.
    sample = min((q.pk for q in quizzes if q.attempt == 1), default=None)
    wanted = Q(correct=False, answered_at__isnull=False)
    if assignment.same_questions and sample is not None:
        wanted |= Q(quiz_id=sample)
    wrong_data: dict[int, dict[str, Any]] = dict(
        QuizQuestion.objects.filter(
            wanted,
            quiz__assignment=assignment,
            quiz__learner__memberships__school_class=school_class,
        ).values_list("id", "question")
    )

    attempts: dict[int, list[Quiz]] = defaultdict(list)
    for quiz in quizzes:
        attempts[quiz.learner_id].append(quiz)

    # Statistics per kind, over every answer of every attempt.
    questions_by_kind: Counter[str] = Counter()
    answered_by_kind: Counter[str] = Counter()
    right_by_kind: Counter[str] = Counter()
    picks: dict[str, list[Pick]] = defaultdict(list)
    for quiz in quizzes:
        for question in by_quiz[quiz.pk].values():
            questions_by_kind[question.kind] += 1
            if question.answered_at is None:
                continue
            answered_by_kind[question.kind] += 1
            if question.correct:
                right_by_kind[question.kind] += 1
            elif question.pk in wrong_data:
                data = wrong_data[question.pk]
                mistake = data.get("mistakes", {}).get(question.answered_choice, "")
                picks[question.kind].append(
                    (question.kind, mistake, question.answered_choice, data)
                )

    rows = [
        _row(learner, attempts.get(learner.pk, []), by_quiz, columns, wrong_data)
        for learner in members
    ]

    kinds = list(dict.fromkeys([*assignment.kinds, *answered_by_kind]))
    by_kind = []
    for kind in kinds:
        choices = _wrong_choices(picks[kind], deck, questions_by_kind[kind])
        by_kind.append(
            KindStat(
                kind=kind,
                label=skill_label(kind),
                answered=answered_by_kind[kind],
                right=right_by_kind[kind],
                top_wrong=choices[0] if choices else None,
                questions=questions_by_kind[kind],
                wrong_choices=tuple(choices),
            )
        )
    first_attempts = {
        learner.pk: attempts[learner.pk][0] for learner in members if attempts.get(learner.pk)
    }
    return AssignmentResults(
        assignment=assignment,
        school_class=school_class,
        columns=columns,
        rows=rows,
        by_kind=by_kind,
        averages=_averages(rows, columns),
        items=item_analysis(
            assignment,
            columns,
            [by_quiz[q.pk] for q in first_attempts.values() if q.submitted_at is not None],
            members=len(members),
            wrong_data=wrong_data,
            sample=by_quiz.get(sample, {}) if sample is not None else {},
            deck=deck,
        ),
    )


def _cell(question: QuizQuestion | None, wrong_data: dict[int, dict[str, Any]]) -> Cell:
    """One question of the attempt shown, with the mistake behind a wrong answer."""
    if question is None or question.answered_at is None:
        return Cell(UNANSWERED)
    mistake = ""
    if not question.correct and question.pk in wrong_data:
        mistake = wrong_data[question.pk].get("mistakes", {}).get(question.answered_choice, "")
    return Cell(
        state=RIGHT if question.correct else WRONG,
        seconds=_seconds(question.shown_at, question.answered_at),
        choice=question.answered_choice,
        mistake=mistake,
    )


def _row(
    learner: User,
    attempts: list[Quiz],
    by_quiz: dict[int, dict[int, QuizQuestion]],
    columns: list[Column],
    wrong_data: dict[int, dict[str, Any]],
) -> ResultRow:
    if not attempts:
        return ResultRow(
            learner=learner,
            status=NOT_STARTED,
            attempts_used=0,
            cells=[Cell(UNANSWERED) for _c in columns],
        )

    def right_count(quiz: Quiz) -> int:
        return sum(1 for q in by_quiz[quiz.pk].values() if q.correct)

    submitted = [q for q in attempts if q.submitted_at is not None]
    if submitted:
        shown = best_attempt(submitted, right_count, lambda q: q.attempt)
        basis, status = BEST_SUBMITTED, SUBMITTED
    else:
        shown = max(attempts, key=lambda q: q.attempt)
        basis, status = LATEST_OPEN, IN_PROGRESS
    stored = by_quiz[shown.pk]
    cells = [_cell(stored.get(column.position), wrong_data) for column in columns]
    timed = [c.seconds for c in cells if c.seconds is not None]
    return ResultRow(
        learner=learner,
        status=status,
        attempts_used=len(attempts),
        basis=basis,
        attempt=shown.attempt,
        cells=cells,
        right=sum(1 for c in cells if c.state == RIGHT),
        answered=sum(1 for c in cells if c.state != UNANSWERED),
        total=len(columns),
        submitted_at=shown.submitted_at,
        late=shown.late,
        open_attempt=any(q.submitted_at is None and q.pk != shown.pk for q in attempts),
        seconds=sum(timed) if timed else None,
    )


def _averages(rows: list[ResultRow], columns: list[Column]) -> Averages:
    started = [r for r in rows if r.status != NOT_STARTED]
    submitted = [r for r in rows if r.status == SUBMITTED]
    mean_percent = _mean(r.percent for r in submitted if r.percent is not None)
    mean_seconds = _mean(c.seconds for r in started for c in r.cells if c.seconds is not None)
    column_stats = [
        ColumnStat(
            column=column,
            right=sum(1 for r in started if r.cells[i].state == RIGHT),
            answered=sum(1 for r in started if r.cells[i].state != UNANSWERED),
        )
        for i, column in enumerate(columns)
    ]
    return Averages(
        learners=len(rows),
        started=len(started),
        submitted=len(submitted),
        not_started=len(rows) - len(started),
        late=sum(1 for r in submitted if r.late),
        mean_percent=round(mean_percent) if mean_percent is not None else None,
        mean_seconds=round(mean_seconds) if mean_seconds is not None else None,
        columns=column_stats,
    )
