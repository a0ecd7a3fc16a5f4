"""What a platform's course and activity are on this site.

django-lti (``lti_tool``) keeps the platform's side: registrations, deployments, users,
courses (``LtiContext``) and activities (``LtiResourceLink``). These two models link
them to the site's own: a course to the class it became, an activity to the
assignment it opens, with the AGS line item a grade passback posts to.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from lti_tool.models import LtiContext, LtiResourceLink

from tutor.classroom.models import Assignment, SchoolClass
from tutor.quizzes.models import Quiz
from tutor.table.models import TableRound


class LtiClass(models.Model):
    """A platform's course and the class it became at its first instructor launch."""

    context = models.OneToOneField(
        LtiContext, on_delete=models.CASCADE, related_name="tutor_class", verbose_name=_("course")
    )
    # Deleting the class on this site forgets the link; the next instructor launch
    # makes a new class.
    school_class = models.OneToOneField(
        SchoolClass, on_delete=models.CASCADE, related_name="lti_class", verbose_name=_("class")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("LTI course")
        verbose_name_plural = _("LTI courses")

    def __str__(self) -> str:
        return f"{self.context} → {self.school_class}"


class LtiAssignmentLink(models.Model):
    """A platform's activity and the assignment it opens; ``lineitem_url`` is the
    gradebook column of the activity when the platform offers AGS (grades go there)."""

    resource_link = models.OneToOneField(
        LtiResourceLink,
        on_delete=models.CASCADE,
        related_name="tutor_assignment",
        verbose_name=_("activity"),
    )
    assignment = models.ForeignKey(
        Assignment,
        on_delete=models.CASCADE,
        related_name="lti_links",
        verbose_name=_("assignment"),
    )
    lineitem_url = models.URLField(_("line item URL"), max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("LTI activity")
        verbose_name_plural = _("LTI activities")

    def __str__(self) -> str:
        return f"{self.resource_link} → {self.assignment}"


class GradePost(models.Model):
    """A learner's score for an activity, on its way to the platform's gradebook (AGS).

    One row per handed-in attempt (or finished round at the table) and activity (the
    constraints): a submit announced twice queues one post. A sender claims a row
    (``SENDING``) with a conditional update before it calls the platform, so two senders
    never post the same row; a row whose post failed waits for ``next_try_at``.
    """

    class State(models.TextChoices):
        PENDING = "pending", _("waiting")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        # A later attempt's score was queued before this one went out: only that one goes.
        SUPERSEDED = "superseded", _("replaced by a later score")
        FAILED = "failed", _("given up")

    # No index of its own: one_grade_post_per_attempt's (link, quiz) serves every
    # lookup by link (see tests/tutor/test_indexes.py).
    link = models.ForeignKey(
        LtiAssignmentLink, on_delete=models.CASCADE, related_name="grade_posts", db_index=False
    )
    learner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_grade_posts"
    )
    # What the score comes from: a handed-in attempt, or a finished round at the table.
    quiz = models.ForeignKey(
        Quiz, on_delete=models.CASCADE, related_name="lti_grade_posts", null=True, blank=True
    )
    table_round = models.ForeignKey(
        TableRound,
        on_delete=models.CASCADE,
        related_name="lti_grade_posts",
        null=True,
        blank=True,
    )
    # All the assignment's work is done (AGS activityProgress "Completed"; else
    # "InProgress": rounds at the table still to play).
    completed = models.BooleanField(default=True)
    user_sub = models.CharField(_("platform user ID"), max_length=255)
    score = models.DecimalField(_("score"), max_digits=5, decimal_places=4)  # 0..1
    comment = models.TextField(_("comment"), blank=True)
    scored_at = models.DateTimeField(_("scored at"))
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    tries = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("grade sent to a platform")
        verbose_name_plural = _("grades sent to platforms")
        constraints = [
            models.UniqueConstraint(fields=["link", "quiz"], name="one_grade_post_per_attempt"),
            models.UniqueConstraint(
                fields=["link", "table_round"], name="one_grade_post_per_round"
            ),
            models.CheckConstraint(
                condition=Q(quiz__isnull=True) ^ Q(table_round__isnull=True),
                name="grade_post_from_an_attempt_or_a_round",
            ),
        ]
        indexes = [models.Index(fields=["state", "next_try_at"], name="grade_post_due")]

    def __str__(self) -> str:
        return f"{self.learner_id} → {self.link_id}: {self.score} ({self.state})"
