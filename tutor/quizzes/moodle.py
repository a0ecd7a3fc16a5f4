"""Generated questions as Moodle XML, for schools that use the LMS's own quiz (issue 26).

:func:`moodle_xml` is pure (no request, no database): questions in, the bytes of a
Moodle XML file out. Every question becomes one ``multichoice`` question whose text
is what the site's question card shows (the rule-set line, the title, the contract
and the situation, drawn by the macros of ``quizzes/kinds.jinja``, as the stem
checker draws them), whose answers are the site's choice texts, each with its own
feedback (right or wrong, the mistake behind a wrong choice, the correct answer and
the engine's verdict), and whose general feedback is the site's step-by-step
explanation with the rule IDs it cites.

Inside Moodle the site's markup would break: cards are SVG pictures whose suit
symbols point at the site's sprite (``/static/cards/suits.svg#...``) and rule IDs
are links to the site's rule index. :func:`self_contained` turns each card into its
text alternative (the name the engine gives it in the language and deck chosen,
as the card's ``aria-label`` on the site), a hand into one line of card names and a
rule link into its ID, so nothing in a question refers to the site. The stem
checker runs over exactly these parts (:func:`moodle_templates`).

What Moodle's importer reads (``question/format/xml/format.php`` of moodle/moodle,
``import_headers``, ``import_multichoice``, ``import_answer``, ``import_category``):
``name/text`` (the import fails without it), ``questiontext`` with ``format`` and
``text``, ``generalfeedback``, ``defaultgrade``, ``penalty``, ``idnumber``,
``single`` and ``shuffleanswers`` (``trans_single``: "false" or empty is off),
``answernumbering``, ``showstandardinstruction``, the combined feedbacks, and per
``answer`` its ``fraction`` attribute (per cent), ``text`` and ``feedback/text``.
A ``question type="category"`` names the category the following questions go to.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass
from html import escape as _escape
from html import unescape
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from rules_core.cards import LANGS as CARD_LANGS
from teaching.generators import Question
from tutor.core import explain as ex
from tutor.core.decks import Deck
from tutor.core.jinja import macros

from .presenters import QuestionView, choice_label, feedback_mistake, present, rule_set_of
from .services import unsaved_question

# The languages and decks a set is worded in: the engine's and the site's.
LANGS = CARD_LANGS
DECKS = tuple(Deck.values)
MAX_NAME = 250  # Moodle's question name column holds 255 characters
MAX_IDNUMBER = 100  # and its idnumber 100


def escape(text: str) -> str:
    """Text as HTML content: only ``& < >`` escaped, so an apostrophe stays one in
    Moodle's editor."""
    return _escape(text, quote=False)


# -- the site's markup made self-contained ------------------------------------------------

# One card as tutor.core.templatetags.cards draws it: its name is the aria-label.
_CARD = re.compile(
    r'<span class="card[^"]*" role="img" aria-label="([^"]*)"[^>]*>\s*<svg\b.*?</svg>\s*</span>',
    re.DOTALL,
)
# A step of the ladder: its name (and «decides») and its sentence, which the site's
# stylesheet sets apart, joined by a dash.
_LADDER_STEP = re.compile(
    r'(<span class="ladder-name">[^<]*</span>)(\s*<strong class="decides-badge">[^<]*</strong>)?'
    r'\s*(<span class="ladder-text">)'
)
# A card drawn beside its name (a table of card points): the name once is enough.
_NAMED_TWICE = re.compile(r'\s*<span class="card">([^<]*)</span>\s+\1(?=<)')
_HAND = re.compile(r'<ul class="hand"[^>]*>(.*?)</ul>', re.DOTALL)
_HAND_ITEM = re.compile(r"<li>(.*?)</li>", re.DOTALL)
# A player's name before the card they played (a timeline, a trick): on the site the
# card's picture stands between them, here a colon does.
_SEAT = re.compile(r'(<span class="timeline-seat">[^<]*?[\w)])</span>')
_RULE_LINK = re.compile(r'\s*<a class="rule-ref" href="[^"]*">([^<]*)</a>')
# What the site's markup carries for its own scripts and styles, meaningless in Moodle.
_SITE_ATTRIBUTES = re.compile(r'\s(?:tabindex|role|hx-[a-z-]+|data-[a-z-]+)="[^"]*"')
_BLANK_LINES = re.compile(r"\n\s*\n+")


def self_contained(html: str) -> str:
    """``html`` of the site without anything that points at the site: each card as its
    name (a highlighted card as its name and «highlighted», in bold), each hand as one
    line of names, each rule link as its ID in brackets. Call it in the language of
    ``html``: the colon after a player's name is spaced in French."""
    html = _CARD.sub(_card_text, html)
    html = _HAND.sub(_hand_text, html)
    html = _NAMED_TWICE.sub(r"\1", html)
    html = _LADDER_STEP.sub(r"\1\2 – \3", html)
    colon = " :" if (translation.get_language() or "")[:2] == "fr" else ":"
    html = _SEAT.sub(rf"\1{colon}</span>", html)
    html = _RULE_LINK.sub(lambda m: f' <span class="rule-ref">({m.group(1)})</span>', html)
    html = _SITE_ATTRIBUTES.sub("", html)
    return _BLANK_LINES.sub("\n", html).strip()


def _card_text(match: re.Match[str]) -> str:
    label = match.group(1)
    if "card--marked" in match.group(0):
        return f' <strong class="card">{label}</strong>'
    return f' <span class="card">{label}</span>'


def _hand_text(match: re.Match[str]) -> str:
    names = [item.strip() for item in _HAND_ITEM.findall(match.group(1))]
    return f'<p class="hand">{", ".join(names)}</p>'


Draw = Callable[[QuestionView, str], str]
"""One part of a question drawn: (view, deck) -> HTML (as ``stem_check.Draw``)."""

PART_MACROS = {
    "rule-set": "rule_set",
    "title": "title",
    "body": "body",
    "solution": "solution",
    "rule-set-notes": "rule_set_notes",
}
"""The parts the export takes from ``quizzes/kinds.jinja`` (``stem_check.PARTS``)."""


def moodle_templates() -> dict[str, Draw]:
    """The parts as the export draws them: the site's macros, made self-contained.
    ``stem_check.check_question(..., templates=moodle_templates())`` checks them."""

    def drawer(macro: str) -> Draw:
        def draw(view: QuestionView, deck: str) -> str:
            return self_contained(str(getattr(macros("quizzes/kinds.jinja", deck), macro)(view)))

        return draw

    return {part: drawer(macro) for part, macro in PART_MACROS.items()}


# -- one question --------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportChoice:
    text: str
    correct: bool
    feedback: str  # HTML


@dataclass(frozen=True)
class ExportedQuestion:
    """One question as it goes into the file, in one language and deck."""

    question: Question
    name: str
    idnumber: str
    text: str  # HTML: what the site's question card shows before answering
    general_feedback: str  # HTML: the explanation, step by step, and the rule IDs
    choices: tuple[ExportChoice, ...]
    shuffle: bool
    parts: Mapping[str, str]  # by PART_MACROS key: the self-contained HTML of each part


def idnumber(question: Question, lang: str, deck: str) -> str:
    """What makes a question recognisable on a re-import: kind, seed, rule set,
    language and deck (the same five give the same question, word for word).
    Moodle takes up to 100 characters; these are ASCII letters, digits and hyphens."""
    preset = rule_set_of({"rules": question.rules}).preset_name() or "custom"
    value = f"jass-{question.kind}-{question.seed}-{preset}-{lang}-{deck}"
    return re.sub(r"[^A-Za-z0-9_-]", "-", value)[:MAX_IDNUMBER]


# Choices whose values have an order a reader expects (points, players 1-4, the steps
# of the ladder) are listed in it and not shuffled by Moodle; the others keep the
# generator's order (drawn from the seed) and Moodle shuffles them per attempt. The
# generators place the answer among the sorted values evenly (choice leakage, issue
# 12), so the order tells nothing.
_STEPS = ("points", "cards", "high_card", "trump", "seat")


def _order(value: Mapping[str, Any]) -> tuple[Any, ...] | None:
    if "step" in value:
        return (_STEPS.index(value["step"]), value["winner"])
    if "team" in value and "points" in value:
        return (value["team"] is None, value["team"] or 0, value["points"])
    if set(value) in ({"points"}, {"seat"}):
        return (next(iter(value.values())),)
    return None


def _ordered_choices(question: Question) -> tuple[list[Mapping[str, Any]], bool]:
    """The choices in the order the file lists them, and whether Moodle may shuffle."""
    keys = [_order(c["value"]) for c in question.choices]
    if any(k is None for k in keys):
        return list(question.choices), True
    return [c for _k, c in sorted(zip(keys, question.choices, strict=True))], False


# The engine's verdict in the explanation, for each answer's feedback: the verdict
# sentences where the kind has them, else the deciding step of the ladder, the verdict
# on each card (which may be played) or the table of points (a trick's worth).
_VERDICT = re.compile(r'<p class="[^"]*\bverdict\b[^"]*">.*?</p>', re.DOTALL)
_DECIDING_STEP = re.compile(
    r'<li class="ladder-step ladder-step--decides">\s*<span class="ladder-name">(.*?)</span>'
    r'.*?<span class="ladder-text">(.*?)</li>',
    re.DOTALL,
)
_SHORT_EXPLANATIONS = (
    re.compile(r'<ul class="verdicts">.*?</ul>', re.DOTALL),
    re.compile(r'<table class="data points-table">.*?</table>', re.DOTALL),
)


def verdict_of(solution: str) -> str:
    """The engine's verdict in a question's self-contained explanation (HTML)."""
    if found := _VERDICT.findall(solution):
        return "\n".join(found)
    if step := _DECIDING_STEP.search(solution):
        text = step.group(2).replace("</span>", "", 1)
        return f'<p class="verdict"><strong>{step.group(1)}</strong> – {_strip(text)}</p>'
    for pattern in _SHORT_EXPLANATIONS:
        if match := pattern.search(solution):
            return match.group(0)
    return ""


def _strip(html: str) -> str:
    return re.sub(r"\s+", " ", html).strip()


def export_question(question: Question, number: int, lang: str, deck: str) -> ExportedQuestion:
    """``question`` as the site words it in ``lang`` and ``deck``, self-contained;
    ``number`` counts from 1 (the name's prefix, so the bank lists them in order)."""
    draw = moodle_templates()
    answered = unsaved_question(question, question.answer)
    unanswered = copy(answered)
    unanswered.answered_choice, unanswered.correct, unanswered.answered_at = "", None, None
    data = answered.question
    with translation.override(lang):
        before = present(unanswered, reveal=False, deck=deck)
        after = present(answered, reveal=True, deck=deck)
        parts = {
            part: draw[part](before if part in ("rule-set", "title", "body") else after, deck)
            for part in PART_MACROS
        }
        title = _strip(parts["title"])
        contract = (
            f'<p class="contract">{escape(ex.contract_label(before.contract, deck))}</p>'
            if before.contract
            else ""
        )
        text = (
            f'<p class="question-meta">{escape(before.skill_label)} · {parts["rule-set"]}</p>\n'
            f'<p class="question-title"><strong>{title}</strong></p>\n'
            f"{contract}\n{parts['body']}"
        )
        # Outside the f-strings: xgettext (makemessages) does not read into them.
        rules_line = _("Rules: %(rules)s") % {"rules": ", ".join(question.rules_tested)}
        step_by_step = _("Step by step")
        general = (
            f"{parts['rule-set-notes']}\n<p><strong>{escape(step_by_step)}</strong></p>\n"
            f"{parts['solution']}\n"
            f'<p class="rules-tested">{escape(rules_line)}</p>'
        ).strip()
        ordered, shuffle = _ordered_choices(question)
        right_text = _choice_text(question, question.answer, deck)
        verdicts = verdict_of(parts["solution"])
        choices = tuple(
            ExportChoice(
                text=_choice_text(question, c["key"], deck),
                correct=c["key"] == question.answer,
                feedback=_choice_feedback(data, c["key"], right_text, verdicts, deck),
            )
            for c in ordered
        )
        name = f"{number:02d} {before.skill_label} – {_plain(title)}"
    return ExportedQuestion(
        question=question,
        name=name[:MAX_NAME],
        idnumber=idnumber(question, lang, deck),
        text=text,
        general_feedback=general,
        choices=choices,
        shuffle=shuffle,
        parts=parts,
    )


def _plain(html: str) -> str:
    return _strip(unescape(re.sub(r"<[^>]*>", "", html)))


def _choice_text(question: Question, key: str, deck: str) -> str:
    value = question.value_of(key)
    return str(choice_label(question.kind, dict(value), question.prompt, deck)["text"])


def _choice_feedback(
    data: dict[str, Any], key: str, right_text: str, verdicts: str, deck: str
) -> str:
    """Why this choice is right or wrong: the verdict, the mistake behind a wrong
    choice, the correct answer and the engine's verdict sentences."""
    if key == data["answer"]:
        head = f"<p><strong>✓ {escape(_('Right!'))}</strong></p>"
    else:
        mistake = feedback_mistake(data, key, deck)
        head = f"<p><strong>✗ {escape(_('Not quite.'))}</strong></p>" + (
            f'\n<p class="mistake">{escape(mistake)}</p>' if mistake else ""
        )
    answer = _("The correct answer: «%(answer)s».") % {"answer": right_text}
    return f"{head}\n<p>{escape(answer)}</p>\n{verdicts}".strip()


# -- the file --------------------------------------------------------------------------------


def _cdata(text: str) -> str:
    # "]]>" cannot stand inside a CDATA section: split it over two (as Moodle does).
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _text(tag: str, html: str) -> str:
    """An element of Moodle's text fields: HTML in a CDATA section."""
    return f'    <{tag} format="html">\n      <text>{_cdata(html)}</text>\n    </{tag}>\n'


def category_path(set_name: str) -> str:
    """Where the questions go in the course's question bank. A slash separates
    categories in Moodle's path, so one in the name is doubled (Moodle's escape)."""
    return "$course$/top/Jass/" + set_name.replace("/", "//")


def _question_xml(q: ExportedQuestion) -> str:
    lines = [
        '  <question type="multichoice">\n',
        f"    <name>\n      <text>{escape(q.name)}</text>\n    </name>\n",
        _text("questiontext", q.text),
        _text("generalfeedback", q.general_feedback),
        "    <defaultgrade>1</defaultgrade>\n",
        "    <penalty>0.3333333</penalty>\n",
        "    <hidden>0</hidden>\n",
        f"    <idnumber>{escape(q.idnumber)}</idnumber>\n",
        "    <single>true</single>\n",
        f"    <shuffleanswers>{'true' if q.shuffle else 'false'}</shuffleanswers>\n",
        "    <answernumbering>abc</answernumbering>\n",
        "    <showstandardinstruction>0</showstandardinstruction>\n",
        _text("correctfeedback", f"<p>{escape(_('Right!'))}</p>"),
        _text("partiallycorrectfeedback", ""),
        _text("incorrectfeedback", f"<p>{escape(_('Not quite.'))}</p>"),
    ]
    for choice in q.choices:
        fraction = 100 if choice.correct else 0
        lines.append(
            f'    <answer fraction="{fraction}" format="html">\n'
            f"      <text>{_cdata(escape(choice.text))}</text>\n"
            f'      <feedback format="html">\n'
            f"        <text>{_cdata(choice.feedback)}</text>\n"
            f"      </feedback>\n"
            f"    </answer>\n"
        )
    lines.append("  </question>\n")
    return "".join(lines)


@dataclass(frozen=True)
class MoodleSet:
    """What a file holds: the questions and how they are worded."""

    name: str  # the category's name in the question bank
    info: str  # the category's description (plain text)
    lang: str
    deck: str


def exported(questions: Iterable[Question], lang: str, deck: str) -> list[ExportedQuestion]:
    if lang not in LANGS or deck not in DECKS:
        raise ValueError(f"unknown language or deck: {lang!r}, {deck!r}")
    return [export_question(q, n, lang, deck) for n, q in enumerate(questions, start=1)]


def moodle_xml(questions: Sequence[Question], moodle_set: MoodleSet) -> bytes:
    """The Moodle XML file of ``questions`` (UTF-8 bytes): one category, then one
    multichoice question each, worded in the set's language and deck. The same
    questions and set give the same bytes."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n',
        '  <question type="category">\n',
        f"    <category>\n      <text>{escape(category_path(moodle_set.name))}"
        "</text>\n    </category>\n",
        _text("info", f"<p>{escape(moodle_set.info)}</p>"),
        "    <idnumber></idnumber>\n",
        "  </question>\n",
    ]
    with translation.override(moodle_set.lang):  # the combined feedbacks' words
        questions_xml = [
            _question_xml(q) for q in exported(questions, moodle_set.lang, moodle_set.deck)
        ]
    parts += questions_xml
    parts.append("</quiz>\n")
    return "".join(parts).encode("utf-8")


__all__ = [
    "DECKS",
    "LANGS",
    "PART_MACROS",
    "ExportChoice",
    "ExportedQuestion",
    "MoodleSet",
    "category_path",
    "export_question",
    "exported",
    "idnumber",
    "moodle_templates",
    "moodle_xml",
    "self_contained",
    "verdict_of",
]
