"""``python manage.py createteacher NAME`` makes a teacher account.

The password comes from ``--password`` or, when that is missing, from a prompt.
"""

from __future__ import annotations

import getpass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tutor.accounts.models import User
from tutor.accounts.services import create_teacher


class Command(BaseCommand):
    help = "Create a teacher account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", help="Password (prompted for when omitted).")
        parser.add_argument("--email", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        username = options["username"]
        if User.objects.filter(username=username).exists():
            raise CommandError(f"A user named {username!r} exists already.")
        password = options["password"] or getpass.getpass("Password: ")
        if not password:
            raise CommandError("A teacher needs a password.")
        create_teacher(username=username, password=password, email=options["email"])
        self.stdout.write(self.style.SUCCESS(f"Teacher {username!r} created."))
