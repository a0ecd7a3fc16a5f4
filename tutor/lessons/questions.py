"""The questions at the end of a lesson: which kinds, which cases, which rule set, which seeds.

They come from the quiz generators (``teaching.generators``) and are judged and
explained exactly like practice questions. What this module decides:

What each lesson asks. :data:`LESSON_AIMS` says it per lesson (by slug), as data: a
lesson asks one question per kind, and each :class:`Aim` of that kind names which of
the generator's cases it may be (``Kind.cases``: the Undenufe reversal, not just any
ladder question), under which rule set, in which contracts, and, for a variant, the
rule set under which its answer must come out differently (lesson 14: a question under
W-EN whose answer the default would change; lesson 10: the Undenufe reversal that
W-EN would not make). ``avoid`` names rules a question must not test because the
course teaches them only later (lesson 05 comes before the ladder of lesson 08).
Where a kind has several aims, each question draws one of them by its weight.
``tests/tutor/test_lesson_aims.py`` draws 50 questions per lesson through
:meth:`QuestionPlan.draw`, the code the pages use, and checks that at least 80 % test
one of the lesson's own rule IDs and that each lesson's named cases appear.

Which seeds. A case is asked by choosing the seed: the generators aim at
``Kind.cases[seed % len(cases)]``, so a seed with the right residue is drawn, and drawn
again until the question also fits the aim's contract, variant, ``needs`` and ``avoid``
(a few draws; after ``MAX_DRAWS`` the first seed that fits, found once per process).

A lesson without an entry gets no question, only the link to practice.

Visitors and teachers answer too, but nothing is stored: their question is named by a
signed token holding the lesson, the kind and a random nonce; the seed is derived from
the nonce with the server's secret key, so the page holds neither the answer nor the
seed it could be computed from.
"""

from __future__ import annotations

import functools
import itertools
import random
import secrets
from dataclasses import dataclass

from django.core import signing
from django.utils.crypto import salted_hmac

from rules_core import RulesError, RuleSet
from teaching.generators import Question, generate, get_kind, recompute_under
from tutor.accounts.models import User
from tutor.quizzes.models import QuizQuestion
from tutor.quizzes.selectors import latest_of_kind
from tutor.quizzes.services import PositionTaken, QuizError, add_question, lesson_quiz

from .models import Lesson

MAX_DRAWS = 60
TOKEN_MAX_AGE = 60 * 60 * 24 * 7  # a visitor's question stays answerable for a week

_QUESTION_SALT = "tutor.lessons.questions.question"
_ANSWERED_SALT = "tutor.lessons.questions.answered"
_SEED_SALT = "tutor.lessons.questions.seed"


class BadToken(ValueError):
    """A visitor's question token that was not made here, or not for this lesson."""


@dataclass(frozen=True)
class Aim:
    """What one question of a lesson asks.

    ``kind``: the question kind; ``cases``: the generator's cases it may be (empty:
    any); ``preset``: the rule set it is asked under; ``contracts``: the contracts it
    may be in (empty: any); ``differs_under``: a preset under which the answer must be
    different (the case depends on that rule); ``needs``: rules it must test;
    ``avoid``: rules it must not test; ``weight``: how often this aim is drawn among
    the aims of its kind.
    """

    kind: str
    cases: tuple[str, ...] = ()
    preset: str = "default"
    contracts: tuple[str, ...] = ()
    differs_under: str | None = None
    needs: tuple[str, ...] = ()
    avoid: tuple[str, ...] = ()
    weight: int = 1

    @property
    def rules(self) -> RuleSet:
        return RuleSet.preset(self.preset)

    def residues(self) -> tuple[int, ...]:
        """The values of ``seed % len(Kind.cases)`` that aim at this aim's cases."""
        spec = get_kind(self.kind)
        if not self.cases:
            return tuple(range(len(spec.cases)))
        return tuple(sorted(r for case in self.cases for r in spec.seeds_of(case)))

    def accepts(self, question: Question) -> bool:
        """Whether ``question`` (of this aim's kind, case and rule set) is one it asks."""
        if self.contracts and question.inputs.get("contract") not in self.contracts:
            return False
        tested = set(question.rules_tested)
        if set(self.avoid) & tested or not set(self.needs) <= tested:
            return False
        if self.differs_under is not None:
            try:
                other = recompute_under(question, RuleSet.preset(self.differs_under))
            except RulesError:  # not even a question there (four 6s under W-EN): no contrast
                return False
            if other == question.answer_value:
                return False
        return True

    def draw(self, rng: random.Random) -> tuple[int, Question]:
        """A seed whose question this aim asks, drawn with ``rng``, and the question."""
        residues = self.residues()
        period = len(get_kind(self.kind).cases)
        rules = self.rules
        for _draw in range(MAX_DRAWS):
            seed = rng.randrange(2**31 // period) * period + rng.choice(residues)
            question = generate(self.kind, seed, rules)
            if self.accepts(question):
                return seed, question
        seed = _first_seed(self)
        return seed, generate(self.kind, seed, rules)


@functools.cache
def _first_seed(aim: Aim) -> int:
    """The smallest seed whose question ``aim`` asks (the fallback after MAX_DRAWS
    misses); the table's test makes sure there is one."""
    residues, period, rules = aim.residues(), len(get_kind(aim.kind).cases), aim.rules
    for base in itertools.count(0, period):
        for residue in residues:
            if aim.accepts(generate(aim.kind, base + residue, rules)):
                return base + residue
    raise AssertionError("unreachable")  # pragma: no cover - itertools.count never ends


@dataclass(frozen=True)
class Draw:
    """A question drawn for a lesson: its kind, seed and rule set, and the question."""

    kind: str
    seed: int
    rules: RuleSet
    question: Question


@dataclass(frozen=True)
class QuestionPlan:
    """The questions of one lesson: one per kind, in the order of its aims."""

    slug: str
    aims: tuple[Aim, ...]

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(aim.kind for aim in self.aims))

    @property
    def rules(self) -> RuleSet:
        """The rule set of the lesson's first aim (what a lesson quiz is created with;
        each question carries its own)."""
        return self.aims[0].rules if self.aims else RuleSet()

    def aims_of(self, kind: str) -> tuple[Aim, ...]:
        return tuple(aim for aim in self.aims if aim.kind == kind)

    def draw(self, kind: str, rng: random.Random) -> Draw:
        """A new question of ``kind`` for this lesson: one of the kind's aims by weight,
        then a seed that aim asks. Every page draws its questions here."""
        aims = self.aims_of(kind)
        if not aims:
            raise KeyError(kind)
        aim = rng.choices(aims, weights=[a.weight for a in aims])[0]
        seed, question = aim.draw(rng)
        return Draw(kind, seed, aim.rules, question)


# The cases of each kind are listed in the teaching.generators docstring.
LESSON_AIMS: dict[str, tuple[Aim, ...]] = {
    # 01: which card is the Puur, which the Nell (R1.3)
    "cards": (Aim("basics", ("puur", "nell")),),
    # 02: partners, pushing, the first lead, the next Vorhand (R2.1-R2.3)
    "table-and-contracts": (
        Aim("basics", ("partner", "chooser", "first_lead", "next_vorhand", "last_to_play")),
    ),
    # 03: card points of a trick, the last trick's 5 (R4.1-R4.4), factor 1
    "card-points": (Aim("trick", ("points",)),),
    # 04: which cards may be played (R3.1-R3.5) twice as often as who wins (R3.6)
    "tricks": (Aim("trick", ("legal",), weight=2), Aim("trick", ("winner",))),
    # 05: what counts as Weis: one meld in the hand (several need the ladder, 08)
    "weis-values": (
        Aim(
            "weis_value",
            ("single_sequence", "several_melds", "four_of_a_kind", "low_quads", "no_meld"),
            avoid=("R5.3", "R5.5"),
        ),
    ),
    # 06: Kreuzweis (R5.3)
    "kreuzweis": (Aim("weis_value", ("kreuzweis",)),),
    # 07: what a player announces (R5.4) and the deadline of the first trick (R5.4)
    "announcing-weis": (
        Aim(
            "weis_value",
            ("single_sequence", "several_melds", "four_of_a_kind", "no_meld"),
            avoid=("R5.3", "R5.5"),
        ),
        Aim("announce", ("in_time", "next_card_played", "trick_gathered")),
    ),
    # 08: every step of the ladder (R5.5); the best of several melds in one hand
    "comparison-ladder": (
        Aim("ladder_step"),
        Aim(
            "weis_value",
            ("single_sequence", "several_melds", "four_of_a_kind", "no_meld"),
            needs=("R5.5",),
        ),
    ),
    # 09: who writes (R5.6), what announcing partners and a silent one write (R5.4b)
    "who-writes-weis": (
        Aim("who_writes", ("small_melds_lose", "partners_both_meld", "kreuzweis", "ladder_tie")),
        Aim("announce", ("all_announce", "silent_partner", "smaller_claim")),
    ),
    # 10: the Undenufe reversal at Step 3, in a comparison and in who writes; and no
    # Stöck without trump (R6.1), now that the Stöck stem states no false holder
    "weis-obenabe-undenufe": (
        Aim("ladder_step", ("high_card",), contracts=("undenufe",), differs_under="w-en"),
        Aim("who_writes", ("undenufe",), differs_under="w-en"),
        Aim("stoeck", ("no_trump_contract",)),
    ),
    # 11: Stöck, every reason (R6.1-R6.5)
    "stoeck": (Aim("stoeck"),),
    # 12: factors (R4.5): questions whose answer the factor changes
    "factors": (
        Aim("trick", ("points",), preset="swisslos-2500", differs_under="default"),
        Aim("who_writes", ("factor",), preset="swisslos-2500", differs_under="default"),
    ),
    # 13: who reaches the target, in which block, or nobody yet (R7.2-R7.5)
    "target": (Aim("target", ("weis", "stoeck", "tricks", "nobody")),),
    # 16: the variants: each question under a rule set whose answer the default changes
    "variants": (
        Aim("weis_value", ("low_quads",), preset="w-en", differs_under="default"),
        Aim(
            "ladder_step",
            ("high_card",),
            preset="w-en",
            contracts=("undenufe",),
            differs_under="default",
        ),
        # (when Weis decides, counting Stöck first changes nothing: only Stöck can)
        Aim("target", ("stoeck",), preset="ausmachregel", differs_under="default"),
        Aim("target", preset="swisslos-2500", differs_under="default"),
    ),
    # 14: announcing at the table: the deadline (R5.4), claims (R5.4a), silence
    # (R5.4b); equal values settled by Steps 3-5
    "weis-at-the-table": (
        Aim("announce"),
        Aim("ladder_step", ("high_card", "trump", "seat")),
    ),
    # 15: the Jasstafel: what a team writes for a whole round (R7.1), and the target
    # reached in a block of it (R7.3)
    "jasstafel-round": (
        Aim("jasstafel"),
        Aim("target", ("weis", "stoeck", "tricks")),
    ),
}


def plan_for(slug: str) -> QuestionPlan:
    """The questions of the lesson ``slug`` (none for a lesson without aims)."""
    return QuestionPlan(slug, LESSON_AIMS.get(slug, ()))


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
    return plan.draw(kind, random.Random(digest)).question


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
                drawn = plan.draw(kind, rng)
                latest[kind] = add_question(
                    quiz=quiz, kind=kind, seed=drawn.seed, rules=drawn.rules
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
    drawn = plan.draw(question.kind, random.Random(secrets.randbits(64)))
    try:
        return add_question(quiz=quiz, kind=question.kind, seed=drawn.seed, rules=drawn.rules)
    except PositionTaken:
        return latest_of_kind(quiz)[question.kind]
