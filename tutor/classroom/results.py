"""Reading results for teachers: per assignment, per class (mastery) and per learner.

Access is decided here, not in the views: every object is looked up together with
its teacher (:func:`class_of_teacher`, :func:`assignment_of_teacher`,
:func:`learner_in_class`), so somebody else's id is a 404 and reveals nothing.

The pages of a big class must not cost more queries than those of a small one:
each selector runs a fixed number of flat queries and groups the rows in Python.

- :func:`assignment_results`: 4 queries (members, attempts, their questions, and
  the stored question data of the wrong answers and of one first attempt); its
  item analysis (:func:`item_analysis`) reuses them.
- :func:`mastery_grid`: 2 queries (members, skill states).
- :func:`learner_history`: 5 queries (assignments, attempts, table rounds, skill
  states, and the learner's answers for :func:`learner_progress`).

The pictures (:func:`mastery_figures`, :func:`kind_bars_figure`,
:func:`progress_figures`) are drawn from these results without a query.
- :func:`table_results`: 2 queries (members, rounds), for one table assignment (its
  results page) or all of a class's (the class page; plus 1 for the assignments).

Rounds at the table need no replay here: each round stores its judgements per skill
(``TableRound.tally``), written with the move that made them.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, tzinfo
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.utils import formats, timezone, translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from teaching import mastery as bkt
from tutor.accounts.models import User
from tutor.lessons.selectors import rule_links
from tutor.quizzes.mistakes import MISTAKES, mistake_text
from tutor.quizzes.models import Quiz, QuizQuestion, Skill
from tutor.quizzes.presenters import choice_label
from tutor.quizzes.selectors import SkillRow, released_answers, skill_rows, skill_states
from tutor.table.models import TableRound
from tutor.table.selectors import SKILL_ORDER as TABLE_SKILLS
from tutor.table.selectors import skill_label as table_skill_label

from . import charts
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
    """A wrong answer picked (or offered) for one kind or question, named by the mistake
    behind it."""

    mistake: str
    text: str
    count: int
    label: str  # the choice worded, e.g. "Team 2 writes 150"; "" when it cannot be worded
    label_is_example: bool  # the picks had different values; ``label`` is the commonest
    key: str = ""  # the choice's key, for one question; "" when grouped by mistake
    share: int | None = None  # per cent of the questions counted (right, wrong, unanswered)
    letter: str = ""  # its key in a picture's legend: A, B, ...

    @property
    def short(self) -> str:
        """The mistake sentence's first sentence: a name for it in a legend."""
        return mistake_short(self.text)


def mistake_short(text: str) -> str:
    """'This answer adds up all the melds. In fact ...' -> 'This answer adds up all the melds.'"""
    head, dot, _rest = text.partition(". ")
    return head + "." if dot else text


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


def _choice_text(kind: str, data: dict[str, Any], key: str, deck: str) -> str:
    """The wording the learner saw for choice ``key``; '' if it cannot be worded."""
    value = next((c["value"] for c in data.get("choices", []) if c.get("key") == key), None)
    if value is None:
        return ""
    try:
        return str(choice_label(kind, value, data.get("prompt", {}), deck)["text"])
    except (LookupError, TypeError, ValueError):  # odd stored data: the sentence remains
        return ""


Pick = tuple[str, str, str, dict[str, Any]]  # (kind, mistake, chosen key, question data)


def _wrong_choices(picks: list[Pick], deck: str, questions: int = 0) -> list[WrongChoice]:
    """Every mistake in ``picks`` (the wrong answers of one kind), most picked first;
    equal counts by name, so the page does not change between loads. ``questions``:
    how many questions the shares are of (0: no shares)."""
    counts = Counter(mistake for _kind, mistake, _key, _data in picks)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    choices = []
    for index, (mistake, count) in enumerate(ranked):
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
        choices.append(
            WrongChoice(
                mistake=mistake,
                text=mistake_text(mistake),
                count=count,
                label=_choice_text(kind, data, key, deck),
                label_is_example=len(values) > 1,
                share=_percent(count, questions) if questions else None,
                letter=charts.letter(index),
            )
        )
    return choices


def _top_wrong(picks: list[Pick], deck: str) -> WrongChoice | None:
    """The most picked of :func:`_wrong_choices`; None without wrong answers."""
    choices = _wrong_choices(picks, deck)
    return choices[0] if choices else None


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


# --- item analysis -------------------------------------------------------------------
#
# How far each question (or each kind of question) can be trusted, with the figures of
# Moodle's quiz statistics report (question/classes/statistics/questions/calculator.php
# and mod/quiz/report/statistics/statistics_table.php):
#
# - Who counts: the members whose *first* attempt is submitted, with that attempt. On it
#   everybody met the questions unprepared, each learner counts once, and with "same
#   questions for everybody" everybody met the very same question at each position (a
#   second attempt deals new ones). Moodle's report counts first attempts by default too.
#   A question left unanswered in a submitted attempt counts as wrong (mark 0).
# - An item's *mark* for a learner: 1 or 0 for a question; for a kind, the number of its
#   questions the learner got right. The learner's *othermark*: their total on the
#   attempt minus the item's mark, the score on the rest of the test. Comparing with the
#   rest, not the total, matters: a total that includes the item agrees with it by
#   construction, and on a test of four questions that alone made chance answers look
#   discriminating (the old index, on thirds of the learners ranked by total, gave 90 % of
#   coin-flip questions 0.3 or more).
# - Facility: the share of the questions answered right (Moodle: mean mark / maximum).
# - Discrimination index: 100 × cov(mark, othermark) / sqrt(var(mark) × var(othermark)),
#   with n − 1 in each: the correlation of the item with the rest of the test, from
#   −100 to 100. None (blank, not 0) when a variance is 0 (everybody counted got the
#   item right, or everybody wrong, or everybody scored the same on the rest) and with
#   fewer than two learners; Moodle leaves it blank then.
# - Discriminative efficiency: 100 × cov / covmax, where covmax is the covariance of the
#   same marks and othermarks paired in the best order (both sorted, lowest with lowest;
#   no pairing gives more). It says how much of the discrimination the item's facility
#   allows it reaches: a question almost everybody gets right cannot correlate much.
#   None when covmax is 0 (a variance is 0).
# - Dubious: an efficiency below 15, Moodle's threshold (is_dubious_question).
# - A kind that is the whole test has no rest to compare with: no figures at all.
# - Chance: when an item has nothing to do with the rest of the test, its index still
#   spreads around 0, with a standard deviation of 100 / sqrt(n - 1) over the orders in
#   which the same marks could have been paired (the permutation distribution of a
#   correlation has mean 0 and variance 1 / (n - 1)): about 19 with 30 learners.
# - Small classes: Moodle shows the figures from two learners on. With fewer than
#   MIN_LEARNERS (6) counted the page shows "too few" instead: chance alone would move
#   the index by 50 or more (one standard deviation, 100 / sqrt(4)).

MIN_LEARNERS = 6
DUBIOUS_BELOW = 15  # discriminative efficiency, per cent: Moodle's is_dubious_question
RULE_ID = re.compile(r"\bR\d+(?:\.\d+[a-z]?)?")


@dataclass(frozen=True)
class Discrimination:
    """Moodle's discrimination index and discriminative efficiency of one item, in per
    cent; None where Moodle leaves the figure blank.

    >>> Discrimination(index=27.4, efficiency=12.0).dubious
    True
    >>> Discrimination(index=None, efficiency=None).dubious
    False
    """

    index: float | None
    efficiency: float | None

    @property
    def dubious(self) -> bool:
        """Efficiency below :data:`DUBIOUS_BELOW` (Moodle flags such a question)."""
        return self.efficiency is not None and self.efficiency < DUBIOUS_BELOW


NO_DISCRIMINATION = Discrimination(index=None, efficiency=None)


def discrimination(marks: Sequence[tuple[int, int]]) -> Discrimination:
    """Moodle's discrimination index and discriminative efficiency from (mark, othermark)
    per learner: the item's mark and the learner's score on the rest of the test.

    Sums of integers, so "a variance is 0" is an exact test, not a rounding question.

    >>> d = discrimination([(1, 2), (1, 1), (0, 1), (0, 0)])
    >>> round(d.index, 2), round(d.efficiency, 2)
    (70.71, 100.0)
    >>> discrimination([(1, 2), (1, 0), (1, 1)])  # everybody right: no variance
    Discrimination(index=None, efficiency=None)
    >>> discrimination([(1, 2)])  # one learner
    Discrimination(index=None, efficiency=None)
    """
    n = len(marks)
    if n < 2:
        return NO_DISCRIMINATION
    sum_x = sum(x for x, _y in marks)
    sum_y = sum(y for _x, y in marks)
    # n · (n − 1) times the covariances and variances: the common factor cancels.
    covariance = n * sum(x * y for x, y in marks) - sum_x * sum_y
    variance_x = n * sum(x * x for x, _y in marks) - sum_x * sum_x
    variance_y = n * sum(y * y for _x, y in marks) - sum_y * sum_y
    best_order = zip(sorted(x for x, _y in marks), sorted(y for _x, y in marks), strict=True)
    covariance_max = n * sum(x * y for x, y in best_order) - sum_x * sum_y
    index = (
        100 * covariance / math.sqrt(variance_x * variance_y) if variance_x and variance_y else None
    )
    efficiency = 100 * covariance / covariance_max if covariance_max else None
    return Discrimination(index=index, efficiency=efficiency)


def chance_spread(learners: int) -> float | None:
    """The standard deviation of the discrimination index of an item unrelated to the
    rest of the test, over every order in which ``learners`` learners' marks could be
    paired: 100 / sqrt(n - 1). None below two learners.

    >>> round(chance_spread(30), 1)
    18.6
    """
    if learners < 2:
        return None
    return 100 / math.sqrt(learners - 1)


def percent_text(value: float) -> str:
    """A statistic for the page: one decimal in the active language's format, rounded
    half up (as the CSV's two places are), and a real minus sign, which screen readers
    read as "minus" where they may skip a hyphen.

    >>> with translation.override("en"):
    ...     percent_text(-9.94), percent_text(15.625), percent_text(100)
    ('−9.9\\xa0%', '15.6\\xa0%', '100.0\\xa0%')
    """
    rounded = Decimal(repr(float(value))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    text = str(formats.number_format(rounded, decimal_pos=1, use_l10n=True))
    return text.replace("-", "\N{MINUS SIGN}") + "\N{NO-BREAK SPACE}%"


def facility(right: int, questions: int) -> int | None:
    """Per cent of ``questions`` answered right; None without questions."""
    return _percent(right, questions)


def mistake_rules(mistake: str) -> list[str]:
    """The rule IDs a mistake's sentence cites ("... (R5.1, R5.2)."), read from the
    untranslated sentence so that a translation cannot lose them."""
    text = MISTAKES.get(mistake)
    if text is None:
        return []
    with translation.override(None):
        return RULE_ID.findall(str(text))


@dataclass(frozen=True)
class Reteach:
    """What to teach again for an item: its most picked mistake, and where the lessons
    teach the rule it breaks (``url`` is "" when no lesson teaches it)."""

    mistake: str
    text: str
    count: int
    rule: str
    url: str
    section: str

    @property
    def short(self) -> str:
        return mistake_short(self.text)


def reteach_for(choice: WrongChoice | None, rules_tested: Sequence[str] = ()) -> Reteach | None:
    """The lesson paragraph for the rule ``choice``'s mistake breaks (the first rule its
    sentence cites that a lesson teaches, else the first the question tests), in the
    active language; None when nobody picked a wrong choice."""
    if choice is None or not choice.count:
        return None
    links = rule_links((translation.get_language() or "de")[:2])
    cited = mistake_rules(choice.mistake)
    rule = next((r for r in [*cited, *rules_tested] if r in links), None)
    if rule is None:
        return Reteach(choice.mistake, choice.text, choice.count, next(iter(cited), ""), "", "")
    link = links[rule]
    return Reteach(choice.mistake, choice.text, choice.count, rule, link.url, link.section)


@dataclass(frozen=True)
class ItemStat:
    """One row of the item analysis: a question kind, or one question (``number``)."""

    kind: str
    label: str
    number: int | None  # the question's number (1-based); None for a whole kind
    learners: int
    questions: int  # counted: one per learner for a question, several for a kind
    right: int
    unanswered: int
    wrong: tuple[WrongChoice, ...]  # most picked first
    discrimination: Discrimination  # Moodle's figures, also for a class too small to show
    reteach: Reteach | None
    whole_test: bool = False  # a kind that is every question: no rest to compare with

    @property
    def facility(self) -> int | None:
        return facility(self.right, self.questions)

    @property
    def facility_exact(self) -> float | None:
        """The facility unrounded, per cent (the CSV carries its decimals)."""
        return 100 * self.right / self.questions if self.questions else None

    @property
    def shows_discrimination(self) -> bool:
        """Whether the page shows the figures: enough learners, and a rest of the test."""
        return not self.whole_test and self.learners >= MIN_LEARNERS

    @property
    def index(self) -> float | None:
        """The discrimination index as the page shows it; None where it shows a reason."""
        return self.discrimination.index if self.shows_discrimination else None

    @property
    def efficiency(self) -> float | None:
        return self.discrimination.efficiency if self.shows_discrimination else None

    @property
    def index_text(self) -> str:
        """The index as the page shows it ("27.4 %"), or why it shows none."""
        return self.blank_reason if self.index is None else percent_text(self.index)

    @property
    def efficiency_text(self) -> str:
        return self.blank_reason if self.efficiency is None else percent_text(self.efficiency)

    @property
    def dubious(self) -> bool:
        return self.shows_discrimination and self.discrimination.dubious

    @property
    def blank_reason(self) -> str:
        """Why the page shows no index (a few words, translated); "" when it shows one."""
        if self.whole_test:
            return str(gettext("whole test"))
        if self.learners < MIN_LEARNERS:
            return str(gettext("too few"))
        if self.discrimination.index is not None:
            return ""
        if self.right == self.questions:
            return str(gettext("all right"))
        if self.right == 0:
            return str(gettext("none right"))
        return str(gettext("no spread"))

    @property
    def unanswered_share(self) -> int | None:
        return _percent(self.unanswered, self.questions)

    @property
    def name(self) -> str:
        if self.number is None:
            return self.label
        return str(_("Q%(n)s · %(kind)s") % {"n": self.number, "kind": self.label})


@dataclass
class ItemAnalysis:
    learners: int  # first attempts submitted, counted
    members: int
    by_kind: list[ItemStat]
    by_question: list[ItemStat]  # empty unless everybody got the same questions

    @property
    def not_counted(self) -> int:
        return self.members - self.learners

    @property
    def too_few(self) -> bool:
        return self.learners < MIN_LEARNERS

    @property
    def min_learners(self) -> int:
        return MIN_LEARNERS

    @property
    def dubious_below(self) -> int:
        return DUBIOUS_BELOW

    @property
    def chance_spread(self) -> int | None:
        """:func:`chance_spread` for the learners counted, whole (the page's help)."""
        spread = chance_spread(self.learners)
        return round(spread) if spread is not None else None

    @property
    def chance_spread_twice(self) -> int | None:
        spread = chance_spread(self.learners)
        return round(2 * spread) if spread is not None else None

    @property
    def two_kinds(self) -> bool:
        """Exactly two kinds: each is the other's rest of the test, so the two share
        their figures (a correlation and its best pairing are symmetric)."""
        return len(self.by_kind) == 2

    @property
    def items(self) -> list[ItemStat]:
        return [*self.by_kind, *self.by_question]

    @property
    def groups(self) -> list[tuple[str, str, list[ItemStat]]]:
        """(key, heading, items) for the page: per kind, then per question."""
        return [
            ("kinds", str(_("Per question kind")), self.by_kind),
            ("questions", str(_("Per question")), self.by_question),
        ]


def item_analysis(
    assignment: Assignment,
    columns: list[Column],
    attempts: list[dict[int, QuizQuestion]],
    *,
    members: int,
    wrong_data: dict[int, dict[str, Any]],
    sample: dict[int, QuizQuestion],
    deck: str = "swiss",
) -> ItemAnalysis:
    """Per kind and, with the same questions for everybody, per question: facility,
    discrimination and every wrong choice, over ``attempts`` (each counted learner's
    first attempt, submitted: position -> stored question). ``wrong_data`` holds the
    stored question of every wrong answer and of ``sample``, one first attempt."""

    def mistake_of(question: QuizQuestion) -> str:
        data = wrong_data.get(question.pk, {})
        return str(data.get("mistakes", {}).get(question.answered_choice, ""))

    totals = [sum(1 for q in attempt.values() if q.correct) for attempt in attempts]
    kinds = list(dict.fromkeys(c.kind for c in columns))
    by_kind = []
    for kind in kinds:
        marks: list[tuple[int, int]] = []  # (right of this kind, right of the others)
        picks: list[Pick] = []
        questions = right = unanswered = 0
        for total, attempt in zip(totals, attempts, strict=True):
            mine = [q for q in attempt.values() if q.kind == kind]
            if not mine:
                continue
            n_right = sum(1 for q in mine if q.correct)
            marks.append((n_right, total - n_right))
            questions += len(mine)
            right += n_right
            unanswered += sum(1 for q in mine if q.answered_at is None)
            for q in mine:
                if q.answered_at is not None and not q.correct and q.pk in wrong_data:
                    picks.append((kind, mistake_of(q), q.answered_choice, wrong_data[q.pk]))
        choices = _wrong_choices(picks, deck, questions)
        tested = sorted({r for _k, _m, _c, data in picks for r in data.get("rules_tested", [])})
        # One kind asked throughout: its "rest of the test" is empty, and a correlation
        # with nothing would be a blank at best; say so instead of computing it.
        whole_test = len(kinds) == 1
        by_kind.append(
            ItemStat(
                kind=kind,
                label=skill_label(kind),
                number=None,
                learners=len(marks),
                questions=questions,
                right=right,
                unanswered=unanswered,
                wrong=tuple(choices),
                discrimination=NO_DISCRIMINATION if whole_test else discrimination(marks),
                reteach=reteach_for(choices[0] if choices else None, tested),
                whole_test=whole_test,
            )
        )
    return ItemAnalysis(
        learners=len(attempts),
        members=members,
        by_kind=by_kind,
        by_question=_by_question(assignment, columns, attempts, totals, wrong_data, sample, deck),
    )


def _by_question(
    assignment: Assignment,
    columns: list[Column],
    attempts: list[dict[int, QuizQuestion]],
    totals: list[int],
    wrong_data: dict[int, dict[str, Any]],
    sample: dict[int, QuizQuestion],
    deck: str,
) -> list[ItemStat]:
    """Per position, when every first attempt has the same question there (same seed
    as ``sample``'s); else nothing, since a position would mix different questions."""
    if not assignment.same_questions or not sample:
        return []
    for attempt in attempts:
        for position, question in attempt.items():
            model = sample.get(position)
            if model is None or model.seed != question.seed or model.kind != question.kind:
                return []
    stats = []
    for column in columns:
        model = sample.get(column.position)
        data = wrong_data.get(model.pk) if model is not None else None
        if model is None or data is None:
            return []
        picked: Counter[str] = Counter()
        marks: list[tuple[int, int]] = []  # (this question, the rest of the test)
        right = unanswered = 0
        for total, attempt in zip(totals, attempts, strict=True):
            question = attempt.get(column.position)
            if question is None:
                continue
            mark = 1 if question.correct else 0
            marks.append((mark, total - mark))
            if question.answered_at is None:
                unanswered += 1
            elif question.correct:
                right += 1
            else:
                picked[question.answered_choice] += 1
        learners = len(marks)
        mistakes = data.get("mistakes", {})
        offered = [
            WrongChoice(
                mistake=str(mistakes.get(c["key"], "")),
                text=mistake_text(str(mistakes.get(c["key"], ""))),
                count=picked[c["key"]],
                label=_choice_text(model.kind, data, c["key"], deck),
                label_is_example=False,
                key=c["key"],
                share=_percent(picked[c["key"]], learners) if learners else None,
            )
            for c in data.get("choices", [])
            if c.get("key") != data.get("answer")
        ]
        # Most picked first; a choice nobody picked stays listed: a distractor that
        # tempts nobody is worth knowing about too.
        offered.sort(key=lambda w: (-w.count, w.key))
        offered = [replace(w, letter=charts.letter(i)) for i, w in enumerate(offered)]
        stats.append(
            ItemStat(
                kind=model.kind,
                label=column.label,
                number=column.number,
                learners=learners,
                questions=learners,
                right=right,
                unanswered=unanswered,
                wrong=tuple(offered),
                discrimination=discrimination(marks),
                reteach=reteach_for(offered[0] if offered else None, data.get("rules_tested", [])),
            )
        )
    return stats


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


# A learner "needs help" below this mastery on any skill they practised: under one
# half the site thinks it likelier that they do not know the skill than that they do.
# Skills not practised yet do not count (there is nothing to judge).
NEEDS_HELP_BELOW = 0.5
SORT_BY_NAME = "name"


def mastery_sort(value: str | None) -> str:
    """The row order asked for: a skill's value, or by name for anything else."""
    return value if value in Skill.values else SORT_BY_NAME


@dataclass(frozen=True)
class NeedsHelp:
    """A learner below :data:`NEEDS_HELP_BELOW` on some practised skill, with the
    weakest of them."""

    learner: User
    skill: SkillColumn
    cell: MasteryCell
    count: int  # how many practised skills are below the threshold


@dataclass
class MasteryGrid:
    school_class: SchoolClass
    skills: list[SkillColumn]
    rows: list[MasteryRow]
    averages: list[SkillAverage]
    sort: str = SORT_BY_NAME

    @property
    def mastered_percent(self) -> int:
        return round(bkt.MASTERED * 100)

    @property
    def needs_help_percent(self) -> int:
        return round(NEEDS_HELP_BELOW * 100)

    @property
    def sort_label(self) -> str:
        return next((s.label for s in self.skills if s.skill == self.sort), "")

    @property
    def weakest(self) -> SkillAverage | None:
        """The practised skill with the lowest class average (on a tie: fewer learners
        mastered it, then the order of the skills)."""
        practised = [a for a in self.averages if a.mastery is not None]
        return min(practised, key=lambda a: (a.mastery, a.mastered), default=None)

    @property
    def needs_help(self) -> list[NeedsHelp]:
        """Learners below the threshold on a practised skill, the lowest first."""
        found = []
        for row in self.rows:
            below = [
                (cell, skill)
                for cell, skill in zip(row.cells, self.skills, strict=True)
                if cell.mastery is not None and cell.mastery < NEEDS_HELP_BELOW
            ]
            if below:
                cell, skill = min(below, key=lambda pair: pair[0].mastery or 0.0)
                found.append(NeedsHelp(row.learner, skill, cell, len(below)))
        return sorted(found, key=lambda n: (n.cell.mastery, name_key(n.learner.username)))

    @property
    def unpractised(self) -> list[SkillColumn]:
        return [a.skill for a in self.averages if a.mastery is None]


def mastery_grid(school_class: SchoolClass, sort: str = SORT_BY_NAME) -> MasteryGrid:
    """Learners by skills; a skill never practised is None, not the prior of 25 %.

    Rows are by name, or with ``sort`` a skill's value, by that skill: weakest first
    (who needs help comes first), not practised last, then by name."""
    skills = [SkillColumn(skill=value, label=str(label)) for value, label in Skill.choices]
    members = _members(school_class)
    states = skill_states([learner.pk for learner in members], timezone.now())
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
    sort = mastery_sort(sort)
    if sort != SORT_BY_NAME:
        at = [s.skill for s in skills].index(sort)
        # sorted() is stable: equal values keep the order by name.
        rows.sort(key=lambda r: (r.cells[at].mastery is None, r.cells[at].mastery or 0.0))
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
    return MasteryGrid(
        school_class=school_class, skills=skills, rows=rows, averages=averages, sort=sort
    )


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


# --- progress over time --------------------------------------------------------------
#
# Rebuilt from the stored answers in one query: mastery per skill at the end of each
# week replays knowledge tracing (teaching.mastery.update) over the quiz answers that
# count towards mastery, in the order the site counted them and in the week it did
# (``skill_recorded_at``: an assignment that explains after its due date counts its
# answers only then, in the order given), so the lines show what the site believed
# each week, and for quiz answers the last point is the mastery stored. Decisions at
# the table are not in it: a round stores its judgements per skill but not when each
# was made, so their order (which tracing depends on) is lost; for a learner who
# played rounds the last point can differ from the mastery shown, and the pages say
# so. Answers per day count when the learner answered.

PROGRESS_WEEKS = 12  # at most, the latest
PROGRESS_DAYS = 28


@dataclass(frozen=True)
class Answer:
    """One answered quiz question, as the progress picture needs it."""

    kind: str
    correct: bool
    answered_at: datetime  # aware
    recorded_at: datetime | None  # when it moved mastery; None: correctness not released
    # Whether it counts among the answers per day: on a teacher's page only the work
    # for their class does (mastery, as on the rest of that page, counts every answer).
    shown_per_day: bool = True

    @property
    def counted(self) -> bool:
        return self.recorded_at is not None


@dataclass(frozen=True)
class SkillLine:
    skill: str
    label: str
    values: tuple[float | None, ...]  # per week: mastery at its end; None before any answer

    @property
    def percents(self) -> list[int | None]:
        return [round(v * 100) if v is not None else None for v in self.values]

    @property
    def last(self) -> float | None:
        return self.values[-1] if self.values else None

    @property
    def last_percent(self) -> int | None:
        return round(self.last * 100) if self.last is not None else None

    @property
    def first_percent(self) -> int | None:
        known = [v for v in self.values if v is not None]
        return round(known[0] * 100) if known else None


@dataclass(frozen=True)
class DayCount:
    day: date
    right: int = 0
    wrong: int = 0
    pending: int = 0  # answered; whether right is not released yet

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.pending


@dataclass
class Progress:
    weeks: list[date]  # Mondays, oldest first
    skills: list[SkillLine]
    days: list[DayCount]  # the last PROGRESS_DAYS days, oldest first
    counted: int  # answers replayed into the lines

    @property
    def active_days(self) -> list[DayCount]:
        return [d for d in self.days if d.total]

    @property
    def answers(self) -> int:
        return sum(d.total for d in self.days)

    @property
    def right(self) -> int:
        return sum(d.right for d in self.days)

    @property
    def pending(self) -> int:
        return sum(d.pending for d in self.days)

    @property
    def practised(self) -> list[SkillLine]:
        return [line for line in self.skills if line.last is not None]

    @property
    def unpractised(self) -> list[SkillLine]:
        return [line for line in self.skills if line.last is None]

    @property
    def week_table(self) -> list[tuple[date, list[int | None]]]:
        """Per week (its Monday) the mastery in per cent of each practised skill."""
        practised = self.practised
        return [
            (monday, [line.percents[i] for line in practised])
            for i, monday in enumerate(self.weeks)
        ]

    @property
    def mastered_percent(self) -> int:
        return round(bkt.MASTERED * 100)


def build_progress(
    answers: Iterable[Answer],
    today: date,
    tz: tzinfo,
    *,
    weeks: int = PROGRESS_WEEKS,
    days: int = PROGRESS_DAYS,
) -> Progress:
    """Mastery per skill by week and answers per day from ``answers`` (any order; equal
    times keep it), as of ``today`` (local to ``tz``). Weeks start on Monday; the lines
    begin in the week of the first counted answer, at most ``weeks`` back, their values
    carrying all earlier answers."""
    ordered = sorted(answers, key=lambda a: a.answered_at)

    def counted_at(answer: Answer) -> datetime:
        return answer.recorded_at or answer.answered_at

    counted = sorted(
        (a for a in ordered if a.counted), key=lambda a: (counted_at(a), a.answered_at)
    )

    def counted_on(answer: Answer) -> date:
        return counted_at(answer).astimezone(tz).date()

    this_monday = today - timedelta(days=today.weekday())
    mondays: list[date] = []
    if counted:
        first = counted_on(counted[0])
        start = max(
            first - timedelta(days=first.weekday()), this_monday - timedelta(weeks=weeks - 1)
        )
        mondays = [start + timedelta(weeks=k) for k in range((this_monday - start).days // 7 + 1)]
    known: dict[str, float] = {}
    values: dict[str, list[float | None]] = {skill: [] for skill in Skill.values}
    i = 0
    for monday in mondays:
        end = monday + timedelta(days=7)
        while i < len(counted) and counted_on(counted[i]) < end:
            answer = counted[i]
            known[answer.kind] = bkt.update(known.get(answer.kind, bkt.P_INIT), answer.correct)
            i += 1
        for skill in Skill.values:
            values[skill].append(known.get(skill))
    first_day = today - timedelta(days=days - 1)
    per_day: dict[date, list[int]] = {first_day + timedelta(days=k): [0, 0, 0] for k in range(days)}
    for answer in ordered:
        day = answer.answered_at.astimezone(tz).date()
        if day not in per_day or not answer.shown_per_day:
            continue
        if not answer.counted:
            per_day[day][2] += 1  # correctness not released: not shown either
        else:
            per_day[day][0 if answer.correct else 1] += 1
    return Progress(
        weeks=mondays,
        skills=[
            SkillLine(skill, str(label), tuple(values[skill])) for skill, label in Skill.choices
        ],
        days=[DayCount(day, *counts) for day, counts in per_day.items()],
        counted=len(counted),
    )


def learner_progress(
    learner: User, now: datetime | None = None, school_class: SchoolClass | None = None
) -> Progress:
    """:func:`build_progress` over every quiz answer of ``learner`` (one query). With
    ``school_class`` (a teacher's view) the answers per day are only those to that
    class's assignments: a teacher sees the pupils' work in their own class, not their
    free practice. Answers released but not yet settled count as counted ``now``,
    as :func:`~tutor.quizzes.selectors.skill_rows` counts them, so the order in which
    a page calls the two does not matter."""
    now = now or timezone.now()
    released = {question.pk for question in released_answers([learner.pk], now)}
    rows = (
        QuizQuestion.objects.filter(quiz__learner=learner, answered_at__isnull=False)
        .order_by("answered_at", "pk")
        .values_list(
            "pk",
            "kind",
            "correct",
            "answered_at",
            "skill_recorded_at",
            "quiz__assignment__school_class_id",
        )
    )
    tz = timezone.get_current_timezone()
    return build_progress(
        (
            Answer(
                kind,
                bool(correct),
                at,
                now if pk in released else recorded,
                school_class is None or class_id == school_class.pk,
            )
            for pk, kind, correct, at, recorded, class_id in rows
        ),
        timezone.localtime(now, tz).date(),
        tz,
    )


# --- pictures ------------------------------------------------------------------------
#
# The pictures of these results, drawn by :mod:`.charts` from plain numbers; each with
# a one-sentence summary. The pages put the same numbers in a table beside them.


@dataclass(frozen=True)
class Figure:
    svg: SafeString
    title: str  # the summary, also the picture's <title>
    names: SafeString | None = None  # a heat map's name column, kept in view on phones


def _day(value: date) -> str:
    return formats.date_format(value, "j. M")


def mastery_figures(grid: MasteryGrid) -> tuple[Figure, Figure]:
    """The class's heat map (learners by skills, then the class average) and its scale."""
    weakest = grid.weakest
    if weakest is None:
        title = gettext(
            "Mastery heat map: %(n)s learners by %(k)s skills; nobody has practised yet."
        ) % {
            "n": len(grid.rows),
            "k": len(grid.skills),
        }
    else:
        title = gettext(
            "Mastery heat map: %(n)s learners by %(k)s skills; the weakest skill is "
            "%(skill)s, %(p)s %% on average."
        ) % {
            "n": len(grid.rows),
            "k": len(grid.skills),
            "skill": weakest.skill.label,
            "p": weakest.percent,
        }
    rows = [
        charts.HeatRow(row.learner.username, [c.mastery for c in row.cells]) for row in grid.rows
    ]
    rows.append(
        charts.HeatRow(gettext("Class average"), [a.mastery for a in grid.averages], separated=True)
    )
    columns = [s.label for s in grid.skills]
    names = charts.heatmap_names(columns=columns, rows=rows)
    heat = charts.heatmap(
        chart_id="mastery-map",
        title=title,
        desc=gettext(
            "Each row is a learner, each column a skill. Colour and number give the mastery "
            "in per cent, from dark purple (0) to yellow (100); a pale hatched cell with a "
            "dash: not practised yet. The last row is the class average."
        ),
        columns=columns,
        rows=rows,
        marked=next((i for i, s in enumerate(grid.skills) if s.skill == grid.sort), None),
    )
    scale_title = gettext(
        "Colour scale: mastery from 0 %% (dark purple) to 100 %% (yellow); "
        "%(help)s %% needs help, %(mastered)s %% mastered."
    ) % {"help": grid.needs_help_percent, "mastered": grid.mastered_percent}
    scale = charts.scale_legend(
        chart_id="mastery-scale",
        title=scale_title,
        desc=gettext("The viridis scale, readable with colour-blindness and in greyscale."),
        ticks=[(v / 100, f"{v} %") for v in (0, 25, 50, 75, 100)],
        marks=[
            (NEEDS_HELP_BELOW, gettext("needs help below")),
            (bkt.MASTERED, gettext("mastered")),
        ],
        empty_label=gettext("not practised yet"),
    )
    return Figure(heat, title, names), Figure(scale, scale_title)


def kind_bars_figure(results: AssignmentResults) -> Figure:
    """One bar per question kind over every attempt: right, each mistake, unanswered."""
    bars = []
    parts = []
    for stat in results.by_kind:
        segments = [charts.Segment(stat.right, charts.RIGHT_FILL, f"✓ {stat.right}")]
        for i, choice in enumerate(stat.wrong_choices):
            segments.append(
                charts.Segment(
                    choice.count,
                    charts.wrong_fill(i),
                    f"{choice.letter} {choice.count}",
                    hatched=True,
                )
            )
        segments.append(charts.Segment(stat.unanswered, charts.NONE_FILL, f"– {stat.unanswered}"))
        bars.append((stat.label, segments))
        parts.append(
            gettext("%(kind)s %(right)s of %(n)s right")
            % {"kind": stat.label, "right": stat.right, "n": stat.questions}
        )
    title = gettext("Answers by question kind: %(parts)s.") % {"parts": "; ".join(parts)}
    svg = charts.share_bars(
        chart_id="kind-bars",
        title=title,
        desc=gettext(
            "One bar per question kind, over every question of every attempt: right (✓), "
            "each wrong choice by the letter of its mistake (hatched), not answered (–)."
        ),
        bars=bars,
    )
    return Figure(svg, title)


@dataclass(frozen=True)
class ProgressFigures:
    lines: list[Figure]  # one per practised skill
    days: Figure


def progress_figures(
    progress: Progress, chart_id: str = "progress", school_class: SchoolClass | None = None
) -> ProgressFigures:
    """The pictures of :func:`learner_progress`; ``school_class`` when its answers per
    day are those of one class (a teacher's view)."""
    lines = []
    for line in progress.practised:
        first_week = next(
            w for w, v in zip(progress.weeks, line.values, strict=True) if v is not None
        )
        title = gettext(
            "%(skill)s: mastery by week, from %(first)s %% in the week of %(start)s to "
            "%(last)s %% in the week of %(end)s."
        ) % {
            "skill": line.label,
            "first": line.first_percent,
            "start": _day(first_week),
            "last": line.last_percent,
            "end": _day(progress.weeks[-1]),
        }
        lines.append(
            Figure(
                charts.line_panel(
                    chart_id=f"{chart_id}-{line.skill}",
                    title=title,
                    desc=gettext(
                        "A point per week: the mastery at its end, 0 to 100 %%; the dashed "
                        "line is %(p)s %%, mastered."
                    )
                    % {"p": progress.mastered_percent},
                    label=line.label,
                    values=line.values,
                    value_text=f"{line.last_percent} %",
                    first_label=_day(progress.weeks[0]),
                    last_label=_day(progress.weeks[-1]),
                    threshold=bkt.MASTERED,
                ),
                title,
            )
        )
    series = [
        charts.Series(gettext("right"), charts.RIGHT_FILL),
        charts.Series(gettext("wrong"), charts.WRONG_FILLS[0], hatched=True),
    ]
    if progress.pending:
        series.append(charts.Series(gettext("not marked yet"), charts.PENDING_FILL))
    bars = [
        (
            _day(d.day) if d.day.weekday() == 0 else "",
            [d.right, d.wrong, d.pending][: len(series)],
        )
        for d in progress.days
    ]
    numbers = {
        "days": len(progress.days),
        "n": progress.answers,
        "active": len(progress.active_days),
        "right": progress.right,
        "name": school_class.name if school_class else "",
    }
    if school_class is None:
        title = (
            gettext(
                "Answers per day over the last %(days)s days: %(n)s answers on %(active)s "
                "days, %(right)s of them right."
            )
            % numbers
        )
    else:
        title = (
            gettext(
                "Answers per day to the assignments of %(name)s over the last %(days)s days: "
                "%(n)s answers on %(active)s days, %(right)s of them right."
            )
            % numbers
        )
    days = charts.column_bars(
        chart_id=f"{chart_id}-days",
        title=title,
        desc=gettext(
            "A bar per day, Mondays named: right answers at the bottom, wrong ones "
            "(hatched) above, then answers not marked yet."
        ),
        series=series,
        bars=bars,
    )
    return ProgressFigures(lines, Figure(days, title))
