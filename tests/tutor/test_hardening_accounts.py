"""Issue 12, items 2 and 7: login floods with fresh names, blank passwords, look-alike
user names, and blank class and assignment names.

Every refusal is a form error (or the lockout page) in German and English, never a
500, and nothing is saved."""

import pytest
from axes.models import AccessAttempt
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.factories import PASSWORD, LearnerFactory, MembershipFactory, SchoolClassFactory
from tests.tutor.test_security import field_values, snapshot
from tutor.accounts.hashers import Argon2idOneLaneHasher
from tutor.accounts.models import User
from tutor.classroom.models import Assignment, SchoolClass

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.5"
GOOD_PASSWORD = "Stoeck-und-Weis-7"
FAST_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"


@pytest.fixture
def fast_hashing(settings):
    """Floods post dozens of logins; a 100 MiB Argon2 hash each would take minutes."""
    settings.PASSWORD_HASHERS = [FAST_HASHER]


@pytest.fixture
def address_limit(settings):
    settings.JASS_LOGIN_ADDRESS_FAILURE_LIMIT = 8
    return 8


def login(client, username, password="wrong-password", address=ATTACKER, **extra):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, **extra
    )


# --- item 2: a flood of fresh names ---------------------------------------------------


def test_a_flood_of_fresh_names_from_one_address_is_locked_at_the_address_limit(
    client, fast_hashing, address_limit
):
    statuses = [login(client, f"nobody{i}").status_code for i in range(address_limit + 5)]
    # Fresh names never reach the five failures of a (name, address) pair; the address
    # limit stops them: the last failure it counts gets the lockout page, and so does
    # everything after it.
    assert statuses[: address_limit - 1] == [200] * (address_limit - 1)
    assert statuses[address_limit - 1 :] == [429] * 6


def test_the_address_lockout_answer_is_the_lockout_page_in_both_languages(
    client, fast_hashing, address_limit
):
    for i in range(address_limit):
        login(client, f"nobody{i}")
    english = login(client, "nobody-more", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 429
    assert "accounts/address_locked.html" in [t.name for t in english.templates]
    text = english.content.decode()
    assert "Too many attempts" in text and "from your network" in text
    assert f"{address_limit} times" in text and "15 minutes" in text
    german = login(Client(), "nobody-more", HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 429
    assert "Zu viele Versuche" in german.content.decode()
    assert "Aus deinem Netz" in german.content.decode()


def test_a_real_user_from_another_address_still_logs_in_during_a_flood(
    client, fast_hashing, address_limit
):
    LearnerFactory(username="mia")
    for i in range(address_limit + 3):
        login(client, f"nobody{i}")
    assert login(client, "mia", PASSWORD).status_code == 429  # the flooding address
    other = Client()
    response = login(other, "mia", PASSWORD, address="198.51.100.20")
    assert response.status_code == 302
    assert other.get(reverse("home")).context["user"].username == "mia"


def test_an_own_account_does_not_clear_the_address_count(client, fast_hashing, address_limit):
    # Sign-up is open: an attacker logging in to their own account between fresh
    # names must not reset the address count (a success clears only its own name).
    LearnerFactory(username="eve")
    for i in range(address_limit - 1):
        login(client, f"nobody{i}")
    assert login(client, "eve", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    assert login(client, "nobody-again").status_code == 429


def test_a_name_longer_than_any_account_is_a_form_error_not_a_500(client, fast_hashing):
    """Found by the fuzzing test on PostgreSQL: a 300-character name reached
    authenticate() and django-axes' 255-character column."""
    response = login(client, "0" * 300, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()
    assert login(client, "0" * 150).status_code == 200  # an ordinary wrong login
    assert AccessAttempt.objects.count() == 1


def test_a_refused_login_during_a_lockout_writes_nothing(client, fast_hashing, address_limit):
    for i in range(address_limit):
        login(client, f"nobody{i}")
    with CaptureQueriesContext(connection) as queries:
        assert login(client, "nobody-more").status_code == 429
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert writes == []


def test_stepping_through_ipv6_addresses_of_one_64_network_is_one_address(
    client, fast_hashing, address_limit
):
    statuses = [
        login(client, f"nobody{i}", address=f"2001:db8:5:6::{i + 1:x}").status_code
        for i in range(address_limit + 2)
    ]
    assert statuses[-3:] == [429] * 3


def test_behind_a_proxy_the_address_the_proxy_saw_counts_not_a_forged_header(
    client, settings, fast_hashing, address_limit
):
    settings.JASS_PROXY_COUNT = 1
    statuses = [
        login(
            client,
            f"nobody{i}",
            address="10.0.0.2",  # the proxy
            HTTP_X_FORWARDED_FOR=f"192.0.2.{i}, {ATTACKER}",  # forged, then the real one
        ).status_code
        for i in range(address_limit + 2)
    ]
    assert statuses[-3:] == [429] * 3
    # Another client behind the same proxy is not locked.
    LearnerFactory(username="mia")
    response = login(
        Client(), "mia", PASSWORD, address="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.7"
    )
    assert response.status_code == 302


@pytest.fixture
def hash_calls(monkeypatch):
    """Counts every Argon2 hash our hasher computes (encode: new hash; verify: login)."""
    calls = []
    for name in ("encode", "verify"):
        original = getattr(Argon2idOneLaneHasher, name)

        def counted(self, *args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(Argon2idOneLaneHasher, name, counted)
    return calls


def test_an_unknown_name_costs_the_same_one_hash_as_a_wrong_password(client, hash_calls, settings):
    settings.JASS_LOGIN_ADDRESS_FAILURE_LIMIT = 3
    LearnerFactory(username="mia")
    hash_calls.clear()
    assert login(client, "mia").status_code == 200
    assert hash_calls == ["verify"]  # one Argon2id verification
    hash_calls.clear()
    assert login(client, "nobody").status_code == 200
    # Django's ModelBackend hashes the password once with the default hasher (ours, the
    # same parameters as a stored hash), so the answer takes as long as for a real name.
    assert hash_calls == ["encode"]
    hash_calls.clear()
    # The third failure locks the address; from then on nothing is hashed at all.
    assert login(client, "nobody2").status_code == 429
    assert login(client, "nobody3").status_code == 429
    assert login(client, "mia", PASSWORD).status_code == 429
    assert hash_calls == ["encode"]


# --- item 7: passwords -----------------------------------------------------------------


def signup(client, username="new_pupil", password=GOOD_PASSWORD, language="de"):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.mark.parametrize(
    "password",
    [" " * 8, " " * 20, "\u200b" * 10, "\u3000" * 9, "ab" + " " * 10, "a b c d e f g", "\t\n" * 6],
)
def test_blank_and_mostly_blank_passwords_are_refused(client, fast_hashing, password):
    response = signup(client, password=password, language="en")
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors["password2"])
    assert "visible characters" in errors
    assert not User.objects.filter(username="new_pupil").exists()


def test_the_blank_password_error_is_german_on_german_pages(client, fast_hashing):
    response = signup(client, password=" " * 8, language="de")
    assert "sichtbare Zeichen" in " ".join(response.context["form"].errors["password2"])
    assert not User.objects.exists()


def test_a_passphrase_with_some_spaces_is_accepted(client, fast_hashing):
    assert signup(client, password="jass am Abend 2026").status_code == 302


def test_createteacher_refuses_a_blank_password():
    with pytest.raises(CommandError, match="visible characters|sichtbare Zeichen"):
        call_command("createteacher", "herr_meier", password=" " * 12)
    assert not User.objects.exists()


# --- item 7: user names ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        ("anna", "\u0430nna"),  # Cyrillic а
        ("anna", "anna."),
        ("anna", "an.na"),
        ("anna", "ANNA"),
        ("anna", "ａｎｎａ"),  # full width: NFKC makes it "anna"
        ("maria", "rnaria"),
        ("lars", "Iars"),  # capital I for l
        ("Iris", "iris"),
        ("olga", "0lga"),
        ("rene", "René"),
    ],
)
def test_lookalikes_of_an_existing_name_are_refused(client, fast_hashing, existing, lookalike):
    LearnerFactory(username=existing)
    response = signup(client, username=lookalike, language="en")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "name", ["\u0430nna", "anna\u200b", "anna.", "-anna", "an..na", "anna@home", "ünïcödé☃"]
)
def test_names_outside_the_profile_are_refused_even_without_a_lookalike(client, fast_hashing, name):
    response = signup(client, username=name, language="en")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not User.objects.exists()


def test_the_username_errors_are_german_on_german_pages(client, fast_hashing):
    LearnerFactory(username="anna")
    page = signup(client, username="\u0430nna", language="de").content.decode()
    assert "Buchstaben" in page and "Benutzernamen" in page
    errors = signup(client, username="Anna.", language="de").context["form"].errors
    assert any("Buchstaben oder einer Ziffer" in e for e in errors["username"])
    errors = signup(client, username="an-na", language="de").context["form"].errors
    assert any("sieht einem bestehenden" in e for e in errors["username"])
    assert User.objects.count() == 1


def test_a_legacy_cyrillic_name_blocks_its_latin_twin(client, fast_hashing):
    User.objects.create(username="\u0430nna")  # made before the profile existed
    response = signup(client, username="anna", language="en")
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1


@pytest.mark.parametrize("name", ["jürg.meier", "Zoë-2", "noah_s", "François"])
def test_ordinary_latin_names_with_accents_are_accepted(client, fast_hashing, name):
    assert signup(client, username=name).status_code == 302
    assert User.objects.filter(username=name).exists()


def test_createteacher_applies_the_same_username_rules():
    LearnerFactory(username="anna")
    for name in ("\u0430nna", "Anna", "anna.", "an-na"):
        with pytest.raises(CommandError):
            call_command("createteacher", name, password="Lehrer-Passwort-1")
    assert User.objects.count() == 1
    call_command("createteacher", "ｆｒａｕ_ｋｅｌｌｅｒ", password="Lehrer-Passwort-1")
    assert User.objects.filter(username="frau_keller").exists()  # NFKC


# --- item 7: class and assignment names -------------------------------------------------

BLANK_NAMES = ["\u200b", "\u200b\u200c\u200d", "\u3164\u3164", " \u2800 ", "\u202e", "\u00ad\ufeff"]


@pytest.mark.parametrize("name", BLANK_NAMES)
def test_a_class_name_of_invisible_characters_is_refused(client, teacher, name):
    client.force_login(teacher)
    response = client.post(
        reverse("classroom:teacher_classes"), {"name": name}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "visible letters" in " ".join(response.context["form"].errors["name"])
    assert not SchoolClass.objects.exists()


def test_class_names_lose_invisible_characters_and_blank_ends(client, teacher):
    client.force_login(teacher)
    client.post(
        reverse("classroom:teacher_classes"), {"name": "\u200b Klasse\u200b 4a\u202e\u3164"}
    )
    assert SchoolClass.objects.get().name == "Klasse 4a"


def assignment_data(**extra):
    return {
        "title": "Stöck üben",
        "kinds": ["stoeck"],
        "question_count": 2,
        "rules_preset": "default",
        "opens_at": "2026-12-01T08:00",
        "due_at": "2026-12-08T08:00",
        "attempts_allowed": 1,
        "same_questions": "1",
        "explanations": "immediately",
        "late_policy": "refuse",
        **extra,
    }


@pytest.mark.parametrize("title", BLANK_NAMES)
def test_an_assignment_title_of_invisible_characters_is_refused(client, teacher, title):
    school_class = SchoolClassFactory(teacher=teacher)
    client.force_login(teacher)
    response = client.post(
        reverse("classroom:assignment_create", args=[school_class.pk]),
        assignment_data(title=title),
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200
    assert "sichtbaren" in " ".join(response.context["form"].errors["title"])
    assert not Assignment.objects.exists()


def test_the_signup_page_states_the_name_and_password_rules_in_both_languages(client):
    english = client.get(reverse("signup"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Letters, digits and . - _ (not at the start or end)" in english
    assert "at least 8 visible characters" in english
    german = Client().get(reverse("signup"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Buchstaben, Ziffern und . - _ (nicht am Anfang oder Ende)" in german
    assert "mindestens 8 sichtbare Zeichen" in german


# --- Issue 16: fuzzed input on the new account forms --------------------------------------

slug_junk = st.one_of(
    st.from_regex(r"[-A-Za-z0-9_]{1,60}", fullmatch=True),
    st.sampled_from(["MQ", "MA", "OTk5OTk5OTk5OTk5OTk5OTk5OTk5", "set-password", "a-b", "0-0"]),
)


@pytest.fixture
def account_world(teacher, fast_hashing, settings):
    # The one-time passwords' Argon2 hashes must still verify beside the fast hasher.
    settings.PASSWORD_HASHERS = [FAST_HASHER, "tutor.accounts.hashers.Argon2idOneLaneHasher"]
    school_class = SchoolClassFactory(teacher=teacher)
    pupil = MembershipFactory(school_class=school_class).learner
    fresh = LearnerFactory(username="fresh_pupil", must_set_password=True)
    MembershipFactory(school_class=school_class, learner=fresh)
    return {"teacher": teacher, "class": school_class, "pupil": pupil, "fresh": fresh}


def account_fuzz_targets(w):
    c, pupil = w["class"], w["pupil"]
    return [
        ("teacher", reverse("roster:roster", args=[c.pk]), ["names", "confirm", "check"]),
        ("teacher", reverse("roster:reset_many", args=[c.pk]), ["pupils"]),
        ("teacher", reverse("roster:reset_one", args=[c.pk, pupil.pk]), ["pupils"]),
        (
            "teacher",
            reverse("password_change"),
            ["old_password", "new_password1", "new_password2"],
        ),
        ("fresh", reverse("first_password"), ["new_password1", "new_password2", "next"]),
        (
            None,
            reverse("teacher_signup"),
            ["name", "username", "email", "password1", "password2"],
        ),
        (None, reverse("password_reset"), ["email"]),
    ]


@hypothesis_settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_account_forms_never_give_a_500_and_refusals_change_nothing(account_world, data):
    for role, url, fields in account_fuzz_targets(account_world):
        client = Client()
        if role:
            client.force_login(account_world[role])
        names = data.draw(st.lists(st.sampled_from([*fields, "unexpected"]), unique=True))
        payload = {name: data.draw(field_values) for name in names}
        headers = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
        before = snapshot()
        response = client.post(url, payload, headers=headers)
        assert response.status_code < 500, (url, payload, response.status_code)
        if response.status_code >= 400:
            assert snapshot() == before, (url, payload)


@hypothesis_settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    uid=slug_junk, token=slug_junk, password=field_values, method=st.sampled_from(["get", "post"])
)
def test_fuzzed_links_from_mails_never_give_a_500(account_world, uid, token, password, method):
    """The verification and reset links carry text from a mail: any of it is a page
    saying the link does not work (or a 404 for what no route takes)."""
    for name in ("verify_email", "password_reset_confirm"):
        client = Client()
        path = reverse(name, args=[uid, token])
        before = snapshot()
        response = getattr(client, method)(
            path, {"new_password1": password, "new_password2": password}
        )
        assert response.status_code in (200, 302, 400), (path, response.status_code)
        assert snapshot() == before, path


def test_the_login_page_takes_any_name_from_a_card_link(client):
    for junk in ("<script>", "x" * 5000, "\u0000", "%", "anna.m\r\nSet-Cookie: x"):
        response = client.get(reverse("login"), {"u": junk})
        assert response.status_code == 200
        assert "<script>" not in response.content.decode().split("</header>")[1]
