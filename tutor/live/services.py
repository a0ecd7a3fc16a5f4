"""Live in class (issue 25): the teacher asks one question at a time on the projector,
the pupils answer on their phones, the teacher shows the answer and explains.

A live session is an assignment (``Assignment.Activity.LIVE``) with its state in a
``LiveSession`` row (both in tutor.classroom.models). Each pupil who joins gets an
attempt at the assignment, made from the session's stored questions, so answers are
stored, judged and counted exactly as an assignment's are (quizzes.services.answer,
its conditional write); the session decides only *which* question takes answers now
(``Assignment.takes_answer``) and when the explanations are released: at the end,
when the assignment's due date is set to that moment and the answers settle into
mastery (the phones show each pupil's own feedback after each reveal).

Every step of the teacher is one conditional UPDATE on the version the teacher's
page showed: a double click, or the projector and a second tab pressing «Next» at
once, moves the session one step, never two.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules_core import RuleSet
from teaching.generators import generate
from teaching.generators.positions import (
    ASK_KINDS,
    ASKS,
    PositionError,
    asks_for,
    position_questions,
)
from teaching.table import FOCUSES
from tutor.accounts.models import User
from tutor.classroom.assignments import question_plan
from tutor.classroom.models import (
    JOIN_CODE_ALPHABET,
    LIVE_CODE_LENGTH,
    Assignment,
    LiveSession,
    SchoolClass,
)
from tutor.classroom.services import add_to_class
from tutor.classroom.signals import announce_submitted
from tutor.core.assignment_policy import Refusal, refusal
from tutor.lessons.questions import QuestionPlan, plan_for
from tutor.quizzes.models import Quiz, QuizQuestion, Skill
from tutor.quizzes.services import (
    AnswerOutcome,
    QuizError,
    answer,
    create_quiz,
    settle_released_answers,
)

Phase = LiveSession.Phase

MAX_LIVE_QUESTIONS = 30
# A timer shorter than this cannot be read and answered; longer is no timer.
TIMER_SECONDS = (0, 15, 20, 30, 45, 60, 90, 120)
# A session nobody finishes ends by itself (its explanations and mastery released).
LIVE_LENGTH = timedelta(hours=12)


NO_JASSTAFEL_IN_UNDENUFE = gettext_lazy(
    "Undenufe has no trump and so no Stöck: its rounds give no Jasstafel question."
)


class LiveError(Exception):
    """A request about a live session that cannot be carried out; for the user."""


class Action:
    """The teacher's steps (the control form's ``action``)."""

    BEGIN = "begin"  # the lobby's first question
    REVEAL = "reveal"  # show the answer of the question asked
    NEXT = "next"  # ask the next question (or finish after the last)
    FINISH = "finish"  # end now

    ALL = (BEGIN, REVEAL, NEXT, FINISH)


@dataclass(frozen=True)
class LiveSpec:
    """What the teacher asks for: question kinds under a rule set; or a lesson's
    questions (``lesson``, its slug: the kinds and rule sets of the questions at the
    end of that lesson, aimed at its rules; kinds and rule set are then ignored); or
    positions at the table (``focus``, a table trainer's focus: its rounds under the
    rule set, asked at each of ``asks``, see ``teaching.generators.positions``; kinds
    are then ignored)."""

    kinds: Sequence[str]
    question_count: int
    rules_preset: str = "default"
    timer_seconds: int = 0
    leaderboard: bool = False
    lesson: str = ""
    focus: str = ""
    asks: Sequence[str] = ()


def _lesson_plan(spec: LiveSpec) -> QuestionPlan | None:
    if not spec.lesson:
        return None
    plan = plan_for(spec.lesson)
    if not plan.kinds:
        raise LiveError(_("Choose one of the lessons offered."))
    return plan


def _check_spec(spec: LiveSpec) -> RuleSet:
    if spec.lesson and spec.focus:
        raise LiveError(_("Choose the questions of a lesson or positions at the table, not both."))
    if spec.focus and (
        spec.focus not in FOCUSES or not spec.asks or any(a not in ASKS for a in spec.asks)
    ):
        raise LiveError(_("Choose a table and at least one moment to ask about."))
    if spec.focus and any(a not in asks_for(spec.focus) for a in spec.asks):
        raise LiveError(NO_JASSTAFEL_IN_UNDENUFE)
    if not (spec.lesson or spec.focus) and (
        not spec.kinds or any(k not in Skill.values for k in spec.kinds)
    ):
        raise LiveError(_("Choose at least one question kind, or a lesson."))
    if not 1 <= spec.question_count <= MAX_LIVE_QUESTIONS:
        raise LiveError(
            _("A live session has 1 to %(max)s questions.") % {"max": MAX_LIVE_QUESTIONS}
        )
    if spec.timer_seconds not in TIMER_SECONDS:
        raise LiveError(_("Choose one of the timers offered."))
    try:
        return RuleSet.preset(spec.rules_preset)
    except ValueError:
        raise LiveError(_("Choose one of the rule sets offered.")) from None


def _new_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(LIVE_CODE_LENGTH))


def start_live(
    *, teacher: User, school_class: SchoolClass, spec: LiveSpec, now: datetime | None = None
) -> LiveSession:
    """A live session for ``school_class``, waiting in the lobby for the pupils."""
    if school_class.teacher_id != teacher.pk:
        raise LiveError(_("You can only run live questions in your own classes."))
    rules = _check_spec(spec)
    plan = _lesson_plan(spec)
    if plan is not None:
        rules = plan.rules
    now = now or timezone.now()
    if plan is not None:
        kinds = list(plan.kinds)
    elif spec.focus:
        kinds = [ASK_KINDS[a] for a in ASKS if a in spec.asks]
    else:
        kinds = list(dict.fromkeys(spec.kinds))
    for _attempt in range(10):
        try:
            with transaction.atomic():
                assignment = Assignment.objects.create(
                    school_class=school_class,
                    # Several sessions of a class are told apart in its lists and CSVs.
                    title=_("Live questions, %(when)s")
                    % {"when": date_format(timezone.localtime(now), "j.n.Y H:i")},
                    activity=Assignment.Activity.LIVE,
                    kinds=kinds,
                    question_count=spec.question_count,
                    rules=rules.to_dict(),
                    rules_preset=rules.preset_name() or "custom",
                    opens_at=now,
                    due_at=now + LIVE_LENGTH,
                    attempts_allowed=1,
                    same_questions=True,
                    # Released when the session ends (its due date is set to then).
                    explanations=Assignment.Explanations.AFTER_DUE,
                    late_policy=Assignment.LatePolicy.REFUSE,
                    base_seed=secrets.randbelow(2**31),
                )
                questions = _questions(assignment, teacher, plan, spec)
                return LiveSession.objects.create(
                    assignment=assignment,
                    code=_new_code(),
                    timer_seconds=spec.timer_seconds,
                    leaderboard=spec.leaderboard,
                    questions=questions,
                )
        except IntegrityError:  # the code was taken: another one
            continue
    raise LiveError(_("Could not find a free code; please try again."))


def _questions(
    assignment: Assignment, teacher: User, plan: QuestionPlan | None, spec: LiveSpec
) -> list[dict[str, Any]]:
    """The session's questions, stored whole: drawn as a lesson draws the questions at
    its end (each aimed at the lesson's rules, with that aim's rule set), asked at the
    positions of table rounds (the rounds from the assignment's seed on), or from the
    kinds' seeds as an assignment's."""
    rules = RuleSet.from_dict(assignment.rules)
    if spec.focus:
        try:
            found = position_questions(
                spec.focus, assignment.base_seed, rules, spec.asks, assignment.question_count
            )
        except PositionError:
            raise LiveError(
                _("No round of this table has every moment asked; ask about fewer moments.")
            ) from None
        return [q.to_dict() for q in found]
    if plan is None:
        return [
            generate(kind, seed, rules).to_dict()
            for kind, seed in question_plan(assignment, teacher, 1)
        ]
    rng = random.Random(assignment.base_seed)
    kinds = plan.kinds
    return [
        plan.draw(kinds[i % len(kinds)], rng).question.to_dict()
        for i in range(assignment.question_count)
    ]


def attempt_of(learner: User, session: LiveSession) -> Quiz | None:
    return session.assignment.attempts.filter(learner=learner).first()


def join_live(*, learner: User, session: LiveSession, now: datetime | None = None) -> Quiz:
    """The learner's attempt at the session: made on joining, the same one on coming
    back (answers kept). Members of the class only; a finished session takes nobody new."""
    if not learner.is_learner:
        raise LiveError(_("Only learners answer live questions."))
    now = now or timezone.now()
    assignment = session.assignment
    reason = refusal(assignment, learner.pk, now)
    if reason is Refusal.NOT_MEMBER:
        raise LiveError(_("You are not in the class of this live session."))
    found = attempt_of(learner, session)
    if found is not None:
        return found
    if reason is not None or session.phase == Phase.FINISHED:
        raise LiveError(_("This live session has ended."))
    try:
        with transaction.atomic():
            return create_quiz(
                learner=learner,
                kinds=[q["kind"] for q in session.questions],
                seeds=[q["seed"] for q in session.questions],
                rules=RuleSet.from_dict(assignment.rules),
                source=Quiz.Source.ASSIGNMENT,
                assignment=assignment,
                attempt=1,
                stored=dict(enumerate(session.questions)),
            )
    except IntegrityError:  # two tabs joined at once; the other one made it
        return assignment.attempts.get(learner=learner, attempt=1)
    except QuizError as error:
        raise LiveError(str(error)) from None


def join_class_and_live(*, learner: User, session: LiveSession) -> Quiz:
    """For a learner with the session's code who is not in its class yet: join the
    class (as its join code would), then the session."""
    if not learner.is_learner:
        raise LiveError(_("Only learners answer live questions."))
    if session.phase == Phase.FINISHED:
        raise LiveError(_("This live session has ended."))
    add_to_class(learner=learner, school_class=session.assignment.school_class)
    return join_live(learner=learner, session=session)


def answer_live(
    *, learner: User, session: LiveSession, position: int, choice: str
) -> AnswerOutcome:
    """Store the learner's answer to the question at ``position``: only the question
    asked now takes one, once (quizzes.services.answer: AlreadyAnswered, InvalidChoice,
    AttemptClosed)."""
    quiz = attempt_of(learner, session)
    if quiz is None:
        raise LiveError(_("Join the live session first."))
    question = (
        QuizQuestion.objects.select_related("quiz__assignment")
        .filter(quiz=quiz, position=position)
        .first()
    )
    if question is None:
        raise LiveError(_("This live session has no such question."))
    return answer(learner=learner, question=question, choice=choice)


def _step(session: LiveSession, action: str, now: datetime) -> dict[str, object]:
    """The columns ``action`` sets from the session's state, or a LiveError."""
    count = session.assignment.question_count
    if session.phase == Phase.FINISHED:
        raise LiveError(_("This live session has ended."))
    if action == Action.FINISH:
        return {"phase": Phase.FINISHED}
    if action == Action.BEGIN and session.phase == Phase.LOBBY:
        return {"phase": Phase.ASKING, "position": 0, "asked_at": now}
    if action == Action.REVEAL and session.phase == Phase.ASKING:
        return {"phase": Phase.REVEALED}
    if action == Action.NEXT and session.phase == Phase.REVEALED:
        if session.position + 1 >= count:
            return {"phase": Phase.FINISHED}
        return {"phase": Phase.ASKING, "position": session.position + 1, "asked_at": now}
    raise LiveError(_("That step does not fit the session's state; the page shows it now."))


class StaleStep(LiveError):
    """The teacher's page showed an older state: somebody moved the session since."""


def advance(
    *,
    teacher: User,
    session: LiveSession,
    action: str,
    version: int,
    now: datetime | None = None,
) -> LiveSession:
    """Take the teacher's step ``action`` from the state shown at ``version``: one
    conditional UPDATE, so two posts of the same step move the session once (the
    second raises :class:`StaleStep`). Finishing releases the explanations (the due
    date becomes now) and lets every answer count toward mastery."""
    if session.assignment.school_class.teacher_id != teacher.pk:
        raise LiveError(_("You can only run live questions in your own classes."))
    if action not in Action.ALL:
        raise LiveError(_("Unknown step."))
    now = now or timezone.now()
    if session.version != version:
        raise StaleStep(_("The session has moved on since this page was drawn."))
    changes = _step(session, action, now)
    with transaction.atomic():
        moved = LiveSession.objects.filter(pk=session.pk, version=version).update(
            **changes, version=F("version") + 1
        )
        if not moved:
            raise StaleStep(_("The session has moved on since this page was drawn."))
        if changes["phase"] == Phase.FINISHED:
            # The explanations are released and the attempts handed in: the class's
            # results show the session as submitted work, scored.
            Assignment.objects.filter(pk=session.pk).update(due_at=now)
            handed_in = Quiz.objects.filter(assignment_id=session.pk, submitted_at__isnull=True)
            announce_submitted(list(handed_in.values_list("pk", flat=True)))
            handed_in.update(submitted_at=now)
    session.refresh_from_db()
    if session.phase == Phase.FINISHED:
        session.assignment.due_at = now
        learners = session.assignment.attempts.values_list("learner_id", flat=True)
        settle_released_answers(list(learners), now)
    return session
