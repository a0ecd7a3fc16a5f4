import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher, check_password, make_password
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import PASSWORD, LearnerFactory, SchoolClassFactory
from tutor.accounts.models import Role, User
from tutor.classroom.models import Membership

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "Stoeck-und-Weis-7"


def signup_data(**extra):
    return {
        "username": "new_pupil",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
        **extra,
    }


def test_signup_creates_a_logged_in_learner(client):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    user = User.objects.get(username="new_pupil")
    assert user.role == Role.LEARNER
    assert client.get(reverse("home")).context["user"] == user


def test_signup_with_join_code_joins_the_class(client):
    school_class = SchoolClassFactory(join_code="ABCDEFGH")
    # Pupils type codes sloppily; lower case and a dash still work.
    client.post(reverse("signup"), signup_data(join_code="abcd-efgh"))
    user = User.objects.get(username="new_pupil")
    assert Membership.objects.filter(learner=user, school_class=school_class).exists()


def test_signup_with_unknown_code_shows_error_and_creates_nothing(client):
    response = client.post(reverse("signup"), signup_data(join_code="NOPE"))
    assert response.status_code == 200
    assert response.context["form"].errors["join_code"]
    assert "Keine Klasse hat diesen Beitrittscode" in response.content.decode()
    assert not User.objects.filter(username="new_pupil").exists()


def test_signup_password_mismatch_is_a_form_error(client):
    response = client.post(reverse("signup"), signup_data(password2="something-else-9"))
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not User.objects.filter(username="new_pupil").exists()


def test_login_and_logout(client):
    learner = LearnerFactory(username="anna")
    response = client.post(reverse("login"), {"username": "anna", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == learner
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


def test_passwords_are_stored_with_argon2id(client):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    stored = User.objects.get(username="new_pupil").password
    assert stored.startswith("argon2$argon2id$v=19$m=102400,t=2,p=1$")


def test_an_older_pbkdf2_password_still_logs_in_and_is_rehashed(client):
    user = LearnerFactory()
    user.password = make_password(PASSWORD, hasher="pbkdf2_sha256")
    user.save(update_fields=["password"])
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$v=19$m=102400,t=2,p=1$")
    assert check_password(PASSWORD, user.password)


def test_a_current_hash_is_not_redone_at_login(client):
    user = LearnerFactory()
    before = user.password
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    user.refresh_from_db()
    assert user.password == before


def test_an_eight_lane_argon2_hash_logs_in_and_is_redone_in_one_lane(client):
    user = LearnerFactory()
    user.password = Argon2PasswordHasher().encode(PASSWORD, Argon2PasswordHasher().salt())
    assert "p=8$" in user.password
    user.save(update_fields=["password"])
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    user.refresh_from_db()
    assert "p=1$" in user.password and check_password(PASSWORD, user.password)


def test_login_with_wrong_password_shows_form_error(client):
    LearnerFactory(username="anna")
    response = client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()


def test_logout_by_get_is_refused(client, learner):
    client.force_login(learner)
    assert client.get(reverse("logout")).status_code == 405


def test_anonymous_is_sent_to_login_for_role_pages(client):
    for name in ("classroom:teacher_classes", "classroom:my_classes"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_learner_cannot_open_teacher_pages(client, learner):
    client.force_login(learner)
    assert client.get(reverse("classroom:teacher_classes")).status_code == 403
    assert client.post(reverse("classroom:teacher_classes"), {"name": "Hack"}).status_code == 403


def test_teacher_cannot_join_a_class(client, teacher, school_class):
    client.force_login(teacher)
    assert (
        client.post(reverse("classroom:join_class"), {"code": school_class.join_code}).status_code
        == 403
    )


def test_teacher_creates_class_and_sees_only_their_own(client, teacher):
    other = SchoolClassFactory(name="Fremde Klasse")
    client.force_login(teacher)
    client.post(reverse("classroom:teacher_classes"), {"name": "Klasse 4a"})
    page = client.get(reverse("classroom:teacher_classes")).content.decode()
    assert "Klasse 4a" in page
    assert other.name not in page and other.join_code not in page


def test_learner_joins_with_code(client, learner, school_class):
    client.force_login(learner)
    response = client.post(
        reverse("classroom:join_class"), {"code": school_class.join_code.lower()}
    )
    assert response.status_code == 302
    assert school_class.learners.filter(pk=learner.pk).exists()


def test_learner_join_with_bad_code_is_a_form_error(client, learner):
    client.force_login(learner)
    response = client.post(reverse("classroom:join_class"), {"code": "ZZZZZZZZ"})
    assert response.status_code == 200
    assert response.context["form"].errors["code"]


def test_createteacher_command(capsys):
    call_command("createteacher", "herr_meier", password="Lehrer-Passwort-1")
    user = User.objects.get(username="herr_meier")
    assert user.role == Role.TEACHER
    assert user.check_password("Lehrer-Passwort-1")
    with pytest.raises(CommandError):
        call_command("createteacher", "herr_meier", password="x")
