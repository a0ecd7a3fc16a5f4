"""May this learner work on this assignment now? The one answer, and its messages.

An assignment (``tutor.classroom.models.Assignment``) takes work from a learner only
while the learner is in its class, once it has opened, and until it closes (its due
date passed with late work refused). Every place that takes work asks here: starting
or resuming an assignment (``tutor.classroom.assignments``), answering or submitting
a quiz attempt (``tutor.quizzes.services.check_can_answer``), reaching an attempt at
all (``tutor.quizzes.selectors.left_class``) and a move at the table
(``tutor.table.services.check_can_play``).

Why here, in the lowest app: the apps are layered (``pyproject.toml``, importlinter:
weistool > classroom > table > lessons > quizzes > accounts > core), and quizzes and
table must not import classroom, which owns the model. So the policy is written over
what an assignment *offers* (:class:`AssignmentTerms`, a protocol the model meets:
its dates, ``is_closed`` and ``has_member``), not over the model class, and every app
can import it. The model keeps the facts (what "closed" means for its late policy,
who its members are); this module keeps the order of the questions and the words.

Each app raises its own subclass of :class:`WorkRefused` (``check_work(...,
error=...)``) so its views keep their status codes, and every refusal carries its
:class:`Refusal`, whichever app raised it.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Protocol

from django.utils.translation import gettext as _


class AssignmentTerms(Protocol):
    """What the policy reads of an assignment (``classroom.Assignment`` has it all)."""

    @property
    def title(self) -> str: ...

    @property
    def opens_at(self) -> datetime: ...

    def is_closed(self, now: datetime) -> bool: ...

    def has_member(self, learner_id: int) -> bool: ...

    # The pace of the questions, not a refusal of the learner: live in class only the
    # question the teacher asks takes answers (asked by quizzes.services.answer).
    def takes_answer(self, position: int, now: datetime) -> bool: ...


class Refusal(enum.Enum):
    """Why an assignment takes no work from a learner now, in the order it is asked."""

    NOT_MEMBER = "not_member"  # not in the class, or removed from it
    NOT_OPEN = "not_open"
    CLOSED = "closed"

    def message(self, title: str) -> str:
        """The sentence a learner reads, in the active language."""
        if self is Refusal.NOT_MEMBER:
            return _(
                "You are not or no longer in the class of the assignment «%(title)s», "
                "so it takes no work from you."
            ) % {"title": title}
        if self is Refusal.NOT_OPEN:
            return _("This assignment is not open yet.")
        return _("The due date has passed; this assignment takes no more work.")


class WorkRefused(Exception):
    """The assignment takes no work from this learner now; the message is for them."""

    def __init__(self, refusal: Refusal, title: str) -> None:
        super().__init__(refusal.message(title))
        self.refusal = refusal


def refusal(assignment: AssignmentTerms, learner_id: int, now: datetime) -> Refusal | None:
    """Why ``assignment`` takes no work from the learner at ``now``, or None if it does.

    Membership is asked first: somebody outside the class learns nothing about the
    assignment's dates.
    """
    if not assignment.has_member(learner_id):
        return Refusal.NOT_MEMBER
    if now < assignment.opens_at:
        return Refusal.NOT_OPEN
    if assignment.is_closed(now):
        return Refusal.CLOSED
    return None


def check_work(
    assignment: AssignmentTerms,
    learner_id: int,
    now: datetime,
    *,
    error: type[WorkRefused] = WorkRefused,
) -> None:
    """Raise ``error`` (a :class:`WorkRefused`) when :func:`refusal` names a reason."""
    reason = refusal(assignment, learner_id, now)
    if reason is not None:
        raise error(reason, assignment.title)
