"""Helpers of the tests of the answer's reads and statements (issue 24)."""

from __future__ import annotations

from django.utils import timezone

from tests.factories import QuizFactory, QuizQuestionFactory, SkillStateFactory
from tutor.quizzes import selectors
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.services import AnswerOutcome, answer


def make_quiz(learner, count: int, kind: str = "weis_value") -> Quiz:
    """A practice quiz of ``count`` questions of ``kind``."""
    quiz = QuizFactory(learner=learner)
    for position in range(count):
        QuizQuestionFactory(quiz=quiz, position=position, kind=kind)
    return quiz


def make_state(learner, skill: str = "weis_value", **values) -> SkillState:
    """A state as answers leave it: reviewed at least once."""
    values.setdefault("last_answered_at", timezone.now())
    return SkillStateFactory(learner=learner, skill=skill, **values)


def to_answer(learner, quiz: Quiz, position: int) -> tuple[QuizQuestion, selectors.AnswerRead]:
    """The question as the answer's view reads it, and what the read brought along."""
    return selectors.question_to_answer(learner, quiz.pk, position)


def right(question: QuizQuestion) -> str:
    return question.question["answer"]


def answer_right(learner, question: QuizQuestion, read: selectors.AnswerRead) -> AnswerOutcome:
    """The learner answers ``question`` rightly, as the answer's view does with its read."""
    return answer(learner=learner, question=question, choice=right(question), read=read)
