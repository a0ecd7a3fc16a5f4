"""Framing by the platform (CSP frame-ancestors, X-Frame-Options) and the cookies of a
session started by a launch (SameSite=None; Secure; Partitioned on HTTPS)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import LearnerFactory
from tests.tutor.lti.conftest import INSTRUCTOR, launch, login_initiation, new_browser

pytestmark = pytest.mark.django_db

PLATFORM_ORIGIN = "https://moodle.school.example"


def frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(part.strip() for part in policy.split(";") if "frame-ancestors" in part)


def test_lti_pages_may_be_framed_by_registered_platforms_only(client, platform):
    response = login_initiation(client, platform, lti1p3_new_window="")
    assert frame_ancestors(response) == f"frame-ancestors {PLATFORM_ORIGIN}"
    assert "X-Frame-Options" not in response


def test_other_pages_keep_frame_ancestors_none(client, platform):
    response = client.get(reverse("home"))
    assert frame_ancestors(response) == "frame-ancestors 'none'"
    assert response["X-Frame-Options"] == "DENY"
    client.force_login(LearnerFactory())
    response = client.get(reverse("dashboard"))
    assert frame_ancestors(response) == "frame-ancestors 'none'"
    assert response["X-Frame-Options"] == "DENY"


def test_pages_of_a_session_started_by_a_launch_may_be_framed_by_its_platform(platform):
    browser = new_browser()
    response = launch(browser, platform, sub="teacher-1", roles=INSTRUCTOR)
    page = browser.get(response["Location"])
    assert page.status_code == 200
    assert frame_ancestors(page) == f"frame-ancestors {PLATFORM_ORIGIN}"
    assert "X-Frame-Options" not in page
    # Logged out, the same browser is an ordinary visitor again.
    browser.post(reverse("logout"))
    assert frame_ancestors(browser.get(reverse("home"))) == "frame-ancestors 'none'"


def test_without_any_registration_lti_pages_cannot_be_framed(client, db):
    response = client.get("/lti/init/6f1f3c1e-0000-4000-8000-000000000000/")
    assert frame_ancestors(response) == "frame-ancestors 'none'"


def test_on_https_a_launched_session_keeps_its_cookies_in_the_frame(platform):
    browser = new_browser()
    response = launch(browser, platform, sub="teacher-1", roles=INSTRUCTOR, secure=True)
    assert response.status_code == 302
    header = response.cookies["sessionid"].output()
    assert "SameSite=None" in header and "Secure" in header and "Partitioned" in header
    # A page with a form sets the CSRF cookie the same way (a form posted inside the
    # frame sends it back).
    page = browser.get(response["Location"], secure=True)
    csrf = page.cookies["csrftoken"].output()
    assert "SameSite=None" in csrf and "Secure" in csrf and "Partitioned" in csrf


def test_the_state_cookie_of_the_initiation_is_partitioned_on_https(client, platform):
    response = client.get(
        f"/lti/init/{platform.registration.uuid}/",
        {
            "iss": platform.registration.issuer,
            "login_hint": "h",
            "target_link_uri": "https://testserver/lti/launch/",
            "client_id": platform.registration.client_id,
            "lti1p3_new_window": "1",
        },
        secure=True,
    )
    assert response.status_code == 302
    state_cookies = [c for name, c in response.cookies.items() if name.startswith("lti1p3-")]
    assert state_cookies
    for cookie in state_cookies:
        assert "SameSite=None" in cookie.output() and "Partitioned" in cookie.output()


def test_ordinary_sessions_keep_lax_cookies_on_https(client, db):
    learner = LearnerFactory()
    client.force_login(learner)
    response = client.get(reverse("dashboard"), secure=True)
    assert response.status_code == 200
    login_page = new_browser().get(reverse("login"), secure=True)
    for cookie in login_page.cookies.values():
        assert "Partitioned" not in cookie.output()
        assert "SameSite=None" not in cookie.output()
