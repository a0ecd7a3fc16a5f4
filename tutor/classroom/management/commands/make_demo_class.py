"""``python manage.py make_demo_class``: a class with a realistic answer history.

For demos and benchmarks of the results pages::

    python manage.py make_demo_class --learners 40 --assignments 20 [--seed N]
        [--teacher NAME] [--name "Class name"] [--replace]

Idempotent per class name: the class is named after its size and seed unless
``--name`` is given; when the teacher already has a class of that name nothing is
done, unless ``--replace`` deletes it (with its demo learners) and builds it anew.
The teacher is created when missing (password ``jass-demo-2026``, as for
``load_demo``); so are the learners (same password; usernames like ``jürg-12``,
``zoë-12``, suffixed with the class id so several demo classes never share one).

The history goes through the real services (``create_assignment``,
``start_or_resume``, ``quizzes.services.answer``, ``submit``), so scores, attempts
and mastery (SkillState) agree with the answers. Every learner has a latent ability
per skill that grows with practice; a right answer comes with a probability from
it, a wrong one picks a distractor weighted by how tempting its mistake is. The
services stamp the real time, so the assignments are created open, worked through,
and then the dates are moved into the past weeks (assignment dates, attempt start
and submission times, when each question was shown and answered, the late flag,
and each skill's last answer and review schedule), in a few bulk updates.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone

from rules_core import RuleSet
from teaching import mastery
from tutor.accounts.models import Role, User
from tutor.classroom.assignments import AssignmentSpec, create_assignment, start_or_resume, submit
from tutor.classroom.models import Assignment, Membership, SchoolClass
from tutor.classroom.results import name_key
from tutor.classroom.services import create_class
from tutor.quizzes.models import Quiz, QuizQuestion, Skill, SkillState
from tutor.quizzes.services import answer, answer_seconds, settle_released_answers

DEMO_PASSWORD = "jass-demo-2026"
DEFAULT_TEACHER = "lehrerin"

FIRST_NAMES = (
    "jürg",
    "zoë",
    "anna",
    "björn",
    "chiara",
    "dario",
    "elif",
    "fränzi",
    "gian",
    "hélène",
    "ivo",
    "jana",
    "köbi",
    "lea",
    "märki",
    "noé",
    "olivia",
    "päivi",
    "quirin",
    "rené",
    "sämi",
    "tanja",
    "ueli",
    "vreni",
    "walti",
    "xenia",
    "yannick",
    "zäzilia",
    "aurélie",
    "bänz",
    "céline",
    "dominik",
    "esmé",
    "flurin",
    "grégoire",
    "hänsu",
    "ilaria",
    "jöri",
    "kübra",
    "luzia",
    "mattéo",
    "nöldi",
    "ömer",
    "pius",
    "rosmarie",
    "seraina",
)

TITLES = {
    Skill.BASICS: "Puur, Nell und die Spieler",
    Skill.WEIS_VALUE: "Weis zählen",
    Skill.ANNOUNCE: "Weis melden: rechtzeitig und richtig",
    Skill.WHO_WRITES: "Wer schreibt den Weis?",
    Skill.LADDER_STEP: "Die Weis-Leiter",
    Skill.STOECK: "Stöck: gilt es noch?",
    Skill.TARGET: "Wer ist zuerst am Ziel?",
    Skill.JASSTAFEL: "Eine Runde auf der Jasstafel",
    Skill.TRICK: "Stichspiel",
}

# How hard a skill is (higher: harder) and how long an answer takes, in seconds.
DIFFICULTY: dict[str, float] = {  # keyed by Skill, a str
    Skill.BASICS: -1.0,
    Skill.TRICK: -0.6,
    Skill.WEIS_VALUE: -0.2,
    Skill.ANNOUNCE: 0.1,
    Skill.LADDER_STEP: 0.2,
    Skill.WHO_WRITES: 0.4,
    Skill.STOECK: 0.5,
    Skill.TARGET: 0.8,
    Skill.JASSTAFEL: 0.6,
}
SECONDS = {
    Skill.BASICS: 12,
    Skill.TRICK: 20,
    Skill.WEIS_VALUE: 28,
    Skill.ANNOUNCE: 40,
    Skill.LADDER_STEP: 35,
    Skill.WHO_WRITES: 60,
    Skill.STOECK: 45,
    Skill.TARGET: 80,
    Skill.JASSTAFEL: 70,
}


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@dataclass
class Learner:
    user: User
    ability: dict[str, float]
    diligence: float  # chance to do an assignment at all
    practice: dict[str, int] = field(default_factory=dict)  # answers per skill so far

    def p_right(self, skill: str) -> float:
        learned = 0.05 * min(self.practice.get(skill, 0), 20)
        return 0.15 + 0.8 * _sigmoid(self.ability[skill] + learned)


@dataclass
class Plan:
    """When an assignment really opened and was due (set after the simulation)."""

    assignment: Assignment
    opens_at: datetime
    due_at: datetime
    still_open: bool


@dataclass
class Stats:
    attempts: int = 0
    answers: int = 0
    submitted: int = 0
    late: int = 0
    in_progress: int = 0


class Command(BaseCommand):
    help = "Create a class of learners with assignments and a realistic answer history."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--learners", type=int, default=40)
        parser.add_argument("--assignments", type=int, default=20)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--teacher", default=DEFAULT_TEACHER)
        parser.add_argument("--name", default="", help="Class name (default: from size and seed).")
        parser.add_argument(
            "--replace", action="store_true", help="Delete a class of that name first."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        n_learners, n_assignments = options["learners"], options["assignments"]
        if not 1 <= n_learners <= 500 or not 1 <= n_assignments <= 100:
            raise CommandError("Use 1 to 500 learners and 1 to 100 assignments.")
        seed = options["seed"]
        name = options["name"] or f"Demo {n_learners}x{n_assignments} (Seed {seed})"
        started = time.monotonic()
        with transaction.atomic():
            teacher = self._teacher(options["teacher"])
            existing = SchoolClass.objects.filter(teacher=teacher, name=name).first()
            if existing is not None:
                if not options["replace"]:
                    self.stdout.write(
                        f"{teacher.username} already has the class {name!r} (id {existing.pk}, "
                        f"join code {existing.join_code}); nothing done. "
                        "Use --replace to build it anew."
                    )
                    return
                self._delete(existing)
            school_class, stats, plans = self._build(
                teacher, name, n_learners, n_assignments, random.Random(seed)
            )
        elapsed = time.monotonic() - started
        self._report(teacher, school_class, plans, stats, elapsed)

    # --- setup ---------------------------------------------------------------

    def _teacher(self, username: str) -> User:
        teacher = User.objects.filter(username=username).first()
        if teacher is None:
            teacher = User.objects.create(
                username=username, role=Role.TEACHER, password=make_password(DEMO_PASSWORD)
            )
            self.stdout.write(f"Created teacher {username!r} (password {DEMO_PASSWORD}).")
        elif not teacher.is_teacher:
            raise CommandError(f"{username!r} exists and is not a teacher.")
        return teacher

    def _delete(self, school_class: SchoolClass) -> None:
        """The class and the learners who are in no other class (they were made for it)."""
        only_here = (
            User.objects.filter(memberships__school_class=school_class)
            .annotate(n=Count("memberships"))
            .filter(n=1)
            .values_list("pk", flat=True)
        )
        User.objects.filter(pk__in=list(only_here), role=Role.LEARNER).delete()
        self.stdout.write(f"Deleted the old class {school_class.name!r} (id {school_class.pk}).")
        school_class.delete()

    def _learners(self, school_class: SchoolClass, count: int, rng: random.Random) -> list[Learner]:
        password = make_password(DEMO_PASSWORD)  # hashing once: PBKDF2 is slow on purpose
        users = []
        for i in range(count):
            first = FIRST_NAMES[i % len(FIRST_NAMES)]
            round_ = i // len(FIRST_NAMES)
            username = f"{first}{round_ + 1 if round_ else ''}-{school_class.pk}"
            users.append(User(username=username, role=Role.LEARNER, password=password))
        User.objects.bulk_create(users)
        users = list(User.objects.filter(username__in=[u.username for u in users]))
        Membership.objects.bulk_create(
            Membership(school_class=school_class, learner=u) for u in users
        )
        learners = []
        for user in sorted(users, key=lambda u: u.pk):
            general = rng.gauss(-0.4, 1.1)
            ability = {
                skill: general - DIFFICULTY[skill] + rng.gauss(0, 0.6) for skill in Skill.values
            }
            learners.append(Learner(user, ability, diligence=min(0.99, rng.uniform(0.75, 1.05))))
        return learners

    def _assignments(
        self, teacher: User, school_class: SchoolClass, count: int, rng: random.Random
    ) -> list[Plan]:
        """Weekly assignments, the oldest first; the newest is still open."""
        now = timezone.now()
        presets = list(RuleSet.presets())
        skills = list(Skill.values)
        plans = []
        for j in range(count):
            weeks_back = count - 1 - j
            opens = (now - timedelta(days=7 * weeks_back + 2)).replace(
                hour=8, minute=0, second=0, microsecond=0
            )
            due = opens + timedelta(days=6, hours=10)
            kinds = rng.sample(skills, rng.choice((1, 1, 2, 2, 3)))
            spec = AssignmentSpec(
                title=f"{j + 1}. " + " & ".join(TITLES[Skill(k)] for k in kinds),
                kinds=kinds,
                question_count=rng.choice((4, 5, 6, 6, 8)),
                rules_preset=rng.choice(presets[:1] * 3 + presets),
                # The services stamp the real time: open now, moved into the past later.
                opens_at=now - timedelta(minutes=1),
                due_at=now + timedelta(days=30),
                attempts_allowed=rng.choice((1, 1, 2, 3)),
                same_questions=rng.random() < 0.8,
                explanations=rng.choice(Assignment.Explanations.values),
                late_policy=rng.choice(Assignment.LatePolicy.values),
            )
            assignment = create_assignment(teacher=teacher, school_class=school_class, spec=spec)
            assignment.base_seed = rng.randrange(2**31)  # the same questions for the same seed
            assignment.save(update_fields=["base_seed"])
            plans.append(Plan(assignment, opens, due, still_open=due > now))
        return plans

    # --- the simulation ------------------------------------------------------

    def _build(
        self, teacher: User, name: str, n_learners: int, n_assignments: int, rng: random.Random
    ) -> tuple[SchoolClass, Stats, list[Plan]]:
        school_class = create_class(teacher=teacher, name=name)
        learners = self._learners(school_class, n_learners, rng)
        plans = self._assignments(teacher, school_class, n_assignments, rng)
        # A few mistakes are tempting for everybody: the teacher should see a pattern.
        temptation: dict[str, float] = {}
        stats = Stats()
        quiz_times: list[tuple[Quiz, datetime, datetime | None, datetime | None, bool]] = []
        question_times: list[QuizQuestion] = []
        last_answer: dict[tuple[int, str], datetime] = {}
        real_now = timezone.now()
        for plan in plans:
            for learner in learners:
                self._work(
                    plan,
                    learner,
                    rng,
                    temptation,
                    stats,
                    quiz_times,
                    question_times,
                    last_answer,
                    real_now,
                )
        self._move_into_the_past(plans, quiz_times, question_times, last_answer)
        return school_class, stats, plans

    def _work(
        self,
        plan: Plan,
        learner: Learner,
        rng: random.Random,
        temptation: dict[str, float],
        stats: Stats,
        quiz_times: list[tuple[Quiz, datetime, datetime | None, datetime | None, bool]],
        question_times: list[QuizQuestion],
        last_answer: dict[tuple[int, str], datetime],
        real_now: datetime,
    ) -> None:
        """One learner's attempts at one assignment, with the times they would have had."""
        assignment = plan.assignment
        if rng.random() > learner.diligence * (0.7 if plan.still_open else 1.0):
            return  # never started
        window_end = real_now - timedelta(minutes=30) if plan.still_open else plan.due_at
        late_ok = assignment.late_policy == Assignment.LatePolicy.MARK_LATE
        start = plan.opens_at + (window_end - plan.opens_at) * rng.uniform(0.05, 0.9)
        if late_ok and not plan.still_open and rng.random() < 0.15:
            start = plan.due_at + timedelta(hours=rng.uniform(1, 10))  # late, before the next opens
        for _attempt in range(assignment.attempts_allowed):
            quiz = start_or_resume(learner=learner.user, assignment=assignment)
            stats.attempts += 1
            questions = list(quiz.questions.select_related("quiz__assignment"))
            abandon = rng.random() < (0.2 if plan.still_open else 0.04)
            stop = rng.randrange(len(questions)) if abandon else len(questions)
            clock = start
            right = 0
            for question in questions[:stop]:
                correct, choice = self._choose(learner, question, rng, temptation)
                answer(learner=learner.user, question=question, choice=choice)
                learner.practice[question.kind] = learner.practice.get(question.kind, 0) + 1
                shown = clock + timedelta(seconds=rng.uniform(2, 12))
                seconds = SECONDS[Skill(question.kind)] * rng.lognormvariate(0, 0.45)
                answered = shown + timedelta(seconds=seconds * (1.0 if correct else 1.25))
                question.shown_at, question.answered_at = shown, answered
                question_times.append(question)
                if question.skill_recorded_at is not None:  # counted at once, not after due
                    question.skill_recorded_at = answered
                    key = (learner.user.pk, question.kind)
                    last_answer[key] = max(last_answer.get(key, answered), answered)
                clock = answered
                right += correct
                stats.answers += 1
            if abandon:
                stats.in_progress += 1
                quiz_times.append((quiz, start, None, None, False))
                return
            submitted = clock + timedelta(seconds=rng.uniform(10, 90))
            submit(learner=learner.user, quiz=quiz)
            late = submitted > plan.due_at
            stats.submitted += 1
            stats.late += late
            quiz_times.append((quiz, start, submitted, clock, late))
            # Another go when it went badly, time and attempts allowing.
            retry_start = submitted + timedelta(hours=rng.uniform(2, 48))
            # Room for a whole attempt before the deadline (or before the real now).
            if late_ok and not plan.still_open:
                limit = plan.due_at + timedelta(hours=12)
            else:
                limit = window_end - timedelta(hours=2)
            if right / len(questions) >= 0.7 or rng.random() < 0.4 or retry_start >= limit:
                return
            start = retry_start

    def _choose(
        self,
        learner: Learner,
        question: QuizQuestion,
        rng: random.Random,
        temptation: dict[str, float],
    ) -> tuple[bool, str]:
        data = question.question
        if rng.random() < learner.p_right(question.kind):
            return True, data["answer"]
        wrong = [c["key"] for c in data["choices"] if c["key"] != data["answer"]]
        weights = []
        for key in wrong:
            mistake = data["mistakes"].get(key, "")
            if mistake not in temptation:
                temptation[mistake] = rng.choice((0.3, 1.0, 1.0, 3.0, 6.0))
            weights.append(temptation[mistake])
        return False, rng.choices(wrong, weights=weights)[0]

    def _move_into_the_past(
        self,
        plans: list[Plan],
        quiz_times: list[tuple[Quiz, datetime, datetime | None, datetime | None, bool]],
        question_times: list[QuizQuestion],
        last_answer: dict[tuple[int, str], datetime],
    ) -> None:
        for plan in plans:
            plan.assignment.opens_at, plan.assignment.due_at = plan.opens_at, plan.due_at
            plan.assignment.created_at = plan.opens_at - timedelta(days=2)
        Assignment.objects.bulk_update(
            [p.assignment for p in plans], ["opens_at", "due_at", "created_at"], batch_size=200
        )
        quizzes = []
        for quiz, start, submitted, completed, late in quiz_times:
            quiz.created_at, quiz.submitted_at, quiz.late = start, submitted, late
            quiz.completed_at = completed  # the last answer, when every question was answered
            quizzes.append(quiz)
        Quiz.objects.bulk_update(
            quizzes, ["created_at", "submitted_at", "late", "completed_at"], batch_size=500
        )
        QuizQuestion.objects.bulk_update(
            question_times, ["shown_at", "answered_at", "skill_recorded_at"], batch_size=500
        )
        states = list(
            SkillState.objects.filter(
                learner__memberships__school_class=plans[0].assignment.school_class
            )
        )
        # The services scheduled every review at the real time, all within seconds; replay
        # the answers that counted at once at their moved times, so that FSRS sees the
        # spacing of weeks a real history has.
        counted: dict[tuple[int, str], list[QuizQuestion]] = {}
        # Every question here was answered: answered_at is set.
        for question in sorted(question_times, key=lambda q: cast(datetime, q.answered_at)):
            if question.skill_recorded_at is not None:
                counted.setdefault((question.quiz.learner_id, question.kind), []).append(question)
        for state in states:
            last = last_answer.get((state.learner_id, state.skill))
            if last is not None:
                state.last_answered_at, state.fsrs_card = last, None
                for question in counted[(state.learner_id, state.skill)]:
                    state.fsrs_card, state.due_at = mastery.review(
                        state.fsrs_card,
                        bool(question.correct),
                        answer_seconds(question),
                        cast(datetime, question.answered_at),
                    )
        SkillState.objects.bulk_update(
            states, ["last_answered_at", "due_at", "fsrs_card"], batch_size=500
        )
        # Answers kept out of mastery until their (now past) due date count now.
        school_class = plans[0].assignment.school_class
        settle_released_answers(school_class.memberships.values_list("learner_id", flat=True))

    # --- output --------------------------------------------------------------

    def _report(
        self,
        teacher: User,
        school_class: SchoolClass,
        plans: list[Plan],
        stats: Stats,
        elapsed: float,
    ) -> None:
        learners = school_class.memberships.count()
        self.stdout.write(
            self.style.SUCCESS(
                f"Class {school_class.name!r} (id {school_class.pk}, join code "
                f"{school_class.join_code}) of teacher {teacher.username!r}: {learners} learners, "
                f"{len(plans)} assignments, {stats.attempts} attempts ({stats.submitted} "
                f"submitted, {stats.late} late, {stats.in_progress} in progress), "
                f"{stats.answers} answers, in {elapsed:.1f} s."
            )
        )
        names = sorted(
            school_class.memberships.values_list("learner__username", flat=True), key=name_key
        )[:6]
        self.stdout.write(
            f"Learners (password {DEMO_PASSWORD}): {', '.join(names)}"
            + (", ..." if learners > len(names) else "")
        )
        newest = plans[-1].assignment
        self.stdout.write("Results: " + reverse("classroom:assignment_results", args=[newest.pk]))
        self.stdout.write("Mastery: " + reverse("classroom:class_mastery", args=[school_class.pk]))
