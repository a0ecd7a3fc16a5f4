from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from tutor.accounts.models import User

from .models import Lesson, LessonRead, LessonText


@dataclass(frozen=True)
class LessonEntry:
    lesson: Lesson
    text: LessonText
    read: bool


def course(language: str, user: User | None) -> list[LessonEntry]:
    """The lessons in order, in one language, with the user's read state (2 queries)."""
    lessons = Lesson.objects.prefetch_related(
        Prefetch("texts", queryset=LessonText.objects.filter(language=language), to_attr="text")
    )
    read: set[int] = set()
    if user is not None and user.is_authenticated:
        read = set(LessonRead.objects.filter(user=user).values_list("lesson_id", flat=True))
    return [
        LessonEntry(lesson=lesson, text=lesson.text[0], read=lesson.id in read)
        for lesson in lessons
        if lesson.text
    ]


def lessons_by_rule(entries: list[LessonEntry]) -> dict[str, list[LessonEntry]]:
    by_rule: dict[str, list[LessonEntry]] = {}
    for entry in entries:
        for rule in entry.lesson.rules:
            by_rule.setdefault(rule, []).append(entry)
    return by_rule
