"""All test data factories, in one place."""

from __future__ import annotations

import factory

from tutor.accounts.models import Role, User
from tutor.classroom.models import Membership, SchoolClass

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
