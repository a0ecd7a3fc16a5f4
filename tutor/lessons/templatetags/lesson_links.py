"""``{% lesson_links rules as links %}``: where each rule is taught, for any page.

Quiz feedback links its rules to lesson sections; the lessons app provides the links
through this tag, so the quizzes app (below lessons in the app order) imports nothing
of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from ..selectors import lessons_for

register = template.Library()


@register.simple_tag
def lesson_links(rule_ids: Iterable[str] | None) -> list[tuple[str, str]]:
    return lessons_for(rule_ids or ())
