"""Login throttling, CSRF on every state change, a clear page when the database is
unavailable, and fuzzed input on every form and htmx endpoint: never a 500, and a
refused request changes nothing."""

from datetime import datetime, timedelta

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.factories import PASSWORD, LearnerFactory, MembershipFactory, SchoolClassFactory
from tests.tutor.test_hardening_site import fill_route, number_routes
from tutor.accounts.models import User
from tutor.classroom import assignments
from tutor.classroom.assignments import AssignmentSpec
from tutor.classroom.models import Assignment, Membership, SchoolClass
from tutor.lessons.models import LessonRead
from tutor.lessons.services import load_course
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(teacher):
    load_course()
    school_class = SchoolClassFactory(teacher=teacher)
    learner = MembershipFactory(school_class=school_class).learner
    now = timezone.now()
    spec = AssignmentSpec(
        title="Fuzz",
        kinds=["trick"],
        question_count=2,
        rules_preset="default",
        opens_at=now - timedelta(days=1),
        due_at=now + timedelta(days=1),
    )
    assignment = assignments.create_assignment(
        teacher=teacher, school_class=school_class, spec=spec
    )
    attempt = assignments.start_or_resume(learner=learner, assignment=assignment)
    practice = create_quiz(learner=learner, kinds=["stoeck"], seeds=[3])
    return {
        "teacher": teacher,
        "learner": learner,
        "class": school_class,
        "assignment": assignment,
        "attempt": attempt,
        "practice": practice,
    }


def snapshot():
    """Everything a request could change, in a comparable form."""
    return (
        list(User.objects.order_by("pk").values_list("pk", "username", "deck", "password")),
        list(SchoolClass.objects.order_by("pk").values_list("pk", "name", "join_code")),
        list(Membership.objects.order_by("pk").values_list("pk")),
        list(Assignment.objects.order_by("pk").values_list("pk", "title")),
        list(Quiz.objects.order_by("pk").values_list("pk", "submitted_at")),
        list(QuizQuestion.objects.order_by("pk").values_list("pk", "answered_choice")),
        list(SkillState.objects.order_by("pk").values_list("pk", "attempts")),
        list(LessonRead.objects.order_by("pk").values_list("pk")),
    )


# Login throttling ----------------------------------------------------------------


def test_login_is_locked_after_five_wrong_passwords(client):
    LearnerFactory(username="mia")
    for _ in range(4):
        response = client.post(reverse("login"), {"username": "mia", "password": "wrong"})
        assert response.status_code == 200
    # The fifth wrong password locks the name; then even the right one is refused.
    assert client.post(reverse("login"), {"username": "mia", "password": "x"}).status_code == 429
    response = client.post(reverse("login"), {"username": "mia", "password": PASSWORD})
    assert response.status_code == 429
    assert "15" in response.content.decode()
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_lockout_is_per_name_and_a_right_password_resets_the_count(client):
    LearnerFactory(username="mia")
    LearnerFactory(username="noah")
    for _ in range(4):
        client.post(reverse("login"), {"username": "mia", "password": "wrong"})
    assert (
        client.post(reverse("login"), {"username": "mia", "password": PASSWORD}).status_code == 302
    )
    client.post(reverse("logout"))
    for _ in range(4):  # counting starts again after the success
        client.post(reverse("login"), {"username": "mia", "password": "wrong"})
    assert (
        client.post(reverse("login"), {"username": "mia", "password": PASSWORD}).status_code == 302
    )
    client.post(reverse("logout"))
    for _ in range(6):
        client.post(reverse("login"), {"username": "noah", "password": "wrong"})
    other = Client()
    assert (
        other.post(reverse("login"), {"username": "mia", "password": PASSWORD}).status_code == 302
    )


# CSRF -------------------------------------------------------------------------------


def state_changes(w):
    c, a, quiz = w["class"], w["assignment"], w["attempt"]
    learner_posts = [
        (reverse("classroom:join_class"), {"code": c.join_code}),
        (reverse("classroom:assignment_start", args=[a.pk]), {}),
        (reverse("classroom:assignment_submit", args=[quiz.pk]), {}),
        (reverse("quizzes:answer", args=[quiz.pk, 0]), {"choice": "a"}),
        (reverse("quizzes:practice"), {"count": 2, "rules": "default"}),
        (reverse("lessons:toggle_read", args=["cards"]), {"read": "1"}),
        (reverse("set_deck"), {"deck": "french"}),
        (reverse("logout"), {}),
    ]
    teacher_posts = [
        (reverse("classroom:teacher_classes"), {"name": "Neu"}),
        (reverse("classroom:rotate_code", args=[c.pk]), {}),
        (reverse("classroom:remove_member", args=[c.pk, w["learner"].pk]), {}),
        (
            reverse("classroom:assignment_create", args=[c.pk]),
            {"title": "X", "kinds": ["trick"], "question_count": 2},
        ),
    ]
    anonymous_posts = [
        (
            reverse("signup"),
            {"username": "eve", "password1": "Xy-123456", "password2": "Xy-123456"},
        ),
        (reverse("login"), {"username": "eve", "password": "x"}),
        (reverse("set_language"), {"language": "en"}),
    ]
    return [("learner", learner_posts), ("teacher", teacher_posts), (None, anonymous_posts)]


def test_every_state_change_needs_the_csrf_token(world):
    for role, posts in state_changes(world):
        client = Client(enforce_csrf_checks=True)
        if role:
            client.force_login(world[role])
        for url, data in posts:
            before = snapshot()
            response = client.post(url, data)
            assert response.status_code == 403, (role, url, response.status_code)
            assert snapshot() == before, (role, url)


# Database unavailable ---------------------------------------------------------------


def test_locked_database_gives_a_clear_503_and_saves_nothing(client, world, monkeypatch):
    from tutor.quizzes import services

    def locked(**kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "answer", locked)
    client.force_login(world["learner"])
    url = reverse("quizzes:answer", args=[world["practice"].pk, 0])
    before = snapshot()
    response = client.post(url, {"choice": "a"})
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "Nichts wurde gespeichert" in response.content.decode()
    htmx = client.post(
        url, {"choice": "a"}, headers={"HX-Request": "true", "HX-Current-URL": "/x/"}
    )
    assert htmx.status_code == 503
    assert "<html" not in htmx.content.decode() and 'href="/x/"' in htmx.content.decode()
    assert snapshot() == before


# Fuzzing ------------------------------------------------------------------------------

junk = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=300, max_size=3000),
    st.sampled_from(["", " ", "0", "-1", "99999999999999999999", "a", "z", "NaN", "1e9", "null"]),
    st.sampled_from(["<script>alert(1)</script>", "'; DROP TABLE x;--", "=cmd|' /C calc'!A0"]),
    st.sampled_from(["H6", "Rosen Ober", "HJ HJ HJ", "2026-13-40T99:99", "stoeck", "default"]),
    st.sampled_from(["0001-01-01T00:00", "9999-12-31T23:59", "0001-01-01", "1999-12-31T23:59"]),
)
field_values = st.one_of(junk, st.lists(junk, max_size=4))


def fuzz_targets(w):
    c, a, quiz = w["class"], w["assignment"], w["attempt"]
    return [
        ("learner", "post", reverse("quizzes:answer", args=[quiz.pk, 0]), ["choice"]),
        ("learner", "post", reverse("quizzes:practice"), ["skills", "count", "rules"]),
        ("learner", "post", reverse("classroom:join_class"), ["code"]),
        ("learner", "post", reverse("lessons:toggle_read", args=["cards"]), ["read"]),
        ("learner", "post", reverse("set_deck"), ["deck", "next"]),
        ("learner", "get", reverse("quizzes:question", args=[quiz.pk, 0]), ["x"]),
        (
            "teacher",
            "post",
            reverse("classroom:assignment_create", args=[c.pk]),
            [
                "title",
                "kinds",
                "question_count",
                "rules_preset",
                "opens_at",
                "due_at",
                "attempts_allowed",
                "same_questions",
                "explanations",
                "late_policy",
            ],
        ),
        ("teacher", "post", reverse("classroom:teacher_classes"), ["name"]),
        ("teacher", "get", reverse("classroom:assignment_results", args=[a.pk]), ["page"]),
        (
            None,
            "get",
            reverse("weistool:tool"),
            ["contract", "rules", "edit", "seat0_text", "seat1", "seat2_text", "seat3"],
        ),
        (None, "post", reverse("signup"), ["username", "password1", "password2", "join_code"]),
        (None, "post", reverse("login"), ["username", "password"]),
    ]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_input_never_gives_a_500_and_refusals_change_nothing(world, data):
    for role, method, url, fields in fuzz_targets(world):
        client = Client()
        if role:
            client.force_login(world[role])
        names = data.draw(st.lists(st.sampled_from([*fields, "unexpected"]), unique=True))
        payload = {name: data.draw(field_values) for name in names}
        headers = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
        before = snapshot()
        response = getattr(client, method)(url, payload, headers=headers)
        assert response.status_code < 500, (url, payload, response.status_code)
        if response.status_code >= 400:
            assert snapshot() == before, (url, payload)


# Path parameters: every number in every URL, huge, negative, zero, padded ----------------

path_numbers = st.one_of(
    st.sampled_from([0, -1, 2**63 - 1, 2**63, 2**64, 10**30]),
    st.integers(min_value=-(10**25), max_value=10**25),
    st.from_regex(r"[0-9]{1,40}", fullmatch=True),  # leading zeros, any length
)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_path_numbers_never_give_a_500_and_refusals_change_nothing(world, data):
    """Before issue 12, /practice/<2^63>/q/0/ and /classes/<id>/learners/<2^63>/ were
    OverflowErrors on SQLite. Each number is a real id or a fuzzed one."""
    real = {
        "class_id": world["class"].pk,
        "learner_id": world["learner"].pk,
        "assignment_id": world["assignment"].pk,
        "quiz_id": world["attempt"].pk,
        "position": 0,
    }
    for route, names in number_routes():
        numbers = {
            name: data.draw(st.one_of(st.just(real.get(name, 1)), path_numbers), label=name)
            for name in names
        }
        path = fill_route(route, numbers)
        role = data.draw(st.sampled_from([None, "learner", "teacher"]), label="role")
        method = data.draw(st.sampled_from(["get", "post"]), label="method")
        client = Client()
        if role:
            client.force_login(world[role])
        before = snapshot()
        response = getattr(client, method)(path, {"choice": "a", "read": "1"})
        assert response.status_code < 500, (role, method, path, response.status_code)
        if response.status_code >= 400:
            assert snapshot() == before, (role, method, path)


# Assignment dates: the whole form valid but for the dates ---------------------------------

date_values = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59)).map(
        lambda d: d.strftime("%Y-%m-%dT%H:%M")
    ),
    st.sampled_from(["0001-01-01T00:00", "9999-12-31T23:59", "0001-01-01", "10000-01-01T00:00"]),
    junk,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(opens=date_values, due=date_values)
@example(opens="0001-01-01T00:00", due="2026-05-01T10:00")
@example(opens="2026-05-01T10:00", due="9999-12-31T23:59")
def test_fuzzed_assignment_dates_never_give_a_500(world, opens, due):
    """Before issue 12, opens_at=0001-01-01T00:00 passed the form and raised
    OverflowError when stored."""
    client = Client()
    client.force_login(world["teacher"])
    url = reverse("classroom:assignment_create", args=[world["class"].pk])
    form = {
        "title": "Datum",
        "kinds": ["trick"],
        "question_count": 2,
        "rules_preset": "default",
        "opens_at": opens,
        "due_at": due,
        "attempts_allowed": 1,
        "same_questions": "1",
        "explanations": "immediately",
        "late_policy": "refuse",
    }
    before = snapshot()
    response = client.post(url, form)
    assert response.status_code in (200, 302), (opens, due, response.status_code)
    if response.status_code == 200:
        assert snapshot() == before, (opens, due)
