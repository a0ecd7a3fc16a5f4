"""Results of rounds at the table, from each round's stored judgements per skill (no replay)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from tutor.accounts.models import User
from tutor.table.models import TableRound
from tutor.table.selectors import SKILL_ORDER as TABLE_SKILLS
from tutor.table.selectors import skill_label as table_skill_label

from ..models import Assignment, SchoolClass
from .common import FINISHED, IN_PROGRESS, NOT_STARTED, STATUS_LABELS, _members, _percent

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


def tallies(rounds: Iterable[TableRound]) -> list[SkillTally]:
    """Right and wrong decisions per table skill over ``rounds``, every skill listed."""
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
    due: dict[int | None, datetime] = {a.pk: a.due_at for a in assignments}
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
                skills=tallies(mine),
                last_move_at=max(
                    (r.last_move_at for r in mine if r.last_move_at is not None), default=None
                ),
            )
        )
    return TableResults(
        school_class=school_class,
        assignments=assignments,
        rows=rows,
        skills=tallies(r for row in by_learner.values() for r in row),
    )


def class_table_results(school_class: SchoolClass) -> TableResults | None:
    """:func:`table_results` over every table assignment of the class; None without any."""
    assignments = list(
        school_class.assignments.filter(activity=Assignment.Activity.TABLE).order_by("due_at", "id")
    )
    return table_results(school_class, assignments) if assignments else None
