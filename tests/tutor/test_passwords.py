"""Issue 16, item 2: everybody can change their password; accounts with an e-mail
address can reset it by mail; both are throttled and logged like logins; mail goes to
the console in development and through SMTP from the environment in production."""

from __future__ import annotations

import json
import logging
import re

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, LearnerFactory, TeacherFactory
from tests.tutor.test_setup import PRODUCTION, run_python
from tutor.accounts.models import RateEvent, User

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Stoeck-und-Weis-7"


@pytest.fixture
def quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def quick_users(quick_hashing):
    """A learner without and a teacher with an e-mail address, hashed quickly."""
    return {
        "learner": LearnerFactory(username="mia"),
        "teacher": TeacherFactory(username="frau_keller", email="keller@schule.example.ch"),
    }


def logs_in(username: str, password: str) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


# --- changing one's password --------------------------------------------------------------------


@pytest.mark.parametrize("who", ["learner", "teacher"])
def test_every_logged_in_user_changes_their_password(client, quick_users, who):
    user = quick_users[who]
    client.force_login(user)
    page = client.get(reverse("password_change"), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Change your password" in page.content.decode()
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response["Location"] == reverse("password_change_done")
    assert "Passwort geändert" in client.get(response["Location"]).content.decode()
    assert client.get(reverse("home")).context["user"] == user  # this session stays
    assert logs_in(user.username, NEW_PASSWORD) and not logs_in(user.username, PASSWORD)


def test_visitors_are_sent_to_the_login(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_wrong_current_password_counts_as_a_failed_login_and_locks_like_one(
    client, quick_users, settings
):
    user = quick_users["learner"]
    client.force_login(user)
    data = {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    for attempt in range(1, settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("password_change"), data)
        assert response.status_code == 200, attempt
        assert response.context["form"].errors["old_password"]
    # Recorded where axes records failed logins, with the page it came from.
    attempt = AccessAttempt.objects.get(username="mia")
    assert attempt.failures_since_start == 4 and attempt.path_info == reverse("password_change")
    locked = client.post(reverse("password_change"), data)
    assert locked.status_code == 429
    assert "Zu viele Versuche" in locked.content.decode()
    # Locked now: the right password changes nothing, and the login is locked too.
    right = {**data, "old_password": PASSWORD}
    assert client.post(reverse("password_change"), right).status_code == 429
    assert not logs_in("mia", NEW_PASSWORD)
    assert (
        Client().post(reverse("login"), {"username": "mia", "password": PASSWORD}).status_code
        == 429
    )
    assert User.objects.get(username="mia").check_password(PASSWORD)


def test_a_password_change_is_logged(client, quick_users, caplog):
    client.force_login(quick_users["teacher"])
    with caplog.at_level(logging.INFO, logger="tutor.accounts.security"):
        client.post(
            reverse("password_change"),
            {
                "old_password": PASSWORD,
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD,
            },
        )
    assert any(
        f"password changed by user {quick_users['teacher'].pk} from 127.0.0.1" in r.getMessage()
        for r in caplog.records
    )


# --- reset by e-mail -------------------------------------------------------------------------------


def request_reset(client, email, address="198.51.100.4", language="de"):
    return client.post(
        reverse("password_reset"),
        {"email": email},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE=language,
    )


def link_in(message) -> str:
    return re.search(r"https?://testserver(/\S+)", message.body).group(1)


def test_a_teacher_resets_a_forgotten_password_by_email(client, quick_users):
    response = request_reset(client, "KELLER@schule.example.ch", language="en")
    assert response["Location"] == reverse("password_reset_done")
    [message] = mail.outbox
    assert message.to == ["keller@schule.example.ch"]
    assert message.subject == "A new password for testserver"
    assert 'for the account "frau_keller"' in message.body
    link = link_in(message)

    form = client.get(link, follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response["Location"] == reverse("password_reset_complete")
    assert logs_in("frau_keller", NEW_PASSWORD)
    used = Client().get(link, follow=True).content.decode()
    assert "Dieser Link funktioniert nicht" in used  # once only


def test_the_reset_mail_is_german_on_german_pages(client, quick_users):
    request_reset(client, "keller@schule.example.ch", language="de")
    [message] = mail.outbox
    assert message.subject == "Ein neues Passwort für testserver"
    assert "hat für das Konto «frau_keller» auf testserver ein neues Passwort" in message.body


def test_a_reset_answers_the_same_for_unknown_addresses_and_sends_nothing(client, quick_users):
    known = request_reset(client, "keller@schule.example.ch")
    unknown = request_reset(client, "nobody@schule.example.ch")
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(mail.outbox) == 1


def test_pupils_without_an_address_and_inactive_accounts_get_no_mail(client, quick_users):
    User.objects.filter(pk=quick_users["teacher"].pk).update(is_active=False)
    request_reset(client, "keller@schule.example.ch")
    request_reset(client, "")
    assert mail.outbox == []


def test_a_reset_link_also_ends_a_one_time_password_and_a_lockout(client, quick_users, settings):
    User.objects.filter(username="frau_keller").update(must_set_password=True)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post(reverse("login"), {"username": "frau_keller", "password": "wrong"})
    assert not logs_in("frau_keller", PASSWORD)  # locked
    request_reset(client, "keller@schule.example.ch")
    form = client.get(link_in(mail.outbox[0]), follow=True)
    client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert not User.objects.get(username="frau_keller").must_set_password
    assert logs_in("frau_keller", NEW_PASSWORD)


def test_reset_requests_are_limited_per_email_address_silently(client, quick_users, settings):
    settings.JASS_PASSWORD_RESET_EMAIL_LIMIT = 3
    responses = [
        request_reset(client, "keller@schule.example.ch", address=f"198.51.100.{i}")
        for i in range(5)
    ]
    assert [r.status_code for r in responses] == [302] * 5  # the page never tells
    assert len(mail.outbox) == 3


def test_reset_requests_are_limited_per_client_address(client, quick_users, settings):
    settings.JASS_PASSWORD_RESET_ADDRESS_LIMIT = 4
    statuses = [
        request_reset(client, f"someone{i}@example.ch", language="en").status_code for i in range(6)
    ]
    assert statuses == [302] * 4 + [429] * 2
    refused = request_reset(client, "keller@schule.example.ch", language="en")
    assert refused.status_code == 429 and refused["Retry-After"] == "3600"
    assert "Too many requests" in refused.content.decode()
    assert mail.outbox == []  # the refused request for a real account sent nothing
    assert RateEvent.objects.filter(scope="reset-address").count() == 4  # refusals not counted
    # Another address is not affected.
    assert request_reset(client, "keller@schule.example.ch", address="192.0.2.9").status_code == 302
    assert len(mail.outbox) == 1


def test_the_counts_hold_no_email_or_address_in_clear(client, quick_users):
    request_reset(client, "keller@schule.example.ch", address="198.51.100.77")
    stored = " ".join(RateEvent.objects.values_list("key", flat=True))
    assert "keller" not in stored and "198.51" not in stored
    assert all(re.fullmatch(r"[0-9a-f]{64}", key) for key in stored.split())


def test_reset_requests_are_logged_with_the_accounts_not_the_address(client, quick_users, caplog):
    with caplog.at_level(logging.INFO, logger="tutor.accounts.security"):
        request_reset(client, "keller@schule.example.ch", address="198.51.100.8")
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert f"user(s) [{quick_users['teacher'].pk}]" in messages and "198.51.100.8" in messages
    assert "keller@" not in messages


def test_the_login_and_lockout_pages_link_to_the_reset(client):
    login = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{reverse("password_reset")}"' in login and "Forgotten your password?" in login
    assert f'href="{reverse("teacher_signup")}"' in login


# --- mail settings -------------------------------------------------------------------------------

MAIL_SETTINGS = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, "
    "s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, s.DEFAULT_FROM_EMAIL, s.EMAIL_TIMEOUT]))"
)


def test_development_prints_mail_on_the_console():
    result = run_python(MAIL_SETTINGS)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)[0] == "django.core.mail.backends.console.EmailBackend"


def test_production_sends_mail_by_smtp_from_the_environment():
    env = {
        **PRODUCTION,
        "EMAIL_HOST": "smtp.example.ch",
        "EMAIL_PORT": "465",
        "EMAIL_HOST_USER": "jass",
        "EMAIL_HOST_PASSWORD": "s3cret",
        "EMAIL_USE_TLS": "0",
        "DEFAULT_FROM_EMAIL": "Jass <jass@example.ch>",
    }
    result = run_python(MAIL_SETTINGS, **env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.ch",
        465,
        "jass",
        "s3cret",
        False,
        "Jass <jass@example.ch>",
        10,
    ]
