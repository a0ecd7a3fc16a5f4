"""``python manage.py createteacher NAME`` makes a teacher account.

The password comes from ``--password`` or, when that is missing, from a prompt. Name and
password follow the sign-up rules (tutor/accounts/validators.py).
"""

from __future__ import annotations

import getpass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tutor.accounts.models import User
from tutor.accounts.services import create_teacher
from tutor.accounts.validators import normalise_username


class Command(BaseCommand):
    help = "Create a teacher account."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", help="Password (prompted for when omitted).")
        parser.add_argument("--email", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        username = normalise_username(options["username"])
        if User.objects.filter(username=username).exists():
            raise CommandError(f"A user named {username!r} exists already.")
        password = options["password"] or getpass.getpass("Password: ")
        if not password:
            raise CommandError("A teacher needs a password.")
        # The same rules as the sign-up form: name profile, no look-alike, password.
        try:
            create_teacher(username=username, password=password, email=options["email"])
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(self.style.SUCCESS(f"Teacher {username!r} created."))
