"""Every URL with every role: the status code, and nothing foreign in the page.

Roles: anonymous, a learner of class A, a learner of class B, A's teacher, B's teacher,
and an administrator. Class B's name, join code and learner must never appear in a
page of anyone outside class B.
"""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TeacherFactory,
    UserFactory,
)
from tutor.classroom import assignments
from tutor.classroom.assignments import AssignmentSpec
from tutor.lessons.services import load_course
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db

ANON, LEARNER_A, LEARNER_B, TEACHER_A, TEACHER_B, ADMIN = (
    "anonymous",
    "learner_a",
    "learner_b",
    "teacher_a",
    "teacher_b",
    "admin",
)
ROLES = (ANON, LEARNER_A, LEARNER_B, TEACHER_A, TEACHER_B, ADMIN)
LOGIN = 302


@pytest.fixture
def world():
    load_course()
    now = timezone.now()
    people = {
        TEACHER_A: TeacherFactory(username="teacher_anna"),
        TEACHER_B: TeacherFactory(username="teacher_bruno"),
        LEARNER_A: LearnerFactory(username="lea_a"),
        LEARNER_B: LearnerFactory(username="ben_secret_b"),
        ADMIN: UserFactory(username="root_admin", is_staff=True, is_superuser=True),
    }
    class_a = SchoolClassFactory(teacher=people[TEACHER_A], name="Klasse Apfel")
    class_b = SchoolClassFactory(
        teacher=people[TEACHER_B], name="Klasse Geheim", join_code="SECRETBB"
    )
    MembershipFactory(school_class=class_a, learner=people[LEARNER_A])
    MembershipFactory(school_class=class_b, learner=people[LEARNER_B])
    spec = AssignmentSpec(
        title="Aufgabe A",
        kinds=["ladder_step"],
        question_count=2,
        rules_preset="default",
        opens_at=now - timedelta(days=1),
        due_at=now + timedelta(days=1),
    )
    assignment_a = assignments.create_assignment(
        teacher=people[TEACHER_A], school_class=class_a, spec=spec
    )
    attempt_a = assignments.start_or_resume(learner=people[LEARNER_A], assignment=assignment_a)
    practice_a = create_quiz(learner=people[LEARNER_A], kinds=["trick"], seeds=[1])
    return {
        "people": people,
        "class_a": class_a,
        "class_b": class_b,
        "assignment_a": assignment_a,
        "attempt_a": attempt_a,
        "practice_a": practice_a,
    }


def expected_public():
    return dict.fromkeys(ROLES, 200)


def learner_only(own=LEARNER_A):
    """Pages of learner A's own work: others see 404, teachers 403, visitors log in."""
    return {
        ANON: LOGIN,
        own: 200,
        LEARNER_B: 404,
        TEACHER_A: 403,
        TEACHER_B: 403,
        ADMIN: 404,  # an administrator is no learner of these quizzes
    }


def teacher_a_only():
    return {ANON: LOGIN, LEARNER_A: 403, LEARNER_B: 403, TEACHER_A: 200, TEACHER_B: 404, ADMIN: 403}


def pages(w):
    a, c = w["assignment_a"], w["class_a"]
    quiz, practice = w["attempt_a"], w["practice_a"]
    learner_a = w["people"][LEARNER_A]
    return [
        (reverse("home"), expected_public()),
        (reverse("lessons:overview"), expected_public()),
        (reverse("lessons:rules"), expected_public()),
        (reverse("lessons:detail", args=["comparison-ladder"]), expected_public()),
        (reverse("weistool:tool"), expected_public()),
        (
            reverse("dashboard"),
            {
                ANON: LOGIN,
                LEARNER_A: 200,
                LEARNER_B: 200,
                TEACHER_A: 403,
                TEACHER_B: 403,
                ADMIN: 200,
            },
        ),
        (
            reverse("quizzes:practice"),
            {
                ANON: LOGIN,
                LEARNER_A: 200,
                LEARNER_B: 200,
                TEACHER_A: 403,
                TEACHER_B: 403,
                ADMIN: 200,
            },
        ),
        (reverse("quizzes:question", args=[quiz.pk, 0]), learner_only()),
        (reverse("quizzes:question", args=[practice.pk, 0]), learner_only()),
        (reverse("quizzes:summary", args=[quiz.pk]), learner_only()),
        (
            reverse("classroom:teacher_classes"),
            {
                ANON: LOGIN,
                LEARNER_A: 403,
                LEARNER_B: 403,
                TEACHER_A: 200,
                TEACHER_B: 200,
                ADMIN: 403,
            },
        ),
        (
            reverse("classroom:my_classes"),
            {
                ANON: LOGIN,
                LEARNER_A: 200,
                LEARNER_B: 200,
                TEACHER_A: 302,
                TEACHER_B: 302,
                ADMIN: 200,
            },
        ),
        (reverse("classroom:class_detail", args=[c.pk]), teacher_a_only()),
        (reverse("classroom:assignment_create", args=[c.pk]), teacher_a_only()),
        (reverse("classroom:assignment_results", args=[a.pk]), teacher_a_only()),
        (reverse("classroom:assignment_results_csv", args=[a.pk]), teacher_a_only()),
        (reverse("classroom:class_mastery", args=[c.pk]), teacher_a_only()),
        (reverse("classroom:class_mastery_csv", args=[c.pk]), teacher_a_only()),
        (reverse("classroom:learner_history", args=[c.pk, learner_a.pk]), teacher_a_only()),
        # A learner's data (issue 16): the learner, their teacher, an administrator.
        (
            reverse("privacy:mine"),
            {
                ANON: LOGIN,
                LEARNER_A: 200,
                LEARNER_B: 200,
                TEACHER_A: 403,
                TEACHER_B: 403,
                ADMIN: 200,
            },
        ),
        (reverse("privacy:learner", args=[learner_a.pk]), privacy_of_learner_a()),
        (reverse("privacy:export_json", args=[learner_a.pk]), privacy_of_learner_a()),
        (reverse("privacy:delete", args=[learner_a.pk]), privacy_of_learner_a()),
    ]


def privacy_of_learner_a(done=200):
    """Learner A's data: A, A's teacher and the administrator; others 404."""
    return {
        ANON: LOGIN,
        LEARNER_A: done,
        LEARNER_B: 404,
        TEACHER_A: done,
        TEACHER_B: 404,
        ADMIN: done,
    }


def posts(w):
    a, c, quiz = w["assignment_a"], w["class_a"], w["attempt_a"]
    learner_a = w["people"][LEARNER_A]
    return [
        (
            reverse("classroom:rotate_code", args=[c.pk]),
            {},
            {ANON: LOGIN, LEARNER_A: 403, LEARNER_B: 403, TEACHER_B: 404, ADMIN: 403},
        ),
        (
            reverse("classroom:remove_member", args=[c.pk, learner_a.pk]),
            {},
            {ANON: LOGIN, LEARNER_A: 403, LEARNER_B: 403, TEACHER_B: 404, ADMIN: 403},
        ),
        (
            reverse("classroom:assignment_start", args=[a.pk]),
            {},
            {ANON: LOGIN, LEARNER_B: 404, TEACHER_A: 403, TEACHER_B: 403, ADMIN: 404},
        ),
        (
            reverse("classroom:assignment_submit", args=[quiz.pk]),
            {},
            {ANON: LOGIN, LEARNER_B: 404, TEACHER_A: 403, TEACHER_B: 403, ADMIN: 404},
        ),
        (
            reverse("quizzes:answer", args=[quiz.pk, 0]),
            {"choice": "a"},
            {ANON: LOGIN, LEARNER_B: 404, TEACHER_A: 403, TEACHER_B: 403, ADMIN: 404},
        ),
        # Without the typed confirmation nobody deletes anything: 400 where allowed.
        (reverse("privacy:delete", args=[learner_a.pk]), {}, privacy_of_learner_a(done=400)),
        (
            reverse("privacy:delete", args=[learner_a.pk]),
            {"username": "lea_a"},
            {ANON: LOGIN, LEARNER_B: 404, TEACHER_B: 404},
        ),
    ]


def login_as(client, w, role):
    client.logout()
    if role != ANON:
        client.force_login(w["people"][role])


def foreign_markers(w, role):
    """What must not show in this role's pages: class B's things, unless the role is B's."""
    if role in (LEARNER_B, TEACHER_B):
        return ["Klasse Apfel", "lea_a"] if role == LEARNER_B else ["lea_a", "Klasse Apfel"]
    return ["Klasse Geheim", "SECRETBB", "ben_secret_b"]


@pytest.mark.parametrize("role", ROLES)
def test_every_page_with_every_role(client, world, role):
    login_as(client, world, role)
    for url, expected in pages(world):
        response = client.get(url)
        assert response.status_code == expected[role], (role, url, response.status_code)
        if response.status_code == 200:
            body = response.content.decode("utf-8-sig")
            for marker in foreign_markers(world, role):
                assert marker not in body, (role, url, marker)
        if expected[role] == LOGIN and role == ANON:
            assert (
                reverse("login") in response["Location"]
                or reverse("signup") in response["Location"]
            )


@pytest.mark.parametrize("role", ROLES)
def test_every_state_change_with_every_role(client, world, role):
    from tutor.classroom.models import Membership, SchoolClass
    from tutor.quizzes.models import Quiz, QuizQuestion

    login_as(client, world, role)
    for url, data, expected in posts(world):
        if role not in expected:
            continue  # the owner's own action, covered in test_assignments
        before = (
            SchoolClass.objects.get(pk=world["class_a"].pk).join_code,
            Membership.objects.count(),
            Quiz.objects.count(),
            QuizQuestion.objects.filter(answered_at__isnull=False).count(),
            Quiz.objects.filter(submitted_at__isnull=False).count(),
        )
        response = client.post(url, data)
        assert response.status_code == expected[role], (role, url, response.status_code)
        after = (
            SchoolClass.objects.get(pk=world["class_a"].pk).join_code,
            Membership.objects.count(),
            Quiz.objects.count(),
            QuizQuestion.objects.filter(answered_at__isnull=False).count(),
            Quiz.objects.filter(submitted_at__isnull=False).count(),
        )
        assert before == after, (role, url)


def test_admin_site_is_for_staff_only(client, world):
    url = reverse("admin:index")
    for role in ROLES:
        login_as(client, world, role)
        status = client.get(url).status_code
        assert status == (200 if role == ADMIN else 302), role


# --- Issue 16: pupil accounts, passwords, teacher sign-up ------------------------------------


def account_pages(w):
    c = w["class_a"]
    learner_a = w["people"][LEARNER_A]
    everyone = dict.fromkeys(ROLES, 200)
    logged_in = {**everyone, ANON: LOGIN}
    # Without a one-time password the first-password page leads to the change page;
    # the waiting page leads anybody but a pending teacher home.
    moved_on = {**dict.fromkeys(ROLES, 302), ANON: LOGIN}
    return [
        (reverse("roster:roster", args=[c.pk]), teacher_a_only()),
        (reverse("roster:cards", args=[c.pk]), teacher_a_only()),
        (reverse("roster:reset_one", args=[c.pk, learner_a.pk]), teacher_a_only()),
        (reverse("password_change"), logged_in),
        (reverse("password_change_done"), logged_in),
        (reverse("first_password"), moved_on),
        (reverse("teacher_pending"), moved_on),
        (reverse("password_reset"), everyone),
        (reverse("password_reset_done"), everyone),
        (reverse("password_reset_complete"), everyone),
        (reverse("password_reset_confirm", args=["MQ", "bad-token"]), everyone),
        (reverse("teacher_signup"), {**dict.fromkeys(ROLES, 302), ANON: 200}),
        (reverse("teacher_signup_sent"), everyone),
        (reverse("verify_email", args=["MQ", "bad-token"]), everyone),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_every_account_page_with_every_role(client, world, role):
    login_as(client, world, role)
    for url, expected in account_pages(world):
        response = client.get(url)
        assert response.status_code == expected[role], (role, url, response.status_code)
        if response.status_code == 200:
            body = response.content.decode()
            for marker in foreign_markers(world, role):
                assert marker not in body, (role, url, marker)
        if response.status_code == LOGIN and role == ANON:
            assert reverse("login") in response["Location"], url


def account_posts(w):
    c = w["class_a"]
    learner_a = w["people"][LEARNER_A]
    not_owner = {ANON: LOGIN, LEARNER_A: 403, LEARNER_B: 403, TEACHER_B: 404, ADMIN: 403}
    return [
        (reverse("roster:roster", args=[c.pk]), {"names": "Eve Evil"}, not_owner),
        (reverse("roster:reset_many", args=[c.pk]), {"pupils": [learner_a.pk]}, not_owner),
        (reverse("roster:reset_one", args=[c.pk, learner_a.pk]), {}, not_owner),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_every_pupil_account_change_with_every_role(client, world, role):
    from tutor.accounts.models import User

    login_as(client, world, role)
    for url, data, expected in account_posts(world):
        if role not in expected:
            continue  # the teacher's own actions: tests/tutor/test_school_accounts.py
        before = list(
            User.objects.order_by("pk").values_list("pk", "password", "must_set_password")
        )
        response = client.post(url, data)
        assert response.status_code == expected[role], (role, url, response.status_code)
        after = list(User.objects.order_by("pk").values_list("pk", "password", "must_set_password"))
        assert before == after, (role, url)


def test_a_pending_teacher_meets_no_403_and_nothing_of_any_class(client, world):
    from tutor.accounts.models import Role

    pending = UserFactory(username="pending_paula", role=Role.PENDING_TEACHER)
    client.force_login(pending)
    for url, _expected in pages(world) + account_pages(world):
        response = client.get(url, follow=True)
        assert response.status_code in (200, 404), (url, response.status_code)
        if response.redirect_chain:
            final = response.redirect_chain[-1][0]
            assert final in (reverse("teacher_pending"), "/", reverse("password_change")), url
        if response.status_code == 200:
            body = response.content.decode()
            for marker in ("Klasse Apfel", "Klasse Geheim", "SECRETBB", "lea_a", "ben_secret_b"):
                assert marker not in body, (url, marker)


def test_a_pupil_with_a_one_time_password_reaches_only_the_password_page(client, world):
    learner = world["people"][LEARNER_A]
    type(learner).objects.filter(pk=learner.pk).update(must_set_password=True)
    client.force_login(learner)
    for url, _expected in pages(world) + account_pages(world):
        response = client.get(url)
        if url == reverse("first_password"):
            assert response.status_code == 200
        else:
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("first_password")), url
