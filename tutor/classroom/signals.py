"""What the classroom tells the apps above it, which it may not import (the layers in
pyproject.toml): ``work_submitted`` after a learner's assignment attempt is handed in
and committed, with the ids of the attempts (``Quiz``). tutor.lti sends the score to a
school platform's gradebook from it (issue 26)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.dispatch import Signal

from tutor.quizzes.models import Quiz

work_submitted = Signal()


def announce_submitted(quiz_ids: Iterable[int]) -> None:
    """Send ``work_submitted`` once the current transaction commits (at once outside
    one): a receiver never sees an attempt a rollback took back."""
    ids = list(quiz_ids)
    if ids:
        transaction.on_commit(lambda: work_submitted.send(sender=Quiz, quiz_ids=ids))
