from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import get_language, get_language_info

from tutor.accounts.models import User
from tutor.core.glossary import glossary

from .models import Lesson, LessonRead, LessonText
from .render import citations, first_citing
from .rule_index import RULE_TITLES


@dataclass(frozen=True)
class LessonEntry:
    lesson: Lesson
    text: LessonText
    read: bool


def course(language: str, user: User | AnonymousUser | None) -> list[LessonEntry]:
    """The lessons in order, in one language, with the user's read state (2 queries)."""
    lessons = Lesson.objects.prefetch_related(
        Prefetch("texts", queryset=LessonText.objects.filter(language=language), to_attr="text")
    )
    read: set[int] = set()
    if user is not None and user.is_authenticated:
        read = set(LessonRead.objects.filter(user=user).values_list("lesson_id", flat=True))
    return [
        LessonEntry(lesson=lesson, text=lesson.text[0], read=lesson.id in read)
        for lesson in lessons
        if lesson.text
    ]


def lessons_by_rule(entries: list[LessonEntry]) -> dict[str, list[LessonEntry]]:
    by_rule: dict[str, list[LessonEntry]] = {}
    for entry in entries:
        for rule in entry.lesson.rules:
            by_rule.setdefault(rule, []).append(entry)
    return by_rule


@dataclass(frozen=True)
class RuleLink:
    """Where a rule is taught: a lesson that lists it in its front matter, at the first
    section whose text cites it ("[R6.3]")."""

    rule: str
    slug: str
    anchor: str | None  # None: the lesson cites it only before its first heading, or never
    section: str

    @property
    def url(self) -> str:
        url = reverse("lessons:detail", args=[self.slug])
        return f"{url}#{self.anchor}" if self.anchor else url


def rule_links(language: str) -> dict[str, RuleLink]:
    """Rule ID -> where it is taught, in ``language`` (the anchors are the headings' ids,
    which differ per language).

    Several lessons may list a rule (R5.5: the ladder lesson, Weis in Obenabe, the
    variants). The one that teaches it is the lesson most about its section of RULES.md
    (the largest share of its rules from the same section: R6.1 goes to the Stöck lesson,
    not to Weis in Obenabe, which mentions it once), then the one citing it most often,
    then the earlier one.
    Kept a few minutes: lessons change only when ``load_lessons`` runs, before the
    server starts.
    """
    return _kept_rule_links(language)[0]


# By language: (stamp, links, URL by rule). The fragments cache holds only the stamp
# (it expires, and a cleared cache forgets it): reading back the links from it would
# unpickle them on every feedback, a tenth of a millisecond and more.
_RULE_LINKS: dict[str, tuple[str, dict[str, RuleLink], dict[str, str]]] = {}


def _kept_rule_links(language: str) -> tuple[dict[str, RuleLink], dict[str, str]]:
    key = f"rule-links:{language}"
    stamp: str | None = caches["fragments"].get(key)
    kept = _RULE_LINKS.get(language)
    if stamp is not None and kept is not None and kept[0] == stamp:
        return kept[1], kept[2]
    links = _build_rule_links(language)
    if stamp is None:
        stamp = uuid.uuid4().hex
        caches["fragments"].set(key, stamp, 300)
    urls = {rule: link.url for rule, link in links.items()}
    _RULE_LINKS[language] = (stamp, links, urls)
    return links, urls


def _build_rule_links(language: str) -> dict[str, RuleLink]:
    best: dict[str, tuple[tuple[float, int], RuleLink]] = {}
    texts = (
        LessonText.objects.filter(language=language)
        .select_related("lesson")
        .order_by("lesson__position", "lesson__slug")
    )
    for text in texts:
        rules = text.lesson.rules
        for rule in rules:
            section_of = rule.split(".")[0]
            share = sum(r.split(".")[0] == section_of for r in rules) / len(rules)
            score = (share, len(citations(rule).findall(text.body)))
            if rule in best and best[rule][0] >= score:
                continue
            section = first_citing(text.body, rule)
            link = RuleLink(
                rule,
                text.lesson.slug,
                section.anchor if section else None,
                section.title if section else "",
            )
            best[rule] = (score, link)
    links = {rule: link for rule, (_score, link) in best.items()}
    return links


def lessons_for(rule_ids: Iterable[str]) -> list[tuple[str, str]]:
    """(rule, URL) for every rule a lesson teaches: the lesson that teaches it, at the
    section that first cites it (the heading's id), in the active language."""
    _links, urls = _kept_rule_links((get_language() or "de")[:2])
    return [(rule, urls[rule]) for rule in rule_ids if rule in urls]


# --- the glossary page -------------------------------------------------------------


@dataclass(frozen=True)
class GlossaryRule:
    rule: str
    title: str


@dataclass(frozen=True)
class NotUsed:
    """A word a learner may meet elsewhere that the site does not use for a concept."""

    word: str
    source: str | None  # the rule document that uses it


@dataclass(frozen=True)
class OtherTerm:
    """The term in the site's other languages that write it alike: "Deutsch, English:
    Puur" on the French page. ``lang`` (the first of them) marks the word's language."""

    lang: str
    names: str  # the languages' own names, "Deutsch, English"
    term: str


@dataclass(frozen=True)
class GlossaryEntry:
    id: str
    term: str
    definition: str
    rules: tuple[GlossaryRule, ...]
    lesson_title: str  # the lesson that teaches it ("" if none does yet)
    lesson_url: str
    other_terms: tuple[OtherTerm, ...]  # the other languages' terms that differ from this one
    decision: str
    not_used: tuple[NotUsed, ...]


def _sort_key(term: str) -> str:
    """Alphabetical as people read it: case, umlauts and accents ignored."""
    decomposed = unicodedata.normalize("NFKD", term.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _other_terms(terms: dict[str, str], language: str) -> tuple[OtherTerm, ...]:
    """The terms of the languages other than ``language`` that differ from its term,
    languages with the same term together, in the glossary's order of languages."""
    same: dict[str, list[str]] = {}
    for lang, term in terms.items():
        if lang != language and term != terms[language]:
            same.setdefault(term, []).append(lang)
    return tuple(
        OtherTerm(langs[0], ", ".join(str(get_language_info(c)["name_local"]) for c in langs), term)
        for term, langs in same.items()
    )


def glossary_entries(language: str) -> list[GlossaryEntry]:
    """The glossary in ``language``, alphabetical: each concept's term, definition,
    rules (RULES.md IDs with their titles), the lesson that teaches its first taught
    rule, and the words the site does not use for it."""
    links = rule_links(language)
    titles = dict(LessonText.objects.filter(language=language).values_list("lesson__slug", "title"))
    entries = []
    for concept in glossary().concepts:
        link = next((links[rule] for rule in concept.rules if rule in links), None)
        entries.append(
            GlossaryEntry(
                id=concept.id,
                term=concept.term(language),
                definition=concept.definition(language),
                rules=tuple(
                    GlossaryRule(rule, str(RULE_TITLES.get(rule, ""))) for rule in concept.rules
                ),
                lesson_title=titles.get(link.slug, "") if link else "",
                lesson_url=link.url if link else "",
                other_terms=_other_terms(
                    {lang: concept.term(lang) for lang in glossary().languages}, language
                ),
                decision=concept.decision.get(language, ""),
                not_used=tuple(
                    NotUsed(b.word, b.source)
                    for b in concept.banned
                    if b.lang == language and b.word
                ),
            )
        )
    return sorted(entries, key=lambda entry: _sort_key(entry.term))
