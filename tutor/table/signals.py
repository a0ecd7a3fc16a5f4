"""What the table trainer tells the apps above it (which it may not import):
``round_finished`` once a round of an assignment has its last move committed, with the
round's id. tutor.lti sends the learner's score to a school platform's gradebook from it
(issue 26)."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

from .models import TableRound

round_finished = Signal()


def announce_finished(round_id: int) -> None:
    """Send ``round_finished`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: round_finished.send(sender=TableRound, round_id=round_id))
