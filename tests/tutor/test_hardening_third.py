"""Issue 22: what the third probe of accounts, privacy and table pages found
(`../shared/reviews/security-2026-12-04.md`). Each test failed before its fix."""

from __future__ import annotations

import re

import pytest
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
