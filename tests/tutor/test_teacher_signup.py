"""Issue 16, item 3: teachers sign up themselves with a verified e-mail address and are
teachers at once or after an administrator's approval (JASS_TEACHER_APPROVAL)."""

from __future__ import annotations

import re
import smtplib
from datetime import timedelta

import pytest
from django.contrib.admin.sites import AdminSite
from django.contrib.messages.storage.fallback import FallbackStorage
from django.core import mail
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from tests.factories import LearnerFactory, TeacherFactory, UserFactory
from tests.tutor.test_setup import run_python
from tutor.accounts import services
from tutor.accounts.admin import UserAdmin
from tutor.accounts.models import Role, User
from tutor.accounts.tokens import email_verification_token
from tutor.classroom.models import SchoolClass

pytestmark = pytest.mark.django_db

PASSWORD = "Lehrer-Passwort-26"


@pytest.fixture(autouse=True)
def quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def sign_up(client, language="de", address="198.51.100.10", **extra):
    data = {
        "name": "Regula Keller",
        "username": "frau_keller",
        "email": "r.keller@schule.example.ch",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return client.post(
        reverse("teacher_signup"), data, HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address
    )


def verification_path(message) -> str:
    return re.search(r"http://testserver(/accounts/teacher/verify/\S+/)", message.body).group(1)


def logs_in(username: str, password: str = PASSWORD) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def approve(*users):
    """The admin action, as an administrator runs it."""
    request = RequestFactory().post("/admin/accounts/user/")
    request.user = UserFactory(username="root", is_staff=True, is_superuser=True)
    request.session = {}
    request._messages = FallbackStorage(request)
    queryset = User.objects.filter(pk__in=[u.pk for u in users])
    UserAdmin(User, AdminSite()).approve_teachers(request, queryset)
    return [str(m) for m in request._messages]


# --- signing up and confirming the address --------------------------------------------------------


def test_the_signup_page_asks_for_name_user_name_address_and_password(client):
    english = client.get(reverse("teacher_signup"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for field in ("name", "username", "email", "password1", "password2"):
        assert f'name="{field}"' in english
    assert "an administrator of this site checks the account" in english
    german = Client().get(reverse("teacher_signup")).content.decode()
    assert "Als Lehrperson registrieren" in german and "E-Mail-Adresse" in german


def test_a_signup_makes_an_inactive_account_and_mails_a_link(client):
    response = sign_up(client, language="en")
    assert response["Location"] == reverse("teacher_signup_sent")
    page = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "r.keller@schule.example.ch" in page and "within 3 days" in page
    user = User.objects.get(username="frau_keller")
    assert (user.role, user.is_active, user.email_verified_at) == (
        Role.PENDING_TEACHER,
        False,
        None,
    )
    assert (user.first_name, user.last_name) == ("Regula", "Keller")
    [message] = mail.outbox
    assert message.to == ["r.keller@schule.example.ch"]
    assert message.subject == "Confirm your e-mail address for testserver"
    assert "Hello Regula Keller" in message.body and "3 days" in message.body
    assert not logs_in("frau_keller")  # not before the address is confirmed


def test_the_mail_is_in_the_language_of_the_signup(client):
    sign_up(client, language="de")
    [message] = mail.outbox
    assert message.subject == "Bestätigen Sie Ihre E-Mail-Adresse für testserver"
    assert "Der Link gilt 3 Tage." in message.body


def test_opening_the_link_asks_and_only_the_button_confirms(client):
    sign_up(client)
    path = verification_path(mail.outbox[0])
    page = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Confirm my address" in page.content.decode()
    assert User.objects.get(username="frau_keller").email_verified_at is None  # a GET: nothing
    done = client.post(path, HTTP_ACCEPT_LANGUAGE="en")
    assert "An administrator of this site now checks" in done.content.decode()
    user = User.objects.get(username="frau_keller")
    assert user.is_active and user.email_verified_at and user.role == Role.PENDING_TEACHER
    again = client.post(path)  # the link works once
    assert again.status_code == 400 and "Dieser Link funktioniert nicht" in again.content.decode()


@pytest.mark.parametrize(
    "mangle",
    [
        lambda uid, token: (uid, token[:-1] + ("a" if token[-1] != "a" else "b")),
        lambda uid, token: ("MTIzNDU2Nzg5", token),  # another id
        lambda uid, token: ("not-base64", token),
        lambda uid, token: (uid, "zzzzzzzzzzzzzzz-abc"),
    ],
)
def test_a_changed_link_confirms_nothing(client, mangle):
    sign_up(client)
    uid, token = verification_path(mail.outbox[0]).strip("/").split("/")[-2:]
    uid, token = mangle(uid, token)
    path = reverse("verify_email", args=[uid, token])
    assert client.get(path).status_code == 200
    response = client.post(path)
    assert response.status_code == 400
    assert "frau_keller" not in response.content.decode()
    assert User.objects.get(username="frau_keller").email_verified_at is None


def test_an_expired_link_confirms_nothing(client, settings):
    sign_up(client)
    path = verification_path(mail.outbox[0])
    settings.JASS_EMAIL_VERIFICATION_MAX_AGE = -1
    assert client.post(path).status_code == 400
    assert not User.objects.get(username="frau_keller").is_active


# --- approval ---------------------------------------------------------------------------------------


def verified_teacher(client, **extra):
    sign_up(client, **extra)
    client.post(verification_path(mail.outbox[-1]))
    return User.objects.get(username=extra.get("username", "frau_keller"))


def test_a_pending_teacher_sees_the_waiting_page_instead_of_teacher_pages(client):
    verified_teacher(client)
    response = client.post(reverse("login"), {"username": "frau_keller", "password": PASSWORD})
    assert response["Location"] == reverse("teacher_pending")
    page = client.get(reverse("teacher_pending"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Waiting for approval" in page and "you get an e-mail" in page
    for url in (reverse("classroom:teacher_classes"), reverse("dashboard")):
        assert client.get(url)["Location"] == reverse("teacher_pending"), url
    assert client.post(reverse("classroom:teacher_classes"), {"name": "4a"}).status_code == 302
    assert not SchoolClass.objects.exists()
    assert client.get(reverse("lessons:overview")).status_code == 200  # lessons stay open


def test_administrators_with_an_address_are_told_in_both_languages(client):
    UserFactory(username="root", is_superuser=True, is_staff=True, email="admin@example.ch")
    UserFactory(username="root2", is_superuser=True, is_staff=True, email="")
    verified_teacher(client)
    waiting = [m for m in mail.outbox if "admin@example.ch" in m.to]
    assert len(waiting) == 1
    body = waiting[0].body
    assert "r.keller@schule.example.ch" in body and "frau_keller" in body
    assert "Approve as teachers" in body and "Als Lehrpersonen freigeben" in body
    assert "/admin/accounts/user/?role__exact=pending_teacher" in body


def test_an_administrator_approves_and_the_teacher_gets_a_mail_and_makes_a_class(client):
    user = verified_teacher(client)
    mail.outbox.clear()
    notices = approve(user)
    assert notices == ["1 Lehrperson freigegeben und per E-Mail benachrichtigt."]
    assert User.objects.get(pk=user.pk).role == Role.TEACHER
    [message] = mail.outbox
    assert message.to == ["r.keller@schule.example.ch"]
    assert "/accounts/login/?u=frau_keller" in message.body
    assert "is ready" in message.subject and "ist bereit" in message.subject  # both languages

    teacher = Client()
    teacher.post(reverse("login"), {"username": "frau_keller", "password": PASSWORD})
    response = teacher.post(reverse("classroom:teacher_classes"), {"name": "Klasse 4a"})
    assert response.status_code == 302
    assert SchoolClass.objects.get().teacher_id == user.pk


def test_approval_leaves_unverified_accounts_learners_and_teachers_alone(client):
    sign_up(client)
    unverified = User.objects.get(username="frau_keller")
    learner, teacher = LearnerFactory(), TeacherFactory()
    mail.outbox.clear()
    notices = approve(unverified, learner, teacher)
    assert notices == [
        "3 Konten blieben unverändert: Freigeben lassen sich nur Lehrpersonen, die ihre "
        "E-Mail-Adresse bestätigt haben und auf die Freigabe warten."
    ]
    assert User.objects.get(pk=unverified.pk).role == Role.PENDING_TEACHER
    assert User.objects.get(pk=learner.pk).role == Role.LEARNER
    assert mail.outbox == []


def test_the_admin_lists_pending_teachers_and_offers_the_action(client):
    verified_teacher(client)
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    page = client.get(
        reverse("admin:accounts_user_changelist") + "?role__exact=pending_teacher",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "frau_keller" in page and 'value="approve_teachers"' in page


def test_with_automatic_approval_the_address_makes_a_teacher_at_once(client, settings):
    settings.JASS_TEACHER_APPROVAL = "auto"
    user = verified_teacher(client)
    assert User.objects.get(pk=user.pk).role == Role.TEACHER
    response = client.post(reverse("login"), {"username": "frau_keller", "password": PASSWORD})
    assert response["Location"] == reverse("home")
    assert client.get(reverse("classroom:teacher_classes")).status_code == 200


def test_an_unknown_approval_setting_stops_the_site():
    result = run_python("import django; django.setup()", JASS_TEACHER_APPROVAL="sometimes")
    assert result.returncode != 0 and "JASS_TEACHER_APPROVAL" in result.stderr


# --- addresses that have an account, old sign-ups, failures ----------------------------------------


def test_an_address_with_an_account_gets_a_mail_instead_of_a_second_account(client):
    TeacherFactory(username="regula", email="R.Keller@schule.example.ch")
    response = sign_up(client, username="frau_keller2", language="en")
    assert response["Location"] == reverse("teacher_signup_sent")  # the same answer
    assert not User.objects.filter(username="frau_keller2").exists()
    [message] = mail.outbox
    assert "  regula" in message.body and "/accounts/password/reset/" in message.body
    assert "/accounts/teacher/verify/" not in message.body


def test_signing_up_again_sends_a_new_link_for_an_unconfirmed_account(client):
    sign_up(client)
    sign_up(client, username="other_name")
    assert User.objects.filter(role=Role.PENDING_TEACHER).count() == 1
    second = mail.outbox[1]
    assert "frau_keller" in second.body
    client.post(verification_path(second))
    assert User.objects.get(username="frau_keller").is_active


def test_unconfirmed_signups_are_deleted_after_the_link_expires(client):
    sign_up(client)
    old = timezone.now() - timedelta(days=4)
    User.objects.filter(username="frau_keller").update(date_joined=old)
    keeper = TeacherFactory(username="kept")
    User.objects.filter(pk=keeper.pk).update(date_joined=old)
    sign_up(client, username="frau_keller", email="new@schule.example.ch")  # name free again
    user = User.objects.get(username="frau_keller")
    assert user.email == "new@schule.example.ch"
    assert User.objects.filter(username="kept").exists()


def test_a_mail_that_cannot_be_sent_leaves_no_account(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("no server")

    monkeypatch.setattr("tutor.accounts.mail.send_mail", refuse)
    response = sign_up(client, language="en")
    assert response.status_code == 200
    assert "could not be sent, so no account was made" in response.content.decode()
    assert not User.objects.filter(username="frau_keller").exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "\u200b\u200b"),
        ("name", "1234"),
        ("email", "not-an-address"),
        ("email", ""),
        ("username", "\u0430nna"),
        ("username", "frau keller"),
        ("password2", "something-else-1"),
    ],
)
def test_bad_input_is_a_form_error_and_makes_nothing(client, field, value):
    response = sign_up(client, **{field: value})
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not User.objects.exists() and mail.outbox == []


def test_a_password_like_the_name_is_refused(client):
    response = sign_up(client, password1="regulakeller", password2="regulakeller")
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not User.objects.exists()


def test_signups_are_limited_per_client_address(client, settings):
    settings.JASS_TEACHER_SIGNUP_ADDRESS_LIMIT = 2
    statuses = [
        sign_up(Client(), username=f"lehrer{i}", email=f"l{i}@example.ch").status_code
        for i in range(4)
    ]
    assert statuses == [302, 302, 429, 429]
    assert User.objects.count() == 2 and len(mail.outbox) == 2


def test_logged_in_people_are_sent_home(client):
    client.force_login(LearnerFactory())
    assert client.get(reverse("teacher_signup"))["Location"] == reverse("home")


def test_verification_service_refuses_learners_even_with_a_valid_token():
    learner = LearnerFactory(email="x@example.ch")
    assert not services.verification_valid(learner, email_verification_token.make_token(learner))
