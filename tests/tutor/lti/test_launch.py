"""LTI 1.3 launches against a played platform (conftest.py): initiation, sign-in,
classes from courses, landing, and the launches that must be refused."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from lti_tool.models import LtiDeployment, LtiUser

from tests.factories import AssignmentFactory, TeacherFactory
from tests.tutor.lti.conftest import (
    AUTH_URL,
    CLIENT_ID,
    INSTRUCTOR,
    LEARNER,
    LTI,
    launch,
    login_initiation,
    new_browser,
    start,
)
from tutor.accounts.models import Role, User
from tutor.lti.models import LtiAssignmentLink, LtiClass
from tutor.quizzes.models import Quiz

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def teacher_opens(platform, sub="moodle-teacher-1"):
    """The course's instructor opens the tool once (the class is made)."""
    response = launch(new_browser(), platform, sub=sub, roles=INSTRUCTOR)
    assert response.status_code == 302, response.content
    return LtiClass.objects.get().school_class


def test_login_initiation_sends_the_browser_to_the_platform_with_state_and_nonce(client, platform):
    response = login_initiation(client, platform)
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == AUTH_URL
    sent = parse_qs(location.query)
    assert sent["client_id"] == [CLIENT_ID]
    assert sent["redirect_uri"] == ["http://testserver/lti/launch/"]
    assert sent["login_hint"] == ["user-hint"]
    assert sent["lti_message_hint"] == ["msg-hint"]
    assert sent["response_mode"] == ["form_post"] and sent["scope"] == ["openid"]
    assert sent["state"][0].startswith("state-") and len(sent["nonce"][0]) >= 32
    # The state is also a cookie of this browser, which the launch checks.
    assert client.cookies[f"lti1p3-{sent['state'][0]}"].value == sent["state"][0]


def test_login_initiation_by_post_works_too(client, platform):
    assert platform.registration is not None
    response = client.post(
        f"/lti/init/{platform.registration.uuid}/",
        {
            "iss": platform.registration.issuer,
            "login_hint": "h",
            "target_link_uri": "http://testserver/lti/launch/",
            "client_id": CLIENT_ID,
            "lti1p3_new_window": "1",
        },
    )
    assert response.status_code == 302
    assert response["Location"].startswith(AUTH_URL + "?")


def test_login_initiation_without_the_registration_in_the_url_uses_the_client_id(client, platform):
    query = {
        "iss": platform.registration.issuer,
        "login_hint": "h",
        "target_link_uri": "http://testserver/lti/launch/",
        "lti1p3_new_window": "1",
    }
    response = client.get("/lti/init/", {**query, "client_id": CLIENT_ID})
    assert response.status_code == 302 and response["Location"].startswith(AUTH_URL + "?")
    assert client.get("/lti/init/", query).status_code == 403  # no client id: unknown
    response = client.get("/lti/init/", {**query, "client_id": "other"})
    assert response.status_code == 403


def test_cookie_check_page_is_translated_runs_under_the_csp_and_works_without_javascript(
    client, platform
):
    response = login_initiation(client, platform, lti1p3_new_window="")
    assert response.status_code == 200
    html = response.content.decode()
    nonce = html.split('<script nonce="', 1)[1].split('"', 1)[0]
    assert f"'nonce-{nonce}'" in response["Content-Security-Policy"]
    assert '<html lang="en">' in html and "Open it in a new tab." in html
    german = login_initiation(
        Client(headers={"Accept-Language": "de"}), platform, lti1p3_new_window=""
    )
    assert '<html lang="de">' in german.content.decode()
    # Without JavaScript: a link that goes on to the platform (new_window skips the check).
    link = html.split('<noscript><p><a href="', 1)[1].split('"', 1)[0]
    assert "lti1p3_new_window=1" in link and "login_hint=user-hint" in link
    follow = client.get(link.replace("&amp;", "&"))
    assert follow.status_code == 302 and follow["Location"].startswith(AUTH_URL)


def test_login_initiation_of_an_unknown_registration_or_issuer_is_refused(client, platform):
    response = client.get(
        "/lti/init/6f1f3c1e-0000-4000-8000-000000000000/",
        {"iss": "https://moodle.school.example", "login_hint": "x", "target_link_uri": "x"},
    )
    assert response.status_code == 403
    assert b"not registered" in response.content
    response = login_initiation(client, platform, iss="https://evil.example")
    assert response.status_code == 403
    response = client.get(f"/lti/init/{platform.registration.uuid}/")
    assert response.status_code == 400
    assert client.get("/lti/init/not-a-uuid/", {"iss": "x"}).status_code == 404


def test_instructor_launch_creates_the_class_and_lands_on_its_page(platform):
    client = new_browser()
    response = launch(client, platform, sub="moodle-teacher-1", roles=INSTRUCTOR)
    link = LtiClass.objects.select_related("school_class__teacher").get()
    school_class = link.school_class
    assert school_class.name == "Klasse 5b"
    assert link.context.id_on_platform == "course-7"
    teacher = school_class.teacher
    assert teacher.role == Role.TEACHER and not teacher.has_usable_password()
    assert teacher.username.startswith("lti-")
    assert (teacher.first_name, teacher.last_name) == ("Anna", "Meier")
    assert response["Location"] == reverse("classroom:class_detail", args=[school_class.pk])
    assert client.get(response["Location"]).status_code == 200
    # A second launch of the instructor finds the same class.
    launch(client, platform, sub="moodle-teacher-1", roles=INSTRUCTOR)
    assert LtiClass.objects.count() == 1


def test_learner_launch_signs_in_and_lands_on_the_linked_assignment(platform):
    school_class = teacher_opens(platform)
    assignment = AssignmentFactory(school_class=school_class)
    client = new_browser()
    ags = {
        "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
        "lineitem": "https://moodle.school.example/mod/lti/services.php/2/lineitems/9/lineitem",
    }
    response = launch(
        client,
        platform,
        sub="moodle-pupil-5",
        **{
            LTI + "custom": {"assignment": str(assignment.pk)},
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": ags,
        },
    )
    learner = LtiUser.objects.get(sub="moodle-pupil-5").auth_user
    assert learner is not None and learner.role == Role.LEARNER
    assert not learner.has_usable_password()
    quiz = Quiz.objects.get(learner=learner, assignment=assignment)
    assert response["Location"] == reverse("quizzes:quiz", args=[quiz.pk])
    assert school_class.learners.filter(pk=learner.pk).exists()
    page = client.get(response["Location"], follow=True)
    assert page.status_code == 200 and page.wsgi_request.user == learner
    link = LtiAssignmentLink.objects.get()
    assert link.assignment == assignment and link.lineitem_url == ags["lineitem"]
    # The next launch of the same activity needs no custom parameter: the link is kept.
    again = launch(new_browser(), platform, sub="moodle-pupil-5")
    assert again["Location"] == reverse("quizzes:quiz", args=[quiz.pk])
    # A launch without the AGS claim (here the teacher's, naming the assignment) keeps
    # the gradebook column; one that names another column moves the link there.
    launch(
        new_browser(),
        platform,
        sub="moodle-teacher-1",
        roles=INSTRUCTOR,
        **{LTI + "custom": {"assignment": str(assignment.pk)}},
    )
    assert LtiAssignmentLink.objects.get().lineitem_url == ags["lineitem"]
    moved = {**ags, "lineitem": ags["lineitem"].replace("/9/", "/10/")}
    launch(
        new_browser(),
        platform,
        sub="moodle-pupil-5",
        **{"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": moved},
    )
    assert LtiAssignmentLink.objects.get().lineitem_url == moved["lineitem"]


def test_teacher_lands_on_the_assignments_results(platform):
    school_class = teacher_opens(platform)
    assignment = AssignmentFactory(school_class=school_class)
    client = new_browser()
    response = launch(
        client,
        platform,
        sub="moodle-teacher-1",
        roles=INSTRUCTOR,
        **{LTI + "custom": {"assignment": str(assignment.pk)}},
    )
    assert response["Location"] == reverse("classroom:assignment_results", args=[assignment.pk])
    assert client.get(response["Location"]).status_code == 200


def test_a_custom_assignment_of_another_class_is_refused(platform):
    teacher_opens(platform)
    elsewhere = AssignmentFactory()
    response = launch(
        new_browser(), platform, **{LTI + "custom": {"assignment": str(elsewhere.pk)}}
    )
    assert response.status_code == 404
    assert b"not in this course" in response.content
    response = launch(new_browser(), platform, **{LTI + "custom": {"assignment": "abc"}})
    assert response.status_code == 404


def test_learner_without_target_lands_on_the_dashboard(platform):
    teacher_opens(platform)
    client = new_browser()
    response = launch(client, platform, sub="moodle-pupil-9")
    assert response["Location"] == reverse("dashboard")
    assert client.get(reverse("dashboard")).status_code == 200


def test_second_launch_of_the_same_person_reuses_the_account(platform):
    teacher_opens(platform)
    launch(new_browser(), platform, sub="moodle-pupil-5")
    launch(new_browser(), platform, sub="moodle-pupil-5", given_name="Anja")
    accounts = User.objects.filter(lti_users__sub="moodle-pupil-5")
    assert accounts.count() == 1
    assert accounts.get().first_name == "Anja"  # names follow the platform


def test_an_existing_account_with_the_same_e_mail_is_never_linked(platform):
    local = TeacherFactory(email="anna@school.example")
    launch(
        new_browser(),
        platform,
        sub="moodle-teacher-1",
        roles=INSTRUCTOR,
        email="anna@school.example",
    )
    lti_user = LtiUser.objects.get(sub="moodle-teacher-1")
    assert lti_user.auth_user is not None and lti_user.auth_user != local


def test_learner_before_any_instructor_sees_a_page_in_the_platforms_language(platform):
    client = new_browser()
    presentation = {"locale": "de-CH", "document_target": "iframe"}
    response = launch(
        client, platform, sub="moodle-pupil-5", **{LTI + "launch_presentation": presentation}
    )
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()
    english = launch(new_browser(), platform, sub="moodle-pupil-5")
    assert b"Your teacher has not opened this activity yet" in english.content
    assert not LtiClass.objects.exists()
    # Once the teacher opened it, the pupil's next launch joins the class.
    school_class = teacher_opens(platform)
    launch(client, platform, sub="moodle-pupil-5")
    assert school_class.learners.filter(lti_users__sub="moodle-pupil-5").exists()


def test_a_launch_in_the_other_role_is_refused(platform):
    teacher_opens(platform, sub="moodle-teacher-1")
    response = launch(new_browser(), platform, sub="moodle-teacher-1", roles=LEARNER)
    assert response.status_code == 403
    assert b"in another role" in response.content


def test_a_replayed_token_is_refused(platform):
    client = new_browser()
    state, nonce = start(client, platform)
    token = platform.id_token(nonce=nonce, sub="moodle-teacher-1", roles=INSTRUCTOR)
    first = client.post("/lti/launch/", {"id_token": token, "state": state})
    assert first.status_code == 302
    replay = client.post("/lti/launch/", {"id_token": token, "state": state})
    assert replay.status_code == 403
    assert b"used already" in replay.content


def test_a_token_with_a_nonce_the_tool_never_issued_is_refused(platform):
    client = new_browser()
    state, _nonce = start(client, platform)
    token = platform.id_token(nonce="made-up", sub="u", roles=LEARNER)
    response = client.post("/lti/launch/", {"id_token": token, "state": state})
    assert response.status_code == 403


def test_an_expired_token_is_refused(platform):
    client = new_browser()
    state, nonce = start(client, platform)
    past = int(time.time()) - 3600
    token = platform.id_token(nonce=nonce, sub="u", roles=LEARNER, iat=past - 300, exp=past)
    response = client.post("/lti/launch/", {"id_token": token, "state": state})
    assert response.status_code == 403
    assert b"expired" in response.content
    assert not LtiUser.objects.exists()


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"iss": "https://other-moodle.example"}, b"Registration not found"),
        ({"aud": "someone-else"}, b"Registration not found"),
    ],
)
def test_a_wrong_issuer_or_audience_is_refused(platform, claims, reason):
    client = new_browser()
    response = launch(client, platform, **claims)
    assert response.status_code == 403
    assert reason in response.content
    assert not User.objects.exists()


def test_a_token_signed_with_another_key_is_refused(platform):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    client = new_browser()
    state, nonce = start(client, platform)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    platform.private_pem = other.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    token = platform.id_token(nonce=nonce, sub="u", roles=LEARNER)
    response = client.post("/lti/launch/", {"id_token": token, "state": state})
    assert response.status_code == 403
    assert not User.objects.exists()


def test_a_launch_without_the_state_cookie_is_refused(platform):
    state, nonce = start(new_browser(), platform)
    token = platform.id_token(nonce=nonce, sub="u", roles=LEARNER)
    response = new_browser().post("/lti/launch/", {"id_token": token, "state": state})
    assert response.status_code == 403
    assert b"State not found" in response.content


def test_an_unknown_deployment_is_recorded_inactive_and_refused_clearly(platform):
    response = launch(new_browser(), platform, **{LTI + "deployment_id": "99"})
    assert response.status_code == 403
    assert b"99" in response.content and b"not approved" in response.content
    deployment = LtiDeployment.objects.get(deployment_id="99")
    assert not deployment.is_active
    assert not User.objects.exists()
    # An administrator approves it: the next launch goes through.
    deployment.is_active = True
    deployment.save()
    response = launch(new_browser(), platform, roles=INSTRUCTOR, **{LTI + "deployment_id": "99"})
    assert response.status_code == 302


def test_a_broken_post_is_refused_not_a_server_error(client, platform):
    assert client.post("/lti/launch/", {}).status_code == 403
    assert client.post("/lti/launch/", {"id_token": "a.b", "state": "x"}).status_code == 403
    by_hand = client.get("/lti/launch/")
    assert by_hand.status_code == 400
    assert b"not by hand" in by_hand.content  # a page that says why, not an empty 405


def test_a_launch_from_outside_a_course_is_refused(platform):
    response = launch(new_browser(), platform, roles=INSTRUCTOR, **{LTI + "context": None})
    assert response.status_code == 400
    assert b"from a course" in response.content
    assert not User.objects.exists()


def test_a_learner_lands_on_the_next_round_of_a_table_assignment(platform):
    from tests.factories import TableAssignmentFactory
    from tutor.table.models import TableRound

    school_class = teacher_opens(platform)
    assignment = TableAssignmentFactory(school_class=school_class)
    response = launch(
        new_browser(),
        platform,
        sub="pupil-1",
        **{LTI + "custom": {"assignment": str(assignment.pk)}},
    )
    round_ = TableRound.objects.get(assignment=assignment)
    assert response["Location"] == reverse("table:round", args=[round_.pk])


def test_a_second_instructor_of_the_course_is_refused_clearly(platform):
    teacher_opens(platform, sub="teacher-1")
    response = launch(new_browser(), platform, sub="teacher-2", roles=INSTRUCTOR)
    assert response.status_code == 403
    assert b"belongs to another teacher" in response.content
    assert LtiClass.objects.count() == 1


def test_without_a_signing_key_the_tool_says_so(client, platform):
    from lti_tool.models import Key

    Key.objects.all().delete()
    response = login_initiation(client, platform)
    assert response.status_code == 503
    assert b"rotate_keys" in response.content


def test_a_launched_person_sees_their_name_and_no_password_link(platform):
    """An account from the platform has a made-up user name and no password: the
    header shows the person's name from the token and offers no password change."""
    client = new_browser()
    response = launch(client, platform, sub="moodle-teacher-1", roles=INSTRUCTOR)
    page = client.get(response["Location"]).content.decode()
    header = page.split('<div class="account">', 1)[1].split("</div>", 1)[0]
    assert "Anna Meier" in header and "lti-" not in header
    assert reverse("password_change") not in header


def test_the_teacher_sees_platform_pupils_by_name_not_by_made_up_user_name(platform):
    """Thirty pupils from the platform would otherwise be thirty «lti-…» codes on the
    class page, the results and the CSV; their names come from the platform."""
    school_class = teacher_opens(platform)
    assignment = AssignmentFactory(school_class=school_class)
    launch(new_browser(), platform, sub="moodle-pupil-5", given_name="Lea", family_name="Muster")
    assert school_class.learners.get().username.startswith("lti-")
    teacher = new_browser()
    teacher.force_login(school_class.teacher)
    for url in (
        reverse("classroom:class_detail", args=[school_class.pk]),
        reverse("classroom:assignment_results", args=[assignment.pk]),
        reverse("classroom:assignment_results_csv", args=[assignment.pk]),
    ):
        page = teacher.get(url).content.decode("utf-8-sig")
        assert "Lea Muster" in page and "lti-" not in page, url
