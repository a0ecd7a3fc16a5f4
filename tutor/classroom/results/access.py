"""Which class, assignment or learner a teacher may read: each is looked up together
with its teacher, so somebody else's id is a 404 and reveals nothing. The class pages
and the roster use :func:`class_of_teacher` too."""

from __future__ import annotations

from django.http import Http404

from tutor.accounts.models import User

from ..models import Assignment, Membership, SchoolClass


def class_of_teacher(teacher: User, class_id: int) -> SchoolClass:
    """The teacher's own class; any other id is a 404."""
    school_class = SchoolClass.objects.filter(pk=class_id, teacher_id=teacher.pk).first()
    if school_class is None:
        raise Http404("No such class")
    return school_class


def assignment_of_teacher(teacher: User, assignment_id: int) -> Assignment:
    """An assignment of one of the teacher's classes (with its class); else a 404."""
    assignment = (
        Assignment.objects.select_related("school_class")
        .filter(pk=assignment_id, school_class__teacher_id=teacher.pk)
        .first()
    )
    if assignment is None:
        raise Http404("No such assignment")
    return assignment


def learner_in_class(teacher: User, class_id: int, learner_id: int) -> tuple[SchoolClass, User]:
    """(class, learner) when the class is the teacher's and the learner is in it; else 404."""
    membership = (
        Membership.objects.select_related("school_class", "learner")
        .filter(
            school_class_id=class_id,
            school_class__teacher_id=teacher.pk,
            learner_id=learner_id,
        )
        .first()
    )
    if membership is None:
        raise Http404("No such learner in this class")
    return membership.school_class, membership.learner
