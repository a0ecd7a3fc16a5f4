"""Framing by the school platform, and cookies that reach the frame.

The site forbids framing (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``). Two
kinds of response may be framed, by registered platforms only:

* the LTI pages (``/lti/``), by every active registration's origin;
* every page of a session that an LTI launch started, by that launch's platform (the
  origins are kept in the session at the launch).

Inside a platform's frame the site is a third party: a ``SameSite=Lax`` cookie is not
sent there. On HTTPS, the session and CSRF cookies of an LTI session, and pylti1p3's
state cookie of the login initiation, are sent as ``SameSite=None; Secure;
Partitioned`` (CHIPS): browsers that block third-party cookies still keep them for
this site inside that platform's pages, and nowhere else. Other sessions keep
``Lax``. Over plain HTTP (development) nothing changes: browsers refuse
``SameSite=None`` without ``Secure``.
"""

from __future__ import annotations

from collections.abc import Callable
from http import cookies

from csp.constants import NONE
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from .selectors import platform_origins

#: Session key: the origins that may frame the pages of a session started by a launch.
FRAME_ORIGINS_KEY = "lti_frame_origins"
LTI_PATH_PREFIX = "/lti/"
STATE_COOKIE_PREFIX = "lti1p3-"

# Python's cookie output knows "Partitioned" from 3.14 on; before, it is taught here
# (the one attribute added; Django writes cookies through http.cookies.Morsel).
if "partitioned" not in cookies.Morsel._reserved:  # type: ignore[attr-defined]
    cookies.Morsel._reserved["partitioned"] = "Partitioned"  # type: ignore[attr-defined]
    cookies.Morsel._flags.add("partitioned")  # type: ignore[attr-defined]


def _session_origins(request: HttpRequest, response: HttpResponseBase) -> list[str] | None:
    # No session cookie, no LTI session: the session is not loaded for nothing. Nor is it
    # for a response without a page or cookies (a live phone's 204 poll reads no
    # session: issue 24), unless the view loaded it anyway.
    touched = _session_touched(request)
    if settings.SESSION_COOKIE_NAME not in request.COOKIES and not touched:
        return None
    if not touched and not response.cookies and not _is_page(response):
        return None
    session = getattr(request, "session", None)
    if session is None:
        return None
    origins = session.get(FRAME_ORIGINS_KEY)
    return [str(origin) for origin in origins] if isinstance(origins, list) else None


def _is_page(response: HttpResponseBase) -> bool:
    """A response a frame would show: HTML with a body."""
    return response.status_code not in (204, 304) and str(
        response.get("Content-Type", "")
    ).startswith("text/html")


def _session_touched(request: HttpRequest) -> bool:
    session = getattr(request, "session", None)
    return bool(session is not None and session.accessed)


def allow_framing(response: HttpResponseBase, origins: list[str]) -> None:
    """Let ``origins`` (and nobody else) frame ``response``."""
    response._csp_replace = {"frame-ancestors": origins or [NONE]}  # type: ignore[attr-defined]
    if origins and "X-Frame-Options" in response.headers:
        # X-Frame-Options cannot name origins; CSP's frame-ancestors, which every
        # current browser obeys first, does.
        del response.headers["X-Frame-Options"]


def cookies_for_frame(response: HttpResponseBase, *, state_cookies: bool) -> None:
    """Mark the session and CSRF cookies (and pylti1p3's state cookies) of this
    response ``SameSite=None; Secure; Partitioned``."""
    names = {settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME}
    for name, morsel in response.cookies.items():
        if name in names or (state_cookies and name.startswith(STATE_COOKIE_PREFIX)):
            morsel["samesite"] = "None"
            morsel["secure"] = True
            morsel["partitioned"] = True


class LtiFrameMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        on_lti_path = request.path_info.startswith(LTI_PATH_PREFIX)
        origins = _session_origins(request, response)
        if origins is not None:
            allow_framing(response, origins)
        elif on_lti_path:
            allow_framing(response, platform_origins())
        if request.is_secure() and (origins is not None or on_lti_path):
            cookies_for_frame(response, state_cookies=on_lti_path)
        return response
