"""The database side of the benchmark, through Django in the benchmark's own process.

:func:`prepare` builds the run's data with the project's own commands and services
(``migrate``, ``load_lessons``, ``create_class``, ``join_class``,
``create_assignment``, ``create_quiz``); :func:`reconcile` compares what the clients
were told with what the database holds. Both need ``django.setup()`` to have run
with the run's environment (see ``web.py``).
"""

from __future__ import annotations

import io
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from rules_core import RuleSet
from tutor.accounts.models import Role, User
from tutor.classroom.assignments import AssignmentSpec, create_assignment
from tutor.classroom.models import Assignment
from tutor.classroom.services import create_class, join_class
from tutor.lessons.models import Lesson
from tutor.quizzes.models import Quiz, QuizQuestion, Skill, SkillState
from tutor.quizzes.services import MAX_QUESTIONS, create_quiz

PASSWORD = "bench-Passwort-2026"  # a throwaway database; only 127.0.0.1 can reach it


@dataclass(frozen=True)
class Learner:
    username: str
    pk: int
    practice: tuple[int, ...]  # practice quiz ids for the capacity phase


@dataclass
class Plan:
    teacher: str
    learners: list[Learner]
    class_id: int
    assignment_id: int  # the class run
    fault_assignment_id: int | None  # the kill-and-restart run
    lessons: list[str]
    practice_length: int
    timings: dict[str, float] = field(default_factory=dict)


def prepare(
    *,
    learners: int,
    questions: int,
    fault_questions: int,
    practice_quizzes: int,
    collectstatic: bool = True,
) -> Plan:
    """Migrate, load the lessons, and make a teacher, a class and its assignments."""
    import time

    timings: dict[str, float] = {}

    def step(name: str, func, *args, **kwargs):
        start = time.monotonic()
        result = func(*args, **kwargs)
        timings[name] = time.monotonic() - start
        return result

    quiet = io.StringIO()
    step("migrate", call_command, "migrate", interactive=False, verbosity=0, stdout=quiet)
    step("load_lessons", call_command, "load_lessons", stdout=quiet)
    if collectstatic:
        # STATIC_ROOT is fixed in the settings (the repository's ignored staticfiles/).
        step(
            "collectstatic",
            call_command,
            "collectstatic",
            interactive=False,
            verbosity=0,
            stdout=quiet,
        )
    plan = step(
        "data",
        _people_and_work,
        learners=learners,
        questions=questions,
        fault_questions=fault_questions,
        practice_quizzes=practice_quizzes,
    )
    step("analyze", _analyze)
    plan.timings = timings
    connections.close_all()
    return plan


def _analyze() -> None:
    """Give PostgreSQL's planner the statistics of the data just made, as a site has
    them (autovacuum analyzes a changed table, but in its own time: after a 96 s run
    a new database had not been analyzed yet). Without them the answer's read
    planned a bitmap scan of every open question of every learner: 1.0 of its 1.8 ms,
    against 0.15 ms with them (issue 24)."""
    connection = connections["default"]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _people_and_work(
    *, learners: int, questions: int, fault_questions: int, practice_quizzes: int
) -> Plan:
    password = make_password(PASSWORD)  # hashed once: PBKDF2 is slow on purpose
    teacher = User.objects.create(username="bench-lehrerin", role=Role.TEACHER, password=password)
    school_class = create_class(teacher=teacher, name="Benchmark-Klasse")
    now = timezone.now()
    skills = list(Skill.values)

    def assignment(title: str, count: int) -> Assignment:
        spec = AssignmentSpec(
            title=title,
            kinds=skills,
            question_count=count,
            rules_preset="default",
            opens_at=now - timedelta(minutes=5),
            due_at=now + timedelta(days=1),
            attempts_allowed=1,
            same_questions=False,
            explanations=Assignment.Explanations.IMMEDIATELY,
            late_policy=Assignment.LatePolicy.REFUSE,
        )
        return create_assignment(teacher=teacher, school_class=school_class, spec=spec)

    main = assignment("Benchmark: alle Fertigkeiten", questions)
    fault = assignment("Benchmark: Server-Absturz", fault_questions) if fault_questions else None
    people = []
    for i in range(learners):
        user = User.objects.create(username=f"bench-{i:03d}", role=Role.LEARNER, password=password)
        join_class(learner=user, code=school_class.join_code)
        practice = tuple(
            create_quiz(
                learner=user,
                kinds=[skills[(i + j + k) % len(skills)] for k in range(MAX_QUESTIONS)],
                rules=RuleSet(),
            ).pk
            for j in range(practice_quizzes)
        )
        people.append(Learner(user.username, user.pk, practice))
    return Plan(
        teacher=teacher.username,
        learners=people,
        class_id=school_class.pk,
        assignment_id=main.pk,
        fault_assignment_id=fault.pk if fault else None,
        lessons=list(Lesson.objects.order_by("position").values_list("slug", flat=True)),
        practice_length=MAX_QUESTIONS,
    )


# --- reconciliation -------------------------------------------------------------------


@dataclass(frozen=True)
class Ack:
    """A client was told its answer is saved: (quiz, position) holds ``choice``."""

    learner: str
    quiz_id: int
    position: int
    choice: str
    phase: str
    how: str = "200"  # "200": the feedback partial; "409": a retry after the crash found it


@dataclass
class Reconciliation:
    acknowledged: int = 0
    by_phase: dict[str, int] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    unacknowledged: list[str] = field(default_factory=list)
    skill_states: int = 0
    skill_mismatches: list[str] = field(default_factory=list)
    completion_mismatches: list[str] = field(default_factory=list)
    answered_in_db: int = 0

    @property
    def clean(self) -> bool:
        return not (
            self.lost
            or self.duplicated
            or self.unacknowledged
            or self.skill_mismatches
            or self.completion_mismatches
        )

    def lines(self) -> list[str]:
        phases = ", ".join(f"{name} {n}" for name, n in self.by_phase.items())
        out = [
            f"acknowledged answers: {self.acknowledged} ({phases}); "
            f"answered questions in the database: {self.answered_in_db}",
            f"lost: {len(self.lost)}, duplicated: {len(self.duplicated)}, "
            f"unacknowledged: {len(self.unacknowledged)}",
            f"skill states checked: {self.skill_states}, attempts/correct != answers stored "
            f"(+ table judgements): "
            f"{len(self.skill_mismatches)}; quizzes with a wrong completion mark: "
            f"{len(self.completion_mismatches)}",
        ]
        for label, items in (
            ("lost", self.lost),
            ("duplicated", self.duplicated),
            ("unacknowledged", self.unacknowledged),
            ("skill state", self.skill_mismatches),
            ("completion", self.completion_mismatches),
        ):
            out += [f"  {label}: {item}" for item in items[:10]]
            if len(items) > 10:
                out.append(f"  {label}: ... {len(items) - 10} more")
        return out


def reconcile(
    learner_ids: list[int],
    acks: list[Ack],
    table_counts: dict[tuple[int, str], list[int]] | None = None,
) -> Reconciliation:
    """Every acknowledged answer stored exactly once with its choice, nothing else stored.

    - lost: an acknowledged (quiz, position) that is unanswered or holds another choice;
    - duplicated: a question acknowledged with 200 more than once (two requests both
      believed they saved it), or a skill state that counted more answers than exist;
    - unacknowledged: an answered question no client was told about;
    - skill states: ``attempts`` and ``correct`` per learner and skill must equal the
      answered (and right) questions of that skill, over all the learner's quizzes,
      plus the judged (and right) table decisions ``table_counts`` (learner id, skill)
      -> [judged, right] (see :func:`reconcile_tables`).
    """
    report = Reconciliation(acknowledged=len(acks))
    report.by_phase = dict(Counter(a.phase for a in acks))
    rows = {
        (q["quiz_id"], q["position"]): q
        for q in QuizQuestion.objects.filter(quiz__learner_id__in=learner_ids).values(
            "quiz_id",
            "position",
            "kind",
            "answered_choice",
            "answered_at",
            "correct",
            "quiz__learner_id",
        )
    }
    acked: dict[tuple[int, int], list[Ack]] = defaultdict(list)
    for ack in acks:
        acked[(ack.quiz_id, ack.position)].append(ack)
    for key, items in acked.items():
        row = rows.get(key)
        first = items[0]
        where = f"{first.learner} quiz {key[0]} question {key[1] + 1}"
        if row is None or row["answered_at"] is None:
            report.lost.append(f"{where}: acknowledged {first.choice!r}, not stored")
        elif any(a.choice != row["answered_choice"] for a in items):
            choices = sorted({a.choice for a in items})
            report.lost.append(
                f"{where}: acknowledged {choices}, stored {row['answered_choice']!r}"
            )
        if sum(1 for a in items if a.how == "200") > 1:
            report.duplicated.append(f"{where}: acknowledged with 200 {len(items)} times")
    answered = {key: row for key, row in rows.items() if row["answered_at"] is not None}
    report.answered_in_db = len(answered)
    for key, row in answered.items():
        if key not in acked:
            report.unacknowledged.append(
                f"learner {row['quiz__learner_id']} quiz {key[0]} question {key[1] + 1}: "
                f"{row['answered_choice']!r} stored, never acknowledged"
            )

    expected: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
    for key, (judged, right) in (table_counts or {}).items():
        expected[key] = [judged, right]
    for row in answered.values():
        counts = expected[(row["quiz__learner_id"], row["kind"])]
        counts[0] += 1
        counts[1] += int(bool(row["correct"]))
    states = {
        (s.learner_id, s.skill): s for s in SkillState.objects.filter(learner_id__in=learner_ids)
    }
    report.skill_states = len(states)
    for key in sorted(set(states) | set(expected)):
        state = states.get(key)
        attempts, correct = (state.attempts, state.correct) if state else (0, 0)
        want_attempts, want_correct = expected.get(key, (0, 0))
        if (attempts, correct) != (want_attempts, want_correct):
            message = (
                f"learner {key[0]} skill {key[1]}: attempts {attempts}/correct {correct}, "
                f"answers stored and table decisions judged {want_attempts}/right "
                f"{want_correct}"
            )
            report.skill_mismatches.append(message)
            if attempts > want_attempts:
                report.duplicated.append(message)

    totals = Counter(key[0] for key in rows)
    dones = Counter(key[0] for key in answered)
    for quiz in Quiz.objects.filter(learner_id__in=learner_ids).values("id", "completed_at"):
        total, done = totals[quiz["id"]], dones[quiz["id"]]
        complete = total > 0 and done == total
        if complete != (quiz["completed_at"] is not None):
            report.completion_mismatches.append(
                f"quiz {quiz['id']}: {done}/{total} answered, completed_at "
                f"{'set' if quiz['completed_at'] else 'empty'}"
            )
    connection.close()
    return report


# --- the table rounds (issue 14) ------------------------------------------------------


def round_scenario(round_id: int, learner_id: int) -> dict | None:
    """The stored scenario of a learner's round, for the client to choose its moves.

    The benchmark client plays like the reference learner, which needs the deal; the
    page shows only the learner's own cards. Read once per round, outside the measured
    requests; the connection is closed at once, as the calling thread is a client's.
    """
    from tutor.table.models import TableRound

    try:
        row = (
            TableRound.objects.filter(pk=round_id, learner_id=learner_id)
            .values_list("scenario", flat=True)
            .first()
        )
    finally:
        connection.close()
    return row


@dataclass
class TableLog:
    """What one client knows about its round: each move it was told was made, with the
    move count its form carried (the move's index in the log), and each it was told was
    refused as stale or double."""

    learner: str
    learner_pk: int
    round_id: int
    focus: str = ""
    acked: list[tuple[int, dict]] = field(default_factory=list)  # (n, move), as told
    refused: list[tuple[int, dict]] = field(default_factory=list)  # (n, move): 409
    finished: bool = False  # the last move was acknowledged and the referee says done

    def moves(self) -> list[dict]:
        """The log the client believes is stored, in the order of the move counts."""
        return [move for _n, move in sorted(self.acked, key=lambda item: item[0])]


@dataclass
class RoundCheck:
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    unacknowledged: list[str] = field(default_factory=list)
    refused_stored: list[str] = field(default_factory=list)
    finish: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (
            self.lost or self.doubled or self.unacknowledged or self.refused_stored or self.finish
        )


def check_round(log: TableLog, stored: list, move_count: int, finished: bool) -> RoundCheck:
    """Compare one round's stored log with what its client was told (no database).

    - doubled: two moves acknowledged for the same move count (both requests believed
      they made the move), or ``move_count`` not the log's length;
    - lost: an acknowledged move missing from the stored log, or another move at its place;
    - unacknowledged: a stored move no client was told about;
    - refused_stored: a move the client was told was refused (409, or the redirect
      without ``#feedback``) that is in the stored log at its place;
    - finish: the client saw the round end and the database does not say so, or the
      other way round.
    """
    check = RoundCheck()
    where = f"{log.learner} round {log.round_id}"
    by_n: dict[int, list[dict]] = defaultdict(list)
    for n, move in log.acked:
        by_n[n].append(move)
    for n, moves in sorted(by_n.items()):
        if len(moves) > 1:
            check.doubled.append(f"{where} move {n + 1}: acknowledged {len(moves)} times")
    if move_count != len(stored):
        check.doubled.append(f"{where}: move_count {move_count}, {len(stored)} moves stored")
    for n, moves in sorted(by_n.items()):
        if n >= len(stored):
            check.lost.append(f"{where} move {n + 1}: acknowledged {moves[0]}, not stored")
        elif any(move != stored[n] for move in moves):
            check.lost.append(f"{where} move {n + 1}: acknowledged {moves[0]}, stored {stored[n]}")

    def was_refused(index: int, move: dict) -> bool:
        # A refused post carried a count <= the place it would have taken: a stale form
        # shows an older count; a second tab the same one.
        return any(n <= index and r == move for n, r in log.refused)

    for index, move in enumerate(stored):
        acked_here = by_n.get(index, [])
        if move in acked_here:
            continue
        if was_refused(index, move):
            check.refused_stored.append(f"{where} move {index + 1}: refused {move}, but stored")
        elif not acked_here:
            check.unacknowledged.append(
                f"{where} move {index + 1}: {move} stored, never acknowledged"
            )
    # A refused move equal to the acknowledged one at its place cannot be told apart
    # there; had it been stored as well, the log is a move longer: caught above.
    if log.finished != finished:
        check.finish.append(
            f"{where}: the client {'saw' if log.finished else 'did not see'} the round end, "
            f"finished_at is {'set' if finished else 'empty'}"
        )
    return check


def judgement_counts(table) -> dict[str, list[int]]:
    """skill -> [judged, right] over a table's judgements, as ``play_move`` counts them
    towards mastery (``info`` judgements do not count)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for j in table.judgements:
        if j.outcome in ("right", "wrong"):
            counts[j.skill][0] += 1
            counts[j.skill][1] += int(j.outcome == "right")
    return dict(counts)


@dataclass
class TableReconciliation:
    rounds: int = 0  # rounds the clients started
    rounds_in_db: int = 0
    finished: int = 0  # rounds the clients saw end
    acknowledged: int = 0  # moves
    stored: int = 0
    refused: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    unacknowledged: list[str] = field(default_factory=list)
    refused_stored: list[str] = field(default_factory=list)
    finish: list[str] = field(default_factory=list)
    bookkeeping: list[str] = field(default_factory=list)  # recorded / tally vs the referee
    # (learner id, skill) -> [judged, right], from the clients' acknowledged moves
    counts: dict[tuple[int, str], list[int]] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not (
            self.lost
            or self.doubled
            or self.unacknowledged
            or self.refused_stored
            or self.finish
            or self.bookkeeping
        )

    def add(self, check: RoundCheck) -> None:
        for name in ("lost", "doubled", "unacknowledged", "refused_stored", "finish"):
            getattr(self, name).extend(getattr(check, name))

    def lines(self) -> list[str]:
        judged = sum(c[0] for c in self.counts.values())
        right = sum(c[1] for c in self.counts.values())
        out = [
            f"rounds started by the clients: {self.rounds} (in the database: "
            f"{self.rounds_in_db}), seen to the end: {self.finished}; moves acknowledged: "
            f"{self.acknowledged}, stored: {self.stored}, refused as stale or double: "
            f"{self.refused}",
            f"lost: {len(self.lost)}, doubled: {len(self.doubled)}, unacknowledged: "
            f"{len(self.unacknowledged)}, refused but stored: {len(self.refused_stored)}, "
            f"finished mark wrong: {len(self.finish)}, recorded/tally != referee: "
            f"{len(self.bookkeeping)}",
            f"table judgements counted towards mastery: {judged} ({right} right); checked "
            "with the skill states below",
        ]
        for label, items in (
            ("lost", self.lost),
            ("doubled", self.doubled),
            ("unacknowledged", self.unacknowledged),
            ("refused but stored", self.refused_stored),
            ("finished", self.finish),
            ("bookkeeping", self.bookkeeping),
        ):
            out += [f"  {label}: {item}" for item in items[:10]]
            if len(items) > 10:
                out.append(f"  {label}: ... {len(items) - 10} more")
        return out


def reconcile_tables(learner_ids: list[int], logs: list[TableLog]) -> TableReconciliation:
    """Every round's stored moves equal, in order, the moves its client was told were
    made, none doubled or lost, refused ones absent; rounds seen to the end are
    finished; ``recorded`` and ``tally`` agree with the referee's judgements of the
    stored log. ``counts`` holds the judgements of the acknowledged moves per learner
    and skill, for the skill states check of :func:`reconcile`."""
    from teaching.table import Scenario, TableError, referee
    from tutor.table.models import TableRound

    report = TableReconciliation(rounds=len(logs))
    report.finished = sum(log.finished for log in logs)
    report.acknowledged = sum(len(log.acked) for log in logs)
    report.refused = sum(len(log.refused) for log in logs)
    rows = {
        r["id"]: r
        for r in TableRound.objects.filter(learner_id__in=learner_ids).values(
            "id",
            "learner_id",
            "scenario",
            "moves",
            "move_count",
            "recorded",
            "tally",
            "finished_at",
        )
    }
    report.rounds_in_db = len(rows)
    report.stored = sum(len(r["moves"]) for r in rows.values())
    known = {log.round_id for log in logs}
    for round_id, row in sorted(rows.items()):
        if round_id not in known:
            report.unacknowledged.append(
                f"learner {row['learner_id']} round {round_id}: started, no client was told "
                f"({len(row['moves'])} moves)"
            )
    counts: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
    for log in logs:
        row = rows.get(log.round_id)
        if row is None or row["learner_id"] != log.learner_pk:
            report.lost.append(f"{log.learner} round {log.round_id}: not stored for this learner")
            continue
        done = row["finished_at"] is not None
        report.add(check_round(log, row["moves"], row["move_count"], done))
        scenario = Scenario.from_dict(row["scenario"])
        for which, moves in (("the client's", log.moves()), ("the stored", row["moves"])):
            try:
                table = referee(scenario, moves)
            except TableError as error:
                report.bookkeeping.append(
                    f"round {log.round_id}: the referee refuses {which} log: {error}"
                )
                continue
            if moves is row["moves"]:
                report.bookkeeping += _bookkeeping(log.round_id, row, table)
            else:
                for skill, (judged, right) in judgement_counts(table).items():
                    counts[(log.learner_pk, skill)][0] += judged
                    counts[(log.learner_pk, skill)][1] += right
    report.counts = dict(counts)
    connection.close()
    return report


def _bookkeeping(round_id: int, row: dict, table) -> list[str]:
    """``recorded``, ``tally`` and ``finished_at`` of a stored round against its replay."""
    out = []
    if row["recorded"] != len(table.judgements):
        out.append(
            f"round {round_id}: recorded {row['recorded']}, the referee makes "
            f"{len(table.judgements)} judgements"
        )
    tally: dict[str, dict[str, int]] = {}
    for j in table.judgements:
        per = tally.setdefault(j.skill, {"right": 0, "wrong": 0, "info": 0})
        per[j.outcome] += 1
    stored = {
        skill: {k: v for k, v in per.items() if v} for skill, per in (row["tally"] or {}).items()
    }
    want = {skill: {k: v for k, v in per.items() if v} for skill, per in tally.items()}
    if stored != want:
        out.append(f"round {round_id}: tally {row['tally']}, the referee's judgements {tally}")
    if (table.phase == "done") != (row["finished_at"] is not None):
        out.append(
            f"round {round_id}: phase {table.phase!r}, finished_at "
            f"{'set' if row['finished_at'] else 'empty'}"
        )
    return out
