"""Reads for the LTI tool: which platforms may frame the site, what a launch points at."""

from __future__ import annotations

from urllib.parse import urlsplit

from lti_tool.models import LtiContext, LtiRegistration, LtiResourceLink, LtiUser

from tutor.classroom.models import Assignment, SchoolClass

from .models import LtiAssignmentLink, LtiClass


def origin_of(url: str) -> str | None:
    """The origin (scheme, host, port) of an absolute http(s) URL, else None.

    >>> origin_of("https://moodle.school.ch/mod/lti/auth.php")
    'https://moodle.school.ch'
    >>> origin_of("https://moodle.school.ch:8443"), origin_of("not a url")
    ('https://moodle.school.ch:8443', None)
    """
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def registration_origins(registration: LtiRegistration) -> list[str]:
    """Where a platform's pages come from: its issuer's and its login page's origins
    (Moodle's issuer is its site URL; others name the issuer differently)."""
    found = (origin_of(registration.issuer), origin_of(registration.auth_url))
    return sorted({origin for origin in found if origin})


def platform_origins() -> list[str]:
    """The origins of every active registration: who may frame the /lti/ pages."""
    origins: set[str] = set()
    for registration in LtiRegistration.objects.filter(is_active=True):
        origins.update(registration_origins(registration))
    return sorted(origins)


def class_of_context(context: LtiContext) -> SchoolClass | None:
    link = LtiClass.objects.select_related("school_class").filter(context=context).first()
    return link.school_class if link else None


def linked_assignment(resource_link: LtiResourceLink) -> Assignment | None:
    link = (
        LtiAssignmentLink.objects.select_related("assignment")
        .filter(resource_link=resource_link)
        .first()
    )
    return link.assignment if link else None


def assignment_of_class(school_class: SchoolClass, raw_id: str) -> Assignment | None:
    """The class's assignment with the id a platform's custom parameter names, or None
    (not a number, another class's, gone)."""
    if not raw_id.strip().isdigit():
        return None
    return Assignment.objects.filter(school_class=school_class, pk=int(raw_id)).first()


def lti_learners_of_class(school_class: SchoolClass, context: LtiContext) -> dict[int, str]:
    """The class's learners who came from this course's platform: account id -> the
    platform's user id (``sub``). Learners who joined by code are not in it."""
    rows = LtiUser.objects.filter(
        registration=context.deployment.registration,
        auth_user__memberships__school_class=school_class,
    ).values_list("auth_user_id", "sub")
    return {user_id: sub for user_id, sub in rows if user_id is not None}
