"""Reading rounds at the table; every query is limited to the learner who asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from teaching.table import SKILLS
from tutor.accounts.models import User

from .models import TableRound

SKILL_ORDER = SKILLS  # the referee's skills, in its order
# What each skill means at the table (the quiz's Skill labels name questions about
# finished situations; here they are decisions made while the cards fall).
SKILL_LABELS = {
    "trick": _("Legal play"),
    "weis_value": _("Weis value"),
    "who_writes": _("Who writes"),
    "stoeck": _("Stöck"),
    "target": _("Target"),
}


def skill_label(skill: str) -> str:
    return str(SKILL_LABELS.get(skill, skill))


def round_of(learner: User, round_id: int) -> TableRound:
    """The learner's own round; anybody else's is a 404, so ids reveal nothing."""
    try:
        return TableRound.objects.get(pk=round_id, learner=learner)
    except TableRound.DoesNotExist:
        raise Http404("No such round") from None


def open_rounds(learner: User, limit: int = 10) -> list[TableRound]:
    """The learner's unfinished rounds, the most recently played first."""
    return list(
        TableRound.objects.filter(learner=learner, finished_at__isnull=True)
        .select_related("assignment")
        .order_by("-last_move_at", "-created_at", "-id")[:limit]
    )


def finished_rounds(learner: User, limit: int = 10) -> list[TableRound]:
    return list(
        TableRound.objects.filter(learner=learner, finished_at__isnull=False)
        .select_related("assignment")
        .order_by("-finished_at", "-id")[:limit]
    )


@dataclass(frozen=True)
class SkillCount:
    skill: str
    right: int
    wrong: int
    info: int

    @property
    def judged(self) -> int:
        return self.right + self.wrong


def skill_counts(round_: TableRound) -> list[SkillCount]:
    """The round's judgements per skill so far (from its stored tally; no replay)."""
    tally: dict[str, Any] = round_.tally or {}
    return [
        SkillCount(
            skill=skill,
            right=tally[skill].get("right", 0),
            wrong=tally[skill].get("wrong", 0),
            info=tally[skill].get("info", 0),
        )
        for skill in SKILL_ORDER
        if skill in tally
    ]


def rounds_with_counts(
    rounds: QuerySet[TableRound] | None = None, *, learner: User | None = None
) -> list[tuple[TableRound, list[SkillCount]]]:
    """Rounds with their judgement counts per skill, oldest first: a learner's
    (``learner``) or any query of rounds (e.g. one assignment's, for a results page)."""
    if rounds is None:
        if learner is None:
            raise ValueError("give rounds or a learner")
        rounds = TableRound.objects.filter(learner=learner)
    return [(r, skill_counts(r)) for r in rounds.order_by("created_at", "id")]
