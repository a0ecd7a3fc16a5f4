"""Creating classes and joining them. Views call these; they hold the rules."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tutor.accounts.models import User
from tutor.accounts.services import signup_learner

from .models import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, Membership, SchoolClass


class ClassroomError(Exception):
    """A request about a class that cannot be carried out; the message is for the user."""


def generate_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def normalise_join_code(code: str) -> str:
    """Pupils type codes in lower case, with spaces or dashes; accept that."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def create_class(*, teacher: User, name: str, join_code: str | None = None) -> SchoolClass:
    if not teacher.is_teacher:
        raise ClassroomError(_("Only teachers can create classes."))
    name = name.strip()
    if not name:
        raise ClassroomError(_("A class needs a name."))
    for _attempt in range(10):
        code = join_code or generate_join_code()
        try:
            with transaction.atomic():
                return SchoolClass.objects.create(teacher=teacher, name=name, join_code=code)
        except IntegrityError:
            if join_code:
                raise ClassroomError(_("That join code is taken.")) from None
    raise ClassroomError(_("Could not find a free join code; please try again."))


def rotate_join_code(*, teacher: User, school_class: SchoolClass) -> SchoolClass:
    """A new code, for when the old one went where it should not; members stay."""
    if school_class.teacher_id != teacher.pk:
        raise ClassroomError(_("You can only change your own classes."))
    for _attempt in range(10):
        school_class.join_code = generate_join_code()
        try:
            with transaction.atomic():
                school_class.save(update_fields=["join_code"])
            return school_class
        except IntegrityError:
            continue
    raise ClassroomError(_("Could not find a free join code; please try again."))


def remove_learner(*, teacher: User, school_class: SchoolClass, learner_id: int) -> None:
    """Take a learner out of the class; their answers stay theirs."""
    if school_class.teacher_id != teacher.pk:
        raise ClassroomError(_("You can only change your own classes."))
    deleted, _rows = Membership.objects.filter(
        school_class=school_class, learner_id=learner_id
    ).delete()
    if not deleted:
        raise ClassroomError(_("This learner is not in the class."))


def join_class(*, learner: User, code: str) -> SchoolClass:
    """Add a learner to the class with this join code; joining twice is harmless."""
    if not learner.is_learner:
        raise ClassroomError(_("Only learners can join a class."))
    school_class = SchoolClass.objects.filter(join_code=normalise_join_code(code)).first()
    if school_class is None:
        raise ClassroomError(_("No class has this join code. Check it with your teacher."))
    add_to_class(learner=learner, school_class=school_class)
    return school_class


def add_to_class(*, learner: User, school_class: SchoolClass) -> None:
    """Make the learner a member (by the class's join code, or a live session's code);
    joining twice is harmless."""
    if not learner.is_learner:
        raise ClassroomError(_("Only learners can join a class."))
    Membership.objects.get_or_create(school_class=school_class, learner=learner)


@transaction.atomic
def signup_and_join(*, username: str, password: str, join_code: str = "") -> User:
    """Create a learner and, with a join code, put them in that class.

    One transaction: a wrong code leaves no half-made account behind
    (``ClassroomError`` propagates).
    """
    user = signup_learner(username=username, password=password)
    if join_code.strip():
        join_class(learner=user, code=join_code)
    return user
