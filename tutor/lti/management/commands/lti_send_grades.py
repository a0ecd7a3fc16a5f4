"""``manage.py lti_send_grades``: send the scores waiting for a platform's gradebook.

Scores are sent right after each submit; this sends those a platform refused or did not
answer, once they are due again (tutor/lti/grades.py). Run it from a timer (cron,
systemd) every few minutes, or keep it running with ``--loop SECONDS``.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tutor.lti.grades import send_due
from tutor.lti.models import GradePost


class Command(BaseCommand):
    help = "Send the scores waiting for a school platform's gradebook (LTI AGS)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--loop",
            type=int,
            default=0,
            metavar="SECONDS",
            help="Keep running, looking for due scores every SECONDS (default: once).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            report = send_due()
            waiting = GradePost.objects.filter(state=GradePost.State.PENDING).count()
            failed = GradePost.objects.filter(state=GradePost.State.FAILED).count()
            self.stdout.write(
                f"sent {report.sent}, to retry {report.retrying}, given up {report.failed}, "
                f"replaced {report.superseded}; waiting now {waiting}, given up in all {failed}"
            )
            if not options["loop"]:
                return
            time.sleep(options["loop"])
