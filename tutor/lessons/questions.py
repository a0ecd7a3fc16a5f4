"""The questions at the end of a lesson: which kinds, which rule set, which seeds.

They come from the quiz generators (``teaching.generators``) and are judged and
explained exactly like practice questions. What this module decides:

Which kinds. A lesson lists rule IDs (front matter ``rules``); every generated question
lists the rules it tests (``rules_tested``). A question *fits* a lesson when it tests at
least one of the lesson's rules. Among fitting questions we prefer, in this order,
(1) the fewest rules that the course teaches only in a later lesson (at lesson 07 the
learner has not met the ladder of lesson 08), (2) the largest share of the question's
rules that are the lesson's own. Per kind the best fit is measured once per process over
the seeds 0-35, which cover every scenario of every kind (the generators pick their
scenario by ``seed % n`` with n = 3, 4, 6, 9 or 10; ladder_step's nine all test R5.5). A
lesson gets the best-fitting kind and, when there is one, a second kind that needs no
more later rules than the first: one question per kind, at most two.

Which seeds. A new question of a kind is drawn at random until it fits as well as that
kind's best (a few draws; after ``MAX_DRAWS`` one of the sample seeds that did).

Which rule set. The default; when no kind tests any of the lesson's rules under it, the
first preset under which one does (lesson 12, factors: only "swisslos-2500" has any).

Lessons 01 (cards) and 02 (table and contracts) get the ``basics`` kind: which card is
the Puur or the Nell (R1.3), and questions about the four players (R2.1-R2.3). A
lesson whose rules no kind tests (say R1.1 and R1.2 alone) gets no question, only the
link to practice.

Visitors and teachers answer too, but nothing is stored: their question is named by a
signed token holding the lesson, the kind and a random nonce; the seed is derived from
the nonce with the server's secret key, so the page holds neither the answer nor the
seed it could be computed from.
"""

from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.core import signing
from django.utils.crypto import salted_hmac

from rules_core import RuleSet
from teaching.generators import KINDS, Question, generate
from tutor.accounts.models import User
from tutor.quizzes.models import QuizQuestion
from tutor.quizzes.selectors import latest_of_kind
from tutor.quizzes.services import PositionTaken, QuizError, add_question, lesson_quiz

from .models import Lesson

SAMPLE_SEEDS = range(36)
MAX_KINDS = 2
MAX_DRAWS = 60
TOKEN_MAX_AGE = 60 * 60 * 24 * 7  # a visitor's question stays answerable for a week

_QUESTION_SALT = "tutor.lessons.questions.question"
_ANSWERED_SALT = "tutor.lessons.questions.answered"
_SEED_SALT = "tutor.lessons.questions.seed"


class BadToken(ValueError):
    """A visitor's question token that was not made here, or not for this lesson."""


@functools.cache
def _sample(kind: str, preset: str) -> tuple[tuple[int, frozenset[str]], ...]:
    """``(seed, rules tested)`` for the sample seeds: a few ms per kind, once per process."""
    rules = RuleSet.preset(preset)
    return tuple(
        (seed, frozenset(generate(kind, seed, rules).rules_tested)) for seed in SAMPLE_SEEDS
    )


def _fit(
    tested: frozenset[str], own: frozenset[str], later: frozenset[str]
) -> tuple[int, float] | None:
    """How well a question fits: (later rules, -share of own rules); smaller is better.
    None when it tests none of the lesson's rules."""
    hits = tested & own
    if not hits:
        return None
    return (len(tested & later), -len(hits) / len(tested))


@dataclass(frozen=True)
class Aim:
    kind: str
    fit: tuple[int, float]
    seeds: tuple[int, ...]  # the sample seeds that fit this well


@dataclass(frozen=True)
class QuestionPlan:
    preset: str
    own: frozenset[str]
    later: frozenset[str]
    aims: tuple[Aim, ...]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(aim.kind for aim in self.aims)

    @property
    def rules(self) -> RuleSet:
        return RuleSet.preset(self.preset)

    def aim(self, kind: str) -> Aim:
        for aim in self.aims:
            if aim.kind == kind:
                return aim
        raise KeyError(kind)

    def fits(self, question: Question) -> bool:
        fit = _fit(frozenset(question.rules_tested), self.own, self.later)
        return fit is not None and fit <= self.aim(question.kind).fit

    def pick_seed(self, kind: str, rng: random.Random) -> int:
        """A seed whose question of ``kind`` fits the lesson as well as the kind can."""
        aim = self.aim(kind)
        rules = self.rules
        for _draw in range(MAX_DRAWS):
            seed = rng.randrange(2**31)
            if self.fits(generate(kind, seed, rules)):
                return seed
        return rng.choice(aim.seeds)


@functools.cache
def plan_questions(own: frozenset[str], later: frozenset[str]) -> QuestionPlan:
    """The kinds and rule set for a lesson teaching ``own`` before ``later``."""
    for preset in RuleSet.presets():
        aims = []
        for kind in KINDS:
            fits = [
                (fit, seed)
                for seed, tested in _sample(kind, preset)
                if (fit := _fit(tested, own, later)) is not None
            ]
            if fits:
                best = min(fit for fit, _seed in fits)
                aims.append(Aim(kind, best, tuple(s for fit, s in fits if fit == best)))
        if aims:
            # Best fit first; equal fits in teaching order (KINDS), as sorted() is stable.
            aims.sort(key=lambda aim: aim.fit)
            chosen = [aims[0]]
            chosen += [a for a in aims[1:] if a.fit[0] <= aims[0].fit[0]][: MAX_KINDS - 1]
            return QuestionPlan(preset, own, later, tuple(chosen))
    return QuestionPlan("default", own, later, ())


def plan_for(lessons: Iterable[tuple[int, Iterable[str]]], position: int) -> QuestionPlan:
    """The plan of the lesson at ``position`` in a course of ``(position, rules)``."""
    lessons = [(p, frozenset(rules)) for p, rules in lessons]
    own = next((rules for p, rules in lessons if p == position), frozenset())
    so_far = frozenset().union(*(rules for p, rules in lessons if p <= position))
    later = frozenset().union(*(rules for p, rules in lessons if p > position)) - so_far
    return plan_questions(own, later)


# --- Visitors (and teachers): questions named by a signed token, never stored ---------


def new_visitor_token(slug: str, kind: str) -> str:
    nonce = secrets.token_urlsafe(12)
    return signing.dumps({"l": slug, "k": kind, "n": nonce}, salt=_QUESTION_SALT)


def read_visitor_token(token: str, slug: str, plan: QuestionPlan) -> tuple[str, str]:
    """``(kind, nonce)`` of a token made by :func:`new_visitor_token` for this lesson."""
    try:
        data = signing.loads(token, salt=_QUESTION_SALT, max_age=TOKEN_MAX_AGE)
        kind, nonce, lesson = data["k"], data["n"], data["l"]
    except (signing.BadSignature, KeyError, TypeError):
        raise BadToken("This question cannot be read. Reload the lesson.") from None
    if lesson != slug or kind not in plan.kinds or not isinstance(nonce, str):
        raise BadToken("This question is not part of this lesson. Reload the lesson.")
    return kind, nonce


def visitor_question(slug: str, kind: str, nonce: str, plan: QuestionPlan) -> Question:
    """The question a visitor's token names: its seed comes from the nonce and the
    server's secret key, so the same token always gives the same question."""
    digest = salted_hmac(_SEED_SALT, f"{slug}|{kind}|{nonce}").hexdigest()
    seed = plan.pick_seed(kind, random.Random(digest))
    return generate(kind, seed, plan.rules)


def answered_token(token: str, choice: str) -> str:
    """For the redirect after a visitor's answer without JavaScript."""
    return signing.dumps({"t": token, "c": choice}, salt=_ANSWERED_SALT)


def read_answered_token(value: str) -> tuple[str, str]:
    """``(question token, choice)``; :class:`BadToken` when it was not made here."""
    try:
        data = signing.loads(value, salt=_ANSWERED_SALT, max_age=TOKEN_MAX_AGE)
        token, choice = data["t"], data["c"]
    except (signing.BadSignature, KeyError, TypeError):
        raise BadToken("This answer cannot be read. Reload the lesson.") from None
    if not isinstance(token, str) or not isinstance(choice, str):
        raise BadToken("This answer cannot be read. Reload the lesson.")
    return token, choice


# --- Learners: the questions are stored in their lesson quiz and count ----------------


class NotAnswered(QuizError):
    pass


def learner_questions(learner: User, lesson: Lesson, plan: QuestionPlan) -> list[QuizQuestion]:
    """The learner's current question per planned kind: the newest of that kind in their
    lesson quiz. The quiz and a missing question are created on first sight."""
    if not plan.kinds:
        return []
    quiz = lesson_quiz(learner=learner, lesson=lesson, rules=plan.rules)
    latest = latest_of_kind(quiz)
    rng = random.Random(secrets.randbits(64))
    for kind in plan.kinds:
        for _try in range(3):
            if kind in latest:
                break
            try:
                latest[kind] = add_question(
                    quiz=quiz, kind=kind, seed=plan.pick_seed(kind, rng), rules=plan.rules
                )
            except PositionTaken:  # another request of this learner added one meanwhile
                latest = latest_of_kind(quiz)
    return [latest[kind] for kind in plan.kinds if kind in latest]


def another_question(question: QuizQuestion, plan: QuestionPlan) -> QuizQuestion:
    """A new question of the same kind after ``question`` was answered. Asking twice
    gives the same new question (the second request finds it newer than ``question``)."""
    quiz = question.quiz
    newest = latest_of_kind(quiz).get(question.kind, question)
    if newest.pk != question.pk:
        return newest
    if not question.answered:
        raise NotAnswered("Answer this question first.")
    if question.kind not in plan.kinds:
        raise QuizError("This kind of question is no longer part of the lesson.")
    seed = plan.pick_seed(question.kind, random.Random(secrets.randbits(64)))
    try:
        return add_question(quiz=quiz, kind=question.kind, seed=seed, rules=plan.rules)
    except PositionTaken:
        return latest_of_kind(quiz)[question.kind]
