from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tutor.table.models import Focus

# No 0/O, 1/I/L: a pupil copies the code from a projector.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8
# A live session's code is typed by a class from the projector within a minute.
LIVE_CODE_LENGTH = 6


class SchoolClass(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="taught_classes",
        verbose_name=_("teacher"),
    )
    name = models.CharField(_("name"), max_length=80)
    join_code = models.CharField(_("join code"), max_length=JOIN_CODE_LENGTH, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    learners = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="Membership",
        related_name="classes",
        verbose_name=_("learners"),
    )

    class Meta:
        verbose_name = _("class")
        verbose_name_plural = _("classes")
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    # No index of its own: unique_membership's (school_class, learner) serves every
    # lookup by class (see tests/tutor/test_indexes.py).
    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="memberships", db_index=False
    )
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["school_class", "learner"], name="unique_membership")
        ]

    def __str__(self) -> str:
        return f"{self.learner} in {self.school_class}"


# A class plays one round in a lesson or two; ten is plenty for an assignment.
MAX_TABLE_ROUNDS = 10


class Assignment(models.Model):
    """Work a teacher sets for a class, with its rule set, dates and policies: a quiz
    (question kinds and length) or rounds at the table (a count and a focus)."""

    class Activity(models.TextChoices):
        QUIZ = "quiz", _("Quiz questions")
        TABLE = "table", _("Rounds at the table")
        # Questions the teacher runs in class, one at a time (tutor.live, issue 25).
        LIVE = "live", _("Live in class")

    class Explanations(models.TextChoices):
        IMMEDIATELY = "immediately", _("at once, after each answer")
        AFTER_DUE = "after_due", _("after the due date")

    class LatePolicy(models.TextChoices):
        REFUSE = "refuse", _("refuse late work")
        MARK_LATE = "mark_late", _("accept it, marked late")

    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="assignments"
    )
    title = models.CharField(_("title"), max_length=120)
    activity = models.CharField(
        _("activity"), max_length=8, choices=Activity.choices, default=Activity.QUIZ
    )
    kinds = models.JSONField(_("question kinds"), default=list)
    # A quiz of a lesson's questions (its slug): each drawn as the lesson draws the
    # questions at its end, aimed at its rules in that aim's rule set; "" for a quiz
    # of the kinds under the assignment's rule set.
    lesson = models.CharField(_("lesson"), max_length=80, blank=True, default="")
    question_count = models.PositiveSmallIntegerField(_("number of questions"), default=6)
    # Rounds at the table only (0 for a quiz): how many rounds, aimed at what.
    round_count = models.PositiveSmallIntegerField(_("number of rounds"), default=0)
    focus = models.CharField(
        _("focus at the table"), max_length=16, choices=Focus.choices, blank=True, default=""
    )
    rules = models.JSONField(_("rule set"), default=dict)
    rules_preset = models.CharField(max_length=32, default="default")
    opens_at = models.DateTimeField(_("opens"))
    due_at = models.DateTimeField(_("due"))
    attempts_allowed = models.PositiveSmallIntegerField(_("attempts allowed"), default=1)
    same_questions = models.BooleanField(_("same questions for everybody"), default=True)
    explanations = models.CharField(
        _("explanations shown"),
        max_length=16,
        choices=Explanations.choices,
        default=Explanations.IMMEDIATELY,
    )
    # A graded assignment would be pointless if the public Weis tool solved its
    # questions; the teacher decides (issue 12).
    tools_allowed = models.BooleanField(_("Weis tool allowed"), default=False)
    late_policy = models.CharField(
        _("late submissions"), max_length=16, choices=LatePolicy.choices, default=LatePolicy.REFUSE
    )
    base_seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-due_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(activity__in=["quiz", "live"])
                | (
                    models.Q(activity="table", round_count__gte=1)
                    & models.Q(round_count__lte=MAX_TABLE_ROUNDS)
                    & ~models.Q(focus="")
                ),
                name="table_assignment_has_rounds_and_focus",
            )
        ]
        verbose_name = _("assignment")
        verbose_name_plural = _("assignments")

    def __str__(self) -> str:
        return self.title

    @property
    def is_table(self) -> bool:
        return self.activity == self.Activity.TABLE

    @property
    def is_live(self) -> bool:
        return self.activity == self.Activity.LIVE

    def takes_answer(self, position: int, now: datetime) -> bool:
        """Whether the question at ``position`` takes an answer now, as far as the
        assignment's pace goes: always, except live in class, where only the question
        the teacher is asking does, until its timer runs out.

        Call it inside the transaction that stores the answer: for a live assignment it
        reads the session's row and locks it until the transaction ends, so that the
        teacher's next step (an UPDATE of that row) waits for the answer: an answer
        stored was taken while its question was open, and the reveal counts it."""
        if not self.is_live:
            return True
        live = LiveSession.objects.select_for_update().get(pk=self.pk)
        return live.takes_answer(position, now)

    def is_open(self, now: datetime) -> bool:
        """Work can be done now: opened and not closed."""
        return self.opens_at <= now and not self.is_closed(now)

    def is_closed(self, now: datetime) -> bool:
        """After the due date with late work refused, nothing more can be done."""
        return now > self.due_at and self.late_policy == self.LatePolicy.REFUSE

    def has_member(self, learner_id: int) -> bool:
        """Whether the learner is in this assignment's class now (for
        ``tutor.core.assignment_policy``, which the lower apps ask)."""
        return Membership.objects.filter(
            learner_id=learner_id, school_class_id=self.school_class_id
        ).exists()

    def explanations_from(self) -> datetime | None:
        """When learners may see what was right (explanations, and a score a school
        platform shows): None for at once, else the due date."""
        # The table judges every move at once, whatever the field says (issue 14).
        if self.is_table or self.explanations == self.Explanations.IMMEDIATELY:
            return None
        return self.due_at

    def explanations_visible(self, now: datetime) -> bool:
        shown_from = self.explanations_from()
        return shown_from is None or now >= shown_from


class LiveSession(models.Model):
    """The state of a live assignment (``Assignment.Activity.LIVE``) that the teacher
    runs on the projector: which question is asked, and whether its answer is shown.

    Every change the pupils' phones and the projector must see raises ``version``
    (one conditional UPDATE per step, tutor.live.services), so a poll that brings the
    version it has is answered "nothing changed" without drawing anything.
    """

    class Phase(models.TextChoices):
        LOBBY = "lobby", _("Waiting for the class")
        ASKING = "asking", _("Question open")
        REVEALED = "revealed", _("Answer shown")
        FINISHED = "finished", _("Finished")

    assignment = models.OneToOneField(
        Assignment, on_delete=models.CASCADE, primary_key=True, related_name="live"
    )
    code = models.CharField(_("live code"), max_length=LIVE_CODE_LENGTH, unique=True)
    phase = models.CharField(max_length=12, choices=Phase.choices, default=Phase.LOBBY)
    position = models.PositiveSmallIntegerField(default=0)  # the question asked or shown
    version = models.PositiveIntegerField(default=1)
    asked_at = models.DateTimeField(null=True, blank=True)
    # 0: no timer; else the question takes answers this many seconds after it is asked.
    timer_seconds = models.PositiveSmallIntegerField(_("timer (seconds)"), default=0)
    leaderboard = models.BooleanField(_("leaderboard (first names)"), default=False)
    # The questions as stored (the same for everybody): the projector draws them before
    # any pupil has joined, and every pupil's attempt is made from them.
    questions = models.JSONField(default=list, editable=False)

    class Meta:
        verbose_name = _("live session")
        verbose_name_plural = _("live sessions")

    def __str__(self) -> str:
        return f"{self.code} ({self.phase})"

    @property
    def deadline(self) -> datetime | None:
        if not self.timer_seconds or self.asked_at is None:
            return None
        return self.asked_at + timedelta(seconds=self.timer_seconds)

    def takes_answer(self, position: int, now: datetime) -> bool:
        if self.phase != self.Phase.ASKING or position != self.position:
            return False
        deadline = self.deadline
        return deadline is None or now <= deadline
