"""``python manage.py load_lessons``: make the site's lessons match the files.

Run after editing a file in ``tutor/lessons/content/``; ``make run`` runs it too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules_core import RulesError
from tutor.lessons.content import CONTENT_DIR, LessonFormatError
from tutor.lessons.services import check_course, load_course


class Command(BaseCommand):
    help = "Load the lesson files into the database (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--directory", type=Path, default=CONTENT_DIR)
        parser.add_argument(
            "--check",
            action="store_true",
            help="only check the files (examples and expect: lines); write nothing",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["check"]:
                _, checked = check_course(options["directory"])
                self.stdout.write(
                    f"Lessons OK: {checked.lessons} lessons, {checked.examples} live examples, "
                    f"{checked.expectations} expect: lines hold."
                )
                return
            report = load_course(options["directory"])
        except (LessonFormatError, RulesError) as error:
            raise CommandError(f"Lessons not loaded: {error}") from None
        self.stdout.write(
            f"Lessons: {len(report.created)} created, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.deleted)} deleted."
        )
