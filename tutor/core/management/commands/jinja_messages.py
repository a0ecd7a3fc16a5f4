"""``manage.py jinja_messages``: write the Jinja2 templates' message ids where
``makemessages`` finds them (tutor/core/jinja_messages.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.template import engines

from tutor.core.jinja import MESSAGES_MODULE, messages_module


class Command(BaseCommand):
    help = "Write the Jinja2 templates' message ids to tutor/core/jinja_messages.py."

    def handle(self, *args: Any, **options: Any) -> None:
        MESSAGES_MODULE.write_text(messages_module(engines["jinja2"].env), encoding="utf-8")  # type: ignore[attr-defined]
        self.stdout.write(f"wrote {MESSAGES_MODULE}")
