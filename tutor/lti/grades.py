"""Grades back to the school platform: LTI Assignment and Grade Services (issue 26, item 4).

When a learner hands in an attempt of an assignment that a platform's activity opens,
their score for the assignment goes to the activity's gradebook column (its line item):
the best submitted attempt, as the class's results page counts it (right answers over
questions, 0-1), with a comment naming the skills. The score is queued first
(:class:`~tutor.lti.models.GradePost`, in the submit's own commit chain) and sent right
after; a platform that does not answer gets it again later, from
``manage.py lti_send_grades`` (a timer runs it, or ``--loop``), after growing pauses
(:data:`RETRY_MINUTES`), and is given up on after the last. A score tells right from
wrong: for an assignment that shows its solutions after the due date it waits until
then, as the site's own pages do (the pupil reads the platform's gradebook too).

Nothing is posted twice: one row per attempt and activity (a constraint), a sender
claims a row with a conditional update before it calls the platform, and a row a newer
score replaced is not sent at all. One case remains, and AGS makes it harmless: a
sender that dies after the platform took the score but before it wrote "sent" leaves
its claim, which is taken up again after :data:`STALE_CLAIM`; the score goes again with
the same timestamp, and a platform keeps one result per learner and line item.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Final

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from lti_tool.models import LtiRegistration, LtiUser
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade

from tutor.classroom.models import Assignment
from tutor.classroom.results.common import best_attempt, skill_label
from tutor.classroom.results.table import tallies
from tutor.quizzes.models import Quiz, QuizQuestion
from tutor.table.models import TableRound

from . import platform
from .models import GradePost, LtiAssignmentLink
from .platform import PLATFORM_ERRORS

log = logging.getLogger(__name__)

SCORE_SCOPE: Final = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
# The pause before each further try of a post the platform refused or did not answer;
# after the last one the post is given up ("failed", shown to an administrator).
RETRY_MINUTES = (1, 5, 30, 120, 720, 1440)
# A claim older than this is a sender that died: the row is taken up again.
STALE_CLAIM = timedelta(minutes=10)
# Each call to the platform (token, score) waits this long at most: the first try runs
# in the learner's submit request.
TIMEOUT_SECONDS = 5


def fraction(right: int, total: int) -> Decimal:
    """``right`` of ``total`` as a score of 0-1 with four places (the column's precision)."""
    if not total:
        return Decimal(0)
    return (Decimal(right) / Decimal(total)).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class SkillCount:
    kind: str
    right: int
    asked: int


@dataclass(frozen=True)
class Score:
    """A learner's score for an assignment: their best submitted attempt."""

    quiz_id: int
    right: int
    total: int
    skills: tuple[SkillCount, ...]

    @property
    def value(self) -> Decimal:
        return fraction(self.right, self.total)


@dataclass(frozen=True)
class Outcome:
    """What goes to the gradebook for one learner and assignment."""

    learner_id: int
    value: Decimal
    comment: str
    scored_at: datetime
    completed: bool
    # Not sent before this: a score tells right from wrong, which an assignment that
    # shows its solutions after the due date keeps back until then (the platform's
    # gradebook is a page the pupil reads).
    release_at: datetime | None = None


@dataclass(frozen=True)
class SendReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    superseded: int = 0


def best_score(learner_id: int, assignment_id: int, total: int) -> Score | None:
    """The attempt the results page shows (``best_attempt``) as a score; None when
    nothing is submitted."""
    rows = (
        QuizQuestion.objects.filter(
            quiz__assignment_id=assignment_id,
            quiz__learner_id=learner_id,
            quiz__submitted_at__isnull=False,
        )
        .order_by("quiz__attempt", "position")
        .values_list("quiz_id", "quiz__attempt", "kind", "correct")
    )
    attempts: dict[int, list[tuple[str, bool]]] = {}
    numbers: dict[int, int] = {}
    for quiz_id, attempt, kind, correct in rows:
        attempts.setdefault(quiz_id, []).append((kind, bool(correct)))
        numbers[quiz_id] = attempt
    if not attempts:
        return None
    best = best_attempt(attempts, lambda q: sum(c for _k, c in attempts[q]), lambda q: numbers[q])
    asked: Counter[str] = Counter(kind for kind, _c in attempts[best])
    right: Counter[str] = Counter(kind for kind, correct in attempts[best] if correct)
    return Score(
        quiz_id=best,
        right=sum(right.values()),
        total=total,
        skills=tuple(SkillCount(kind, right[kind], asked[kind]) for kind in asked),
    )


def comment_for(score: Score) -> str:
    """«Best attempt: 7 of 10 right. Weis value 3/4 · Stöck 2/2 ...» in the active
    language (the learner's, at the submit)."""
    skills = " · ".join(f"{skill_label(s.kind)} {s.right}/{s.asked}" for s in score.skills)
    head = _("Best attempt: %(right)s of %(total)s right.") % {
        "right": score.right,
        "total": score.total,
    }
    return f"{head} {skills}".strip()


def _links(assignment: Assignment) -> list[LtiAssignmentLink]:
    return list(
        LtiAssignmentLink.objects.filter(assignment=assignment)
        .exclude(lineitem_url="")
        .filter(resource_link__context__deployment__registration__is_active=True)
        .select_related("resource_link__context__deployment__registration")
    )


def _registration(link: LtiAssignmentLink) -> LtiRegistration:
    return link.resource_link.context.deployment.registration


def queue_grades(quiz_ids: Iterable[int], now: datetime | None = None) -> list[GradePost]:
    """Queue the learner's score for every platform activity that opens the attempts'
    assignments, for learners the platform knows (an account from its launches).
    Queueing an attempt again changes nothing."""
    now = now or timezone.now()
    queued: list[GradePost] = []
    quizzes = Quiz.objects.filter(
        pk__in=list(quiz_ids), submitted_at__isnull=False, assignment__isnull=False
    ).select_related("assignment")
    for quiz in quizzes:
        assignment = quiz.assignment
        assert assignment is not None
        links = _links(assignment)
        if not links:  # most classes: no platform activity opens the assignment
            continue
        score = best_score(quiz.learner_id, assignment.pk, assignment.question_count)
        if score is None:
            continue
        outcome = Outcome(
            learner_id=quiz.learner_id,
            value=score.value,
            comment=comment_for(score),
            scored_at=quiz.submitted_at or now,
            completed=True,
            release_at=assignment.explanations_from(),
        )
        queued += _queue_for_links(links, outcome, {"quiz": quiz}, now)
    return queued


def queue_round_grades(round_ids: Iterable[int], now: datetime | None = None) -> list[GradePost]:
    """Queue the learner's score for the table assignment of each finished round: the
    decisions right over those judged in all its rounds, as the results page counts
    them; "completed" once every round set is finished."""
    now = now or timezone.now()
    queued: list[GradePost] = []
    rounds = TableRound.objects.filter(
        pk__in=list(round_ids), finished_at__isnull=False, assignment__isnull=False
    ).select_related("assignment")
    for round_ in rounds:
        assignment = round_.assignment
        assert assignment is not None
        links = _links(assignment)
        if not links:
            continue
        outcome = table_outcome(round_.learner_id, assignment, round_.finished_at or now)
        queued += _queue_for_links(links, outcome, {"table_round": round_}, now)
    return queued


def table_outcome(learner_id: int, assignment: Assignment, when: datetime) -> Outcome:
    """The decisions right over those judged in the learner's rounds of ``assignment``,
    per skill as the results page tallies them."""
    rounds = list(
        TableRound.objects.filter(assignment=assignment, learner_id=learner_id).only(
            "tally", "finished_at"
        )
    )
    skills = [tally for tally in tallies(rounds) if tally.judged]
    finished = sum(1 for r in rounds if r.finished_at is not None)
    right, judged = sum(t.right for t in skills), sum(t.judged for t in skills)
    head = _(
        "Rounds finished: %(finished)s of %(set)s; decisions right: %(right)s of %(judged)s."
    ) % {"finished": finished, "set": assignment.round_count, "right": right, "judged": judged}
    counts = " · ".join(f"{t.label} {t.right}/{t.judged}" for t in skills)
    return Outcome(
        learner_id=learner_id,
        value=fraction(right, judged),
        comment=f"{head} {counts}".strip(),
        scored_at=when,
        completed=finished >= assignment.round_count,
    )


def _queue_for_links(
    links: list[LtiAssignmentLink], outcome: Outcome, source: dict[str, Any], now: datetime
) -> list[GradePost]:
    queued = []
    for link in links:
        known = LtiUser.objects.filter(
            auth_user_id=outcome.learner_id, registration=_registration(link)
        )
        sub = known.values_list("sub", flat=True).first()
        if sub is None:  # joined with the class code, not from the platform
            continue
        queued.append(_queue(link, source, sub, outcome, now))
    return queued


def _queue(
    link: LtiAssignmentLink, source: dict[str, Any], sub: str, outcome: Outcome, now: datetime
) -> GradePost:
    values = {
        "learner_id": outcome.learner_id,
        "user_sub": sub,
        "score": outcome.value,
        "comment": outcome.comment,
        # The submit's (or the round's end's) time: later work carries later
        # timestamps, and a platform keeps the score with the latest.
        "scored_at": outcome.scored_at,
        "completed": outcome.completed,
        "next_try_at": max(now, outcome.release_at or now),
    }
    try:
        with transaction.atomic():
            post, _created = GradePost.objects.get_or_create(link=link, **source, defaults=values)
    except IntegrityError:  # the same work announced twice at once
        post = GradePost.objects.get(link=link, **source)
    return post


def send_due(
    now: datetime | None = None, *, ids: Iterable[int] | None = None, limit: int = 200
) -> SendReport:
    """Send the posts that are due (or only ``ids``): each claimed first, so that two
    senders never post the same row; a refused or unanswered post waits for its next
    try."""
    now = now or timezone.now()
    due = GradePost.objects.filter(
        Q(state=GradePost.State.PENDING, next_try_at__lte=now)
        | Q(state=GradePost.State.SENDING, claimed_at__lt=now - STALE_CLAIM)
    )
    if ids is not None:
        due = due.filter(pk__in=list(ids))
    counts: Counter[str] = Counter()
    for post in due.order_by("scored_at", "pk").select_related(
        "link__resource_link__context__deployment__registration"
    )[:limit]:
        counts[_send_one(post, now)] += 1
    return SendReport(
        sent=counts["sent"],
        retrying=counts["retrying"],
        failed=counts["failed"],
        superseded=counts["superseded"],
    )


def _claim(post: GradePost, now: datetime) -> bool:
    claimable = Q(state=GradePost.State.PENDING) | Q(
        state=GradePost.State.SENDING, claimed_at__lt=now - STALE_CLAIM
    )
    return bool(
        GradePost.objects.filter(claimable, pk=post.pk).update(
            state=GradePost.State.SENDING, claimed_at=now
        )
    )


def _send_one(post: GradePost, now: datetime) -> str:
    if not _claim(post, now):
        return "taken"  # another sender has it
    newer = GradePost.objects.filter(
        link_id=post.link_id, learner_id=post.learner_id, scored_at__gt=post.scored_at
    ).exclude(state=GradePost.State.FAILED)
    if newer.exists():
        _finish(post, GradePost.State.SUPERSEDED)
        return "superseded"
    try:
        post_score(post)
    except PLATFORM_ERRORS as err:
        return _retry_later(post, now, err)
    _finish(post, GradePost.State.SENT, sent_at=timezone.now())
    return "sent"


def post_score(post: GradePost) -> None:
    """POST the score to the line item's ``/scores`` (raises what the platform call
    raises)."""
    grade = (
        Grade()
        .set_score_given(float(post.score))
        .set_score_maximum(1)
        .set_timestamp(post.scored_at.isoformat(timespec="milliseconds"))
        .set_activity_progress("Completed" if post.completed else "InProgress")
        .set_grading_progress("FullyGraded")
        .set_user_id(post.user_sub)
        .set_comment(post.comment)
    )
    service = AssignmentsGradesService(
        platform.connector(_registration(post.link), timeout=TIMEOUT_SECONDS),
        {"scope": [SCORE_SCOPE], "lineitem": post.link.lineitem_url},
    )
    service.put_grade(grade)


def _retry_later(post: GradePost, now: datetime, err: Exception) -> str:
    tries = post.tries + 1
    error = f"{type(err).__name__}: {err}"[:500]
    log.warning("grade post %s to %s failed (try %s): %s", post.pk, post.link_id, tries, error)
    if tries > len(RETRY_MINUTES):
        _finish(post, GradePost.State.FAILED, tries=tries, last_error=error)
        return "failed"
    GradePost.objects.filter(pk=post.pk, state=GradePost.State.SENDING).update(
        state=GradePost.State.PENDING,
        tries=tries,
        next_try_at=now + timedelta(minutes=RETRY_MINUTES[tries - 1]),
        claimed_at=None,
        last_error=error,
    )
    return "retrying"


def _finish(post: GradePost, state: str, **fields: Any) -> None:
    GradePost.objects.filter(pk=post.pk, state=GradePost.State.SENDING).update(
        state=state, claimed_at=None, **fields
    )


def on_work_submitted(sender: Any, quiz_ids: list[int], **kwargs: Any) -> None:
    """Receiver of ``tutor.classroom.signals.work_submitted``: queue, then try at once."""
    _queue_and_send(queue_grades, quiz_ids)


def on_round_finished(sender: Any, round_id: int, **kwargs: Any) -> None:
    """Receiver of ``tutor.table.signals.round_finished``."""
    _queue_and_send(queue_round_grades, [round_id])


def _queue_and_send(queue: Callable[[list[int]], list[GradePost]], ids: list[int]) -> None:
    # The learner's work is committed before this runs; nothing here may fail it.
    try:
        posts = queue(ids)
        if posts:
            send_due(ids=[p.pk for p in posts])
    except Exception:  # the queue keeps what was queued; the command retries
        log.exception("grades for %s %s not queued or sent", queue.__name__, ids)


def assignment_notes(assignment: Assignment) -> list[str]:
    """For the teacher's results page: how the scores of each platform activity that
    opens this assignment reached the platform's gradebook."""
    notes = []
    for link in LtiAssignmentLink.objects.filter(assignment=assignment).select_related(
        "resource_link__context__deployment__registration"
    ):
        counts = Counter(link.grade_posts.values_list("state", flat=True))
        platform = _registration(link).name
        if not link.lineitem_url:
            notes.append(
                _(
                    "Opened from «%(platform)s»: the platform has not offered a gradebook "
                    "column for this activity, so no scores are sent."
                )
                % {"platform": platform}
            )
            continue
        notes.append(
            _(
                "Scores for the gradebook of «%(platform)s»: %(sent)s sent, %(waiting)s "
                "waiting, %(failed)s given up."
            )
            % {
                "platform": platform,
                "sent": counts[GradePost.State.SENT],
                "waiting": counts[GradePost.State.PENDING] + counts[GradePost.State.SENDING],
                "failed": counts[GradePost.State.FAILED],
            }
        )
    return notes
