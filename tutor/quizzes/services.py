"""Creating quizzes and recording answers: each answer is stored exactly once.

Views call these functions with objects they fetched through ``selectors`` (which
restrict everything to the requesting learner); the functions check again anyway.
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import DataError, IntegrityError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from rules_core import RuleSet
from teaching import mastery
from teaching.generators import Question, generate
from teaching.generators.rule_sets import answer_depends_on
from tutor.accounts.models import User
from tutor.core.assignment_policy import WorkRefused, check_work
from tutor.core.kept import KeptStates
from tutor.core.middleware import write_unless_locked
from tutor.core.prepared import PreparedQuery, Value

from .models import Quiz, QuizQuestion, Skill, SkillState
from .selectors import AnswerRead, answer_seconds, next_open_position, released_answers

__all__ = ["answer_seconds"]  # kept here for its callers; it lives in selectors

PRACTICE_LENGTH = 5
MAX_QUESTIONS = 50


class QuizError(Exception):
    """A request about a quiz that cannot be carried out; the message is for the user."""


class AlreadyAnswered(QuizError):
    pass


class InvalidChoice(QuizError):
    pass


class AttemptClosed(QuizError):
    pass


class NotAsked(AttemptClosed):
    """Live in class: the question is not the one the teacher is asking now."""


class AnswerRefused(WorkRefused, AttemptClosed):
    """The assignment policy (``tutor.core.assignment_policy``) refuses the answer."""


def check_can_answer(quiz: Quiz, now: datetime) -> None:
    """Raise :class:`AttemptClosed` when an assignment attempt takes no more answers:
    it was submitted, or the assignment policy refuses (:class:`AnswerRefused`).
    Practice always takes answers."""
    if quiz.assignment is None:
        return
    if quiz.submitted_at is not None:
        raise AttemptClosed(_("This attempt has been submitted; it takes no more answers."))
    check_work(quiz.assignment, quiz.learner_id, now, error=AnswerRefused)


def explanations_visible(quiz: Quiz, now: datetime | None = None) -> bool:
    """Practice always explains; an assignment as its teacher chose."""
    if quiz.assignment is None:
        return True
    return quiz.assignment.explanations_visible(now or timezone.now())


@dataclass(frozen=True)
class AnswerOutcome:
    question: QuizQuestion
    correct: bool
    mastery: float | None  # None while the assignment keeps correctness hidden
    next_open: int | None = None  # the quiz's first open question now, None if none


def new_seed() -> int:
    return secrets.randbelow(2**31)


@transaction.atomic
def create_quiz(
    *,
    learner: User,
    kinds: Sequence[str],
    rules: RuleSet | None = None,
    source: str = Quiz.Source.PRACTICE,
    seeds: Sequence[int] | None = None,
    assignment: Any = None,
    attempt: int = 1,
    stored: Mapping[int, dict[str, Any]] | None = None,
) -> Quiz:
    """A quiz with one question per entry of ``kinds`` (in order).

    ``stored``: questions by position to copy instead of generating them from their
    seeds (what classmates were given, so that a change of the generators between
    two pupils' starts does not give them different questions)."""
    if not learner.is_learner:
        raise QuizError("Only learners take quizzes.")
    if not kinds or len(kinds) > MAX_QUESTIONS:
        raise QuizError(f"A quiz has 1 to {MAX_QUESTIONS} questions.")
    unknown = [k for k in kinds if k not in Skill.values]
    if unknown:
        raise QuizError(f"Unknown question kinds: {', '.join(unknown)}")
    rules = rules or RuleSet()
    seeds = list(seeds) if seeds is not None else [new_seed() for _ in kinds]
    quiz = Quiz.objects.create(
        learner=learner,
        source=source,
        rules=rules.to_dict(),
        assignment=assignment,
        attempt=attempt,
    )
    rows = []
    for position, (kind, seed) in enumerate(zip(kinds, seeds, strict=True)):
        data = (stored or {}).get(position) or generate(kind, seed, rules).to_dict()
        rows.append(
            QuizQuestion(
                quiz=quiz,
                position=position,
                kind=kind,
                seed=seed,
                question=data,
                rule_set_differences=rule_set_differences(kind, data),
            )
        )
    QuizQuestion.objects.bulk_create(rows)
    return quiz


def rule_set_differences(kind: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a stored question's ``rule_set_differences`` holds: the rules of its rule set
    its answer depends on, solved once, when the question is stored."""
    rules = RuleSet.from_dict(data["rules"])
    return [d.to_dict() for d in answer_depends_on(kind, data["inputs"], rules)]


# Compiled once (tutor.core.prepared): the answer's write, and the first showing's.
_UNANSWERED = PreparedQuery(
    lambda pk: QuizQuestion.objects.filter(pk=pk, answered_at__isnull=True), pk=int
)
_UNSHOWN = PreparedQuery(
    lambda pk: QuizQuestion.objects.filter(pk=pk, shown_at__isnull=True), pk=int
)


def answer(
    *,
    learner: User,
    question: QuizQuestion,
    choice: str,
    read: AnswerRead | None = None,
    shown_at: datetime | None = None,
) -> AnswerOutcome:
    """Record ``choice`` for ``question``; a second answer is refused and changes nothing.

    ``read``: what the question's read brought along (selectors.question_to_answer),
    trusted as far as it can be; without it the answer asks the database.
    ``shown_at``: when the form the answer came from was drawn (tutor.quizzes.showing),
    stored with the answer unless the question's showing is stored already (live)."""
    if question.quiz.learner_id != learner.pk:
        raise QuizError("This question belongs to another learner.")
    keys = {c["key"] for c in question.question["choices"]}
    if choice not in keys:
        raise InvalidChoice("That is not one of the choices.")
    correct = choice == question.question["answer"]
    now = timezone.now()
    check_can_answer(question.quiz, now)
    if question.shown_at is None and shown_at is not None:
        # Written with the answer (_answered); a refused answer writes nothing.
        question.shown_at = min(shown_at, now)
    # Mastery is visible on every page, so it may move only once the learner may know
    # whether the answer was right (issue 12: nothing shown may depend on correctness
    # before the assignment releases it).
    counts_now = explanations_visible(question.quiz, now)
    settled = 0
    if counts_now and (read is None or read.answers_waiting):
        # Answers released since count first, in the order they were given; pages
        # only show them (selectors.skill_states), this is where they are stored.
        settled = settle_released_answers([learner.pk], now)
    try:
        # An answer settled first may have made or changed the state the read brought.
        trusted = read if not settled else None
        if trusted is not None and _in_one_statement(question, trusted):
            try:
                state, next_open = _store_in_one_statement(
                    question, trusted, choice, correct, now, counts_now
                )
            except _StateChanged:  # nothing was stored: as below, reading the row
                state, next_open = _store_answer(question, choice, correct, now, counts_now)
        else:
            state, next_open = _store_answer(question, choice, correct, now, counts_now, trusted)
    except IntegrityError:
        # The learner's first answer of this skill found no state row when the question
        # was read, and another request (a second tab) has made it since: the insert
        # failed and the whole transaction was rolled back. Store it again, reading the
        # row this time.
        state, next_open = _store_answer(question, choice, correct, now, counts_now)
    # The row now holds exactly this; setting it here spares a query and keeps the
    # cached quiz and assignment on the object.
    question.answered_choice, question.correct, question.answered_at = choice, correct, now
    question.skill_recorded_at = now if counts_now else None
    return AnswerOutcome(
        question=question,
        correct=correct,
        mastery=state.mastery if state else None,
        next_open=next_open,
    )


def _answered(
    question: QuizQuestion, choice: str, correct: bool, now: datetime, counts_now: bool
) -> dict[str, Any]:
    """What the answer writes in its question's row: with the moment it was shown, when
    that is known (set once; never cleared, so a live question's stays)."""
    written = {
        "answered_choice": choice,
        "correct": correct,
        "answered_at": now,
        "skill_recorded_at": now if counts_now else None,
    }
    if question.shown_at is not None:
        written["shown_at"] = question.shown_at
    return written


def _store_answer(
    question: QuizQuestion,
    choice: str,
    correct: bool,
    now: datetime,
    counts_now: bool,
    read: AnswerRead | None = None,
) -> tuple[SkillState | None, int | None]:
    """Store the answer, once, in one transaction: the learner's state of the skill
    (when the answer counts now) and the quiz's first open question are returned.
    ``read``: what the question's read brought, trusted as far as it can be
    (:func:`_record_answer`, :func:`_open_after`); without it, ask the database."""
    assignment = question.quiz.assignment
    with transaction.atomic():
        if assignment is not None and not assignment.takes_answer(question.position, now):
            # Live in class: not the question the teacher is asking (the row stays
            # locked, so the teacher's next step waits for this answer).
            raise NotAsked(
                _(
                    "This question takes no answers now: your teacher has closed it or "
                    "not asked it yet."
                )
            )
        # The condition makes the write happen once even when two requests race.
        updated = _UNANSWERED.update(
            _answered(question, choice, correct, now, counts_now), pk=question.pk
        )
        if not updated:
            raise AlreadyAnswered("This question has been answered already.")
        state = _record_answer(question, correct, now, read) if counts_now else None
        next_open = _open_after(question, read) if read else next_open_position(question.quiz_id)
        if next_open is None:
            _mark_complete(question.quiz_id, now)
    return state, next_open


def _record_answer(
    question: QuizQuestion, correct: bool, now: datetime, read: AnswerRead | None
) -> SkillState:
    """Count the answer in the learner's state of the question's skill.

    The question's read (``read``, selectors.question_to_answer) brought that state
    along, and it is trusted as far as it can be:
    - a state is reviewed and written back in one UPDATE that holds only while the row
      is still what was read; after any write in between (another tab's answer) it
      misses, and the row is read, locked and reviewed;
    - no state (the learner's first answer of the skill) is made with one INSERT; if
      another request made it in between, the INSERT fails and takes the transaction
      with it (:func:`answer` stores the answer again, without ``read``).
    Otherwise the row is read, locked and reviewed (made first if there is none)."""
    reviews = [(correct, answer_seconds(question, now))]
    learner_id, skill = question.quiz.learner_id, question.kind
    if read is not None:
        if read.skill_before is None:
            return _first_state(learner_id, skill, reviews, now)
        before = copy.copy(read.skill_before)  # the read stays as it was read
        if _update_if_unchanged(before, reviews, now):
            return before
    return _reviewed_row(learner_id, skill, reviews, now)


def _first_state(
    learner_id: int, skill: str, reviews: Sequence[tuple[bool, float | None]], when: datetime
) -> SkillState:
    """The learner's first state of ``skill``, with ``reviews`` counted, stored by one
    INSERT (IntegrityError if the row exists)."""
    state = _new_state(learner_id, skill, reviews, when)
    state.save(force_insert=True)
    return state


def _new_state(
    learner_id: int, skill: str, reviews: Sequence[tuple[bool, float | None]], when: datetime
) -> SkillState:
    """The learner's first state of ``skill`` with ``reviews`` counted, not stored."""
    state = SkillState(learner_id=learner_id, skill=skill, mastery=mastery.P_INIT)
    _review_all(state, reviews, when)
    return state


def _review_all(
    state: SkillState, reviews: Sequence[tuple[bool, float | None]], when: datetime
) -> None:
    """Count ``reviews`` ((right?, seconds to answer or None), in order) in ``state``."""
    for right, seconds in reviews:
        state.review(right, when, seconds)


def _open_after(question: QuizQuestion, read: AnswerRead) -> int | None:
    """The first open question of the quiz once ``question`` is answered (None: the quiz
    is complete). The question's read knows the first two others that were open then;
    answers are never taken back, so "none" is final, and two are not both answered by
    another tab in the meantime. With just one, the quiz's completion hangs on it: it
    is asked again here, in the transaction."""
    return read.open_after if read.next_open_known else next_open_position(question.quiz_id)


# --- PostgreSQL: the common answer as one statement (issue 24) -------------------------
#
# Under load each statement costs a PostgreSQL worker a round trip (a BEGIN and a COMMIT
# each one more), and on a 2-core machine the worker's share of that cost was larger than
# the database's. The answer's transaction (:func:`_store_answer` with a read) is
# here one statement, of the same writes with the same conditions: the question's
# UPDATE, the skill row's UPDATE (only while it is what the question's read brought) or
# its first INSERT, and the quiz's completion. A statement in autocommit is its own
# transaction, so all of it is stored or nothing is. SQLite keeps the transaction:
# there a statement costs no round trip.

_OPEN_QUIZ = PreparedQuery(lambda pk: Quiz.objects.filter(pk=pk, completed_at__isnull=True), pk=int)

# PostgreSQL's SQLSTATE for a division by zero: how the statement undoes itself when
# the skill row has changed (see _store_in_one_statement).
_DIVISION_BY_ZERO = "22012"


class _StateChanged(Exception):
    """The skill row was no longer what the question's read brought; nothing was stored."""


def _in_one_statement(question: QuizQuestion, read: AnswerRead) -> bool:
    """Whether :func:`_store_in_one_statement` may store the answer to ``question``:
    on PostgreSQL, not live in class (that answer locks the live session's row first),
    not a state never reviewed (:func:`_update_if_unchanged` refuses it), and with the
    quiz's next open question known from the read (else it is asked in a transaction)."""
    if connections[QuizQuestion.objects.db].vendor != "postgresql":
        return False
    assignment = question.quiz.assignment
    if assignment is not None and assignment.is_live:
        return False
    if read.skill_before is not None and read.skill_before.last_answered_at is None:
        return False
    return read.next_open_known


def _store_in_one_statement(
    question: QuizQuestion,
    read: AnswerRead,
    choice: str,
    correct: bool,
    now: datetime,
    counts_now: bool,
) -> tuple[SkillState | None, int | None]:
    """What :func:`_store_answer` stores with ``read``, in one statement.

    Each write after the question's is conditional on the question's
    (``EXISTS (SELECT 1 FROM answered)``), so a question answered already writes
    nothing (:class:`AlreadyAnswered`). The skill row's UPDATE holds only while the row
    is what was read; if it misses although the question was written, the statement
    divides by zero on purpose, which rolls all of it back (PostgreSQL has no RAISE
    outside PL/pgSQL): :class:`_StateChanged`, nothing stored. A first state whose row
    another request made meanwhile fails its INSERT: IntegrityError, nothing stored."""
    connection = connections[QuizQuestion.objects.db]
    sql, params = _UNANSWERED.update_statement(
        _answered(question, choice, correct, now, counts_now), pk=question.pk
    )
    parts = [f"answered AS ({sql} RETURNING 1)"]
    state: SkillState | None = None
    if counts_now:
        reviews = [(correct, answer_seconds(question, now))]
        if read.skill_before is None:  # the learner's first answer of this skill
            state = _new_state(question.quiz.learner_id, question.kind, reviews, now)
            sql, more = _first_state_statement(state, connection)
        else:
            state = copy.copy(read.skill_before)  # the read stays as it was read
            unchanged = _unchanged(state)
            _review_all(state, reviews, now)
            sql, more = _UNCHANGED_SKILL_ROW.update_statement(state.reviewed_values(), **unchanged)
            sql += " AND EXISTS (SELECT 1 FROM answered)"
        parts.append(f"counted AS ({sql} RETURNING {connection.ops.quote_name('id')})")
        params += more
    next_open = read.open_after
    if next_open is None:  # no other question open: the quiz is complete
        sql, more = _OPEN_QUIZ.update_statement({"completed_at": now}, pk=question.quiz_id)
        parts.append(f"completed AS ({sql} AND EXISTS (SELECT 1 FROM answered) RETURNING 1)")
        params += more
    select = "SELECT (SELECT count(*) FROM answered)"
    if counts_now:
        # 1/1 when both were written or neither; 1/0 when only the question was.
        select += (
            ", 1 / ((SELECT count(*) FROM counted) + 1 - (SELECT count(*) FROM answered))"
            ", (SELECT id FROM counted)"
        )
    in_transaction = connection.in_atomic_block  # tests, or a caller's transaction
    try:
        with (
            transaction.atomic() if in_transaction else nullcontext(),
            connection.cursor() as cursor,
        ):
            cursor.execute(f"WITH {', '.join(parts)} {select}", params)
            row = cursor.fetchone()
    except DataError as error:
        if getattr(error.__cause__, "sqlstate", None) == _DIVISION_BY_ZERO:
            raise _StateChanged from None
        raise
    if not row[0]:
        raise AlreadyAnswered("This question has been answered already.")
    if state is not None and state.pk is None:
        state.pk = row[2]
    return state, next_open


def _first_state_statement(
    state: SkillState, connection: BaseDatabaseWrapper
) -> tuple[str, list[Any]]:
    """``state``'s INSERT, made only if the question was (``answered``): an INSERT from
    a SELECT of the values, each cast to its column's type (a parameter alone in a
    SELECT would be taken as text)."""
    sql = _FIRST_STATE_SQL.get(connection.alias)
    if sql is None:  # written once per database: the columns never change at run time
        quote = connection.ops.quote_name
        columns = ", ".join(quote(str(f.column)) for f in _STATE_FIELDS)
        values = ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in _STATE_FIELDS)
        table = quote(SkillState._meta.db_table)
        sql = _FIRST_STATE_SQL[connection.alias] = (
            f"INSERT INTO {table} ({columns}) SELECT {values} WHERE EXISTS (SELECT 1 FROM answered)"
        )
    params = [f.get_db_prep_save(getattr(state, f.attname), connection) for f in _STATE_FIELDS]
    return sql, params


_STATE_FIELDS = tuple(f for f in SkillState._meta.concrete_fields if not f.primary_key)
_FIRST_STATE_SQL: dict[str, str] = {}


def _mark_complete(quiz_id: int, when: datetime) -> None:
    Quiz.objects.filter(pk=quiz_id, completed_at__isnull=True).update(completed_at=when)


def note_complete(quiz: Quiz, questions: Sequence[QuizQuestion]) -> None:
    """Mark ``quiz`` complete, at its last answer, when a page finds all its questions
    (``questions``) answered but no mark. :func:`answer` marks it when it finds no open
    question; on PostgreSQL the last two answers posted at the same instant (two tabs)
    can each still see the other's question open and leave it unmarked. A page that
    otherwise only reads: never waits for a locked database."""
    answered = [q.answered_at for q in questions if q.answered_at is not None]
    if quiz.completed_at is not None or not questions or len(answered) < len(questions):
        return
    last = max(answered)
    if write_unless_locked(lambda: _mark_complete(quiz.pk, last), one_statement=True):
        quiz.completed_at = last


def settle_released_answers(learner_ids: Iterable[int], now: datetime | None = None) -> int:
    """Store what the selectors show: let answers whose explanations have been
    released since they were given move their learners' mastery, in the order they
    were given; returns how many did.

    Pages only read (:func:`~tutor.quizzes.selectors.skill_states` applies these
    answers in memory), so this runs where the site writes anyway: before a learner's
    next answer (:func:`answer`), from ``manage.py settle_released_answers`` (cron) and
    after the demo data. Each answer counts once even when two requests settle at the
    same moment (the conditional update decides which one applies it).
    """
    now = now or timezone.now()
    applied = 0
    for question in released_answers(learner_ids, now):
        if question.answered_at is None:  # released_answers are answered; this tells mypy
            continue
        with transaction.atomic():
            won = QuizQuestion.objects.filter(
                pk=question.pk, skill_recorded_at__isnull=True
            ).update(skill_recorded_at=now)
            if won:
                _record_skill(
                    question.quiz.learner_id,
                    question.kind,
                    bool(question.correct),
                    question.answered_at,
                    answer_seconds(question),
                )
                applied += 1
    return applied


def record_skill(learner: User, skill: str, correct: bool, when: datetime) -> SkillState:
    """Move ``learner``'s mastery of ``skill`` by one judged decision made elsewhere
    (the table trainer's moves). Call it inside the transaction that stores the
    decision, so that it counts exactly once; the state row is locked meanwhile.
    How long the decision took is not known here, so a right one is rated Good."""
    if skill not in Skill.values:
        raise QuizError(f"Unknown skill: {skill}")
    return _record_skill(learner.pk, skill, correct, when)


# A learner's skill states as this process last wrote them in :func:`record_skills`.
# The next judged move writes each back with one UPDATE that holds only while the row
# is still what was written (its id, attempts, mastery and last answer unchanged; every
# review changes the attempts, and a row deleted and made again has another last
# answer), instead of reading it first; any other write in between (a quiz answer,
# another process, a rolled-back transaction) makes that UPDATE miss, and the row is
# read, locked and reviewed as usual.
_WRITTEN: KeptStates[dict[str, SkillState]] = KeptStates(max_entries=2000)


def record_skills(
    learner: User,
    outcomes: Sequence[tuple[str, bool]],
    when: datetime,
    *,
    likely_current: bool = True,
) -> None:
    """:func:`record_skill` for several decisions made at ``when`` (one table move's
    judgements: (skill, right?) in their order), with one write per skill touched, and
    no read when this process wrote the row last (see ``_WRITTEN``); the same states
    result as from calling :func:`record_skill` for each in turn. Call it inside the
    transaction that stores the decisions.

    ``likely_current``: whether this process probably wrote the learner's rows last
    (the table: its last move of the round was made here). When not, with several
    workers, a kept state is probably stale and trying it would cost a write that
    misses, so the rows are read at once."""
    by_skill: dict[str, list[bool]] = {}
    for skill, right in outcomes:
        if skill not in Skill.values:
            raise QuizError(f"Unknown skill: {skill}")
        by_skill.setdefault(skill, []).append(right)
    if not by_skill:
        return
    written = _WRITTEN.take(learner.pk) or {}
    for skill, rights in by_skill.items():
        state = written.get(skill) if likely_current else None
        reviews = [(right, None) for right in rights]
        if state is None or not _update_if_unchanged(state, reviews, when):
            written[skill] = _reviewed_row(learner.pk, skill, reviews, when)
    _WRITTEN.put(learner.pk, written)


_UNCHANGED_SKILL_ROW = PreparedQuery(
    lambda pk, attempts, mastery, last_answered_at: SkillState.objects.filter(
        pk=pk, attempts=attempts, mastery=mastery, last_answered_at=last_answered_at
    ),
    pk=int,
    attempts=int,
    mastery=float,
    last_answered_at=datetime,
)


def _update_if_unchanged(
    state: SkillState, reviews: Sequence[tuple[bool, float | None]], when: datetime
) -> bool:
    """Review ``state`` (as written or read last) by ``reviews`` ((right?, seconds to
    answer or None) in order) and store it, if its row is still that."""
    if state.last_answered_at is None:  # never reviewed: not a state written here
        return False
    unchanged = _unchanged(state)
    _review_all(state, reviews, when)
    return bool(_UNCHANGED_SKILL_ROW.update(state.reviewed_values(), **unchanged))


def _unchanged(state: SkillState) -> dict[str, Value]:
    """``_UNCHANGED_SKILL_ROW``'s values for ``state`` as it is now (before a review):
    every review changes the attempts, and a row deleted and made again has another
    last answer."""
    assert state.last_answered_at is not None  # reviewed once: a state written here
    return {
        "pk": state.pk,
        "attempts": state.attempts,
        "mastery": float(state.mastery),
        "last_answered_at": state.last_answered_at,
    }


# Before every answer's review: compiled once (tutor.core.prepared). Only run inside
# the transaction that stores the review (the row stays locked until it ends).
_SKILL_STATE = PreparedQuery(
    lambda learner_id, skill: SkillState.objects.select_for_update().filter(
        learner_id=learner_id, skill=skill
    ),
    learner_id=int,
    skill=str,
)


_SKILL_ROW = PreparedQuery(lambda pk: SkillState.objects.filter(pk=pk), pk=int)


def _reviewed_row(
    learner_id: int, skill: str, reviews: Sequence[tuple[bool, float | None]], when: datetime
) -> SkillState:
    """The learner's row for ``skill`` (made on the first answer), locked, with
    ``reviews`` ((right?, seconds to answer or None) in order) counted and stored."""
    state = _SKILL_STATE.one(learner_id=learner_id, skill=skill)
    if state is None:  # the first answer of this skill
        state, _created = SkillState.objects.select_for_update().get_or_create(
            learner_id=learner_id, skill=skill, defaults={"mastery": mastery.P_INIT}
        )
    _review_all(state, reviews, when)
    _SKILL_ROW.update(state.reviewed_values(), pk=state.pk)
    return state


def _record_skill(
    learner_id: int, skill: str, correct: bool, now: datetime, seconds: float | None = None
) -> SkillState:
    """One answer moves mastery (BKT) and is one FSRS review (SkillState.review)."""
    return _reviewed_row(learner_id, skill, [(correct, seconds)], now)


def mark_shown(question: QuizQuestion) -> None:
    """Note when a live question was first shown: when the teacher asked it, on every
    phone at once (tutor.live). A card or page a learner opens notes it in its form
    instead (tutor.quizzes.showing), and the answer stores it. Never waits for a locked
    database: under a lock the note is skipped and the answer, its time unknown, is
    rated Good (answer_seconds is None)."""
    if question.shown_at is None:
        write_unless_locked(
            lambda: _UNSHOWN.update({"shown_at": timezone.now()}, pk=question.pk),
            one_statement=True,
        )


# --- Lesson quizzes: the questions at the end of a lesson ------------------------------


def lesson_quiz(*, learner: User, lesson: Any, rules: RuleSet) -> Quiz:
    """The learner's quiz for ``lesson`` (source LESSON), created on first use; one per
    learner and lesson, also when two requests race to create it."""
    if not learner.is_learner:
        raise QuizError("Only learners take quizzes.")
    found = Quiz.objects.filter(learner=learner, lesson=lesson, source=Quiz.Source.LESSON)
    quiz = found.first()
    if quiz is not None:
        return quiz
    try:
        with transaction.atomic():
            return Quiz.objects.create(
                learner=learner, lesson=lesson, source=Quiz.Source.LESSON, rules=rules.to_dict()
            )
    except IntegrityError:  # the other request created it first
        return found.get()


class PositionTaken(QuizError):
    """Another request appended a question at the same moment."""


def add_question(*, quiz: Quiz, kind: str, seed: int, rules: RuleSet) -> QuizQuestion:
    """Append one question to a lesson quiz, which is open again until it is answered
    (``completed_at`` means: every question answered, as for practice)."""
    if quiz.source != Quiz.Source.LESSON:
        raise QuizError("Only a lesson quiz grows.")
    last = quiz.questions.aggregate(last=Max("position"))["last"]
    try:
        data = generate(kind, seed, rules).to_dict()
        with transaction.atomic():
            question = QuizQuestion.objects.create(
                quiz=quiz,
                position=0 if last is None else last + 1,
                kind=kind,
                seed=seed,
                question=data,
                rule_set_differences=rule_set_differences(kind, data),
            )
            Quiz.objects.filter(pk=quiz.pk).update(completed_at=None)
    except IntegrityError:
        raise PositionTaken("Another question was added at the same moment.") from None
    return question


def unsaved_question(question: Question, choice: str | None = None) -> QuizQuestion:
    """A generated question as an unsaved QuizQuestion, for visitors and teachers, whose
    answers are judged like a learner's but stored nowhere. With ``choice`` it is
    answered (``InvalidChoice`` for a key that is not one of its choices)."""
    row = QuizQuestion(
        quiz=Quiz(source=Quiz.Source.LESSON, rules=question.rules),
        position=0,
        kind=question.kind,
        seed=question.seed,
        question=question.to_dict(),
    )
    if choice is not None:
        if choice not in {c["key"] for c in question.choices}:
            raise InvalidChoice("That is not one of the choices.")
        row.answered_choice = choice
        row.correct = question.is_correct(choice)
        row.answered_at = timezone.now()
    return row
