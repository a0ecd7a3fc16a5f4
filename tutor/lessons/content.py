"""Reading the lesson files in ``tutor/lessons/content/``.

A lesson is one file per language, ``NN-slug.de.md``, ``NN-slug.en.md`` and
``NN-slug.fr.md``, each with TOML front matter between ``+++`` lines (title, summary,
rules, sources) and a Markdown body.
Live examples are fenced blocks ``jass KIND`` with ``key: value`` lines; see
``examples.py`` for the kinds. Everything here is plain Python (no database), so the
loader can check a whole course before it writes anything.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .rule_index import RULE_TITLES

CONTENT_DIR = Path(__file__).resolve().parent / "content"
LANGUAGES = ("de", "en", "fr")
SOURCES = ("W-EN", "W-DE", "S-EN", "ST-DE")

_FILE_RE = re.compile(
    r"^(?P<position>\d{2})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)\.(?P<lang>[a-z]{2})\.md$"
)
_EXAMPLE_RE = re.compile(
    r"^```jass[ \t]+(?P<kind>[a-z-]+)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL
)


class LessonFormatError(ValueError):
    """A lesson file breaks the format; the message names the file and line."""


@dataclass(frozen=True)
class Expectation:
    """One ``expect:`` line of an example: what the prose claims, for the engine to check."""

    text: str
    line: int


@dataclass(frozen=True)
class ExampleSpec:
    kind: str
    params: dict[str, str]
    line: int
    expects: tuple[Expectation, ...] = ()

    def where(self, path: str) -> str:
        return f"{path}:{self.line}"


@dataclass(frozen=True)
class LessonFile:
    path: str
    position: int
    slug: str
    language: str
    title: str
    summary: str
    rules: tuple[str, ...]
    sources: tuple[str, ...]
    body: str
    body_offset: int = 0  # lines before the body, so errors can name the file's line

    @property
    def examples(self) -> list[ExampleSpec]:
        return [
            ExampleSpec(
                spec.kind,
                spec.params,
                spec.line + self.body_offset,
                tuple(Expectation(e.text, e.line + self.body_offset) for e in spec.expects),
            )
            for spec in find_examples(self.body)
        ]


@dataclass(frozen=True)
class LessonSource:
    """Both language versions of one lesson."""

    slug: str
    position: int
    rules: tuple[str, ...]
    sources: tuple[str, ...]
    files: dict[str, LessonFile]

    @property
    def content_hash(self) -> str:
        digest = hashlib.sha256()
        for lang in LANGUAGES:
            f = self.files[lang]
            digest.update(f"{f.path}\0{f.title}\0{f.summary}\0{f.body}\0".encode())
        digest.update(repr((self.position, self.rules, self.sources)).encode())
        return digest.hexdigest()


def find_examples(body: str) -> list[ExampleSpec]:
    specs = []
    for match in _EXAMPLE_RE.finditer(body):
        line = body.count("\n", 0, match.start()) + 1
        params: dict[str, str] = {}
        expects: list[Expectation] = []
        for offset, raw in enumerate(match["body"].splitlines(), start=1):
            if not raw.strip():
                continue
            key, sep, value = raw.partition(":")
            key = key.strip()
            if not sep or not key:
                raise LessonFormatError(
                    f"line {line + offset}: expected 'key: value' in a jass example, got {raw!r}"
                )
            if key == "expect":
                expects.append(Expectation(value.strip(), line + offset))
                continue
            if key in params:
                raise LessonFormatError(f"line {line + offset}: {key!r} is given twice")
            params[key] = value.strip()
        specs.append(
            ExampleSpec(kind=match["kind"], params=params, line=line, expects=tuple(expects))
        )
    return specs


def example_spans(body: str) -> list[tuple[int, int, ExampleSpec]]:
    """Where each example stands in the body: ``(start, end, spec)`` in order."""
    return [
        (match.start(), match.end(), spec)
        for match, spec in zip(_EXAMPLE_RE.finditer(body), find_examples(body), strict=True)
    ]


def split_examples(body: str) -> list[str | ExampleSpec]:
    """The body as Markdown chunks with the example specs between them, in order."""
    parts: list[str | ExampleSpec] = []
    specs = iter(find_examples(body))
    last = 0
    for match in _EXAMPLE_RE.finditer(body):
        parts.append(body[last : match.start()])
        parts.append(next(specs))
        last = match.end()
    parts.append(body[last:])
    return parts


def parse_lesson_file(path: Path) -> LessonFile:
    match = _FILE_RE.match(path.name)
    if not match:
        raise LessonFormatError(f"{path.name}: a lesson file is named NN-slug.LANG.md")
    if match["lang"] not in LANGUAGES:
        raise LessonFormatError(f"{path.name}: language must be one of {', '.join(LANGUAGES)}")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not lines or lines[0].strip() != "+++":
        raise LessonFormatError(f"{path.name}:1: front matter must start with a '+++' line")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "+++")
    except StopIteration:
        raise LessonFormatError(f"{path.name}: front matter is not closed by '+++'") from None
    try:
        meta = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as error:
        raise LessonFormatError(f"{path.name}: front matter is not valid TOML: {error}") from None
    for key, kind in (("title", str), ("rules", list), ("sources", list)):
        if not isinstance(meta.get(key), kind) or not meta[key]:
            raise LessonFormatError(f"{path.name}: front matter needs a non-empty {key!r}")
    unknown = [r for r in meta["rules"] if r not in RULE_TITLES]
    if unknown:
        raise LessonFormatError(f"{path.name}: unknown rule IDs {unknown}")
    bad_sources = [s for s in meta["sources"] if s not in SOURCES]
    if bad_sources:
        raise LessonFormatError(f"{path.name}: unknown sources {bad_sources}; use {SOURCES}")
    lesson = LessonFile(
        path=path.name,
        position=int(match["position"]),
        slug=match["slug"],
        language=match["lang"],
        title=meta["title"].strip(),
        summary=str(meta.get("summary", "")).strip(),
        rules=tuple(meta["rules"]),
        sources=tuple(meta["sources"]),
        body="\n".join(lines[end + 1 :]).rstrip() + "\n",
        body_offset=end + 1,
    )
    try:
        lesson.examples  # noqa: B018 - parsing is the check
    except LessonFormatError as error:
        raise LessonFormatError(f"{path.name}: {error} (counting from the body)") from None
    return lesson


def _same_example(spec: ExampleSpec) -> tuple[object, ...]:
    params = {k: " ".join(v.split()) for k, v in spec.params.items() if k != "caption"}
    return spec.kind, params, tuple(" ".join(e.text.split()) for e in spec.expects)


def _check_same_lesson(slug: str, de: LessonFile, other: LessonFile) -> None:
    """Every language's file of a lesson shows what the German one shows: the same
    position, rules, sources and live examples with the same expect: lines."""
    for attr in ("position", "rules", "sources"):
        if getattr(de, attr) != getattr(other, attr):
            raise LessonFormatError(
                f"lesson {slug!r}: {attr} differ between {de.path} and {other.path}"
            )
    de_kinds = [e.kind for e in de.examples]
    other_kinds = [e.kind for e in other.examples]
    if de_kinds != other_kinds:
        raise LessonFormatError(
            f"lesson {slug!r}: live examples differ between languages "
            f"({de_kinds} in {de.path} vs {other_kinds} in {other.path})"
        )
    for de_ex, other_ex in zip(de.examples, other.examples, strict=True):
        # Every language must show the same example and claim the same outcome; only
        # the caption is translated.
        if _same_example(de_ex) != _same_example(other_ex):
            raise LessonFormatError(
                f"{de.path}:{de_ex.line} and {other.path}:{other_ex.line}: the example's "
                "parameters or expect: lines differ between languages (only 'caption' may)"
            )


def read_course(directory: Path = CONTENT_DIR) -> list[LessonSource]:
    """Every lesson in the directory, in every language, checked for consistency."""
    files: dict[str, dict[str, LessonFile]] = {}
    for path in sorted(directory.glob("*.md")):
        lesson = parse_lesson_file(path)
        files.setdefault(lesson.slug, {})[lesson.language] = lesson
    course = []
    for slug, by_lang in files.items():
        missing = [lang for lang in LANGUAGES if lang not in by_lang]
        if missing:
            raise LessonFormatError(f"lesson {slug!r} has no {'/'.join(missing)} version")
        de = by_lang["de"]
        for other in (by_lang[lang] for lang in LANGUAGES if lang != "de"):
            _check_same_lesson(slug, de, other)
        course.append(
            LessonSource(
                slug=slug, position=de.position, rules=de.rules, sources=de.sources, files=by_lang
            )
        )
    positions = [lesson.position for lesson in course]
    if len(set(positions)) != len(positions):
        raise LessonFormatError("two lessons share a position number")
    return sorted(course, key=lambda lesson: lesson.position)
