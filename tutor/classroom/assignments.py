"""Assignments: what a teacher sets, and how a learner starts, resumes and submits it.

The rules of time live here, in one place: an assignment is open from ``opens_at``;
after ``due_at`` work is refused or marked late as the teacher chose; explanations
show at once or only after the due date.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules_core import RuleSet
from tutor.accounts.models import User
from tutor.quizzes.models import Quiz, Skill
from tutor.quizzes.services import MAX_QUESTIONS, QuizError, check_can_answer, create_quiz

from .models import Assignment, Membership, SchoolClass


class AssignmentError(QuizError):
    """Something about an assignment that cannot be done now; the message is for the user."""


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


def create_assignment(
    *, teacher: User, school_class: SchoolClass, spec: AssignmentSpec
) -> Assignment:
    if school_class.teacher_id != teacher.pk:
        raise AssignmentError(_("You can only set work for your own classes."))
    if not spec.kinds or any(k not in Skill.values for k in spec.kinds):
        raise AssignmentError(_("Choose at least one question kind."))
    if not 1 <= spec.question_count <= MAX_QUESTIONS:
        raise AssignmentError(
            _("An assignment has 1 to %(max)s questions.") % {"max": MAX_QUESTIONS}
        )
    if spec.due_at <= spec.opens_at:
        raise AssignmentError(_("The due date must come after the opening date."))
    if not 1 <= spec.attempts_allowed <= 10:
        raise AssignmentError(_("Allow between 1 and 10 attempts."))
    rules = RuleSet.preset(spec.rules_preset)
    return Assignment.objects.create(
        school_class=school_class,
        title=spec.title.strip() or _("Assignment"),
        kinds=list(dict.fromkeys(spec.kinds)),
        question_count=spec.question_count,
        rules=rules.to_dict(),
        rules_preset=spec.rules_preset,
        opens_at=spec.opens_at,
        due_at=spec.due_at,
        attempts_allowed=spec.attempts_allowed,
        same_questions=spec.same_questions,
        explanations=spec.explanations,
        late_policy=spec.late_policy,
        tools_allowed=spec.tools_allowed,
        base_seed=secrets.randbelow(2**31),
    )


def _seed(*parts: object) -> int:
    """A seed that depends only on its parts (stable across processes, unlike hash())."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()
    return int(digest[:8], 16)


def question_plan(assignment: Assignment, learner: User, attempt: int) -> list[tuple[str, int]]:
    """(kind, seed) per position: the same for everybody, or a variant per learner."""
    owner = "all" if assignment.same_questions else learner.pk
    kinds = assignment.kinds
    return [
        (kinds[i % len(kinds)], _seed(assignment.base_seed, owner, attempt, i))
        for i in range(assignment.question_count)
    ]


def is_member(learner: User, assignment: Assignment) -> bool:
    return Membership.objects.filter(
        learner=learner, school_class_id=assignment.school_class_id
    ).exists()


def start_or_resume(*, learner: User, assignment: Assignment, now: datetime | None = None) -> Quiz:
    """The learner's open attempt, or a new one if the assignment allows it."""
    now = now or timezone.now()
    if not is_member(learner, assignment):
        raise AssignmentError(_("This assignment is for another class."))
    open_attempt = assignment.attempts.filter(learner=learner, submitted_at__isnull=True).first()
    if open_attempt is not None:
        return open_attempt
    if now < assignment.opens_at:
        raise AssignmentError(_("This assignment is not open yet."))
    if assignment.is_closed(now):
        raise AssignmentError(_("The due date has passed; this assignment takes no more work."))
    used = assignment.attempts.filter(learner=learner).count()
    if used >= assignment.attempts_allowed:
        raise AssignmentError(_("You have used all your attempts for this assignment."))
    plan = question_plan(assignment, learner, used + 1)
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
            )
    except IntegrityError:
        # Two tabs started the same attempt at once; the other one won.
        return assignment.attempts.get(learner=learner, attempt=used + 1)
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
    quiz.refresh_from_db()
    return quiz
