"""A round at the table (issue 14): the deal and the learner's append-only move log.

The truth of a round is its scenario plus its moves: the table is the referee's
replay of them (:func:`teaching.table.referee`), so a round resumes after a restart
and can be replayed and re-judged by any tool. A worker keeps the state after the
latest move and steps it once per move (``services.state_of``), never for another
log. ``moves`` only ever grows, one move per conditional UPDATE on ``move_count``
(see ``services.play_move``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Focus(models.TextChoices):
    """What a round aims at (``teaching.table.FOCUSES``)."""

    STOECK = "stoeck", _("Stöck")
    WEIS = "weis", _("Weis at the table: equal values")
    KREUZWEIS = "kreuzweis", _("Kreuzweis")
    UNDENUFE = "undenufe", _("Undenufe")
    TARGET_WEIS = "target_weis", _("The target, reached in the Weis block")
    TARGET_STOECK = "target_stoeck", _("The target, reached in the Stöck block")
    TARGET_TRICKS = "target_tricks", _("The target, reached during the tricks")


class TableRound(models.Model):
    # No index of its own: (learner, finished_at) in Meta serves every lookup by learner
    # (see tests/tutor/test_indexes.py).
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="table_rounds",
        db_index=False,
    )
    focus = models.CharField(max_length=16, choices=Focus.choices)
    seed = models.BigIntegerField()
    rules = models.JSONField(default=dict)  # RuleSet.to_dict()
    # Scenario.to_dict() as built when the round started: a later change to the
    # scenario builders never changes a stored round.
    scenario = models.JSONField()
    moves = models.JSONField(default=list)  # append-only
    # len(moves): the guard of the conditional UPDATE that appends a move, so a
    # double or stale POST changes nothing.
    move_count = models.PositiveIntegerField(default=0)
    # How many of the round's judgements (in the referee's order) have been counted
    # towards mastery; written in the same UPDATE as the move that made them.
    recorded = models.PositiveIntegerField(default=0)
    # Per skill, {"right": n, "wrong": n, "info": n} over every judgement so far, so
    # results pages need no replay.
    tally = models.JSONField(default=dict)
    # Set when a teacher's assignment dealt the round. tutor.table may not import the
    # classroom app: whoever starts the round passes the assignment in.
    # No index of its own: unique (assignment, learner, assignment_index) in Meta serves
    # every lookup by assignment (see tests/tutor/test_indexes.py).
    assignment = models.ForeignKey(
        "classroom.Assignment",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="table_rounds",
        db_index=False,
    )
    # Which of the assignment's rounds this is, 0-based; unique per learner, so two
    # tabs starting "the next round" at once cannot deal more rounds than were set.
    assignment_index = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["learner", "finished_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "learner", "assignment_index"],
                name="unique_assignment_round",
            )
        ]
        verbose_name = _("table round")
        verbose_name_plural = _("table rounds")

    def __str__(self) -> str:
        return f"Table round {self.pk} of {self.learner} ({self.focus})"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None
