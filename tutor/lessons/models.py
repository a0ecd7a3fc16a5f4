from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Lesson(models.Model):
    """A lesson of the course; its text lives in files and is loaded by ``load_lessons``."""

    slug = models.SlugField(_("slug"), unique=True)
    position = models.PositiveIntegerField(_("position"))
    rules = models.JSONField(_("rule IDs"), default=list)
    sources = models.JSONField(_("sources"), default=list)
    content_hash = models.CharField(max_length=64)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["position", "slug"]
        verbose_name = _("lesson")
        verbose_name_plural = _("lessons")

    def __str__(self) -> str:
        return self.slug


class LessonText(models.Model):
    # No index of its own: unique_lesson_language's (lesson, language) serves every
    # lookup by lesson (see tests/tutor/test_indexes.py).
    lesson = models.ForeignKey(
        Lesson, on_delete=models.CASCADE, related_name="texts", db_index=False
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=400, blank=True)
    body = models.TextField(help_text=_("Markdown with live examples"))
    source_file = models.CharField(max_length=200)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["lesson", "language"], name="unique_lesson_language")
        ]

    def __str__(self) -> str:
        return f"{self.lesson.slug} ({self.language})"


class LessonRead(models.Model):
    # No index of its own: unique_lesson_read's (user, lesson) serves every lookup by
    # user (see tests/tutor/test_indexes.py).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="lesson_reads",
        db_index=False,
    )
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="reads")
    read_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "lesson"], name="unique_lesson_read")
        ]

    def __str__(self) -> str:
        return f"{self.user} read {self.lesson}"
