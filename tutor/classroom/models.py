from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# No 0/O, 1/I/L: a pupil copies the code from a projector.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8


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
    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="memberships"
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
