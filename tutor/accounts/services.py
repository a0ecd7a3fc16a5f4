"""Account creation. Learners sign up themselves; teachers are made by an admin."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.db import transaction

from tutor.classroom.services import join_class

from .models import Role, User


@transaction.atomic
def signup_learner(*, username: str, password: str, join_code: str = "") -> User:
    """Create a learner; with a join code, also put them in that class.

    The join code is checked inside the same transaction, so a wrong code leaves
    no half-made account behind (``ClassroomError`` propagates).
    """
    user = User(username=username, role=Role.LEARNER)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    if join_code.strip():
        join_class(learner=user, code=join_code)
    return user


def create_teacher(*, username: str, password: str, email: str = "") -> User:
    user = User(username=username, email=email, role=Role.TEACHER)
    user.set_password(password)
    user.save()
    return user
