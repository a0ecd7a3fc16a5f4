"""The site's words, one per concept: ``glossary.toml`` read into typed values.

Lessons, feedback, the table trainer and the translations use each concept's term and
none of its banned words, in every language of the site (German, English, French); the
glossary page shows the terms, and ``tests/tutor/test_glossary.py`` checks every page,
the .po catalogues and the lesson sources with :meth:`Glossary.violations`.

>>> g = glossary()
>>> g.concept("rule-set").term("de")
'Regelwerk'
>>> [v.word for v in g.violations("Im Regelsatz dieses Quiz zählt das.", "de")]
['Regelsatz']
>>> v = g.violations("Stechen ist immer erlaubt.", "de")[0]
>>> v.concept.id, v.use
('trumping', 'trumpfen (einen Trumpf spielen) oder den Stich machen (gewinnen)')
>>> g.concept("vorhand").term("fr")
'avant-main'
>>> [(v.word, v.use) for v in g.violations("La dernière levée vaut 5 points.", "fr")]
[('levée', 'pli')]

A German word in French text is banned where French uses it as its own word, not
where the text names it as German:

>>> [v.word for v in g.violations("Le Weis de l'équipe 1 compte.", "fr")]
['Le Weis']
>>> g.violations("L'annonce (en allemand *Weis*) compte.", "fr")
[]

A banned word inside an attributed quotation of a document is allowed, but only
when the quoted words are registered as that document's own:

>>> g.violations("W-DE: «Die Partei, die ihn hält, schreibt alle ihre Weise».", "de")
[]
>>> [v.word for v in g.violations("W-DE: «Die Partei schreibt alles».", "de")]
['Partei']
>>> [v.word for v in g.violations("«Die Partei, die ihn hält» gilt.", "de")]
['Partei']

This module knows nothing of Django: the page and the tests read it alike.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

PATH = Path(__file__).with_name("glossary.toml")

SOURCES = ("W-EN", "W-DE", "S-EN", "ST-DE")
"""The rule documents' short names (RULES.md); only they can be quoted."""


class GlossaryError(ValueError):
    """``glossary.toml`` is not well formed; the message names the concept and field."""


@dataclass(frozen=True)
class Term:
    """A concept in one language: the word the site uses and what it means."""

    term: str
    definition: str


@dataclass(frozen=True)
class Banned:
    """A word the site does not use for a concept, in one language."""

    lang: str
    pattern: re.Pattern[str]
    use: str
    reason: str
    source: str | None = None  # the document that uses it (shown on the page)
    word: str = ""  # how the page shows it, when ``source`` is given
    matches: tuple[str, ...] = ()
    passes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Concept:
    id: str
    rules: tuple[str, ...]
    terms: Mapping[str, Term]
    banned: tuple[Banned, ...] = ()
    decision: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def term(self, lang: str) -> str:
        return self.terms[lang].term

    def definition(self, lang: str) -> str:
        return self.terms[lang].definition


@dataclass(frozen=True)
class Quotation:
    """A sentence of a rule document that uses a banned word, registered verbatim."""

    source: str
    text: str


@dataclass(frozen=True)
class Violation:
    """A banned word found in a text: where, which word, and what to write instead."""

    start: int
    end: int
    word: str
    concept: Concept
    banned: Banned

    @property
    def use(self) -> str:
        """What to write instead; ``{capital}`` and ``{small}`` in the glossary stand
        for the word found with its first letter changed ("player 3" -> "Player 3")."""
        word = " ".join(self.word.split())
        return self.banned.use.replace("{capital}", word[:1].upper() + word[1:]).replace(
            "{small}", word[:1].lower() + word[1:]
        )

    def describe(self) -> str:
        """«Regelsatz» (concept rule-set): write «Regelwerk»; why."""
        return (
            f"«{' '.join(self.word.split())}» (concept {self.concept.id}): "
            f"write «{self.use}»; {self.banned.reason}"
        )


# Quotation marks: «…» (the site's German, English and French), „…“, “…” and "…".
_QUOTE = re.compile(r"«([^«»]{1,800})»|„([^„“]{1,800})“|“([^“”]{1,800})”|\"([^\"]{1,800})\"")
_SOURCE = "|".join(re.escape(s) for s in SOURCES)
# A source before the opening mark names the quotation when it stands in the same
# sentence with no other quotation between: "W-DE: «…»", "W-DE schreibt: «…»",
# "S-EN gives them in one sentence («…»)".
_SOURCE_TAG = re.compile(rf"({_SOURCE})(?![\w-])")
_SAME_SENTENCE = re.compile(r"[^.!?«»„“”\"]{0,80}")
# The source right after the closing mark: "«…» (W-DE)", "«…», schreibt W-DE".
_SOURCE_AFTER = re.compile(rf"^[^.!?«»„“”\"\w]{{0,4}}(?:\w+\s+){{0,2}}({_SOURCE})(?![\w-])")
_ELLIPSIS = re.compile(r"…|\.\.\.|\[…\]|\[\.\.\.\]")
_EDGE = " \t\n.,;:!?()*_"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜÀÂÇÉÈÊÎÔŒ«\"“•\d])")


def normalise(text: str) -> str:
    """Whitespace collapsed, Markdown emphasis dropped, NFC: how quotations compare."""
    text = unicodedata.normalize("NFC", text).replace("*", "").replace("\u00ad", "")
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class Glossary:
    languages: tuple[str, ...]
    concepts: tuple[Concept, ...]
    quotations: tuple[Quotation, ...]

    def concept(self, concept_id: str) -> Concept:
        for concept in self.concepts:
            if concept.id == concept_id:
                return concept
        raise KeyError(concept_id)

    def banned(self, lang: str) -> list[tuple[Concept, Banned]]:
        return [(c, b) for c in self.concepts for b in c.banned if b.lang == lang]

    def quoted(self, source: str, text: str) -> bool:
        """True when every sentence of ``text`` (pieces split at "…" and at sentence
        ends) that uses a banned word is part of a registered sentence of ``source``."""
        registered = [normalise(q.text) for q in self.quotations if q.source == source]
        patterns = [b.pattern for c in self.concepts for b in c.banned]
        for piece in _ELLIPSIS.split(text):
            for sentence in _SENTENCE_END.split(normalise(piece)):
                sentence = sentence.strip(_EDGE)
                # A quotation may change the case of its first letter.
                forms = (sentence, sentence[:1].swapcase() + sentence[1:])
                if any(p.search(sentence) for p in patterns) and not any(
                    form in r for form in forms for r in registered
                ):
                    return False
        return True

    def quotation_spans(self, text: str) -> list[tuple[int, int]]:
        """The spans of ``text`` that are attributed, registered quotations."""
        spans = []
        for match in _QUOTE.finditer(text):
            inner = next(g for g in match.groups() if g is not None)
            before = text[max(0, match.start() - 100) : match.start()]
            after = text[match.end() : match.end() + 40]
            sources = {
                tag.group(1)
                for tag in _SOURCE_TAG.finditer(before)
                if _SAME_SENTENCE.fullmatch(before[tag.end() :])
            }
            if found := _SOURCE_AFTER.search(after):
                sources.add(found.group(1))
            if any(self.quoted(source, inner) for source in sources):
                spans.append((match.start(), match.end()))
        return spans

    def violations(self, text: str, lang: str) -> list[Violation]:
        """Every banned word of ``lang`` in ``text`` that is not inside an attributed,
        registered quotation, in order."""
        found: list[Violation] = []
        spans: list[tuple[int, int]] | None = None
        for concept, banned in self.banned(lang):
            for match in banned.pattern.finditer(text):
                if spans is None:
                    spans = self.quotation_spans(text)
                if any(a <= match.start() and match.end() <= b for a, b in spans):
                    continue
                found.append(Violation(match.start(), match.end(), match.group(0), concept, banned))
        return sorted(found, key=lambda v: (v.start, v.concept.id))


def _banned(concept_id: str, data: dict[str, Any], term: str) -> Banned:
    try:
        flags = 0 if data.get("case") == "exact" else re.IGNORECASE
        source = data.get("source")
        if source is not None and source not in SOURCES:
            raise GlossaryError(f"{concept_id}: unknown source {source!r}")
        return Banned(
            lang=str(data["lang"]),
            pattern=re.compile(str(data["pattern"]), flags),
            use=str(data.get("use", term)),
            reason=str(data["reason"]),
            source=source,
            word=str(data.get("word", "")),
            matches=tuple(data.get("matches", ())),
            passes=tuple(data.get("passes", ())),
        )
    except (KeyError, re.error) as exc:
        raise GlossaryError(f"{concept_id}: a banned word is not well formed: {exc}") from exc


def _concept(raw: dict[str, Any], languages: tuple[str, ...]) -> Concept:
    concept_id = str(raw.get("id", "?"))
    if any(lang not in raw for lang in languages) or not raw.get("rules"):
        raise GlossaryError(f"{concept_id}: needs rules and {', '.join(languages)}")
    try:
        terms = {lang: Term(raw[lang]["term"], raw[lang]["definition"]) for lang in languages}
    except KeyError as exc:
        raise GlossaryError(f"{concept_id}: a language needs term and definition") from exc
    banned = []
    for data in raw.get("banned", ()):
        if data.get("lang") not in terms:
            raise GlossaryError(f"{concept_id}: banned word in unknown language {data!r}")
        banned.append(_banned(concept_id, data, terms[data["lang"]].term))
    return Concept(
        id=concept_id,
        rules=tuple(raw["rules"]),
        terms=MappingProxyType(terms),
        banned=tuple(banned),
        decision=MappingProxyType(dict(raw.get("decision", {}))),
    )


def parse(data: dict[str, Any]) -> Glossary:
    """A :class:`Glossary` from the TOML data. Raises :class:`GlossaryError`."""
    languages = tuple(data.get("languages", ("de", "en", "fr")))
    concepts = tuple(_concept(raw, languages) for raw in data.get("concept", ()))
    ids = [c.id for c in concepts]
    doubles = sorted({i for i in ids if ids.count(i) > 1})
    if doubles:
        raise GlossaryError(f"concept ids are not unique: {doubles}")
    quotations = tuple(Quotation(q["source"], q["text"]) for q in data.get("quotation", ()))
    unknown = sorted({q.source for q in quotations} - set(SOURCES))
    if unknown:
        raise GlossaryError(f"quotations of unknown documents: {unknown}")
    return Glossary(languages, concepts, quotations)


@cache
def glossary(path: Path = PATH) -> Glossary:
    """The site's glossary, read once per process."""
    with path.open("rb") as handle:
        return parse(tomllib.load(handle))


# --- files: the translations and the lesson sources ----------------------------------


@dataclass(frozen=True)
class Finding:
    """A violation in a file, with its line (1-based) for a file:line message."""

    path: str
    line: int
    lang: str
    violation: Violation

    def __str__(self) -> str:
        return f"{self.path}:{self.line} [{self.lang}] {self.violation.describe()}"


@dataclass(frozen=True)
class PoEntry:
    """One message of a .po file: the English text (msgid) and its translations."""

    msgid_line: int
    msgid: str
    msgstrs: tuple[tuple[int, str], ...]  # (line, text) of msgstr or msgstr[n]
    fuzzy: bool = False


_PO_FIELD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+"(.*)"\s*$')
_PO_MORE = re.compile(r'^"(.*)"\s*$')
_PO_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _po_unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: _PO_ESCAPES.get(m.group(1), m.group(1)), text)


def read_po(text: str) -> list[PoEntry]:
    """The entries of a .po file, which are separated by blank lines; obsolete
    (``#~``) entries and the header are left out.

    >>> po = '#, fuzzy\\nmsgid "A"\\n"b"\\nmsgstr "C"\\n\\nmsgid "x"\\nmsgstr[0] "y"\\n'
    >>> [(e.msgid, e.msgstrs, e.fuzzy) for e in read_po(po)]
    [('Ab', ((4, 'C'),), True), ('x', ((7, 'y'),), False)]
    """
    blocks: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            blocks[-1].append((number, line.strip()))
        elif blocks[-1]:
            blocks.append([])
    entries = []
    for block in blocks:
        fields: dict[str, tuple[int, str]] = {}
        name, fuzzy = "", False
        for number, line in block:
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            elif found := _PO_FIELD.match(line):
                name = found.group(1)
                fields[name] = (number, _po_unescape(found.group(2)))
            elif (more := _PO_MORE.match(line)) and name:
                start, value = fields[name]
                fields[name] = (start, value + _po_unescape(more.group(1)))
        if fields.get("msgid", (0, ""))[1]:
            strs = tuple(v for k, v in fields.items() if k.startswith("msgstr"))
            entries.append(PoEntry(fields["msgid"][0], fields["msgid"][1], strs, fuzzy))
    return entries


def _known_language(g: Glossary, lang: str, path: Path) -> None:
    if lang not in g.languages:
        raise GlossaryError(
            f"{path}: {lang!r} is not one of the glossary's languages {g.languages}; "
            "add it to `languages` in glossary.toml with a term for every concept"
        )


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def check_po(
    path: Path, lang: str, g: Glossary | None = None, name: str | None = None
) -> list[Finding]:
    """Banned words in a catalogue: each msgstr in ``lang`` and each msgid in English
    (the site's English is its msgids). Placeholders such as ``%(player)s`` are kept,
    so "player %(n)s" is not taken for a player's name. A catalogue of a language the
    glossary does not have is refused: its words would go unchecked."""
    g = g or glossary()
    _known_language(g, lang, path)
    findings = []
    for entry in read_po(path.read_text(encoding="utf-8")):
        checks = [(entry.msgid_line, entry.msgid, "en")]
        checks += [(line, text, lang) for line, text in entry.msgstrs]
        for line, text, text_lang in checks:  # line: the msgid's or msgstr's first
            for violation in g.violations(text, text_lang):
                findings.append(Finding(name or str(path), line, text_lang, violation))
    return findings


_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def readable_markdown(text: str) -> str:
    """A lesson source with what a learner never reads blanked out (offsets and lines
    kept): the lines of live example blocks except their captions, HTML comments."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    def example(match: re.Match[str]) -> str:
        lines = match.group(0).split("\n")
        return "\n".join(
            line if line.lstrip().startswith("caption:") else " " * len(line) for line in lines
        )

    return _FENCE.sub(example, _COMMENT.sub(blank, text))


def check_lesson_source(
    path: Path, g: Glossary | None = None, name: str | None = None
) -> list[Finding]:
    """Banned words in a lesson file ``NN-slug.LANG.md``: front matter (title,
    summary), prose and example captions, in the file's language LANG."""
    g = g or glossary()
    lang = path.name.rsplit(".", 2)[-2]
    _known_language(g, lang, path)
    text = readable_markdown(path.read_text(encoding="utf-8"))
    return [
        Finding(name or str(path), _line_of(text, v.start), lang, v)
        for v in g.violations(text, lang)
    ]


# --- the documents: which of their sentences may be quoted --------------------------

DOCUMENTS = {
    "W-EN": "000_2e466219db3d57ad.txt",
    "W-DE": "001_4439564166b26fea.txt",
    "S-EN": "002_7536108edf783e48.txt",
    "ST-DE": "004_e5335601e855adf0.txt",
}
"""The rule documents' files (RULES.md), in ``../shared/seeds/`` beside the project."""


def document_sentences(text: str) -> list[str]:
    """A document's sentences (lines, table rows, split after . ! ?), normalised.

    >>> document_sentences("Eins ist gut. Zwei auch!\\n| a | b |")
    ['Eins ist gut.', 'Zwei auch!', '| a | b |']
    """
    sentences = []
    for line in text.splitlines():
        sentences += [normalise(s) for s in _SENTENCE_END.split(line) if s.strip()]
    return sentences


def quotable(source: str, document: str, g: Glossary | None = None) -> list[Quotation]:
    """The sentences of a document that use a word the site bans, in the document's
    language or another: exactly the sentences ``glossary.toml`` must register so that
    lessons in every language may quote them (a German, English or French lesson quotes
    a German document in German). :meth:`Glossary.quoted` checks a quotation against
    every language's banned words, so this list does too."""
    g = g or glossary()
    patterns = [b.pattern for lang in g.languages for _c, b in g.banned(lang)]
    return [
        Quotation(source, sentence)
        for sentence in dict.fromkeys(document_sentences(document))
        if any(p.search(sentence) for p in patterns)
    ]
