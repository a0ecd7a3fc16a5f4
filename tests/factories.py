"""All test data factories, in one place."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.utils import timezone

from rules_core import RuleSet
from teaching.generators import generate
from teaching.table import build_scenario
from tutor.accounts.models import Role, User
from tutor.classroom.models import Assignment, Membership, SchoolClass
from tutor.lessons.models import Lesson, LessonText
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.table.models import TableRound

PASSWORD = "correct-horse-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    role = Role.LEARNER
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj: User, create: bool, extracted: object, **kwargs: object) -> None:
        if create:
            obj.save()


class LearnerFactory(UserFactory):
    username = factory.Sequence(lambda n: f"learner{n}")
    role = Role.LEARNER


class TeacherFactory(UserFactory):
    username = factory.Sequence(lambda n: f"teacher{n}")
    role = Role.TEACHER


class SchoolClassFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SchoolClass

    teacher = factory.SubFactory(TeacherFactory)
    name = factory.Sequence(lambda n: f"Klasse {n}")
    join_code = factory.Sequence(lambda n: f"CODE{n:04d}".replace("0", "Z").replace("1", "Y"))


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    school_class = factory.SubFactory(SchoolClassFactory)
    learner = factory.SubFactory(LearnerFactory)


class AssignmentFactory(factory.django.DjangoModelFactory):
    """An open assignment (opened yesterday, due tomorrow) under the default rules."""

    class Meta:
        model = Assignment

    school_class = factory.SubFactory(SchoolClassFactory)
    title = factory.Sequence(lambda n: f"Aufgabe {n}")
    kinds = factory.LazyFunction(lambda: ["weis_value", "trick"])
    question_count = 4
    rules_preset = "default"
    rules = factory.LazyAttribute(lambda a: RuleSet.preset(a.rules_preset).to_dict())
    opens_at = factory.LazyFunction(lambda: timezone.now() - timedelta(days=1))
    due_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=1))
    attempts_allowed = 1
    base_seed = factory.Sequence(lambda n: 1000 + n)


class QuizFactory(factory.django.DjangoModelFactory):
    """A practice quiz; give ``assignment`` for an attempt."""

    class Meta:
        model = Quiz

    learner = factory.SubFactory(LearnerFactory)
    rules = factory.LazyFunction(lambda: RuleSet().to_dict())


class QuizQuestionFactory(factory.django.DjangoModelFactory):
    """A question generated from ``kind`` and ``seed`` under the quiz's rules, as the
    services store it."""

    class Meta:
        model = QuizQuestion

    quiz = factory.SubFactory(QuizFactory)
    position = factory.Sequence(lambda n: n)
    kind = "weis_value"
    seed = factory.Sequence(lambda n: n)
    question = factory.LazyAttribute(
        lambda q: generate(q.kind, q.seed, RuleSet.from_dict(q.quiz.rules)).to_dict()
    )


class SkillStateFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = SkillState

    learner = factory.SubFactory(LearnerFactory)
    skill = "weis_value"
    mastery = 0.25
    attempts = 0


class LessonFactory(factory.django.DjangoModelFactory):
    """A lesson with its texts: ``bodies={"de": ..., "en": ...}`` (default: both
    languages, one short section)."""

    class Meta:
        model = Lesson
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"lesson-{n}")
    position = factory.Sequence(lambda n: n + 1)
    rules = factory.LazyFunction(lambda: ["R5.1"])
    sources = factory.LazyFunction(lambda: ["W-DE"])
    content_hash = factory.LazyAttribute(lambda lesson: lesson.slug)

    @factory.post_generation
    def bodies(obj: Lesson, create: bool, extracted: dict[str, str] | None, **kwargs: object):
        if not create:
            return
        for lang, body in (
            extracted or {"de": "## Teil\n\nText.\n", "en": "## Part\n\nText.\n"}
        ).items():
            LessonText.objects.create(
                lesson=obj,
                language=lang,
                title=kwargs.get("title", f"{obj.slug} ({lang})"),
                body=body,
                source_file=f"{obj.slug}.{lang}.md",
            )


class TableRoundFactory(factory.django.DjangoModelFactory):
    """A round at the table with no moves yet, aimed at ``focus`` with ``seed`` under
    the rule set ``preset``, stored as ``services.start_round`` stores it."""

    class Meta:
        model = TableRound

    class Params:
        preset = "default"

    learner = factory.SubFactory(LearnerFactory)
    focus = "stoeck"
    seed = factory.Sequence(lambda n: 2 * n)
    rules = factory.LazyAttribute(lambda r: RuleSet.preset(r.preset).to_dict())
    scenario = factory.LazyAttribute(
        lambda r: build_scenario(r.focus, r.seed, RuleSet.from_dict(r.rules)).to_dict()
    )


class TableAssignmentFactory(AssignmentFactory):
    """An open assignment of ``round_count`` rounds at the table aimed at ``focus``."""

    activity = Assignment.Activity.TABLE
    kinds = factory.LazyFunction(list)
    question_count = 0
    round_count = 2
    focus = "stoeck"
