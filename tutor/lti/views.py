"""The LTI 1.3 endpoints: the tool's keys, the OIDC login initiation, the launch.

Thin: pylti1p3 (through django-lti) checks the messages, tutor.lti.services decides
what a launch does. A launch that fails a check gets a page saying so (4xx), never a
server error.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any
from urllib.parse import urlencode

from csp.constants import NONCE
from django.conf import settings
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from lti_tool.constants import SESSION_KEY
from lti_tool.models import Key, LtiLaunch
from lti_tool.utils import DjangoToolConfig, sync_data_from_launch
from lti_tool.views import LtiLaunchBaseView, OIDCLoginInitView
from pylti1p3.contrib.django.oidc_login import DjangoOIDCLogin
from pylti1p3.exception import LtiException, OIDCException

from tutor.accounts.authentication import MODEL_BACKEND
from tutor.accounts.http import AuthedRequest
from tutor.accounts.models import User
from tutor.accounts.permissions import teacher_required
from tutor.classroom.models import Assignment, SchoolClass
from tutor.classroom.results.access import class_of_teacher
from tutor.classroom.views import assignment_from_form

from . import services
from .middleware import FRAME_ORIGINS_KEY
from .platform import PLATFORM_ERRORS
from .selectors import origin_of, registration_origins

logger = logging.getLogger(__name__)

#: Session key: the deep-linking launch being answered and the course's class.
DEEP_LINK_KEY = "lti_deep_link"

# The parameters a platform sends to the login initiation (pylti1p3's list), kept for
# the "continue" link of the cookie check.
INIT_PARAMS = (
    "iss",
    "login_hint",
    "target_link_uri",
    "lti_message_hint",
    "lti_deployment_id",
    "client_id",
)


def refused(request: HttpRequest, message: str, *, status: int, detail: str = "") -> HttpResponse:
    return render(
        request, "lti/refused.html", {"message": message, "detail": detail}, status=status
    )


def _no_key(request: HttpRequest) -> HttpResponse:
    return refused(
        request,
        _(
            "The tool has no signing key yet. An administrator of this site runs "
            "“manage.py rotate_keys” once."
        ),
        status=503,
    )


def _use_launch_language(lti_launch: LtiLaunch) -> None:
    """Pages answer in the platform's language when the site has it."""
    presentation = lti_launch.launch_presentation_claim or {}
    locale = str(presentation.get("locale", "") if isinstance(presentation, dict) else "")
    language = locale.replace("_", "-").split("-")[0].lower()
    if language in dict(settings.LANGUAGES):
        translation.activate(language)


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


class LoginInitView(OIDCLoginInitView):
    """OIDC third-party login initiation: the platform sends the browser here, the tool
    sends it back to the platform's login with a state and a nonce. Inside a frame that
    keeps no cookies, pylti1p3's check page offers a new tab instead."""

    def get_oidc_response(
        self, request: HttpRequest, registration_uuid: Any, params: QueryDict
    ) -> HttpResponse:
        if registration_uuid is not None and not _is_uuid(str(registration_uuid)):
            raise Http404
        if not params.get("target_link_uri") or not params.get("iss"):
            return refused(
                request,
                _("This address is opened by your school platform, not by hand."),
                status=400,
            )
        oidc_login = DjangoOIDCLogin(
            request,
            DjangoToolConfig(registration_uuid),
            launch_data_storage=services.launch_storage(),
        )
        # pylti1p3 puts the texts into its page as they are: escaped here.
        oidc_login.enable_check_cookies(
            escape(
                _(
                    "Your browser keeps no cookies for this activity inside the platform's "
                    "page, so it cannot sign you in here."
                )
            ),
            escape(_("Open it in a new tab.")),
            escape(_("Loading…")),
        )
        launch_url = request.build_absolute_uri(reverse("lti:launch"))
        try:
            # Checked before pylti1p3's cookie page too: an unknown platform learns
            # nothing but "not registered".
            oidc_login.validate_oidc_login()
            response: HttpResponse = oidc_login.redirect(launch_url)
        except (LtiException, OIDCException) as error:
            return refused(
                request,
                _("This school platform is not registered with this site."),
                status=403,
                detail=str(error),
            )
        except Key.DoesNotExist:
            return _no_key(request)
        if response.status_code == 200:
            _finish_cookie_check_page(request, response, params)
        return response


def _finish_cookie_check_page(
    request: HttpRequest, response: HttpResponse, params: QueryDict
) -> None:
    """pylti1p3's page is one inline script and style: they get this response's CSP
    nonce, the page the language, and a link that works without JavaScript."""
    nonce = str(request.csp_nonce)  # type: ignore[attr-defined]
    query = {key: params[key] for key in INIT_PARAMS if params.get(key)}
    query["lti1p3_new_window"] = "1"
    link = escape(f"{request.path}?{urlencode(query)}")
    html = response.content.decode()
    html = html.replace("<script ", f'<script nonce="{nonce}" ', 1)
    html = html.replace("<style ", f'<style nonce="{nonce}" ', 1)
    html = html.replace('<html lang="en">', f'<html lang="{translation.get_language()}">', 1)
    html = html.replace("<title></title>", f"<title>{escape(_('Jass rules tutor'))}</title>", 1)
    noscript = f'<noscript><p><a href="{link}">{escape(_("Go on"))}</a></p></noscript>\n</body>'
    response.content = html.replace("</body>", noscript, 1).encode()
    response._csp_update = {"script-src": [NONCE], "style-src": [NONCE]}  # type: ignore[attr-defined]


def _sign_in(request: HttpRequest, lti_launch: LtiLaunch, *, teacher: bool) -> User:
    """The launching person's account, logged in; the session's pages may be framed
    by this platform (middleware). Raises ``services.LaunchRefused``."""
    user = services.account_for(lti_launch.user, teacher=teacher)
    login(request, user, backend=MODEL_BACKEND)
    request.session[FRAME_ORIGINS_KEY] = registration_origins(lti_launch.registration)
    return user


@method_decorator(csrf_exempt, name="dispatch")
class LaunchView(LtiLaunchBaseView):
    """The launch: the platform posts a signed id_token here (in its frame or a tab)."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Somebody opened the launch address by hand (copied from the README or the
        # platform's settings): a page that says so, not an empty 405. (A 400: a page
        # reached by GET, which the site's "try again" links may point at.)
        return refused(
            request,
            _("This address is opened by your school platform, not by hand."),
            status=400,
        )

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            lti_launch = services.validated_launch(request)
        except LtiException as error:
            return refused(
                request,
                _(
                    "The school platform's sign-in could not be checked. Open the activity "
                    "again from the platform."
                ),
                status=403,
                detail=str(error),
            )
        except Key.DoesNotExist:
            return _no_key(request)
        _use_launch_language(lti_launch)
        if not lti_launch.deployment.is_active:
            return self.handle_inactive_deployment(request, lti_launch)
        if not (lti_launch.context_claim or {}).get("id"):
            # A class is made from a course: a launch from outside one has no class.
            return refused(request, _("Open this tool from a course."), status=400)
        request.session.clear()
        sync_data_from_launch(lti_launch)
        request.session[SESSION_KEY] = lti_launch.get_launch_id()
        if lti_launch.is_resource_launch:
            return self.handle_resource_launch(request, lti_launch)
        if lti_launch.is_deep_link_launch:
            return self.handle_deep_linking_launch(request, lti_launch)
        return refused(request, _("This kind of launch is not supported."), status=400)

    def handle_inactive_deployment(
        self, request: HttpRequest, lti_launch: LtiLaunch
    ) -> HttpResponse:
        # django-lti records an unknown deployment as inactive: an administrator of
        # this site checks it and switches it on in the admin.
        return refused(
            request,
            _(
                "This installation of the tool on your school platform (deployment "
                "“%(deployment)s”) is not approved on this site yet. An administrator of "
                "this site approves it in the admin under “LTI deployments”."
            )
            % {"deployment": lti_launch.deployment.deployment_id},
            status=403,
        )

    def handle_resource_launch(self, request: HttpRequest, lti_launch: LtiLaunch) -> HttpResponse:
        teacher = services.is_teacher_role(lti_launch.roles_claim or [])
        try:
            user = _sign_in(request, lti_launch, teacher=teacher)
            if teacher:
                return redirect(self._teacher_landing(lti_launch, user))
            school_class = services.class_for_learner(lti_launch.context, user)
            assignment = services.target_assignment(lti_launch, school_class)
        except services.LaunchRefused as error:
            return refused(request, str(error), status=error.status)
        except services.NoClassYet:
            return render(request, "lti/no_class_yet.html", status=200)
        return redirect(services.learner_landing(user, assignment))

    def _teacher_landing(self, lti_launch: LtiLaunch, user: User) -> str:
        school_class = services.class_for_teacher(lti_launch.context, user)
        if lti_launch.context.memberships_url:
            try:
                services.sync_members(lti_launch.context)
            except PLATFORM_ERRORS:
                # The member list is a convenience: learners still join at their launch.
                logger.warning("NRPS sync failed at a launch", exc_info=True)
        assignment = services.target_assignment(lti_launch, school_class)
        return services.teacher_landing(school_class, assignment)

    def handle_deep_linking_launch(
        self, request: HttpRequest, lti_launch: LtiLaunch
    ) -> HttpResponse:
        """(pylti1p3 checked that the platform accepts resource links and sent a return
        URL.) An instructor picks what to add: the assignment form of the class page, in
        the course's class; the answer goes back to the platform (deep_link)."""
        if not services.is_teacher_role(lti_launch.roles_claim or []):
            return refused(request, _("Only the course's teachers add activities."), status=403)
        try:
            user = _sign_in(request, lti_launch, teacher=True)
            school_class = services.class_for_teacher(lti_launch.context, user)
        except services.LaunchRefused as error:
            return refused(request, str(error), status=error.status)
        request.session[DEEP_LINK_KEY] = {
            "launch_id": lti_launch.get_launch_id(),
            "class_id": school_class.pk,
        }
        return redirect("lti:deep_link")


def _pending(request: AuthedRequest) -> tuple[str, SchoolClass] | None:
    pending = request.session.get(DEEP_LINK_KEY)
    if not isinstance(pending, dict):
        return None
    school_class = class_of_teacher(request.user, int(pending["class_id"]))
    return str(pending["launch_id"]), school_class


@teacher_required
def deep_link(request: AuthedRequest) -> HttpResponse:
    """The picker of a deep-linking launch (GET) and the answer to the platform (POST):
    the class page's assignment form, for the course's class."""
    pending = _pending(request)
    if pending is None:
        return refused(
            request,
            _("Adding an activity starts in the school platform. Start there again."),
            status=400,
        )
    launch_id, school_class = pending
    form, assignment = assignment_from_form(request, school_class)
    if assignment is not None:
        return _deep_link_answer(request, launch_id, assignment)
    return render(
        request, "classroom/assignment_form.html", {"form": form, "school_class": school_class}
    )


def _deep_link_answer(
    request: AuthedRequest, launch_id: str, assignment: Assignment
) -> HttpResponse:
    launch_url = request.build_absolute_uri(reverse("lti:launch"))
    try:
        answer = services.deep_link_answer(request, launch_id, assignment, launch_url)
    except (LtiException, Key.DoesNotExist) as error:
        return refused(
            request,
            _(
                "The assignment is set, but the platform's request has expired: add it "
                "in the platform again."
            ),
            status=400,
            detail=str(error),
        )
    del request.session[DEEP_LINK_KEY]
    response = render(
        request, "lti/deep_link_return.html", {"answer": answer, "assignment": assignment}
    )
    # The answer is posted to the platform: the one place outside the site a form
    # of the site may go.
    origin = origin_of(answer.return_url)
    if origin:
        response._csp_update = {"form-action": [origin]}  # type: ignore[attr-defined]
    return response
