"""A teacher's set of generated questions for Moodle's own quiz (issue 26, item 6).

:func:`export_questions` picks the questions (question kinds under a rule set, or the
questions of one lesson, as a live session does) from one seed, so the same request
gives the same questions; :func:`moodle_file` words them in the language and deck
asked for (:func:`tutor.quizzes.moodle.moodle_xml`) and names the file. Nothing is
stored: the seed is the set.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.utils import translation
from django.utils.translation import gettext as _

from rules_core import RuleSet
from teaching.generators import Question, generate
from tutor.core import explain as ex
from tutor.lessons.questions import QuestionPlan, plan_for
from tutor.quizzes.models import Skill
from tutor.quizzes.moodle import DECKS, LANGS, MoodleSet, moodle_xml

from .assignments import stable_seed
from .csv_export import ascii_filename
from .selectors import lesson_title

MAX_EXPORT_QUESTIONS = 100
MAX_SEED = 2**31 - 1


class ExportError(ValueError):
    """A request for a set that cannot be made; the message is for the teacher."""


@dataclass(frozen=True)
class MoodleExportSpec:
    """What the teacher asks for: ``kinds`` under ``rules_preset``, or the questions of
    ``lesson`` (its slug; kinds and rule set are then not used), ``question_count`` of
    them from ``seed``, worded in ``lang`` with the cards of ``deck``."""

    kinds: tuple[str, ...]
    rules_preset: str
    question_count: int
    lang: str
    deck: str
    seed: int
    lesson: str = ""


@dataclass(frozen=True)
class MoodleFile:
    filename: str
    content: bytes


def _lesson_plan(spec: MoodleExportSpec) -> QuestionPlan | None:
    if not spec.lesson:
        return None
    plan = plan_for(spec.lesson)
    if not plan.kinds:
        raise ExportError(_("Choose one of the lessons offered."))
    return plan


def check_spec(spec: MoodleExportSpec) -> RuleSet:
    """The rule set asked for; :class:`ExportError` for anything the form does not offer."""
    if not spec.lesson and (not spec.kinds or any(k not in Skill.values for k in spec.kinds)):
        raise ExportError(_("Choose at least one question kind, or a lesson."))
    if not 1 <= spec.question_count <= MAX_EXPORT_QUESTIONS:
        raise ExportError(_("A set has 1 to %(max)s questions.") % {"max": MAX_EXPORT_QUESTIONS})
    if spec.lang not in LANGS or spec.deck not in DECKS:
        raise ExportError(_("Choose one of the languages and decks offered."))
    if not 0 <= spec.seed <= MAX_SEED:
        raise ExportError(
            _("The set number is a whole number from 0 to %(max)s.") % {"max": MAX_SEED}
        )
    try:
        return RuleSet.preset(spec.rules_preset)
    except ValueError:
        raise ExportError(_("Choose one of the rule sets offered.")) from None


def _key(question: Question) -> tuple[str, int, str]:
    return (question.kind, question.seed, str(sorted(question.rules.items())))


def export_questions(spec: MoodleExportSpec) -> list[Question]:
    """The set's questions, the same for the same spec. A lesson's are drawn as the
    lesson draws the questions at its end (each aimed at its rules, in its rule set);
    a question drawn twice is asked once (Moodle wants each ID once per category), so
    a lesson with few distinct questions may give fewer than asked."""
    rules = check_spec(spec)
    plan = _lesson_plan(spec)
    if plan is None:
        kinds = list(dict.fromkeys(spec.kinds))
        candidates = (
            # Each position's seed from the set's (a hash, not seed + position: two sets
            # never share a run of questions).
            generate(kinds[i % len(kinds)], stable_seed("moodle", spec.seed, i), rules)
            for i in range(spec.question_count)
        )
    else:
        rng = random.Random(spec.seed)
        lesson_kinds = plan.kinds
        candidates = (
            plan.draw(lesson_kinds[i % len(lesson_kinds)], rng).question
            for i in range(spec.question_count * 3)
        )
    found: dict[tuple[str, int, str], Question] = {}
    for question in candidates:
        found.setdefault(_key(question), question)
        if len(found) == spec.question_count:
            break
    return list(found.values())


def set_name(spec: MoodleExportSpec) -> str:
    """The category's name in the question bank, in the export's language: what was
    asked for, the rule set, the language and the set number (a re-import of the same
    set lands in the same category)."""
    with translation.override(spec.lang):
        if spec.lesson:
            what = lesson_title(spec.lesson, spec.lang) or spec.lesson
            rule_set = ""
        else:
            what = ", ".join(str(Skill(k).label) for k in dict.fromkeys(spec.kinds))
            rule_set = f" · {ex.preset_label(spec.rules_preset)}"
        number = _("set %(seed)s") % {"seed": spec.seed}
        return f"{what}{rule_set} · {spec.lang.upper()} · {number}"


def _set_info(spec: MoodleExportSpec, count: int) -> str:
    with translation.override(spec.lang):
        return _(
            "%(count)s questions generated by the Jass rules tutor (set %(seed)s). The "
            "same set number, rule set, language and deck give the same questions."
        ) % {"count": count, "seed": spec.seed}


def filename(spec: MoodleExportSpec, today: date) -> str:
    """``jass-<kinds>-<date>.xml`` (the lesson's slug for a lesson's questions; "all"
    for every kind), ASCII only."""
    if spec.lesson:
        what: Sequence[str] = (spec.lesson,)
    elif set(spec.kinds) >= set(Skill.values):
        what = ("all",)
    else:
        what = tuple(dict.fromkeys(spec.kinds))
    return ascii_filename("-".join(("jass", *what, today.isoformat())), ext="xml")


def moodle_file(spec: MoodleExportSpec, today: date) -> MoodleFile:
    """The set as a Moodle XML file: the same spec and day give the same bytes."""
    questions = export_questions(spec)
    moodle_set = MoodleSet(
        name=set_name(spec),
        info=_set_info(spec, len(questions)),
        lang=spec.lang,
        deck=spec.deck,
    )
    return MoodleFile(filename(spec, today), moodle_xml(questions, moodle_set))
