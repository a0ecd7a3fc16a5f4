"""Shared by the results modules: the status and cell words, name order, small sums."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from django.utils.translation import gettext_lazy as _

from tutor.accounts.models import User
from tutor.quizzes.models import Skill

from ..models import Membership, SchoolClass

T = TypeVar("T")

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


# --- helpers -------------------------------------------------------------------------


def name_key(username: str) -> tuple[str, str]:
    """Sort names as people do: 'Ädu' next to 'Adrian', not after 'Zoë'."""
    plain = unicodedata.normalize("NFKD", username)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return (plain.casefold(), username)


def _members(school_class: SchoolClass) -> list[User]:
    memberships = Membership.objects.filter(school_class=school_class).select_related("learner")
    return sorted((m.learner for m in memberships), key=lambda u: name_key(u.shown_name))


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


def best_attempt(attempts: Iterable[T], right: Callable[[T], int], number: Callable[[T], int]) -> T:
    """The attempt a learner's result shows: the most right answers, the earlier one on
    a tie (the results page, the CSV and the score a school platform gets)."""
    return max(attempts, key=lambda attempt: (right(attempt), -number(attempt)))


def skill_label(kind: str) -> str:
    try:
        return str(Skill(kind).label)
    except ValueError:
        return kind


@dataclass(frozen=True)
class Column:
    position: int  # 0-based, as stored
    kind: str
    label: str

    @property
    def number(self) -> int:
        return self.position + 1
