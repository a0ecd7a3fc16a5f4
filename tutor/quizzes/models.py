"""Quizzes a learner takes, the questions in them, and mastery per skill.

A question is stored whole (``question`` JSON: inputs, choices, the correct key and
the explanation) so it can be judged and explained later without regenerating it;
templates only ever receive the parts a learner may see before answering.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from teaching import mastery


class Skill(models.TextChoices):
    BASICS = "basics", _("Cards and players")
    WEIS_VALUE = "weis_value", _("Weis value of a hand")
    ANNOUNCE = "announce", _("Announcing Weis")
    WHO_WRITES = "who_writes", _("Who writes Weis")
    LADDER_STEP = "ladder_step", _("Which ladder step decides")
    STOECK = "stoeck", _("Is Stöck valid")
    TARGET = "target", _("Who wins at the target")
    JASSTAFEL = "jasstafel", _("The round on the Jasstafel")
    TRICK = "trick", _("Trick play")


class Quiz(models.Model):
    class Source(models.TextChoices):
        PRACTICE = "practice", _("Practice")
        ASSIGNMENT = "assignment", _("Assignment")
        LESSON = "lesson", _("Lesson")

    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quizzes"
    )
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.PRACTICE)
    assignment = models.ForeignKey(
        "classroom.Assignment",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attempts",
    )
    # A lesson quiz (source LESSON) holds the questions at the end of one lesson for one
    # learner; it grows by one question each time the learner asks for another.
    lesson = models.ForeignKey(
        "lessons.Lesson",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="quizzes",
    )
    attempt = models.PositiveSmallIntegerField(default=1)
    rules = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    late = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "learner", "attempt"],
                condition=models.Q(assignment__isnull=False),
                name="unique_assignment_attempt",
            ),
            models.UniqueConstraint(
                fields=["learner", "lesson"],
                condition=models.Q(lesson__isnull=False),
                name="unique_lesson_quiz",
            ),
        ]
        verbose_name = _("quiz")
        verbose_name_plural = _("quizzes")

    def __str__(self) -> str:
        return f"Quiz {self.pk} of {self.learner}"


class QuizQuestion(models.Model):
    # No index of its own: unique_quiz_position's (quiz, position) serves every lookup
    # by quiz, and each index is one more insert per question stored and per answer.
    quiz = models.ForeignKey(
        Quiz, on_delete=models.CASCADE, related_name="questions", db_index=False
    )
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=Skill.choices)
    seed = models.BigIntegerField()
    question = models.JSONField()
    shown_at = models.DateTimeField(null=True, blank=True)
    answered_choice = models.CharField(max_length=8, blank=True, default="")
    correct = models.BooleanField(null=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    # When this answer moved the learner's mastery. An assignment that explains only
    # after its due date keeps correctness hidden, so its answers wait until then
    # (services.settle_released_answers); everything else counts at once.
    skill_recorded_at = models.DateTimeField(null=True, blank=True)
    # The rules of its rule set the answer depends on, solved by the engine when the
    # question was stored (teaching.generators.rule_sets.answer_depends_on, as
    # RuleSetDifference.to_dict() data): they never change, and solving the question
    # again under every preset on each reveal took a twentieth of a learner's cycle.
    # Null for questions stored before: computed on each reveal then.
    rule_set_differences = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["quiz", "position"]
        constraints = [
            models.UniqueConstraint(fields=["quiz", "position"], name="unique_quiz_position")
        ]
        # No index on answered_at (there was one with kind, unused): every answer would
        # insert into it, and PostgreSQL planned with it badly, reading a learner's
        # answers in that order over all learners' (classroom.results.progress
        # .learner_progress, the dashboard's and a pupil's history: 9.6 ms against
        # 0.24 ms without it on the benchmark's data; issue 24).
        indexes = [
            # The answers still waiting to move mastery, asked on every answer
            # (selectors.question_of): without it the query read all of the learner's
            # answered questions, a cost that grew with every answer (issue 24).
            models.Index(
                fields=["quiz"],
                condition=models.Q(answered_at__isnull=False, skill_recorded_at__isnull=True),
                name="quizquestion_unsettled",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quiz} #{self.position + 1} ({self.kind})"

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    @cached_property
    def content_digest(self) -> str:
        """A digest of what the question says (its stored data): pages keep its rendering
        under it, so that a class given the same questions (an assignment's default) has
        each card and each choice's feedback rendered once, not once per pupil.

        The learner's question pages read it with the row instead (``stored_digest``,
        tutor.quizzes.selectors), as the database's MD5 of the stored text: another
        digest of the same content, so their fragments are kept apart from those of
        other pages."""
        stored: str | None = self.__dict__.get("stored_digest")
        if stored is not None:
            return f"md5:{stored}"
        text = json.dumps(self.question, sort_keys=True, separators=(",", ":"))
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class SkillState(models.Model):
    """What the site believes about one learner and one skill (see mastery.py)."""

    # No index of its own: unique (learner, skill) below serves every lookup by learner,
    # and a second one would be one more insert per state (tests/tutor/test_indexes.py).
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="skill_states",
        db_index=False,
    )
    skill = models.CharField(max_length=16, choices=Skill.choices)
    mastery = models.FloatField()
    attempts = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    last_answered_at = models.DateTimeField(null=True, blank=True)
    # When to practise the skill again, from ``fsrs_card``; a column of its own because
    # practice sorts by it.
    due_at = models.DateTimeField(null=True, blank=True)
    # The skill as an FSRS card (fsrs.Card.to_dict(); teaching.mastery.review), null
    # until the first answer counts.
    fsrs_card = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["learner", "skill"], name="unique_learner_skill")
        ]

    def __str__(self) -> str:
        return f"{self.learner}: {self.skill} {self.mastery:.2f}"

    # What :meth:`review` changes: a save after reviews writes these columns only, and
    # the privacy export lists them (with the skill).
    REVIEWED_FIELDS = (
        "mastery",
        "attempts",
        "correct",
        "streak",
        "last_answered_at",
        "due_at",
        "fsrs_card",
    )

    def reviewed_values(self) -> dict[str, Any]:
        """The :attr:`REVIEWED_FIELDS` as they are now, by name: what a write stores."""
        return {name: getattr(self, name) for name in self.REVIEWED_FIELDS}

    def review(self, correct: bool, when: datetime, seconds: float | None = None) -> None:
        """Count one answer given at ``when`` (``seconds`` after it was shown, if
        known), in memory: mastery moves (BKT) and the card has one FSRS review (see
        teaching.mastery). The caller saves, or only reads (the selectors)."""
        self.mastery = mastery.update(self.mastery, correct)
        self.attempts += 1
        self.correct += int(correct)
        self.streak = self.streak + 1 if correct else 0
        # An answer released later may be older than one already counted.
        self.last_answered_at = max(filter(None, (self.last_answered_at, when)))
        self.fsrs_card, self.due_at = mastery.review(self.fsrs_card, correct, seconds, when)
