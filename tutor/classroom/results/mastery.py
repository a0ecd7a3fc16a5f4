"""The class's mastery grid: learners by skills, with averages and who needs help."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from teaching import mastery as bkt
from tutor.accounts.models import User
from tutor.quizzes.models import Skill
from tutor.quizzes.selectors import skill_states

from ..models import SchoolClass
from .common import _mean, _members, name_key

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
        return sorted(found, key=lambda n: (n.cell.mastery, name_key(n.learner.shown_name)))

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
