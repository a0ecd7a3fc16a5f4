from __future__ import annotations

from django.db.models import Count, QuerySet

from tutor.accounts.models import User

from .models import SchoolClass


def classes_taught_by(teacher: User) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(teacher=teacher).annotate(learner_count=Count("memberships"))


def classes_of_learner(learner: User) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(memberships__learner=learner).select_related("teacher")
