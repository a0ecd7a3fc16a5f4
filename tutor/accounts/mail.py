"""The site's e-mails (teacher sign-up and approval), from templates in
templates/accounts/email/: ``NAME_subject.txt`` and ``NAME_body.txt``.

Mail goes through Django's backend (settings.py: the console in development, SMTP in
production). A mail that cannot be sent raises :class:`MailError`, so the caller can
undo what the mail was for and say so.
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

logger = logging.getLogger(__name__)


class MailError(Exception):
    """The mail backend refused or could not be reached."""


def _render(name: str, context: dict[str, Any]) -> tuple[str, str]:
    subject = render_to_string(f"accounts/email/{name}_subject.txt", context)
    body = render_to_string(f"accounts/email/{name}_body.txt", context)
    return " ".join(subject.split()), body.strip() + "\n"


def send(
    name: str, context: dict[str, Any], to: list[str], *, every_language: bool = False
) -> None:
    """Render mail ``name`` in the active language (or, with ``every_language``, in each
    of the site's languages, one after the other: for mails sent from the admin, whose
    reader's language the site does not know) and send it to ``to``."""
    if every_language:
        parts = []
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                parts.append(_render(name, context))
        subject = " / ".join(dict.fromkeys(subject for subject, _body in parts))
        body = "\n----\n\n".join(body for _subject, body in parts)
    else:
        subject, body = _render(name, context)
    try:
        send_mail(subject, body, None, to)
    except (smtplib.SMTPException, OSError) as error:
        logger.error("mail %s could not be sent: %s", name, error)
        raise MailError(str(error)) from error
