"""What a school platform sent about a learner and the grades sent back, in the
learner's data export (tutor/classroom/privacy.py adds these tables to its own)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy
from lti_tool.models import LtiUser

from tutor.accounts.models import User
from tutor.classroom.privacy import ExtraSection, Section

from .models import GradePost

PLATFORM_ACCOUNTS = Section(
    "school_platform",
    ("platform", "platform_user_id", "given_name", "family_name", "name", "email", "first_launch"),
    gettext_lazy(
        "What a school platform (LTI) sent about the learner at their launches. "
        "The e-mail address is kept here only, never on the account."
    ),
)
GRADES_SENT = Section(
    "grades_sent",
    (
        "assignment_id",
        "platform",
        "score",
        "comment",
        "scored_at",
        "state",
        "tries",
        "sent_at",
    ),
    gettext_lazy(
        "Scores sent to a school platform's gradebook (0-1). Before an assignment's "
        "solutions are shown, its score and comment stay empty here, as on the platform."
    ),
)


def platform_accounts(learner: User, now: datetime) -> list[dict[str, Any]]:
    return [
        {
            "platform": user.registration.name,
            "platform_user_id": user.sub,
            "given_name": user.given_name,
            "family_name": user.family_name,
            "name": user.name,
            "email": user.email,
            "first_launch": user.datetime_created,
        }
        for user in LtiUser.objects.filter(auth_user=learner)
        .select_related("registration")
        .order_by("datetime_created", "pk")
    ]


def grades_sent(learner: User, now: datetime) -> list[dict[str, Any]]:
    rows = []
    posts = (
        GradePost.objects.filter(learner=learner)
        .select_related(
            "link__assignment", "link__resource_link__context__deployment__registration"
        )
        .order_by("scored_at", "pk")
    )
    for post in posts:
        shown = post.link.assignment.explanations_visible(now)
        rows.append(
            {
                "assignment_id": post.link.assignment_id,
                "platform": post.link.resource_link.context.deployment.registration.name,
                "score": float(post.score) if shown else None,
                "comment": post.comment if shown else "",
                "scored_at": post.scored_at,
                "state": post.state,
                "tries": post.tries,
                "sent_at": post.sent_at,
            }
        )
    return rows


EXPORTS = (
    ExtraSection(PLATFORM_ACCOUNTS, platform_accounts),
    ExtraSection(GRADES_SENT, grades_sent),
)
