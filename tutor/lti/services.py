"""What a launch from a school platform does on this site: it is checked once, signs the
person in to an account of their own, turns the course into a class, and says where
the person lands. Names and roles from the platform (NRPS) keep the class in step.

The JWT work is pylti1p3's (through django-lti); the rules about people and classes
are here.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _
from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role
from lti_tool.models import (
    Key,
    LtiContext,
    LtiDeployment,
    LtiLaunch,
    LtiRegistration,
    LtiResourceLink,
    LtiUser,
)
from lti_tool.utils import DjangoToolConfig
from pylti1p3.contrib.django.launch_data_storage.cache import DjangoCacheDataStorage
from pylti1p3.contrib.django.message_launch import DjangoMessageLaunch
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.exception import LtiException
from pylti1p3.lineitem import LineItem
from pylti1p3.names_roles import NamesRolesProvisioningService

from tutor.accounts.models import Role, User
from tutor.classroom import assignments
from tutor.classroom.models import Assignment, SchoolClass
from tutor.classroom.services import ClassroomError, add_to_class, create_class, remove_learner

from . import platform, selectors
from .models import LtiAssignmentLink, LtiClass

AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
# Roles in the course that make a teacher here; every other role (Learner, Mentor, none)
# makes a learner.
TEACHER_ROLES = frozenset(
    role.value
    for role in (ContextRole.INSTRUCTOR, ContextRole.ADMINISTRATOR, ContextRole.CONTENT_DEVELOPER)
)
# A token's nonce is remembered this long after its one use: longer than any id_token
# lives (platforms issue them for minutes; pylti1p3 keeps the nonce a day).
USED_NONCE_SECONDS = 24 * 3600
USERNAME_PREFIX = "lti-"
# A platform's service (token, member list) that does not answer in this time is given
# up on: a teacher's launch waits for the member list.
PLATFORM_TIMEOUT_SECONDS = 10


class LaunchRefused(Exception):
    """A launch that cannot be carried out; the message is for the person launching."""

    def __init__(self, message: str, *, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


class NoClassYet(Exception):
    """A learner launched from a course whose teacher has not opened the tool yet."""


def launch_storage() -> DjangoCacheDataStorage:
    """pylti1p3's store of OIDC state, nonces and launch data: the shared ``lti`` cache."""
    return DjangoCacheDataStorage(cache_name=settings.LTI_CACHE_ALIAS)


def validated_launch(request: HttpRequest) -> LtiLaunch:
    """The launch this request carries, checked by pylti1p3 (state, signature against
    the platform's keys, issuer, audience, deployment, expiry, nonce) and used once.

    pylti1p3 checks that the nonce was issued by this tool but keeps it afterwards, so
    a token posted again would pass; the first use marks it here (an atomic ``add`` in
    the shared cache), and a second is refused. Raises ``LtiException``.
    """
    message_launch = DjangoMessageLaunch(
        request, DjangoToolConfig(), launch_data_storage=launch_storage()
    )
    message_launch.validate()
    nonce = str(message_launch.get_launch_data().get("nonce", ""))
    if not caches[settings.LTI_CACHE_ALIAS].add(f"lti-used-nonce-{nonce}", 1, USED_NONCE_SECONDS):
        raise LtiException("This launch was used already (same nonce).")
    return LtiLaunch(message_launch)


def is_teacher_role(roles: Iterable[str]) -> bool:
    """Whether the course roles of a launch or a member list make a teacher here.

    >>> is_teacher_role(["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"])
    True
    >>> is_teacher_role(["Learner"]), is_teacher_role([])
    (False, False)
    """
    return any(normalize_role(role) in TEACHER_ROLES for role in roles)


def _names(lti_user: LtiUser) -> tuple[str, str]:
    first, last = lti_user.given_name.strip(), lti_user.family_name.strip()
    if not (first or last) and lti_user.name.strip():
        first, _space, last = lti_user.name.strip().rpartition(" ")
        if not first:
            first, last = last, ""
    return first[:150], last[:150]


def _new_account(lti_user: LtiUser, role: Role) -> User:
    first, last = _names(lti_user)
    for _attempt in range(10):
        user = User(
            username=USERNAME_PREFIX + secrets.token_hex(5),
            role=role,
            first_name=first,
            last_name=last,
        )
        # No password: the account is reached through the platform only.
        user.set_unusable_password()
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            continue
        return user
    raise LaunchRefused(_("Could not make an account; please try again."), status=503)


@transaction.atomic
def account_for(lti_user: LtiUser, *, teacher: bool) -> User:
    """The site's account of a platform user, made at their first launch.

    Linked by the platform's user id (registration and ``sub``) only, never by an
    e-mail address: an address a platform sends is not proof of owning a local account.
    The role is the one of the first launch; a later launch in the other role (e.g. a
    teacher's "switch role to student") is refused rather than changing the account.
    """
    lti_user = LtiUser.objects.select_for_update().get(pk=lti_user.pk)
    wanted = Role.TEACHER if teacher else Role.LEARNER
    user = lti_user.auth_user
    if user is None:
        user = _new_account(lti_user, wanted)
        lti_user.auth_user = user
        lti_user.save(update_fields=["auth_user", "datetime_modified"])
        return user
    if not user.is_active:
        raise LaunchRefused(_("This account is switched off on this site."))
    if user.role != wanted:
        raise LaunchRefused(
            _(
                "Your account on this site has the role “%(role)s”, but the platform opened "
                "this activity in another role. Open it in the role you had the first time."
            )
            % {"role": user.get_role_display()}
        )
    first, last = _names(lti_user)
    if (first, last) != (user.first_name, user.last_name) and (first or last):
        user.first_name, user.last_name = first, last
        user.save(update_fields=["first_name", "last_name"])
    return user


def _course_name(context: LtiContext) -> str:
    name = (context.title or context.label or "").strip() or _("Course from the school platform")
    return name[:80]


def class_for_teacher(context: LtiContext, teacher: User) -> SchoolClass:
    """The course's class; the first instructor who opens the tool creates it and
    teaches it. A second instructor of the course is refused: a class has one teacher."""
    school_class = selectors.class_of_context(context)
    if school_class is None:
        try:
            with transaction.atomic():
                school_class = create_class(teacher=teacher, name=_course_name(context))
                LtiClass.objects.create(context=context, school_class=school_class)
        except IntegrityError:
            # Two instructors at once: the other launch made it.
            school_class = selectors.class_of_context(context)
        except ClassroomError as error:
            raise LaunchRefused(str(error)) from error
    if school_class is None or school_class.teacher_id != teacher.pk:
        raise LaunchRefused(
            _(
                "This course's class on this site belongs to another teacher of the course "
                "(the first who opened the tool). Ask them to share results with you."
            )
        )
    return school_class


def class_for_learner(context: LtiContext, learner: User) -> SchoolClass:
    """The course's class, with the learner in it; ``NoClassYet`` before any instructor
    opened the tool in the course."""
    school_class = selectors.class_of_context(context)
    if school_class is None:
        raise NoClassYet
    add_to_class(learner=learner, school_class=school_class)
    return school_class


def _custom_assignment(launch_data: Mapping[str, Any]) -> str:
    custom = launch_data.get("https://purl.imsglobal.org/spec/lti/claim/custom") or {}
    value = custom.get("assignment", "") if isinstance(custom, Mapping) else ""
    return str(value)


def _lineitem_url(launch_data: Mapping[str, Any]) -> str:
    ags = launch_data.get(AGS_CLAIM) or {}
    value = ags.get("lineitem", "") if isinstance(ags, Mapping) else ""
    return str(value)[:500]


def target_assignment(lti_launch: LtiLaunch, school_class: SchoolClass) -> Assignment | None:
    """The assignment the activity opens: named by its custom parameter
    ``assignment=<id>`` (then remembered with the activity's line item), or linked
    before. A number that is not an assignment of this class is refused."""
    launch_data: Mapping[str, Any] = lti_launch.get_launch_data()
    resource_link: LtiResourceLink = lti_launch.resource_link
    raw = _custom_assignment(launch_data)
    # The gradebook column as this launch names it; a launch without the AGS claim
    # leaves the one kept (grades still go there).
    lineitem = _lineitem_url(launch_data)
    if not raw:
        if lineitem:
            LtiAssignmentLink.objects.filter(resource_link=resource_link).exclude(
                lineitem_url=lineitem
            ).update(lineitem_url=lineitem)
        return selectors.linked_assignment(resource_link)
    assignment = selectors.assignment_of_class(school_class, raw)
    if assignment is None:
        raise LaunchRefused(
            _("This activity names an assignment that is not in this course's class."),
            status=404,
        )
    defaults: dict[str, Any] = {"assignment": assignment}
    if lineitem:
        defaults["lineitem_url"] = lineitem
    LtiAssignmentLink.objects.update_or_create(resource_link=resource_link, defaults=defaults)
    return assignment


def learner_landing(learner: User, assignment: Assignment | None) -> str:
    """Where a learner lands: the assignment started (as the dashboard's button starts
    it), or the dashboard when there is none or it cannot be started now."""
    if assignment is None:
        return reverse("dashboard")
    if assignment.is_live:
        return reverse("live:pupil", kwargs={"assignment_id": assignment.pk})
    try:
        if assignment.is_table:
            round_ = assignments.start_table_round(learner=learner, assignment=assignment)
            return reverse("table:round", kwargs={"round_id": round_.pk})
        quiz = assignments.start_or_resume(learner=learner, assignment=assignment)
    except assignments.AssignmentError:
        return reverse("dashboard")
    return reverse("quizzes:quiz", kwargs={"quiz_id": quiz.pk})


def teacher_landing(school_class: SchoolClass, assignment: Assignment | None) -> str:
    if assignment is None:
        return reverse("classroom:class_detail", kwargs={"class_id": school_class.pk})
    return reverse("classroom:assignment_results", kwargs={"assignment_id": assignment.pk})


# --- names and roles (NRPS) -----------------------------------------------------------------


@dataclass(frozen=True)
class MemberSync:
    added: int
    removed: int
    skipped: int


def fetch_members(context: LtiContext) -> list[dict[str, Any]]:
    """The course's member list from the platform (every page of it), as django-lti's
    ``fetch_member_data`` reads it, with a timeout."""
    nrps = NamesRolesProvisioningService(
        platform.connector(context.deployment.registration, timeout=PLATFORM_TIMEOUT_SECONDS),
        {"context_memberships_url": context.memberships_url},
    )
    return [dict(member) for member in nrps.get_members()]


def _active_learners(member_data: Iterable[Mapping[str, Any]]) -> set[str]:
    return {
        str(member["user_id"])
        for member in member_data
        if member.get("status", "Active") == "Active"
        and not is_teacher_role(member.get("roles", []))
    }


def sync_members(context: LtiContext) -> MemberSync:
    """Bring the course's class in step with the platform's member list (NRPS).

    Active learners get an account (as at a launch) and join the class; learners of the
    class who came from this platform and are no longer active learners of the course
    leave it. Leaving is the class page's "remove": the membership goes, every answer
    stays with the learner's account. Learners who joined by code are left alone.
    Raises one of ``PLATFORM_ERRORS`` when the platform does not answer.
    """
    school_class = selectors.class_of_context(context)
    if school_class is None or not context.memberships_url:
        return MemberSync(0, 0, 0)
    member_data = fetch_members(context)
    context.update_memberships(member_data)
    active = _active_learners(member_data)
    present = selectors.lti_learners_of_class(school_class, context)
    added = skipped = 0
    users = LtiUser.objects.filter(registration=context.deployment.registration, sub__in=active)
    for lti_user in users:
        try:
            learner = account_for(lti_user, teacher=False)
        except LaunchRefused:
            skipped += 1  # a teacher's account, or switched off: not made a learner
            continue
        if learner.pk not in present:
            add_to_class(learner=learner, school_class=school_class)
            added += 1
    removed = 0
    for user_id, sub in present.items():
        if sub not in active:
            remove_learner(
                teacher=school_class.teacher, school_class=school_class, learner_id=user_id
            )
            removed += 1
    return MemberSync(added, removed, skipped)


# --- registering a platform -------------------------------------------------------------------


@dataclass(frozen=True)
class PlatformSettings:
    """What a platform shows for the tool (Moodle's "Tool configuration details")."""

    name: str
    issuer: str
    client_id: str
    auth_url: str
    token_url: str
    keyset_url: str
    deployment_ids: tuple[str, ...]
    audience: str = ""


@dataclass(frozen=True)
class Registered:
    registration: LtiRegistration
    created: bool
    new_key: bool


def _check_urls(platform: PlatformSettings) -> None:
    check = URLValidator(schemes=["http", "https"])
    for label, url in (
        ("--auth-url", platform.auth_url),
        ("--token-url", platform.token_url),
        ("--keyset-url", platform.keyset_url),
    ):
        try:
            check(url)
        except ValidationError:
            raise ValidationError(f"{label}: not an http(s) URL: {url!r}") from None
    if not platform.issuer.strip() or not platform.client_id.strip():
        raise ValidationError("--issuer and --client-id must not be empty")


@transaction.atomic
def register_platform(platform: PlatformSettings) -> Registered:
    """Add or update the registration of a platform (one per issuer and client id) and
    its deployments, active at once (an administrator registers them on purpose).
    The tool gets its first signing key if it has none. Raises ``ValidationError``."""
    _check_urls(platform)
    registration, created = LtiRegistration.objects.update_or_create(
        issuer=platform.issuer.strip(),
        client_id=platform.client_id.strip(),
        defaults={
            "name": platform.name.strip() or platform.issuer.strip(),
            "audience": platform.audience.strip(),
            "auth_url": platform.auth_url,
            "token_url": platform.token_url,
            "keyset_url": platform.keyset_url,
            "is_active": True,
        },
    )
    for deployment_id in platform.deployment_ids:
        LtiDeployment.objects.update_or_create(
            registration=registration,
            deployment_id=deployment_id.strip(),
            defaults={"is_active": True},
        )
    new_key = not Key.objects.filter(is_active=True).exists()
    if new_key:
        Key.objects.generate()
    return Registered(registration, created, new_key)


# --- deep linking ---------------------------------------------------------------------------

DEEP_LINKING_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"


@dataclass(frozen=True)
class DeepLinkAnswer:
    """The signed answer to a deep-linking request and where the browser posts it."""

    return_url: str
    jwt: str


def deep_link_answer(
    request: HttpRequest, launch_id: str, assignment: Assignment, launch_url: str
) -> DeepLinkAnswer:
    """The deep-linking response for a new assignment: one ``ltiResourceLink`` that opens
    it (custom ``assignment=<id>``) with a gradebook column scored 0-1, signed with the
    tool's key. The request is read back from the shared cache (pylti1p3 kept it at the
    launch). Raises ``LtiException`` when it is gone (a day later, another browser)."""
    message_launch = DjangoMessageLaunch.from_cache(
        launch_id, request, DjangoToolConfig(), launch_data_storage=launch_storage()
    )
    if not message_launch.is_deep_link_launch():
        raise LtiException("Not a deep-linking launch.")
    line_item = (
        LineItem()
        .set_label(assignment.title)
        .set_score_maximum(1)
        .set_resource_id(f"assignment-{assignment.pk}")
    )
    resource = (
        DeepLinkResource()
        .set_type("ltiResourceLink")
        .set_title(assignment.title)
        .set_url(launch_url)
        .set_custom_params({"assignment": str(assignment.pk)})
        .set_lineitem(line_item)
    )
    deep_link = message_launch.get_deep_link()
    launch_data = cast(dict[str, Any], message_launch.get_launch_data())
    return_url = str(launch_data[DEEP_LINKING_CLAIM]["deep_link_return_url"])
    return DeepLinkAnswer(return_url=return_url, jwt=deep_link.get_response_jwt([resource]))


def forget_platform_user(sender: type[User], instance: User, **kwargs: Any) -> None:
    """Delete the platform's records of a person whose account is deleted (their course
    memberships go with them); a later launch of theirs makes a new account."""
    LtiUser.objects.filter(auth_user=instance).delete()
