"""Reading results for teachers: per assignment, per class (mastery) and per learner.

Access is decided here, not in the views: every object is looked up together with
its teacher (:func:`class_of_teacher`, :func:`assignment_of_teacher`,
:func:`learner_in_class`), so somebody else's id is a 404 and reveals nothing.

The pages of a big class must not cost more queries than those of a small one:
each selector runs a fixed number of flat queries and groups the rows in Python.

- :func:`assignment_results`: 4 queries (members, attempts, their questions, and
  the stored question data of the wrong answers only).
- :func:`mastery_grid`: 2 queries (members, skill states).
- :func:`learner_history`: 4 queries (assignments, attempts, table rounds, skill
  states).
- :func:`table_results`: 2 queries (members, rounds), for one table assignment (its
  results page) or all of a class's (the class page; plus 1 for the assignments).

Rounds at the table need no replay here: each round stores its judgements per skill
(``TableRound.tally``), written with the move that made them.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teaching import mastery as bkt
from tutor.accounts.models import User
from tutor.quizzes.mistakes import mistake_text
from tutor.quizzes.models import Quiz, QuizQuestion, Skill, SkillState
from tutor.quizzes.presenters import choice_label
from tutor.quizzes.selectors import SkillRow, skill_rows
from tutor.quizzes.services import settle_released_answers
from tutor.table.models import TableRound
from tutor.table.selectors import SKILL_ORDER as TABLE_SKILLS
from tutor.table.selectors import skill_label as table_skill_label

from .models import Assignment, Membership, SchoolClass

RIGHT = "right"
WRONG = "wrong"
UNANSWERED = "unanswered"

NOT_STARTED = "not_started"
IN_PROGRESS = "in_progress"
SUBMITTED = "submitted"

BEST_SUBMITTED = "best_submitted"
LATEST_OPEN = "latest_open"

FINISHED = "finished"  # every round of a table assignment played

STATUS_LABELS = {
    NOT_STARTED: _("not started"),
    IN_PROGRESS: _("in progress"),
    SUBMITTED: _("submitted"),
    FINISHED: _("all rounds played"),
}
BASIS_LABELS = {
    BEST_SUBMITTED: _("best submitted attempt"),
    LATEST_OPEN: _("attempt in progress, not submitted"),
}
CELL_LABELS = {RIGHT: _("right"), WRONG: _("wrong"), UNANSWERED: _("not answered")}


# --- access --------------------------------------------------------------------------


def class_of_teacher(teacher: User, class_id: int) -> SchoolClass:
    """The teacher's own class; any other id is a 404."""
    school_class = SchoolClass.objects.filter(pk=class_id, teacher_id=teacher.pk).first()
    if school_class is None:
        raise Http404("No such class")
    return school_class


def assignment_of_teacher(teacher: User, assignment_id: int) -> Assignment:
    """An assignment of one of the teacher's classes (with its class); else a 404."""
    assignment = (
        Assignment.objects.select_related("school_class")
        .filter(pk=assignment_id, school_class__teacher_id=teacher.pk)
        .first()
    )
    if assignment is None:
        raise Http404("No such assignment")
    return assignment


def learner_in_class(teacher: User, class_id: int, learner_id: int) -> tuple[SchoolClass, User]:
    """(class, learner) when the class is the teacher's and the learner is in it; else 404."""
    membership = (
        Membership.objects.select_related("school_class", "learner")
        .filter(
            school_class_id=class_id,
            school_class__teacher_id=teacher.pk,
            learner_id=learner_id,
        )
        .first()
    )
    if membership is None:
        raise Http404("No such learner in this class")
    return membership.school_class, membership.learner


# --- helpers -------------------------------------------------------------------------


def name_key(username: str) -> tuple[str, str]:
    """Sort names as people do: 'Ädu' next to 'Adrian', not after 'Zoë'."""
    plain = unicodedata.normalize("NFKD", username)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return (plain.casefold(), username)


def _members(school_class: SchoolClass) -> list[User]:
    memberships = Membership.objects.filter(school_class=school_class).select_related("learner")
    return sorted((m.learner for m in memberships), key=lambda u: name_key(u.username))


def _seconds(shown_at: datetime | None, answered_at: datetime | None) -> int | None:
    if shown_at is None or answered_at is None or answered_at < shown_at:
        return None
    return round((answered_at - shown_at).total_seconds())


def format_seconds(seconds: int | None) -> str:
    """'42 s', '2:05 min'; '' when unknown (the same in German and English)."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds} s"
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}:{rest:02d} min"


def _percent(part: int, whole: int) -> int | None:
    return round(100 * part / whole) if whole else None


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def skill_label(kind: str) -> str:
    try:
        return str(Skill(kind).label)
    except ValueError:
        return kind


# --- assignment results --------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    position: int  # 0-based, as stored
    kind: str
    label: str

    @property
    def number(self) -> int:
        return self.position + 1


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
class WrongChoice:
    """The wrong answer most picked for one kind, named by the mistake behind it."""

    mistake: str
    text: str
    count: int
    label: str  # the choice worded, e.g. "Team 2 writes 150"; "" when it cannot be worded
    label_is_example: bool  # the picks had different values; ``label`` is the commonest


@dataclass(frozen=True)
class KindStat:
    kind: str
    label: str
    answered: int
    right: int
    top_wrong: WrongChoice | None

    @property
    def wrong(self) -> int:
        return self.answered - self.right

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


def assignment_columns(assignment: Assignment) -> list[Column]:
    kinds = assignment.kinds or [""]
    return [
        Column(position=i, kind=kinds[i % len(kinds)], label=skill_label(kinds[i % len(kinds)]))
        for i in range(assignment.question_count)
    ]


def _choice_text(kind: str, data: dict[str, Any], key: str, deck: str) -> str:
    """The wording the learner saw for choice ``key``; '' if it cannot be worded."""
    value = next((c["value"] for c in data.get("choices", []) if c.get("key") == key), None)
    if value is None:
        return ""
    try:
        return str(choice_label(kind, value, data.get("prompt", {}), deck)["text"])
    except (LookupError, TypeError, ValueError):  # odd stored data: the sentence remains
        return ""


def _top_wrong(picks: list[tuple[str, str, str, dict[str, Any]]], deck: str) -> WrongChoice | None:
    """``picks``: (kind, mistake, chosen key, question data) per wrong answer of one kind."""
    if not picks:
        return None
    counts = Counter(mistake for _kind, mistake, _key, _data in picks)
    # Most picked first; equal counts by name, so the page does not change between loads.
    mistake, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
    values: Counter[str] = Counter()
    example: dict[str, tuple[str, str, dict[str, Any]]] = {}
    for kind, name, key, data in picks:
        if name != mistake:
            continue
        value = next((c["value"] for c in data.get("choices", []) if c.get("key") == key), None)
        token = json.dumps(value, sort_keys=True)
        values[token] += 1
        example.setdefault(token, (kind, key, data))
    token, _n = min(values.items(), key=lambda item: (-item[1], item[0]))
    kind, key, data = example[token]
    return WrongChoice(
        mistake=mistake,
        text=mistake_text(mistake),
        count=count,
        label=_choice_text(kind, data, key, deck),
        label_is_example=len(values) > 1,
    )


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
    # The stored question (choices, mistakes) is only needed for wrong answers.
    wrong_data: dict[int, dict[str, Any]] = dict(
        QuizQuestion.objects.filter(
            quiz__assignment=assignment,
            quiz__learner__memberships__school_class=school_class,
            correct=False,
            answered_at__isnull=False,
        ).values_list("id", "question")
    )

    attempts: dict[int, list[Quiz]] = defaultdict(list)
    for quiz in quizzes:
        attempts[quiz.learner_id].append(quiz)

    # Statistics per kind, over every answer of every attempt.
    answered_by_kind: Counter[str] = Counter()
    right_by_kind: Counter[str] = Counter()
    picks: dict[str, list[tuple[str, str, str, dict[str, Any]]]] = defaultdict(list)
    for quiz in quizzes:
        for question in by_quiz[quiz.pk].values():
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
    by_kind = [
        KindStat(
            kind=kind,
            label=skill_label(kind),
            answered=answered_by_kind[kind],
            right=right_by_kind[kind],
            top_wrong=_top_wrong(picks[kind], deck),
        )
        for kind in kinds
    ]
    return AssignmentResults(
        assignment=assignment,
        school_class=school_class,
        columns=columns,
        rows=rows,
        by_kind=by_kind,
        averages=_averages(rows, columns),
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
        shown = max(submitted, key=lambda q: (right_count(q), -q.attempt))
        basis, status = BEST_SUBMITTED, SUBMITTED
    else:
        shown = max(attempts, key=lambda q: q.attempt)
        basis, status = LATEST_OPEN, IN_PROGRESS
    stored = by_quiz[shown.pk]
    cells = []
    for column in columns:
        question = stored.get(column.position)
        if question is None or question.answered_at is None:
            cells.append(Cell(UNANSWERED))
            continue
        mistake = ""
        if not question.correct and question.pk in wrong_data:
            mistake = wrong_data[question.pk].get("mistakes", {}).get(question.answered_choice, "")
        cells.append(
            Cell(
                state=RIGHT if question.correct else WRONG,
                seconds=_seconds(question.shown_at, question.answered_at),
                choice=question.answered_choice,
                mistake=mistake,
            )
        )
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


# --- rounds at the table -------------------------------------------------------------


@dataclass(frozen=True)
class SkillTally:
    """Decisions at the table on one skill: right and wrong (notes do not count)."""

    skill: str
    label: str
    right: int = 0
    wrong: int = 0

    @property
    def judged(self) -> int:
        return self.right + self.wrong

    @property
    def facility(self) -> int | None:
        """Per cent of the decisions that were right; None when none was made."""
        return _percent(self.right, self.judged)


def _tallies(rounds: Iterable[TableRound]) -> list[SkillTally]:
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for round_ in rounds:
        for skill, counts in (round_.tally or {}).items():
            right[skill] += counts.get("right", 0)
            wrong[skill] += counts.get("wrong", 0)
    return [
        SkillTally(skill, table_skill_label(skill), right[skill], wrong[skill])
        for skill in TABLE_SKILLS
    ]


@dataclass
class TableRow:
    learner: User
    status: str  # NOT_STARTED, IN_PROGRESS or FINISHED
    started: int
    finished: int
    rounds_set: int
    late: int  # rounds finished after the due date
    skills: list[SkillTally]
    last_move_at: datetime | None

    @property
    def right(self) -> int:
        return sum(t.right for t in self.skills)

    @property
    def judged(self) -> int:
        return sum(t.judged for t in self.skills)

    @property
    def percent(self) -> int | None:
        return _percent(self.right, self.judged)

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS[self.status])


@dataclass
class TableResults:
    """Learners by skills for rounds at the table: one assignment, or all of a class's."""

    school_class: SchoolClass
    assignments: list[Assignment]
    rows: list[TableRow]
    skills: list[SkillTally]  # the whole class, every round

    @property
    def rounds_set(self) -> int:
        return sum(a.round_count for a in self.assignments)

    @property
    def started(self) -> int:
        return sum(1 for r in self.rows if r.status != NOT_STARTED)

    @property
    def finished(self) -> int:
        return sum(1 for r in self.rows if r.status == FINISHED)

    @property
    def not_started(self) -> int:
        return len(self.rows) - self.started


def table_results(school_class: SchoolClass, assignments: list[Assignment]) -> TableResults:
    """Per member: rounds started and finished, and decisions right and wrong per skill,
    over every round of ``assignments`` (table assignments of ``school_class``); and
    the facility per skill over the whole class. Rounds of former members are left out,
    as their quiz attempts are."""
    members = _members(school_class)
    due = {a.pk: a.due_at for a in assignments}
    by_learner: dict[int, list[TableRound]] = defaultdict(list)
    rounds = (
        TableRound.objects.filter(
            assignment__in=assignments, learner__memberships__school_class=school_class
        )
        .only("id", "learner_id", "assignment_id", "tally", "finished_at", "last_move_at")
        .order_by("learner_id", "assignment_id", "assignment_index", "id")
    )
    for round_ in rounds:
        by_learner[round_.learner_id].append(round_)
    rounds_set = sum(a.round_count for a in assignments)
    rows = []
    for learner in members:
        mine = by_learner.get(learner.pk, [])
        finished = [r for r in mine if r.finished_at is not None]
        if not mine:
            status = NOT_STARTED
        elif len(finished) >= rounds_set:
            status = FINISHED
        else:
            status = IN_PROGRESS
        rows.append(
            TableRow(
                learner=learner,
                status=status,
                started=len(mine),
                finished=len(finished),
                rounds_set=rounds_set,
                late=sum(
                    1
                    for r in finished
                    if r.finished_at is not None and r.finished_at > due[r.assignment_id]
                ),
                skills=_tallies(mine),
                last_move_at=max(
                    (r.last_move_at for r in mine if r.last_move_at is not None), default=None
                ),
            )
        )
    return TableResults(
        school_class=school_class,
        assignments=assignments,
        rows=rows,
        skills=_tallies(r for row in by_learner.values() for r in row),
    )


def class_table_results(school_class: SchoolClass) -> TableResults | None:
    """:func:`table_results` over every table assignment of the class; None without any."""
    assignments = list(
        school_class.assignments.filter(activity=Assignment.Activity.TABLE).order_by("due_at", "id")
    )
    return table_results(school_class, assignments) if assignments else None


# --- mastery grid --------------------------------------------------------------------


@dataclass(frozen=True)
class SkillColumn:
    skill: str
    label: str


@dataclass(frozen=True)
class MasteryCell:
    mastery: float | None  # 0..1, None when never practised
    attempts: int = 0
    correct: int = 0

    @property
    def percent(self) -> int | None:
        return round(self.mastery * 100) if self.mastery is not None else None

    @property
    def mastered(self) -> bool:
        return self.mastery is not None and self.mastery >= bkt.MASTERED


@dataclass
class MasteryRow:
    learner: User
    cells: list[MasteryCell]

    @property
    def practised(self) -> int:
        return sum(1 for c in self.cells if c.mastery is not None)


@dataclass(frozen=True)
class SkillAverage:
    skill: SkillColumn
    mastery: float | None  # mean over the learners who practised it
    practised: int  # how many learners practised it
    mastered: int  # how many reached the mastery threshold

    @property
    def percent(self) -> int | None:
        return round(self.mastery * 100) if self.mastery is not None else None


@dataclass
class MasteryGrid:
    school_class: SchoolClass
    skills: list[SkillColumn]
    rows: list[MasteryRow]
    averages: list[SkillAverage]

    @property
    def mastered_percent(self) -> int:
        return round(bkt.MASTERED * 100)


def mastery_grid(school_class: SchoolClass) -> MasteryGrid:
    """Learners by skills; a skill never practised is None, not the prior of 25 %."""
    skills = [SkillColumn(skill=value, label=str(label)) for value, label in Skill.choices]
    members = _members(school_class)
    settle_released_answers([learner.pk for learner in members])
    states: dict[tuple[int, str], SkillState] = {
        (s.learner_id, s.skill): s
        for s in SkillState.objects.filter(learner__memberships__school_class=school_class)
    }
    rows = []
    for learner in members:
        cells = []
        for column in skills:
            state = states.get((learner.pk, column.skill))
            if state is None or state.attempts == 0:
                cells.append(MasteryCell(mastery=None))
            else:
                cells.append(MasteryCell(state.mastery, state.attempts, state.correct))
        rows.append(MasteryRow(learner=learner, cells=cells))
    averages = []
    for i, column in enumerate(skills):
        practised = [r.cells[i] for r in rows if r.cells[i].mastery is not None]
        averages.append(
            SkillAverage(
                skill=column,
                mastery=_mean(c.mastery for c in practised if c.mastery is not None),
                practised=len(practised),
                mastered=sum(1 for c in practised if c.mastered),
            )
        )
    return MasteryGrid(school_class=school_class, skills=skills, rows=rows, averages=averages)


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
    records: dict[int, list[AttemptRecord]] = defaultdict(list)
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
    rounds: dict[int, list[RoundRecord]] = defaultdict(list)
    due = {a.pk: a.due_at for a in assignments}
    for round_ in (
        TableRound.objects.filter(learner=learner, assignment__school_class=school_class)
        .only("id", "assignment_id", "assignment_index", "tally", "created_at", "finished_at")
        .order_by("assignment_id", "assignment_index", "id")
    ):
        tally = _tallies([round_])
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
    return LearnerHistory(
        school_class=school_class,
        learner=learner,
        assignments=[
            AssignmentHistory(a, records.get(a.pk, []), rounds.get(a.pk, [])) for a in assignments
        ],
        skills=skill_rows(learner, now),
    )
