"""Names and roles (NRPS) against the played platform's token endpoint and member list;
the tool's keys (JWKS, rotate_keys); lti_register and lti_sync_members."""

from __future__ import annotations

from io import StringIO

import jwt
import pytest
from django.core.management import CommandError, call_command
from lti_tool.models import Key, LtiDeployment, LtiRegistration, LtiUser

from tests.factories import (
    AssignmentFactory,
    MembershipFactory,
    QuizFactory,
    QuizQuestionFactory,
)
from tests.tutor.lti.conftest import INSTRUCTOR, LEARNER, launch, new_browser
from tutor.lti.models import LtiClass
from tutor.lti.services import sync_members
from tutor.quizzes.models import Quiz, QuizQuestion

pytestmark = pytest.mark.django_db


def member(sub: str, roles: list[str], status: str = "Active", **names: str) -> dict:
    return {"user_id": sub, "roles": roles, "status": status, **names}


def class_members(school_class) -> set[str]:
    return set(
        LtiUser.objects.filter(auth_user__memberships__school_class=school_class).values_list(
            "sub", flat=True
        )
    )


def test_the_instructors_launch_brings_the_member_list_into_the_class(platform):
    platform.members = [
        member("teacher-1", INSTRUCTOR, given_name="Anna", family_name="Meier"),
        member("pupil-1", LEARNER, given_name="Beat", family_name="Keller"),
        member("pupil-2", LEARNER, given_name="Chiara", family_name="Rossi"),
        member("pupil-3", LEARNER, status="Inactive"),
    ]
    launch(new_browser(), platform, sub="teacher-1", roles=INSTRUCTOR)
    school_class = LtiClass.objects.get().school_class
    assert class_members(school_class) == {"pupil-1", "pupil-2"}
    beat = LtiUser.objects.get(sub="pupil-1").auth_user
    assert (beat.first_name, beat.last_name, beat.role) == ("Beat", "Keller", "learner")
    # The tool asked the platform for a token, then for the list with it.
    assert "POST /token" in platform.requests and "GET /members" in platform.requests


def test_sync_removes_learners_who_left_and_keeps_their_answers(platform):
    platform.members = [member("pupil-1", LEARNER), member("pupil-2", LEARNER)]
    launch(new_browser(), platform, sub="teacher-1", roles=INSTRUCTOR)
    link = LtiClass.objects.get()
    school_class = link.school_class
    leaver = LtiUser.objects.get(sub="pupil-2").auth_user
    quiz = QuizFactory(learner=leaver, assignment=AssignmentFactory(school_class=school_class))
    QuizQuestionFactory(quiz=quiz)
    by_code = MembershipFactory(school_class=school_class).learner  # joined by code
    platform.members = [
        member("pupil-1", LEARNER),
        member("pupil-2", LEARNER, status="Inactive"),
        member("pupil-4", LEARNER),
    ]
    result = sync_members(link.context)
    assert (result.added, result.removed) == (1, 1)
    assert class_members(school_class) == {"pupil-1", "pupil-4"}
    assert school_class.learners.filter(pk=by_code.pk).exists()
    # The learner's work stays (with their account): only the membership went.
    assert Quiz.objects.filter(pk=quiz.pk, learner=leaver).exists()
    assert QuizQuestion.objects.filter(quiz=quiz).count() == 1
    # Gone from the list altogether: removed too.
    platform.members = [member("pupil-4", LEARNER)]
    result = sync_members(link.context)
    assert result.removed == 1 and class_members(school_class) == {"pupil-4"}


def test_a_platform_that_does_not_answer_does_not_break_the_launch(platform):
    platform.members = [member("pupil-1", LEARNER)]
    response = launch(
        new_browser(),
        platform,
        sub="teacher-1",
        roles=INSTRUCTOR,
        **{
            "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                "context_memberships_url": f"{platform.base_url}/nowhere",
                "service_versions": ["2.0"],
            }
        },
    )
    assert response.status_code == 302
    assert class_members(LtiClass.objects.get().school_class) == set()


def test_lti_sync_members_command(platform):
    platform.members = []
    launch(new_browser(), platform, sub="teacher-1", roles=INSTRUCTOR)
    platform.members = [member("pupil-1", LEARNER), member("pupil-2", LEARNER)]
    out = StringIO()
    call_command("lti_sync_members", stdout=out)
    assert "2 added, 0 removed" in out.getvalue()
    assert class_members(LtiClass.objects.get().school_class) == {"pupil-1", "pupil-2"}


def test_jwks_lists_the_tools_keys_and_rotate_keys_adds_one(client, platform):
    keys = client.get("/lti/jwks/").json()["keys"]
    assert len(keys) == 1 and keys[0]["alg"] == "RS256" and keys[0]["use"] == "sig"
    assert "d" not in keys[0]  # the public half only
    call_command("rotate_keys", stdout=StringIO())
    rotated = client.get("/lti/jwks/").json()["keys"]
    assert len(rotated) == 2
    assert {key["kid"] for key in rotated} > {keys[0]["kid"]}
    # Keys older than --deactivate-after days leave the set.
    call_command("rotate_keys", "--deactivate-after=0", stdout=StringIO())
    assert len(client.get("/lti/jwks/").json()["keys"]) == 1


def test_the_tool_signs_service_requests_with_its_newest_key(platform):
    call_command("rotate_keys", stdout=StringIO())
    newest = Key.objects.latest()
    token = jwt.decode(
        jwt.encode({"a": 1}, newest.private_key, algorithm="RS256"),
        newest.public_key,
        algorithms=["RS256"],
    )
    assert token == {"a": 1}
    registration = platform.registration.to_registration()
    assert registration.get_tool_private_key() == newest.private_key


def test_lti_register_creates_the_registration_deployments_and_a_key(db):
    out = StringIO()
    call_command(
        "lti_register",
        "--name=Moodle Schule",
        "--issuer=https://moodle.schule.example",
        "--client-id=abc123",
        "--auth-url=https://moodle.schule.example/mod/lti/auth.php",
        "--token-url=https://moodle.schule.example/mod/lti/token.php",
        "--keyset-url=https://moodle.schule.example/mod/lti/certs.php",
        "--deployment-id=1",
        "--deployment-id=2",
        "--site-url=https://jass.example",
        stdout=out,
    )
    registration = LtiRegistration.objects.get(client_id="abc123")
    assert set(
        LtiDeployment.objects.filter(registration=registration, is_active=True).values_list(
            "deployment_id", flat=True
        )
    ) == {"1", "2"}
    assert Key.objects.filter(is_active=True).count() == 1
    text = out.getvalue()
    assert f"https://jass.example/lti/init/{registration.uuid}/" in text
    assert "https://jass.example/lti/launch/" in text
    assert "(Moodle): https://jass.example/lti/init/\n" in text
    assert "https://jass.example/lti/jwks/" in text
    # Again, with a new deployment: updated, not doubled; no second key.
    call_command(
        "lti_register",
        "--name=Moodle Schule",
        "--issuer=https://moodle.schule.example",
        "--client-id=abc123",
        "--auth-url=https://moodle.schule.example/mod/lti/auth.php",
        "--token-url=https://moodle.schule.example/mod/lti/token.php",
        "--keyset-url=https://moodle.schule.example/mod/lti/certs.php",
        "--deployment-id=3",
        stdout=StringIO(),
    )
    assert LtiRegistration.objects.count() == 1
    assert registration.deployments.count() == 3
    assert Key.objects.count() == 1


def test_lti_register_refuses_a_bad_url(db):
    with pytest.raises(CommandError, match="--keyset-url"):
        call_command(
            "lti_register",
            "--name=X",
            "--issuer=https://x.example",
            "--client-id=1",
            "--auth-url=https://x.example/auth",
            "--token-url=https://x.example/token",
            "--keyset-url=ftp://x.example/keys",
            stdout=StringIO(),
        )
    assert not LtiRegistration.objects.exists()


def test_deleting_an_account_forgets_what_the_platform_sent(platform):
    launch(new_browser(), platform, sub="teacher-1", roles=INSTRUCTOR, email="a@school.example")
    launch(new_browser(), platform, sub="pupil-1")
    pupil = LtiUser.objects.get(sub="pupil-1").auth_user
    pupil.delete()
    assert not LtiUser.objects.filter(sub="pupil-1").exists()
    assert LtiUser.objects.filter(sub="teacher-1").exists()
    # The next launch makes a new account.
    launch(new_browser(), platform, sub="pupil-1")
    assert LtiUser.objects.get(sub="pupil-1").auth_user.pk != pupil.pk


def test_the_admin_shows_registrations_deployments_keys_and_links(platform):
    from django.test import Client

    from tests.factories import UserFactory

    launch(new_browser(), platform, sub="teacher-1", roles=INSTRUCTOR)
    admin = UserFactory(is_staff=True, is_superuser=True)
    browser = Client()
    browser.force_login(admin)
    for url in (
        "/admin/lti_tool/ltiregistration/",
        f"/admin/lti_tool/ltiregistration/{platform.registration.pk}/change/",
        "/admin/lti_tool/ltideployment/",
        "/admin/lti_tool/key/",
        "/admin/lti/lticlass/",
        "/admin/lti/ltiassignmentlink/",
    ):
        assert browser.get(url).status_code == 200, url
    key_page = browser.get(f"/admin/lti_tool/key/{Key.objects.get().pk}/change/")
    assert b"PRIVATE KEY" not in key_page.content
    deployment = LtiDeployment.objects.create(registration=platform.registration, deployment_id="9")
    browser.post(
        "/admin/lti_tool/ltideployment/",
        {"action": "approve", "_selected_action": [deployment.pk]},
    )
    deployment.refresh_from_db()
    assert deployment.is_active


def test_the_migration_makes_the_launch_cache_table(db):
    """`migrate` alone makes the `lti` cache's table (the test runner makes cache tables
    itself, so the table is dropped here first and made again by the migration)."""
    from importlib import import_module
    from types import SimpleNamespace

    from django.conf import settings
    from django.db import connection

    table = settings.CACHES["lti"]["LOCATION"]
    if settings.CACHES["lti"]["BACKEND"] != "django.core.cache.backends.db.DatabaseCache":
        pytest.skip("the lti cache is Redis here")
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {connection.ops.quote_name(table)}")
    assert table not in connection.introspection.table_names()
    migration = import_module("tutor.lti.migrations.0001_initial")
    migration.create_lti_cache_table(None, SimpleNamespace(connection=connection))
    assert table in connection.introspection.table_names()
