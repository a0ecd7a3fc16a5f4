"""Reading quizzes and mastery; every query is limited to the learner who asks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import caches
from django.db.models import (
    Exists,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    TextField,
)
from django.db.models.functions import MD5, Cast
from django.http import Http404
from django.utils import timezone

from teaching import mastery
from tutor.accounts.models import User
from tutor.core.assignment_policy import Refusal, refusal
from tutor.core.prepared import PreparedQuery

from .models import Quiz, QuizQuestion, Skill, SkillState


def quiz_of(learner: User, quiz_id: int) -> Quiz:
    """The learner's own quiz; anybody else's is a 404, so ids reveal nothing. A lesson
    quiz is answered on its lesson's page only (it grows, and has no summary)."""
    quiz = (
        Quiz.objects.filter(pk=quiz_id, learner=learner).exclude(source=Quiz.Source.LESSON).first()
    )
    if quiz is None or left_class(quiz):
        raise Http404("No such quiz")
    return quiz


def left_class(quiz: Quiz) -> bool:
    """Whether ``quiz`` is an unsubmitted attempt at an assignment of a class its learner
    was removed from: removal ends access to it (what was saved stays for the teacher)."""
    # The assignment is read only when there is one (no query for None), as before.
    if quiz.submitted_at is not None or quiz.assignment is None:
        return False
    assignment = quiz.assignment
    return (
        assignment is not None
        and refusal(assignment, quiz.learner_id, timezone.now()) is Refusal.NOT_MEMBER
    )


def _unsettled_of(learner_id: int | OuterRef) -> QuerySet[QuizQuestion]:
    return QuizQuestion.objects.filter(
        quiz__learner_id=learner_id, answered_at__isnull=False, skill_recorded_at__isnull=True
    )


def _question_rows(quiz_id: int, learner_id: int, position: int) -> QuerySet[QuizQuestion]:
    return (
        QuizQuestion.objects.select_related("quiz", "quiz__assignment")
        .exclude(quiz__source=Quiz.Source.LESSON)
        .filter(quiz_id=quiz_id, quiz__learner_id=learner_id, position=position)
        # The card's fragments are kept under it (QuizQuestion.content_digest): the
        # database hashes the text it holds, where Python would serialise the data
        # again (4 % of a card's or an answer's CPU under gunicorn, issue 24).
        .annotate(stored_digest=MD5(Cast("question", output_field=TextField())))
    )


# Compiled once (see tutor.core.prepared): the learner cycle asks for it twice, and
# compiling this join cost ten times what running it does.
_QUESTION = PreparedQuery(_question_rows, quiz_id=int, learner_id=int, position=int)


def _other_open(nth: int) -> Subquery:
    """The position of the ``nth`` (0: first) question of the outer question's quiz
    that is open, the outer question left out; NULL when there is none."""
    return Subquery(
        QuizQuestion.objects.filter(quiz_id=OuterRef("quiz_id"), answered_at__isnull=True)
        .exclude(pk=OuterRef("pk"))
        .order_by("position")
        .values("position")[nth : nth + 1]
    )


def _rows_to_answer(quiz_id: int, learner_id: int, position: int) -> QuerySet[QuizQuestion]:
    return (
        _question_rows(quiz_id, learner_id, position)
        .annotate(
            answers_waiting=Exists(_unsettled_of(OuterRef("quiz__learner_id"))),
            skill_before=FilteredRelation(
                "quiz__learner__skill_states",
                condition=Q(quiz__learner__skill_states__skill=F("kind")),
            ),
            open_after=_other_open(0),
            open_after_next=_other_open(1),
        )
        # A FilteredRelation: django-stubs knows only the model's fields here.
        .select_related("skill_before")  # type: ignore[misc]
    )


# The question to answer: the same, and what services.answer would otherwise ask in
# statements of their own (issue 24; each cost PostgreSQL 60-150 µs even prepared):
# see AnswerRead.
_QUESTION_TO_ANSWER = PreparedQuery(_rows_to_answer, quiz_id=int, learner_id=int, position=int)


@dataclass(frozen=True)
class AnswerRead:
    """What the question read to be answered (:func:`question_to_answer`) brought
    along for :func:`~tutor.quizzes.services.answer`, as it was at that read.

    ``answers_waiting``: whether any of the learner's answers waits to move mastery
    (those are settled first). ``skill_before``: the learner's state of the question's
    skill, None when there is none yet (the answer writes it back only if the row is
    still that, else reads it locked). ``open_after``, ``open_after_next``: the
    positions of the quiz's first and second open questions besides this one, or None
    (with only one, the answer asks again in its transaction: the learner's other tab
    may just have answered it)."""

    answers_waiting: bool
    skill_before: SkillState | None
    open_after: int | None
    open_after_next: int | None

    @property
    def next_open_known(self) -> bool:
        """Whether the quiz's first open question after the answer is ``open_after``
        whatever another tab does meanwhile: none was open (answers are never taken
        back), or two were (the other tab cannot answer both in between)."""
        return self.open_after is None or self.open_after_next is not None


def question_of(learner: User, quiz_id: int, position: int) -> QuizQuestion:
    """The learner's own question with its quiz and assignment, in one query."""
    question = _QUESTION.one(quiz_id=quiz_id, learner_id=learner.pk, position=position)
    if question is None or left_class(question.quiz):
        raise Http404("No such question")
    return question


def question_to_answer(
    learner: User, quiz_id: int, position: int
) -> tuple[QuizQuestion, AnswerRead]:
    """:func:`question_of`, and in the same query what the answer needs (see
    :class:`AnswerRead`)."""
    question = _QUESTION_TO_ANSWER.one(quiz_id=quiz_id, learner_id=learner.pk, position=position)
    if question is None or left_class(question.quiz):
        raise Http404("No such question")
    # The annotations and the joined row, as the query set them on the instance.
    row = vars(question)
    read = AnswerRead(
        answers_waiting=row["answers_waiting"],
        skill_before=row.get("skill_before"),  # absent: no row joined
        open_after=row["open_after"],
        open_after_next=row["open_after_next"],
    )
    return question, read


def lesson_question_of(learner: User, slug: str, quiz_id: int, position: int) -> QuizQuestion:
    """A question of the learner's own quiz for the lesson ``slug``; a 404 for anything
    else (another learner's quiz, a practice quiz, another lesson's quiz)."""
    try:
        return QuizQuestion.objects.select_related("quiz").get(
            quiz_id=quiz_id,
            quiz__learner=learner,
            quiz__source=Quiz.Source.LESSON,
            quiz__lesson__slug=slug,
            position=position,
        )
    except QuizQuestion.DoesNotExist:
        raise Http404("No such question") from None


def latest_of_kind(quiz: Quiz) -> dict[str, QuizQuestion]:
    """The newest question of each kind in a (lesson) quiz."""
    return {question.kind: question for question in quiz.questions.order_by("position")}


def question_count(quiz: Quiz) -> int:
    """How many questions ``quiz`` has; remembered, since a quiz never changes length."""
    key = f"quiz-length:{quiz.pk}:{quiz.created_at.timestamp()}"
    count: int | None = caches["fragments"].get(key)
    if count is None:
        count = quiz.questions.count()
        caches["fragments"].set(key, count)
    return count


_FIRST_OPEN = PreparedQuery(
    lambda quiz_id: (
        QuizQuestion.objects.filter(quiz_id=quiz_id, answered_at__isnull=True)
        .order_by("position")
        .only("position")
    ),
    quiz_id=int,
)


def next_open_position(quiz_id: int) -> int | None:
    """Where the quiz ``quiz_id`` goes on: its first question not answered yet, or
    None when all are answered. Compiled once: each answer asks it (for its
    «Next question» and for the quiz's completion) and so does the resume."""
    question = _FIRST_OPEN.first(quiz_id=quiz_id)
    return question.position if question is not None else None


@dataclass(frozen=True)
class SkillRow:
    skill: str
    label: str
    mastery: float
    attempts: int
    correct: int
    due_at: datetime | None
    priority: float

    @property
    def percent(self) -> int:
        return round(self.mastery * 100)

    @property
    def mastered(self) -> bool:
        return self.mastery >= mastery.MASTERED


def answer_seconds(question: QuizQuestion, answered_at: datetime | None = None) -> float | None:
    """How long the learner took for ``question``, from being shown to ``answered_at``
    (default: its stored answer time); None when either is unknown or the clock ran
    backwards."""
    answered_at = answered_at or question.answered_at
    if question.shown_at is None or answered_at is None:
        return None
    seconds = (answered_at - question.shown_at).total_seconds()
    return seconds if seconds >= 0 else None


_UNSETTLED = PreparedQuery(_unsettled_of, learner_id=int)


def released_answers(learner_ids: Iterable[int], now: datetime) -> list[QuizQuestion]:
    """The learners' answers that have not moved mastery yet although their
    explanations are visible by ``now`` (an "after the due date" assignment whose
    due date passed), oldest first; one query when none waits, two when some do."""
    ids = list(learner_ids)

    def unsettled() -> QuerySet[QuizQuestion]:
        return QuizQuestion.objects.filter(
            quiz__learner_id__in=ids, answered_at__isnull=False, skill_recorded_at__isnull=True
        )

    # Mostly nothing waits (practice counts at once): a bare EXISTS costs a third of
    # the joined query below (issue 24), which runs only when something does. One
    # learner's (before each answer) is compiled once.
    if not (_UNSETTLED.exists(learner_id=ids[0]) if len(ids) == 1 else unsettled().exists()):
        return []
    pending = unsettled().select_related("quiz__assignment").order_by("answered_at", "pk")
    return [
        question
        for question in pending
        if question.quiz.assignment is None or question.quiz.assignment.explanations_visible(now)
    ]


def skill_states(learner_ids: Iterable[int], now: datetime) -> dict[tuple[int, str], SkillState]:
    """The learners' mastery by (learner id, skill) as it stands at ``now``: the stored
    states with :func:`released_answers` counted in memory, in the order given, as
    :func:`~tutor.quizzes.services.settle_released_answers` stores them. Two queries,
    no write: a page shows the same before and after the answers are settled."""
    ids = list(learner_ids)
    states = {(s.learner_id, s.skill): s for s in SkillState.objects.filter(learner_id__in=ids)}
    for question in released_answers(ids, now):
        key, given = (question.quiz.learner_id, question.kind), question.answered_at
        if given is None:  # released_answers are answered; this tells mypy
            continue
        if key not in states:
            states[key] = SkillState(learner_id=key[0], skill=key[1], mastery=mastery.P_INIT)
        states[key].review(bool(question.correct), given, answer_seconds(question))
    return states


def skill_rows(learner: User, now: datetime | None = None) -> list[SkillRow]:
    """Every skill with the learner's mastery, including skills never practised.

    Answers whose explanations were released since they were given count (see
    :func:`skill_states`); until then mastery does not show whether they were right.
    """
    now = now or timezone.now()
    states = {skill: s for (_id, skill), s in skill_states([learner.pk], now).items()}
    rows = []
    for skill, label in Skill.choices:
        state = states.get(skill)
        value = state.mastery if state else mastery.P_INIT
        due = state.due_at if state else None
        rows.append(
            SkillRow(
                skill=skill,
                label=str(label),
                mastery=value,
                attempts=state.attempts if state else 0,
                correct=state.correct if state else 0,
                due_at=due,
                priority=mastery.priority(value, due, now),
            )
        )
    return rows


def suggested_skills(learner: User, count: int) -> list[str]:
    """The weakest and most overdue skills first, repeated to fill ``count`` questions."""
    ranked = sorted(skill_rows(learner), key=lambda row: -row.priority)
    top = [row.skill for row in ranked[: max(1, min(3, count))]]
    return [top[i % len(top)] for i in range(count)]
