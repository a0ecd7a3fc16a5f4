"""Account creation. Learners sign up themselves; teachers are made by an admin."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .models import Role, User
from .validators import normalise_username, validate_new_username


@transaction.atomic
def signup_learner(*, username: str, password: str) -> User:
    """Create a learner (the class app's sign-up also puts them in a class)."""
    user = User(username=username, role=Role.LEARNER)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user


def create_teacher(*, username: str, password: str, email: str = "") -> User:
    """Make a teacher account under the sign-up rules for the name and the password.

    Raises ``ValidationError`` for a name outside the profile, a name that exists or
    looks like one that does, or a password the validators refuse.
    """
    username = normalise_username(username)
    existing = list(User.objects.values_list("username", flat=True))
    if username in existing:
        raise ValidationError(_("A user with that username already exists."), code="unique")
    validate_new_username(username, existing)
    user = User(username=username, email=email, role=Role.TEACHER)
    validate_password(password, user)
    user.set_password(password)
    user.save()
    return user
