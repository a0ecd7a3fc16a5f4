"""``python manage.py check_glossary``: banned words in the translations and lessons.

Lists every word ``tutor/core/glossary.toml`` bans, as ``file:line``, in every
catalogue under ``LOCALE_PATHS`` (German and French: each msgstr in its catalogue's
language, and the msgids, the site's English) and in the lesson files (each
``NN-slug.LANG.md`` in its language), with the concept and the term to use. The
rendered pages are checked by ``tests/tutor/test_glossary.py``. ``--quotations DIR``
prints the ``[[quotation]]`` entries for the rule documents in DIR
(``../shared/seeds``), to paste into the glossary after its banned words change.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tutor.core import glossary as gl
from tutor.lessons.content import CONTENT_DIR


class Command(BaseCommand):
    help = "List the words the glossary bans in the .po catalogue and the lesson files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--lessons", type=Path, default=CONTENT_DIR)
        parser.add_argument(
            "--quotations",
            type=Path,
            metavar="DIR",
            help="print the [[quotation]] entries for the rule documents in DIR",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["quotations"]:
            self.stdout.write(quotation_toml(options["quotations"]))
            return
        findings = check_files(options["lessons"])
        for finding in findings:
            self.stdout.write(str(finding))
        if findings:
            raise CommandError(f"{len(findings)} banned words (tutor/core/glossary.toml)")
        self.stdout.write("Glossary OK: no banned word in the translations or the lessons.")


def check_files(lessons: Path = CONTENT_DIR) -> list[gl.Finding]:
    findings = []
    for locale in settings.LOCALE_PATHS:
        for po in sorted(Path(locale).glob("*/LC_MESSAGES/django.po")):
            findings += gl.check_po(po, po.parent.parent.name, name=os.path.relpath(po))
    for path in sorted(lessons.glob("*.md")):
        findings += gl.check_lesson_source(path, name=os.path.relpath(path))
    return findings


def quotation_toml(seeds: Path) -> str:
    if not seeds.is_dir():
        raise CommandError(f"{seeds} is not a directory")
    lines = []
    for source, name in gl.DOCUMENTS.items():
        for quotation in gl.quotable(source, (seeds / name).read_text(encoding="utf-8")):
            text = quotation.text.replace("\\", "\\\\").replace('"', '\\"')
            lines += ["[[quotation]]", f'source = "{source}"', f'text = "{text}"', ""]
    return "\n".join(lines)
