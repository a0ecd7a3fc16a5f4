"""Lesson bodies to HTML: Markdown for the prose, rules-core results for the examples."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

import markdown
from django.core.cache import caches
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from rules_core import RulesError
from tutor.core.context_processors import current_deck

from . import examples
from .content import split_examples
from .examples import evaluate

_RULE_REF = re.compile(r"\[(R\d+(?:\.\d+[a-z]?)?)\](?!\()")
_LESSON_LINK = re.compile(r"\]\(lesson:([a-z0-9-]+)\)")


def _link_refs(text: str) -> str:
    rules_url = reverse("lessons:rules")
    text = _RULE_REF.sub(lambda m: f"[{m[1]}]({rules_url}#{m[1]})", text)
    return _LESSON_LINK.sub(lambda m: f"]({reverse('lessons:detail', args=[m[1]])})", text)


# A box "for the curious" (the documents' discussion, folded away for young readers):
# its three lines stand alone in a lesson file and may enclose live examples, so they
# are passed through as they are, around Markdown that is converted on its own (the
# Markdown library would swallow the rest of a chunk after an unclosed <details>).
_BOX_LINE = re.compile(
    r'^[ \t]*(<details class="curious">|<summary>[^<>\n]+</summary>|</details>)[ \t]*$',
    re.MULTILINE,
)


def _markdown(text: str) -> str:
    # attr_list carries the heading ids that with_heading_ids() writes as "{#id}".
    return markdown.markdown(_link_refs(text), extensions=["tables", "sane_lists", "attr_list"])


def markdown_to_html(text: str) -> str:
    """Lesson Markdown to HTML; the lines of a box for the curious pass through."""
    # Lesson files are ours and reviewed; no user text ever reaches this function.
    pieces = _BOX_LINE.split(text)
    # split() with one group: Markdown at even indexes, the box lines at odd ones.
    html = "".join(
        piece.strip() if index % 2 else (_markdown(piece) if piece.strip() else "")
        for index, piece in enumerate(pieces)
    )
    # A wide table scrolls in its own box on a phone; the box takes the keyboard focus
    # so that it can be scrolled without a mouse (WCAG 2.1.1).
    label = escape(gettext("Table"))
    box = f'<div class="table-scroll" tabindex="0" role="region" aria-label="{label}">'
    return html.replace("<table>", box + "<table>").replace("</table>", "</table></div>")


# --- Heading ids: every section of a lesson can be linked (quiz feedback does) --------

_HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]+(?P<title>.*?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "ae", "Ö": "oe", "Ü": "ue"})


def heading_anchor(title: str) -> str:
    """A heading's id: its words in lower-case ASCII joined by '-' ("Die Frist" ->
    "die-frist", "Was Stöck sind" -> "was-stoeck-sind"). Stable while the heading's
    text stays the same; the same function names the sections for links."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # [text](url) -> text
    text = re.sub(r"[`*_]", "", text).translate(_GERMAN).replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "section"


def _headings(lines: list[str]) -> Iterator[tuple[int, str, str]]:
    """``(line index, title, unique id)`` of every ATX heading outside fenced blocks."""
    used: set[str] = set()
    fenced = False
    for index, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _HEADING.match(line)
        if match is None or not match["title"]:
            continue
        base = anchor = heading_anchor(match["title"])
        n = 2
        while anchor in used:
            anchor, n = f"{base}-{n}", n + 1
        used.add(anchor)
        yield index, match["title"], anchor


def with_heading_ids(body: str) -> str:
    """The body with ``{#id}`` after each heading, for Markdown's attr_list."""
    lines = body.split("\n")
    for index, title, anchor in _headings(lines):
        marks = lines[index].split(maxsplit=1)[0]
        lines[index] = f"{marks} {title} {{#{anchor}}}"
    return "\n".join(lines)


@dataclass(frozen=True)
class Section:
    """A heading and the text up to the next heading; the text before the first
    heading is a section without an anchor."""

    anchor: str | None
    title: str
    text: str


def sections(body: str) -> list[Section]:
    lines = body.split("\n")
    found = list(_headings(lines))
    starts = [0, *(index for index, _t, _a in found), len(lines)]
    heads: list[tuple[str | None, str]] = [(None, ""), *((a, t) for _i, t, a in found)]
    return [
        Section(anchor, title, "\n".join(lines[start:end]))
        for (anchor, title), start, end in zip(heads, starts, starts[1:], strict=False)
    ]


def citations(rule: str) -> re.Pattern[str]:
    """Matches a citation of ``rule`` in lesson Markdown: "[R6.4]" (not "[R6.4a]")."""
    return re.compile(rf"\[{re.escape(rule)}\](?!\()")


def first_citing(body: str, rule: str) -> Section | None:
    """The first section whose text cites ``rule``."""
    cite = citations(rule)
    return next((s for s in sections(body) if cite.search(s.text)), None)


def render_body(body: str, *, request: HttpRequest | None = None) -> SafeString:
    """The lesson's HTML; kept per text, language, deck and rule set, which decide it all."""
    deck = current_deck(request) if request is not None else "swiss"
    # "ids": the version of the HTML (headings carry ids), so no older copy is served.
    fingerprint = "|".join((body, get_language() or "", deck, examples.DEFAULT_PRESET, "ids"))
    key = "lesson-body:" + hashlib.sha256(fingerprint.encode()).hexdigest()
    cache = caches["fragments"]
    html: str | None = cache.get(key)
    if html is None:
        html = _render_body(body, request=request)
        cache.set(key, html)
    return mark_safe(html)  # noqa: S308 - what _render_body built


def _render_body(body: str, *, request: HttpRequest | None) -> str:
    html = []
    for part in split_examples(with_heading_ids(body)):
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
