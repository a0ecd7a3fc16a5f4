"""Progress over time: mastery per skill per week and answers per day, rebuilt from answers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import cast

from django.utils import timezone

from teaching import mastery as bkt
from tutor.accounts.models import User
from tutor.quizzes.models import QuizQuestion, Skill
from tutor.quizzes.selectors import released_answers

from ..models import SchoolClass

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
                cast(datetime, at),  # the query keeps answered questions only
                now if pk in released else recorded,
                school_class is None or class_id == school_class.pk,
            )
            for pk, kind, correct, at, recorded, class_id in rows
        ),
        timezone.localtime(now, tz).date(),
        tz,
    )
