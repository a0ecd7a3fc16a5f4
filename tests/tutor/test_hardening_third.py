"""Issue 22: what the third probe of accounts, privacy and table pages found
(`../shared/reviews/security-2026-12-04.md`). Each test failed before its fix."""

from __future__ import annotations

import importlib
import re

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps as django_apps
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, LearnerFactory, TeacherFactory
from tutor.accounts.models import User

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Stoeck-und-Weis-7"


@pytest.fixture
def quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def logs_in(username: str, password: str) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


# --- item 1: a new password is new ------------------------------------------------------------


def test_the_first_password_cannot_be_the_one_on_the_login_card(client, quick_hashing):
    """A11: the one-time password is known to the teacher; keeping it is refused and the
    account still asks for a password of the pupil's own."""
    pupil = LearnerFactory(username="anna.m", must_set_password=True)
    assert logs_in("anna.m", PASSWORD)
    client.post(reverse("login"), {"username": "anna.m", "password": PASSWORD})
    response = client.post(
        reverse("first_password"),
        {"new_password1": PASSWORD, "new_password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "this is the password the account has now" in response.content.decode()
    pupil.refresh_from_db()
    assert pupil.must_set_password
    # The pupil's own password goes through.
    response = client.post(
        reverse("first_password"), {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response.status_code == 302
    pupil.refresh_from_db()
    assert not pupil.must_set_password and pupil.check_password(NEW_PASSWORD)


def test_a_password_change_to_the_same_password_is_refused(client, quick_hashing):
    teacher = TeacherFactory(username="frau_keller")
    client.force_login(teacher)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": PASSWORD, "new_password2": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "this is the password the account has now" in response.content.decode()


def test_a_reset_to_the_same_password_is_refused(client, quick_hashing):
    TeacherFactory(username="frau_keller", email="keller@schule.example.ch")
    client.post(
        reverse("password_reset"), {"email": "keller@schule.example.ch"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    link = re.search(r"https?://testserver(/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    url = form.redirect_chain[-1][0]
    response = client.post(
        url, {"new_password1": PASSWORD, "new_password2": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "this is the password the account has now" in response.content.decode()
    response = client.post(url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response["Location"] == reverse("password_reset_complete")


@pytest.mark.parametrize("form", ["first_password", "password_change"])
def test_a_new_password_equal_to_the_user_name_is_refused(client, quick_hashing, form):
    user = LearnerFactory(username="stoeckundweis", must_set_password=form == "first_password")
    client.force_login(user)
    data = {"new_password1": "stoeckundweis", "new_password2": "stoeckundweis"}
    if form == "password_change":
        data["old_password"] = PASSWORD
    response = client.post(reverse(form), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "too similar to the username" in response.content.decode()
    assert User.objects.get(pk=user.pk).check_password(PASSWORD)


# --- item 5: deletion and export find every login record -----------------------------------


def test_failed_logins_in_other_capitals_are_in_the_export_and_gone_with_the_account(
    client, quick_hashing
):
    """P5: axes recorded the name as typed; `Chiara` and `CHIARA` escaped both."""
    chiara = LearnerFactory(username="chiara")
    for typed in ("Chiara", "CHIARA", "chiara"):
        Client().post(reverse("login"), {"username": typed, "password": "wrong-password-1"})
    assert AccessAttempt.objects.filter(username="chiara").get().failures_since_start == 3

    client.force_login(chiara)
    export = client.get(reverse("privacy:export_json", args=[chiara.pk])).json()
    failures = [row for row in export["login_failures"] if row["record"] == "counter"]
    assert [row["failures"] for row in failures] == [3]

    response = client.post(
        reverse("privacy:delete", args=[chiara.pk]),
        {"username": "chiara", "password": PASSWORD},
    )
    assert response.status_code == 302
    assert not AccessAttempt.objects.filter(username__iexact="chiara").exists()
    assert not AccessFailureLog.objects.filter(username__iexact="chiara").exists()


def test_the_name_folding_keeps_the_per_name_lock():
    """Five wrong passwords lock the name however it is capitalised (one counter)."""
    LearnerFactory(username="dario")
    for typed in ("Dario", "DARIO", "dario", "DaRiO", "darIO"):
        Client().post(reverse("login"), {"username": typed, "password": "wrong-password-1"})
    locked = Client().post(reverse("login"), {"username": "dario", "password": PASSWORD})
    assert locked.status_code == 429


def test_records_made_before_are_folded_and_merged_by_the_migration():
    migration = importlib.import_module("tutor.accounts.migrations.0003_login_names_folded")
    common = {"ip_address": "192.0.2.7", "user_agent": "Firefox", "get_data": "", "post_data": ""}
    AccessAttempt.objects.create(username="Chiara", failures_since_start=2, **common)
    AccessAttempt.objects.create(username="CHIARA", failures_since_start=1, **common)
    AccessAttempt.objects.create(
        username="CHIARA", failures_since_start=4, **{**common, "ip_address": "192.0.2.8"}
    )
    AccessLog.objects.create(username="Ben", ip_address="192.0.2.7", user_agent="x")
    AccessFailureLog.objects.create(username="BEN", ip_address="192.0.2.7", user_agent="x")
    migration.fold_records(django_apps, None)
    counters = sorted(
        AccessAttempt.objects.values_list("username", "ip_address", "failures_since_start")
    )
    assert counters == [("chiara", "192.0.2.7", 3), ("chiara", "192.0.2.8", 4)]
    assert list(AccessLog.objects.values_list("username", flat=True)) == ["ben"]
    assert list(AccessFailureLog.objects.values_list("username", flat=True)) == ["ben"]
