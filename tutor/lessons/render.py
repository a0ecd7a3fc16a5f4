"""Lesson bodies to HTML: Markdown for the prose, rules-core results for the examples."""

from __future__ import annotations

import hashlib
import re

import markdown
from django.core.cache import caches
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from rules_core import RulesError
from tutor.core.context_processors import current_deck

from . import examples
from .content import split_examples
from .examples import evaluate

_RULE_REF = re.compile(r"\[(R\d+(?:\.\d+a?)?)\](?!\()")
_LESSON_LINK = re.compile(r"\]\(lesson:([a-z0-9-]+)\)")


def _link_refs(text: str) -> str:
    rules_url = reverse("lessons:rules")
    text = _RULE_REF.sub(lambda m: f"[{m[1]}]({rules_url}#{m[1]})", text)
    return _LESSON_LINK.sub(lambda m: f"]({reverse('lessons:detail', args=[m[1]])})", text)


def markdown_to_html(text: str) -> str:
    # Lesson files are ours and reviewed; no user text ever reaches this function.
    return markdown.markdown(_link_refs(text), extensions=["tables", "sane_lists"])


def render_body(body: str, *, request: HttpRequest | None = None) -> SafeString:
    """The lesson's HTML; kept per text, language, deck and rule set, which decide it all."""
    deck = current_deck(request) if request is not None else "swiss"
    fingerprint = "|".join((body, get_language() or "", deck, examples.DEFAULT_PRESET))
    key = "lesson-body:" + hashlib.sha256(fingerprint.encode()).hexdigest()
    cache = caches["fragments"]
    html = cache.get(key)
    if html is None:
        html = _render_body(body, request=request)
        cache.set(key, html)
    return mark_safe(html)  # noqa: S308 - what _render_body built


def _render_body(body: str, *, request: HttpRequest | None) -> str:
    html = []
    for part in split_examples(body):
        if isinstance(part, str):
            html.append(markdown_to_html(part))
            continue
        try:
            example = evaluate(part)
        except RulesError as error:
            # The loader checks every example, so this only shows after a rule-set
            # change; an honest notice beats a broken page.
            html.append(
                render_to_string(
                    "lessons/examples.html#broken", {"error": str(error)}, request=request
                )
            )
            continue
        html.append(
            render_to_string(
                f"lessons/examples.html#{example.kind}",
                {"ex": example, **example.data},
                request=request,
            )
        )
    return "".join(html)  # built from Markdown and our templates
