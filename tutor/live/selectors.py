"""Reading live sessions: each lookup is limited to who may see it (the class's
teacher; the class's pupils), and what a pupil's view holds depends on the phase:
nothing about correctness before the teacher shows the answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.utils import timezone

from tutor.accounts.models import User
from tutor.classroom.models import LiveSession
from tutor.classroom.services import normalise_join_code
from tutor.core.prepared import PreparedQuery
from tutor.quizzes.models import Quiz, QuizQuestion
from tutor.quizzes.presenters import QuestionView, present

Phase = LiveSession.Phase


def _session(*, defer: tuple[str, ...] = (), **where: object) -> LiveSession:
    session = LiveSession.objects.select_related("assignment__school_class").filter(**where)
    found = session.defer(*defer).first()
    if found is None:
        raise Http404("No such live session")
    return found


def session_of_teacher(teacher: User, assignment_id: int) -> LiveSession:
    """The teacher's own live session; anybody else's is a 404."""
    return _session(pk=assignment_id, assignment__school_class__teacher=teacher)


def session_of_learner(learner: User, assignment_id: int) -> LiveSession:
    """A live session of one of the learner's classes; any other is a 404. Without its
    stored questions, the largest column: a pupil's page draws the pupil's own copies."""
    return _session(
        defer=("questions",),
        pk=assignment_id,
        assignment__school_class__memberships__learner=learner,
    )


def session_by_code(code: str) -> LiveSession | None:
    """The running session with this code (as typed: any case, spaces, dashes)."""
    return (
        LiveSession.objects.select_related("assignment__school_class")
        .filter(code=normalise_join_code(code))
        .exclude(phase=Phase.FINISHED)
        .first()
    )


# A phone's poll reads only the session's pace (compiled once: tutor.core.prepared);
# the stored questions, the largest column, are left out.
_PACE = PreparedQuery(
    lambda pk: LiveSession.objects.only(
        "phase", "position", "version", "asked_at", "timer_seconds"
    ).filter(pk=pk),
    pk=int,
)


def pace_of(assignment_id: int) -> LiveSession | None:
    """The session's pace alone (no questions, no class): for the polls."""
    return _PACE.one(pk=assignment_id)


def poll_token(session: LiveSession, now: datetime, *extra: int) -> str:
    """What a page drawn now depends on: the version, whether the question still takes
    answers (a timer runs out without a step), and ``extra`` counts (the projector's)."""
    open_now = session.phase == Phase.ASKING and session.takes_answer(session.position, now)
    return "-".join(str(v) for v in (session.version, int(open_now), *extra))


def stored_question(data: dict[str, Any], position: int) -> QuizQuestion:
    """A stored question (``data``, at ``position``) as an unsaved row, for drawing it."""
    return QuizQuestion(
        quiz=Quiz(source=Quiz.Source.ASSIGNMENT, rules=data["rules"]),
        position=position,
        kind=data["kind"],
        seed=data["seed"],
        question=data,
    )


def question_view(session: LiveSession, position: int, *, reveal: bool, deck: str) -> QuestionView:
    """The question as the projector draws it; revealed: with the right answer and the
    engine's explanation (nobody's choice marked)."""
    return _view(session.questions[position], position, reveal=reveal, deck=deck)


def _view(data: dict[str, Any], position: int, *, reveal: bool, deck: str) -> QuestionView:
    row = stored_question(data, position)
    if reveal:
        row.answered_choice = row.question["answer"]
        row.correct = True
        row.answered_at = timezone.now()
    view = present(row, reveal=reveal, deck=deck)
    view.chosen = ""
    return view


@dataclass(frozen=True)
class ChoiceCount:
    key: str
    text: str
    cards: tuple[object, ...]
    count: int
    right: bool


@dataclass(frozen=True)
class Counts:
    joined: int
    answered: int  # of the question at the session's position


def counts(session: LiveSession) -> Counts:
    """How many pupils joined and answered the question asked (2 queries)."""
    attempts = session.assignment.attempts
    answered = QuizQuestion.objects.filter(
        quiz__assignment_id=session.pk, position=session.position, answered_at__isnull=False
    ).count()
    return Counts(joined=attempts.count(), answered=answered)


def _choice_counts(session: LiveSession, **where: object) -> dict[tuple[int, str], int]:
    """How many pupils chose each choice, by (position, key)."""
    rows = (
        QuizQuestion.objects.filter(
            quiz__assignment_id=session.pk, answered_at__isnull=False, **where
        )
        .values_list("position", "answered_choice")
        .annotate(n=Count("id"))
    )
    return {(position, key): n for position, key, n in rows}


def distribution(
    session: LiveSession,
    position: int,
    view: QuestionView,
    chosen: dict[tuple[int, str], int] | None = None,
) -> list[ChoiceCount]:
    """How the class answered the question at ``position``, per choice (in the
    question's order), the right one marked (``chosen``: the counts, if read already)."""
    if chosen is None:
        chosen = _choice_counts(session, position=position)
    answer = session.questions[position]["answer"]
    return [
        ChoiceCount(
            key=c["key"],
            text=c["text"],
            cards=tuple(c.get("cards") or ()),
            count=chosen.get((position, c["key"]), 0),
            right=c["key"] == answer,
        )
        for c in view.choices
    ]


@dataclass(frozen=True)
class Standing:
    first_name: str
    right: int


def leaderboard(session: LiveSession, through: int, size: int = 5) -> list[Standing]:
    """First names and right answers up to question ``through`` (revealed ones only)."""
    quizzes = (
        session.assignment.attempts.select_related("learner")
        .annotate(
            right=Count(
                "questions",
                filter=Q(questions__correct=True, questions__position__lte=through),
            )
        )
        .order_by("-right", "learner__first_name", "learner__username")[:size]
    )
    return [
        Standing(first_name=q.learner.first_name or q.learner.username, right=q.right)
        for q in quizzes
    ]


@dataclass(frozen=True)
class PupilStage:
    """What one pupil's phone shows now."""

    session: LiveSession
    joined: bool
    question: QuizQuestion | None = None  # the pupil's copy of the question asked/shown
    view: QuestionView | None = None
    open_now: bool = False
    revealed: bool = False  # the pupil's own feedback may show
    right: int = 0
    answered: int = 0


def pupil_stage(session: LiveSession, learner: User, *, deck: str, now: datetime) -> PupilStage:
    quiz = session.assignment.attempts.filter(learner=learner).first()
    if quiz is None:
        return PupilStage(session=session, joined=False)
    if session.phase in (Phase.LOBBY, Phase.FINISHED):
        done = list(quiz.questions.filter(answered_at__isnull=False).values_list("correct"))
        return PupilStage(
            session=session,
            joined=True,
            answered=len(done),
            right=sum(1 for (c,) in done if c) if session.phase == Phase.FINISHED else 0,
        )
    question = quiz.questions.get(position=session.position)
    revealed = session.phase == Phase.REVEALED
    if revealed and not question.answered:
        # No answer of theirs to judge: the right one and its explanation, as projected.
        view = _view(question.question, session.position, reveal=True, deck=deck)
    else:
        view = present(question, reveal=revealed, deck=deck)
    return PupilStage(
        session=session,
        joined=True,
        question=question,
        view=view,
        open_now=session.takes_answer(session.position, now),
        revealed=revealed,
    )


@dataclass(frozen=True)
class QuestionSummary:
    number: int
    view: QuestionView
    answered: int
    right: int
    choices: list[ChoiceCount] = field(default_factory=list)

    @property
    def facility(self) -> int | None:
        """Percent of answers that were right (None before any answer)."""
        return round(100 * self.right / self.answered) if self.answered else None

    @property
    def wrong_choices(self) -> list[ChoiceCount]:
        return [c for c in self.choices if not c.right and c.count]


def summary(session: LiveSession, *, deck: str) -> list[QuestionSummary]:
    """Per question asked (up to the one asked last, also when the teacher ended the
    session early): how many answered, facility, every wrong choice taken."""
    asked = session.position + 1 if session.asked_at is not None else 0
    chosen = _choice_counts(session)
    result = []
    for position in range(asked):
        view = question_view(session, position, reveal=True, deck=deck)
        choices = distribution(session, position, view, chosen)
        result.append(
            QuestionSummary(
                number=position + 1,
                view=view,
                answered=sum(c.count for c in choices),
                right=sum(c.count for c in choices if c.right),
                choices=choices,
            )
        )
    return result
