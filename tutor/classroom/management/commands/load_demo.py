"""``python manage.py load_demo``: a demo teacher, a class and a few learners.

Idempotent: running it again finds what is there and changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from tutor.accounts.models import Role, User
from tutor.classroom.models import Membership, SchoolClass

DEMO_PASSWORD = "jass-demo-2026"
DEMO_TEACHER = "lehrerin"
DEMO_LEARNERS = ("anna", "ben", "chiara", "dario")
DEMO_CLASS_NAME = "Klasse 6b"
DEMO_JOIN_CODE = "JASSKURS"


def _user(username: str, role: str) -> User:
    user, created = User.objects.get_or_create(username=username, defaults={"role": role})
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


class Command(BaseCommand):
    help = "Create the demo teacher, class and learners (safe to run again)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        teacher = _user(DEMO_TEACHER, Role.TEACHER)
        school_class, _ = SchoolClass.objects.get_or_create(
            join_code=DEMO_JOIN_CODE, defaults={"teacher": teacher, "name": DEMO_CLASS_NAME}
        )
        for name in DEMO_LEARNERS:
            learner = _user(name, Role.LEARNER)
            Membership.objects.get_or_create(school_class=school_class, learner=learner)
        self.stdout.write(f"Demo logins (password for all: {DEMO_PASSWORD}):")
        self.stdout.write(
            f"  teacher:  {DEMO_TEACHER}  (class {DEMO_CLASS_NAME!r}, join code {DEMO_JOIN_CODE})"
        )
        self.stdout.write("  learners: " + ", ".join(DEMO_LEARNERS))
