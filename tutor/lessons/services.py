"""Loading the course from files into the database, and marking lessons read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from rules_core import RulesError
from tutor.accounts.models import User

from .content import CONTENT_DIR, LessonSource, read_course
from .examples import ExampleError, all_expectations, check_examples
from .models import Lesson, LessonRead, LessonText


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CourseCheck:
    lessons: int
    examples: int
    expectations: int


def check_course(directory: Path = CONTENT_DIR) -> tuple[list[LessonSource], CourseCheck]:
    """Read every lesson file and evaluate every example and every ``expect:`` line.

    Raises :class:`ExampleError` naming every failing file and line (all of them, so
    an author fixes a lesson in one pass), and writes nothing.
    """
    course = read_course(directory)
    errors = []
    files = [f for lesson in course for f in lesson.files.values()]
    for lesson_file in files:
        try:
            check_examples(lesson_file)
        except RulesError as error:
            errors.append(str(error))
    if errors:
        raise ExampleError("\n".join(errors))
    examples = sum(len(f.examples) for f in files)
    return course, CourseCheck(len(course), examples, all_expectations(files))


def load_course(directory: Path = CONTENT_DIR) -> LoadReport:
    """Make the database match the lesson files; nothing is written if any file is bad.

    Every live example and every ``expect:`` line is checked first, so a typo in a card
    code or a sentence that contradicts its example stops the load with the file and
    line instead of reaching a page.
    """
    course, _ = check_course(directory)
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
