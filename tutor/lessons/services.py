"""Loading the course from files into the database, and marking lessons read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from tutor.accounts.models import User

from .content import CONTENT_DIR, read_course
from .examples import check_examples
from .models import Lesson, LessonRead, LessonText


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)


def load_course(directory: Path = CONTENT_DIR) -> LoadReport:
    """Make the database match the lesson files; nothing is written if any file is bad.

    Every live example is evaluated first, so a typo in a card code stops the load
    with the file and line instead of breaking a page later.
    """
    course = read_course(directory)
    for lesson in course:
        for lesson_file in lesson.files.values():
            check_examples(lesson_file)
    report = LoadReport()
    with transaction.atomic():
        existing = {lesson.slug: lesson for lesson in Lesson.objects.all()}
        for source in course:
            lesson = existing.pop(source.slug, None)
            if lesson is not None and lesson.content_hash == source.content_hash:
                report.unchanged.append(source.slug)
                continue
            if lesson is None:
                lesson = Lesson(slug=source.slug)
                report.created.append(source.slug)
            else:
                report.updated.append(source.slug)
            lesson.position = source.position
            lesson.rules = list(source.rules)
            lesson.sources = list(source.sources)
            lesson.content_hash = source.content_hash
            lesson.save()
            for lang, lesson_file in source.files.items():
                LessonText.objects.update_or_create(
                    lesson=lesson,
                    language=lang,
                    defaults={
                        "title": lesson_file.title,
                        "summary": lesson_file.summary,
                        "body": lesson_file.body,
                        "source_file": lesson_file.path,
                    },
                )
        for slug, lesson in existing.items():
            lesson.delete()
            report.deleted.append(slug)
    return report


def mark_read(*, user: User, lesson: Lesson, read: bool = True) -> None:
    if read:
        LessonRead.objects.update_or_create(user=user, lesson=lesson)
    else:
        LessonRead.objects.filter(user=user, lesson=lesson).delete()
