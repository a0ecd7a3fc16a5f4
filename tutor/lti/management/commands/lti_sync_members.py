"""``manage.py lti_sync_members``: bring the classes of LTI courses in step with the
platforms' member lists (NRPS), e.g. nightly from cron."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tutor.lti.models import LtiClass
from tutor.lti.platform import PLATFORM_ERRORS
from tutor.lti.services import sync_members


class Command(BaseCommand):
    help = "Add and remove learners of every LTI course's class from the platform's member list."

    def handle(self, *args: Any, **options: Any) -> None:
        links = LtiClass.objects.select_related(
            "context__deployment__registration", "school_class"
        ).exclude(context__memberships_url="")
        failed = 0
        for link in links:
            try:
                result = sync_members(link.context)
            except PLATFORM_ERRORS as error:
                failed += 1
                self.stderr.write(f"{link.school_class}: the platform did not answer ({error}).")
                continue
            self.stdout.write(
                f"{link.school_class}: {result.added} added, {result.removed} removed, "
                f"{result.skipped} skipped."
            )
        if failed:
            self.stderr.write(f"{failed} course(s) not synchronised.")
