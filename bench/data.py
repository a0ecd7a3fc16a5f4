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
    plan.timings = timings
    connections.close_all()
    return plan


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
            f"skill states checked: {self.skill_states}, attempts/correct != answers stored: "
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


def reconcile(learner_ids: list[int], acks: list[Ack]) -> Reconciliation:
    """Every acknowledged answer stored exactly once with its choice, nothing else stored.

    - lost: an acknowledged (quiz, position) that is unanswered or holds another choice;
    - duplicated: a question acknowledged with 200 more than once (two requests both
      believed they saved it), or a skill state that counted more answers than exist;
    - unacknowledged: an answered question no client was told about;
    - skill states: ``attempts`` and ``correct`` per learner and skill must equal the
      answered (and right) questions of that skill, over all the learner's quizzes.
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
                f"answers stored {want_attempts}/right {want_correct}"
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


def first_unanswered(quiz_id: int) -> int | None:
    """The database's own view of where a quiz resumes (for the fault report)."""
    row = (
        QuizQuestion.objects.filter(quiz_id=quiz_id, answered_at__isnull=True)
        .order_by("position")
        .values_list("position", flat=True)
        .first()
    )
    return row
