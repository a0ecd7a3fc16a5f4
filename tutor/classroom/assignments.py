"""Assignments: what a teacher sets, and how a learner starts, resumes and submits it.

The rules of time live here, in one place: an assignment is open from ``opens_at``;
after ``due_at`` work is refused or marked late as the teacher chose; explanations
show at once or only after the due date.

An assignment is a quiz or rounds at the table (``Assignment.activity``). A table
assignment deals ``round_count`` rounds aimed at ``focus``, one after the other
(:func:`start_table_round`): the next round only once the last is finished, never
more than the count. With ``same_questions`` round k is the same deal for everybody
(its seeds come from ``base_seed`` and k), else a fresh deal per learner. The table
judges every move at once, so a table assignment always explains at once.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules_core import RuleSet
from tutor.accounts.models import User
from tutor.core.assignment_policy import Refusal, WorkRefused, check_work, refusal
from tutor.lessons.questions import QuestionPlan, plan_for
from tutor.quizzes.models import Quiz, QuizQuestion, Skill
from tutor.quizzes.services import MAX_QUESTIONS, QuizError, check_can_answer, create_quiz
from tutor.table import services as table_services
from tutor.table.models import Focus, TableRound

from .models import MAX_TABLE_ROUNDS, Assignment, SchoolClass
from .signals import announce_submitted


class AssignmentError(Exception):
    """Something about an assignment that cannot be done now; the message is for the user.

    Not a ``QuizError``: table assignments raise it too, so views catch it by name."""


class StartRefused(WorkRefused, AssignmentError):
    """The assignment policy (``tutor.core.assignment_policy``) refuses a start."""


@dataclass(frozen=True)
class AssignmentSpec:
    title: str
    kinds: Sequence[str]
    question_count: int
    rules_preset: str
    opens_at: datetime
    due_at: datetime
    attempts_allowed: int = 1
    same_questions: bool = True
    explanations: str = Assignment.Explanations.IMMEDIATELY
    late_policy: str = Assignment.LatePolicy.REFUSE
    tools_allowed: bool = False
    activity: str = Assignment.Activity.QUIZ
    round_count: int = 0  # table rounds only
    focus: str = ""  # table rounds only
    lesson: str = ""  # a quiz of this lesson's questions (kinds and rule set not used)


def lesson_plan(slug: str) -> QuestionPlan | None:
    """The questions of the lesson ``slug`` for an assignment; None for no lesson."""
    if not slug:
        return None
    plan = plan_for(slug)
    if not plan.kinds:
        raise AssignmentError(_("Choose one of the lessons offered."))
    return plan


def _check_quiz_spec(spec: AssignmentSpec) -> None:
    if spec.lesson:
        lesson_plan(spec.lesson)
    elif not spec.kinds or any(k not in Skill.values for k in spec.kinds):
        raise AssignmentError(_("Choose at least one question kind."))
    if not 1 <= spec.question_count <= MAX_QUESTIONS:
        raise AssignmentError(
            _("An assignment has 1 to %(max)s questions.") % {"max": MAX_QUESTIONS}
        )
    if not 1 <= spec.attempts_allowed <= 10:
        raise AssignmentError(_("Allow between 1 and 10 attempts."))


def _check_table_spec(spec: AssignmentSpec) -> None:
    if not 1 <= spec.round_count <= MAX_TABLE_ROUNDS:
        raise AssignmentError(
            _("Rounds at the table: set 1 to %(max)s rounds.") % {"max": MAX_TABLE_ROUNDS}
        )
    if spec.focus not in Focus.values:
        raise AssignmentError(_("Rounds at the table: choose what the rounds practise."))


def create_assignment(
    *, teacher: User, school_class: SchoolClass, spec: AssignmentSpec
) -> Assignment:
    if school_class.teacher_id != teacher.pk:
        raise AssignmentError(_("You can only set work for your own classes."))
    if spec.activity not in Assignment.Activity.values:
        raise AssignmentError(_("Choose quiz questions or rounds at the table."))
    table = spec.activity == Assignment.Activity.TABLE
    if table:
        _check_table_spec(spec)
    else:
        _check_quiz_spec(spec)
    if spec.due_at <= spec.opens_at:
        raise AssignmentError(_("The due date must come after the opening date."))
    rules = RuleSet.preset(spec.rules_preset)
    preset = spec.rules_preset
    plan = None if table else lesson_plan(spec.lesson)
    if plan is not None:
        # Each question carries its aim's rule set; the assignment names the first.
        rules = plan.rules
        preset = rules.preset_name() or "custom"
    common = {
        "school_class": school_class,
        "title": spec.title.strip() or _("Assignment"),
        "activity": spec.activity,
        "rules": rules.to_dict(),
        "rules_preset": preset,
        "opens_at": spec.opens_at,
        "due_at": spec.due_at,
        "same_questions": spec.same_questions,
        "late_policy": spec.late_policy,
        "base_seed": secrets.randbelow(2**31),
        "tools_allowed": spec.tools_allowed,
    }
    if table:
        # The quiz fields do not apply: no kinds or questions, one go at the set of
        # rounds, and the table judges each move at once (it cannot hold back
        # "illegal card, play again"). The Weis tool is barred during an unfinished
        # round unless allowed, as during a quiz attempt (a learner could otherwise
        # paste the shown melds to answer "who writes").
        return Assignment.objects.create(
            **common,
            kinds=[],
            question_count=0,
            round_count=spec.round_count,
            focus=spec.focus,
            attempts_allowed=1,
            explanations=Assignment.Explanations.IMMEDIATELY,
        )
    return Assignment.objects.create(
        **common,
        kinds=list(plan.kinds) if plan is not None else list(dict.fromkeys(spec.kinds)),
        lesson=spec.lesson if plan is not None else "",
        question_count=spec.question_count,
        attempts_allowed=spec.attempts_allowed,
        explanations=spec.explanations,
    )


def stable_seed(*parts: object) -> int:
    """A seed that depends only on its parts (stable across processes, unlike hash()):
    an assignment's questions and deals, a Moodle export's set."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()
    return int(digest[:8], 16)


def question_plan(assignment: Assignment, learner: User, attempt: int) -> list[tuple[str, int]]:
    """(kind, seed) per position: the same for everybody, or a variant per learner."""
    owner = "all" if assignment.same_questions else learner.pk
    kinds = assignment.kinds
    return [
        (kinds[i % len(kinds)], stable_seed(assignment.base_seed, owner, attempt, i))
        for i in range(assignment.question_count)
    ]


def same_questions_given(
    assignment: Assignment, plan: list[tuple[str, int]], attempt: int
) -> dict[int, dict[str, Any]]:
    """The questions the first classmate got for this attempt number, by position,
    where kind and seed match the plan: a "same questions" assignment gives everybody
    those, even after an update of the generators changed what a seed produces."""
    if not assignment.same_questions:
        return {}
    first = (
        Quiz.objects.filter(assignment=assignment, attempt=attempt)
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if first is None:
        return {}
    rows = QuizQuestion.objects.filter(quiz_id=first).values_list(
        "position", "kind", "seed", "question"
    )
    return {
        position: question
        for position, kind, seed, question in rows
        if position < len(plan) and plan[position] == (kind, seed)
    }


def lesson_questions(
    assignment: Assignment, plan: list[tuple[str, int]]
) -> dict[int, dict[str, Any]]:
    """For a quiz of a lesson's questions: each position's question drawn as the lesson
    draws it, from that position's seed (the same seed, the same question). A kind the
    lesson no longer asks is generated from its seed as in any quiz."""
    if not assignment.lesson:
        return {}
    lesson = plan_for(assignment.lesson)
    drawn = {}
    for position, (kind, seed) in enumerate(plan):
        if lesson.aims_of(kind):
            drawn[position] = lesson.draw(kind, random.Random(seed)).question.to_dict()
    return drawn


def start_or_resume(*, learner: User, assignment: Assignment, now: datetime | None = None) -> Quiz:
    """The learner's open attempt, or a new one if the assignment allows it."""
    now = now or timezone.now()
    reason = refusal(assignment, learner.pk, now)
    if reason is Refusal.NOT_MEMBER:
        raise StartRefused(reason, assignment.title)
    # An attempt already begun is shown again even once closed: its answers stay
    # readable, and answering it asks the policy again (check_can_answer).
    open_attempt = assignment.attempts.filter(learner=learner, submitted_at__isnull=True).first()
    if open_attempt is not None:
        return open_attempt
    if reason is not None:
        raise StartRefused(reason, assignment.title)
    used = assignment.attempts.filter(learner=learner).count()
    if used >= assignment.attempts_allowed:
        raise AssignmentError(_("You have used all your attempts for this assignment."))
    plan = question_plan(assignment, learner, used + 1)
    stored = {
        **lesson_questions(assignment, plan),
        **same_questions_given(assignment, plan, used + 1),
    }
    try:
        with transaction.atomic():
            quiz = create_quiz(
                learner=learner,
                kinds=[kind for kind, _seed in plan],
                seeds=[seed for _kind, seed in plan],
                rules=RuleSet.from_dict(assignment.rules),
                source=Quiz.Source.ASSIGNMENT,
                assignment=assignment,
                attempt=used + 1,
                stored=stored,
            )
    except IntegrityError:
        # Two tabs started the same attempt at once; the other one won.
        return assignment.attempts.get(learner=learner, attempt=used + 1)
    except QuizError as err:
        raise AssignmentError(str(err)) from None
    return quiz


def submit(*, learner: User, quiz: Quiz, now: datetime | None = None) -> Quiz:
    now = now or timezone.now()
    if quiz.learner_id != learner.pk or quiz.assignment is None:
        raise AssignmentError(_("This is not one of your assignments."))
    check_can_answer(quiz, now)
    late = now > quiz.assignment.due_at
    updated = Quiz.objects.filter(pk=quiz.pk, submitted_at__isnull=True).update(
        submitted_at=now, late=late
    )
    if not updated:
        raise AssignmentError(_("This attempt has been submitted; it takes no more answers."))
    announce_submitted([quiz.pk])
    quiz.refresh_from_db()
    return quiz


# --- rounds at the table ---------------------------------------------------------------


def table_seeds(assignment: Assignment, index: int) -> list[int]:
    """Candidate seeds of the assignment's round ``index`` (0-based), the same for
    everybody: the first one the scenario builder finds a deal for is played."""
    return [
        stable_seed(assignment.base_seed, "table", index, attempt)
        for attempt in range(table_services.SEED_TRIES)
    ]


def start_table_round(
    *, learner: User, assignment: Assignment, now: datetime | None = None
) -> TableRound:
    """The learner's unfinished round of this table assignment, or its next round.

    Only for current members of the class, only while the assignment is open (or past
    its due date when late work is accepted), and never more rounds than were set.
    """
    now = now or timezone.now()
    if not assignment.is_table:
        raise AssignmentError(_("This assignment is a quiz, not rounds at the table."))
    check_work(assignment, learner.pk, now, error=StartRefused)
    rounds = TableRound.objects.filter(assignment=assignment, learner=learner)
    unfinished = rounds.filter(finished_at__isnull=True).order_by("assignment_index").first()
    if unfinished is not None:
        return unfinished
    index = rounds.count()
    if index >= assignment.round_count:
        raise AssignmentError(
            _("You have played all %(n)s rounds of this assignment.")
            % {"n": assignment.round_count}
        )
    first = None
    if assignment.same_questions:
        # The deal the first classmate got, even if the scenario builders changed since.
        first = (
            TableRound.objects.filter(assignment=assignment, assignment_index=index)
            .order_by("pk")
            .first()
        )
    try:
        with transaction.atomic():
            return table_services.start_round(
                learner=learner,
                focus=assignment.focus,
                rules=RuleSet.from_dict(assignment.rules),
                seeds=table_seeds(assignment, index) if assignment.same_questions else (),
                assignment=assignment,
                assignment_index=index,
                same_as=first,
            )
    except IntegrityError:
        # Two tabs dealt the same round at once; the other one won.
        return rounds.get(assignment_index=index)
    except table_services.RoundError as err:
        raise AssignmentError(str(err)) from None
