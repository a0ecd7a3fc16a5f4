"""Issue 16, item 1: pupil accounts a teacher makes from a pasted class list, login
cards shown once, the pupil's own password at the first login, and the teacher's reset
of a pupil's password in their own class (and nothing else)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.contrib.auth import authenticate as django_authenticate
from django.contrib.auth.hashers import identify_hasher
from django.contrib.staticfiles import finders
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from tests.factories import (
    PASSWORD,
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TeacherFactory,
    UserFactory,
)
from tutor.accounts.login_cards import qr_svg
from tutor.accounts.models import Role, User
from tutor.accounts.names import ascii_fold, clean_person_name, split_name, username_base
from tutor.accounts.services import ONE_TIME_ALPHABET, generate_one_time_password
from tutor.accounts.validators import lookalike_keys
from tutor.classroom import roster
from tutor.classroom.models import Membership
from tutor.classroom.roster_views import CARDS_SESSION_KEY

pytestmark = pytest.mark.django_db

OWN_PASSWORD = "Stoeck-und-Weis-7"


@pytest.fixture
def quick_hashing(settings):
    """Chosen passwords hash fast; the one-time passwords' Argon2 hashes still verify."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "tutor.accounts.hashers.Argon2idOneLaneHasher",
    ]


@pytest.fixture
def english():
    """Messages of the services come in the active language; outside a request, German."""
    with translation.override("en"):
        yield


def authenticate(*, username, password):
    """The site's login check (axes wants a request)."""
    return django_authenticate(RequestFactory().post("/"), username=username, password=password)


def names(entries):
    return [(e.first_name, e.last_name) for e in entries]


# --- reading the paste ----------------------------------------------------------------------


def test_a_list_with_one_name_per_line_blank_lines_and_both_name_orders():
    entries, twice, errors = roster.read_names(
        'Anna Meier\n\n  Meier, Jürg \r\n"Zoë Keller"\nLuca\n   \nAnna Maria Brunner\n'
    )
    assert errors == [] and twice == []
    assert names(entries) == [
        ("Anna", "Meier"),
        ("Jürg", "Meier"),
        ("Zoë", "Keller"),
        ("Luca", ""),
        ("Anna Maria", "Brunner"),
    ]
    assert [e.line for e in entries] == [1, 3, 4, 5, 7]


@pytest.mark.parametrize(
    "text",
    [
        # The Swiss school export: Name is the family name beside Vorname; a BOM.
        '\ufeffName;Vorname;Klasse\nMeier;Anna;4a\n"Müller";"Jürg";4a\n',
        # English headers, commas, quoted fields with the separator inside, CRLF.
        'First name,Last name,Note\r\nAnna,Meier,"likes Jass, a lot"\r\nJürg,Müller,\r\n',
        # Tabs (a table copied from a spreadsheet), extra columns first.
        "Nr\tVorname\tNachname\n1\tAnna\tMeier\n2\tJürg\tMüller\n",
        # One column with whole names, "Last, First" quoted.
        'Name\n"Meier, Anna"\nJürg Müller\n',
    ],
)
def test_csv_exports_with_a_header_row_give_first_and_last_names(text):
    entries, twice, errors = roster.read_names(text)
    assert errors == [] and twice == []
    assert names(entries) == [("Anna", "Meier"), ("Jürg", "Müller")]


def test_line_numbers_of_a_table_count_from_the_start_of_the_paste():
    entries, _twice, errors = roster.read_names("\n\nVorname;Nachname\nAnna;Meier\n;\nJürg;\n")
    assert errors == []
    assert [(e.line, e.name) for e in entries] == [(4, "Anna Meier"), (6, "Jürg")]


def test_names_listed_twice_are_kept_once_whatever_the_case_and_spacing():
    entries, twice, errors = roster.read_names("Anna Meier\nanna  MEIER\nMeier, Anna\nLuca\n")
    assert errors == []
    assert [e.name for e in entries] == ["Anna Meier", "Luca"]
    assert twice == ["anna MEIER", "Anna Meier"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Anna Meier\nMeier;Anna;4a\n", "Line 2 looks like a table row"),
        ("Anna\nMeier, Anna, 4a\n", "Line 2 looks like a table row"),
        ("Anna\n---\n", "Line 2 («---»): A name needs at least one letter."),
        ("Anna\n\u200b\u200b\nLuca\n", None),  # invisible only: a blank line
        ("Anna\n" + "x" * 101 + "\n", "A name has at most 100 characters."),
        ("Vorname;Nachname\nAnna;\u202e\u200b\n\u200b;\u200b\n;---\n", "Line 4 («---»)"),
    ],
)
def test_unreadable_lines_are_errors_with_their_line_number(english, text, expected):
    entries, _twice, errors = roster.read_names(text)
    if expected is None:
        assert errors == [] and [e.name for e in entries] == ["Anna", "Luca"]
    else:
        assert any(expected in error for error in errors), errors


def test_invisible_characters_in_names_are_dropped():
    entries, _twice, errors = roster.read_names("\u200bAnna\u202e Meier\u00ad\n")
    assert errors == [] and entries[0].name == "Anna Meier"


def test_names_are_cleaned_split_and_folded_to_ascii():
    assert clean_person_name("  Anna   Meier ") == "Anna Meier"
    assert split_name("van der Berg, Tim") == ("Tim", "van der Berg")
    assert ascii_fold("Ömer Çelik Ærø") == "oemer celik aero"
    assert username_base("Jürg", "Müller") == "juerg.m"
    assert username_base("Zoë Anna", "de Vries") == "zoe.d"
    assert username_base("D'Arcy", "O'Neil") == "d-arcy.o"
    assert username_base("Αλέξης", "") == "pupil"  # no Latin letter to use


# --- planning: user names, limits, the class -----------------------------------------------


def test_user_names_are_readable_unique_and_never_look_like_existing_ones(school_class):
    UserFactory(username="annam")  # "anna.m" would look like it
    UserFactory(username="juerg.m2")
    UserFactory(username="LUCA")
    plan = roster.plan_roster(
        school_class, "Anna Meier\nAnna Müller\nJürg Meier\nJürg Marti\nLuca\nIris Lang\n"
    )
    assert plan.errors == []
    usernames = [username for _entry, username in plan.accounts]
    assert usernames == ["anna.m2", "anna.m3", "juerg.m", "juerg.m3", "luca2", "iris.l"]
    existing = list(User.objects.values_list("username", flat=True))
    for name in usernames:
        for other in existing + [u for u in usernames if u != name]:
            assert not lookalike_keys(name) & lookalike_keys(other), (name, other)


def test_up_to_40_names_are_accepted_and_41_are_refused(english, school_class):
    forty = "\n".join(f"Kind Nummer{n:02d}" for n in range(40))
    assert len(roster.plan_roster(school_class, forty).accounts) == 40
    plan = roster.plan_roster(school_class, forty + "\nKind Extra")
    assert plan.accounts == []
    assert any("41 names; at most 40" in error for error in plan.errors)


def test_an_empty_or_huge_paste_is_refused(english, school_class):
    assert roster.plan_roster(school_class, "\n \n").errors
    plan = roster.plan_roster(school_class, "Anna\n" * 5000)
    assert any("too long" in error for error in plan.errors) and plan.accounts == []


def test_pupils_already_in_the_class_are_skipped(school_class):
    pupil = LearnerFactory(username="a.meier", first_name="Anna", last_name="Meier")
    MembershipFactory(school_class=school_class, learner=pupil)
    MembershipFactory(school_class=school_class, learner=LearnerFactory(username="luca"))
    plan = roster.plan_roster(school_class, "anna meier\nLuca\n")
    assert plan.already_in_class == ["anna meier"]
    # "luca" signed up without a name: a pupil called Luca is somebody new.
    assert [(e.name, u) for e, u in plan.accounts] == [("Luca", "luca2")]


# --- one-time passwords ------------------------------------------------------------------------


def test_one_time_passwords_are_ten_unambiguous_characters_in_two_groups():
    passwords = {generate_one_time_password() for _ in range(200)}
    assert len(passwords) == 200
    for password in passwords:
        assert re.fullmatch(r"[a-z2-9]{5}-[a-z2-9]{5}", password)
        assert not set(password) & set("il1o0")
        assert set(password.replace("-", "")) <= set(ONE_TIME_ALPHABET)


# --- the pages -------------------------------------------------------------------------------


def roster_url(school_class):
    return reverse("roster:roster", args=[school_class.pk])


def cards_url(school_class):
    return reverse("roster:cards", args=[school_class.pk])


def check_and_create(client, school_class, text, **headers):
    """Post the list to "Check", then "Create" with the digest the page gave."""
    preview = client.post(roster_url(school_class), {"names": text}, **headers)
    assert preview.status_code == 200
    digest = re.search(r'name="confirm" value="([0-9a-f]+)"', preview.content.decode())
    assert digest, preview.content.decode()
    return client.post(roster_url(school_class), {"names": text, "confirm": digest.group(1)})


def card_values(html: str) -> list[tuple[str, str, str]]:
    """(name, user name, password) of each card on the page."""
    cards = re.findall(
        r'class="login-card-name">([^<]*)<.*?login-card-username">([^<]*)<.*?'
        r'login-card-password">([^<]*)<',
        html,
        re.S,
    )
    return [tuple(unescape(v) for v in card) for card in cards]


def test_check_shows_the_plan_and_makes_nothing(client, teacher, school_class):
    client.force_login(teacher)
    response = client.post(
        roster_url(school_class),
        {"names": "Anna Meier\nAnna Meier\nJürg Müller"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    page = response.content.decode()
    assert "2 new accounts" in page and "anna.m" in page and "juerg.m" in page
    assert "Listed more than once, made once:" in page
    assert not User.objects.filter(role=Role.LEARNER).exists()


def test_create_makes_learners_without_email_in_the_class_and_shows_each_card_once(
    client, teacher, school_class
):
    client.force_login(teacher)
    response = check_and_create(client, school_class, "Anna Meier\nMüller, Jürg\n")
    assert response.status_code == 302 and response["Location"] == cards_url(school_class)

    pupils = User.objects.filter(role=Role.LEARNER).order_by("username")
    assert [(p.username, p.first_name, p.last_name) for p in pupils] == [
        ("anna.m", "Anna", "Meier"),
        ("juerg.m", "Jürg", "Müller"),
    ]
    for pupil in pupils:
        assert pupil.email == "" and pupil.must_set_password and pupil.is_active
        assert Membership.objects.filter(school_class=school_class, learner=pupil).exists()
        # Only a hash is stored: Argon2id at the one-time passwords' cost.
        assert pupil.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
        assert identify_hasher(pupil.password).algorithm == "argon2"

    page = client.get(cards_url(school_class))
    assert page["Cache-Control"].count("no-store") == 1
    cards = card_values(page.content.decode())
    assert [c[:2] for c in cards] == [("Anna Meier", "anna.m"), ("Jürg Müller", "juerg.m")]
    for _name, username, password in cards:
        assert authenticate(username=username, password=password) is not None
        assert password not in User.objects.get(username=username).password
    assert CARDS_SESSION_KEY not in client.session  # the passwords left the session

    again = client.get(cards_url(school_class)).content.decode()
    assert card_values(again) == [] and "<svg" not in again
    assert "Es gibt keine Anmeldekarten zu zeigen." in again
    for _name, _username, password in cards:
        assert password not in again


def test_the_cards_carry_the_site_address_and_a_qr_code_of_the_login_with_the_name(
    client, teacher, school_class
):
    client.force_login(teacher)
    check_and_create(client, school_class, "Anna Meier")
    page = client.get(cards_url(school_class), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "testserver<wbr>/accounts/login/" in page
    assert str(qr_svg("http://testserver/accounts/login/?u=anna.m")) in page
    assert "At your first login you choose your own password" in page
    # Printing: the stylesheet with the print rules is this site's own.
    assert '<link rel="stylesheet" href="/static/accounts/login-cards.css">' in page
    css = Path(finders.find("accounts/login-cards.css")).read_text(encoding="utf-8")
    assert "@media print" in css and "break-inside: avoid" in css


def test_the_login_page_fills_in_the_name_from_the_card(client):
    page = client.get(reverse("login") + "?u=anna.m").content.decode()
    assert re.search(r'name="username" value="anna.m"', page)


def test_an_edited_list_is_checked_again_before_anything_is_made(client, teacher, school_class):
    client.force_login(teacher)
    preview = client.post(roster_url(school_class), {"names": "Anna Meier"})
    digest = re.search(r'name="confirm" value="([0-9a-f]+)"', preview.content.decode()).group(1)
    response = client.post(
        roster_url(school_class), {"names": "Anna Meier\nEve Extra", "confirm": digest}
    )
    assert response.status_code == 200 and "eve.e" in response.content.decode()
    assert not User.objects.filter(role=Role.LEARNER).exists()


def test_pasting_the_same_list_again_makes_no_second_account(client, teacher, school_class):
    client.force_login(teacher)
    check_and_create(client, school_class, "Anna Meier\nJürg Müller")
    client.get(cards_url(school_class))
    response = client.post(
        roster_url(school_class), {"names": "Anna Meier\nJürg Müller"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    page = response.content.decode()
    assert "Already in the class, no new account: Anna Meier, Jürg Müller" in page
    assert 'name="confirm"' not in page
    assert User.objects.filter(role=Role.LEARNER).count() == 2


def test_a_refused_list_shows_the_reasons_in_german_and_english(client, teacher, school_class):
    client.force_login(teacher)
    text = "Anna\nMeier;Anna\n---\n"
    german = client.post(roster_url(school_class), {"names": text}).content.decode()
    assert "Zeile 2 sieht wie eine Tabellenzeile aus" in german
    assert "Zeile 3 («---»): Ein Name braucht mindestens einen Buchstaben." in german
    english = client.post(
        roster_url(school_class), {"names": text}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Line 2 looks like a table row" in english
    assert 'name="confirm"' not in english
    assert not User.objects.filter(role=Role.LEARNER).exists()


def test_the_page_explains_the_paste_and_the_limit_in_both_languages(client, teacher, school_class):
    client.force_login(teacher)
    german = client.get(roster_url(school_class)).content.decode()
    assert "Konten der Lernenden" in german and "Höchstens 40 Namen auf einmal." in german
    english = client.get(roster_url(school_class), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pupil accounts" in english and "At most 40 names at once." in english


# --- the first login -----------------------------------------------------------------------------


def made_pupil(client, teacher, school_class, name="Anna Meier"):
    client.force_login(teacher)
    check_and_create(client, school_class, name)
    (_name, username, password), *_rest = card_values(
        client.get(cards_url(school_class)).content.decode()
    )
    client.logout()
    return username, password


def test_a_pupil_logs_in_with_the_card_and_must_choose_a_password_first(
    client, teacher, school_class, quick_hashing
):
    username, password = made_pupil(client, teacher, school_class)
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response["Location"] == reverse("first_password")
    for url in (reverse("home"), reverse("dashboard"), reverse("lessons:overview")):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("first_password") + "?next=")
    # A post elsewhere is refused the same way and changes nothing; htmx is sent on.
    assert client.post(reverse("classroom:join_class"), {"code": "X"}).status_code == 302
    htmx = client.get(reverse("quizzes:practice"), headers={"HX-Request": "true"})
    assert htmx["HX-Redirect"] == reverse("first_password")
    # What stays open: the page itself, the language and deck switches.
    assert client.get(reverse("first_password")).status_code == 200
    assert client.post(reverse("set_deck"), {"deck": "french"}).status_code == 302

    response = client.post(
        reverse("first_password"),
        {"new_password1": OWN_PASSWORD, "new_password2": OWN_PASSWORD, "next": "/dashboard/"},
    )
    assert response["Location"] == "/dashboard/"
    assert client.get(reverse("dashboard")).status_code == 200  # still logged in
    pupil = User.objects.get(username=username)
    assert not pupil.must_set_password
    assert authenticate(username=username, password=password) is None
    assert authenticate(username=username, password=OWN_PASSWORD) is not None


def test_the_first_password_page_refuses_bad_passwords_in_german(
    client, teacher, school_class, quick_hashing
):
    username, password = made_pupil(client, teacher, school_class)
    client.post(reverse("login"), {"username": username, "password": password})
    response = client.post(
        reverse("first_password"), {"new_password1": " " * 9, "new_password2": " " * 9}
    )
    assert response.status_code == 200
    assert "sichtbare Zeichen" in response.content.decode()
    assert User.objects.get(username=username).must_set_password


def test_logging_out_stays_possible_with_a_one_time_password(
    client, teacher, school_class, quick_hashing
):
    username, password = made_pupil(client, teacher, school_class)
    client.post(reverse("login"), {"username": username, "password": password})
    client.post(reverse("logout"))
    assert not client.get(reverse("home")).context["user"].is_authenticated


# --- the teacher's reset -------------------------------------------------------------------------


@pytest.fixture
def pupil(school_class):
    pupil = LearnerFactory(username="mia.s", first_name="Mia", last_name="Schmid", email="")
    MembershipFactory(school_class=school_class, learner=pupil)
    return pupil


def test_the_teacher_gives_a_pupil_a_new_one_time_password_and_nothing_else_changes(
    client, teacher, school_class, pupil, quick_hashing
):
    other = Client()
    other.force_login(pupil)  # the pupil's session on another device
    before = User.objects.filter(pk=pupil.pk).values().get()
    client.force_login(teacher)
    url = reverse("roster:reset_one", args=[school_class.pk, pupil.pk])
    confirm = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The current password stops working at once" in confirm
    assert User.objects.get(pk=pupil.pk).password == before["password"]  # GET changes nothing

    response = client.post(url)
    assert response["Location"] == cards_url(school_class)
    [(name, username, password)] = card_values(client.get(cards_url(school_class)).content.decode())
    assert (name, username) == ("Mia Schmid", "mia.s")
    after = User.objects.filter(pk=pupil.pk).values().get()
    changed = {key for key in before if before[key] != after[key]}
    assert changed == {"password", "must_set_password"}
    assert authenticate(username="mia.s", password=PASSWORD) is None
    assert authenticate(username="mia.s", password=password) is not None
    assert other.get(reverse("dashboard")).status_code == 302  # that session ended


def test_the_teacher_resets_several_pupils_at_once(client, teacher, school_class, pupil):
    second = MembershipFactory(school_class=school_class).learner
    client.force_login(teacher)
    response = client.post(
        reverse("roster:reset_many", args=[school_class.pk]), {"pupils": [pupil.pk, second.pk]}
    )
    assert response.status_code == 302
    cards = card_values(client.get(cards_url(school_class)).content.decode())
    assert {c[1] for c in cards} == {pupil.username, second.username}
    assert User.objects.filter(must_set_password=True).count() == 2


def test_a_reset_lifts_a_lockout_of_the_pupils_name(client, teacher, school_class, pupil):
    for _ in range(5):
        Client().post(reverse("login"), {"username": "mia.s", "password": "wrong"})
    assert (
        Client().post(reverse("login"), {"username": "mia.s", "password": PASSWORD}).status_code
        == 429
    )
    client.force_login(teacher)
    client.post(reverse("roster:reset_one", args=[school_class.pk, pupil.pk]))
    [(_n, _u, password)] = card_values(client.get(cards_url(school_class)).content.decode())
    response = Client().post(reverse("login"), {"username": "mia.s", "password": password})
    assert response.status_code == 302


def test_another_teacher_gets_404_and_changes_nothing(client, school_class, pupil):
    intruder = TeacherFactory()
    SchoolClassFactory(teacher=intruder)
    client.force_login(intruder)
    before = User.objects.get(pk=pupil.pk).password
    for url in (
        reverse("roster:roster", args=[school_class.pk]),
        reverse("roster:cards", args=[school_class.pk]),
        reverse("roster:reset_one", args=[school_class.pk, pupil.pk]),
    ):
        assert client.get(url).status_code == 404, url
        assert client.post(url, {"names": "Eve Evil"}).status_code == 404, url
    response = client.post(
        reverse("roster:reset_many", args=[school_class.pk]), {"pupils": [pupil.pk]}
    )
    assert response.status_code == 404
    assert User.objects.get(pk=pupil.pk).password == before
    assert not User.objects.filter(first_name="Eve").exists()


def test_a_teacher_cannot_reset_someone_outside_the_class_or_an_administrator(
    client, teacher, school_class, pupil
):
    outsider = LearnerFactory()
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    MembershipFactory(school_class=school_class, learner=admin)  # joined as a learner
    colleague = TeacherFactory()
    MembershipFactory(school_class=school_class, learner=colleague)
    client.force_login(teacher)
    for person in (outsider, admin, colleague):
        url = reverse("roster:reset_one", args=[school_class.pk, person.pk])
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
        response = client.post(
            reverse("roster:reset_many", args=[school_class.pk]),
            {"pupils": [pupil.pk, person.pk]},
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code == 400
        assert "This learner is not in the class." in response.content.decode()
    assert not User.objects.filter(must_set_password=True).exists()
    assert CARDS_SESSION_KEY not in client.session


@pytest.mark.parametrize("bad", ["9223372036854775808", "1" * 40, "-1", "1e3", "٣"])
def test_a_reset_of_an_id_no_database_can_hold_is_a_400_not_a_500(
    client, teacher, school_class, pupil, bad
):
    """Found by the fuzzing test: 2^63 reached SQLite as a parameter (OverflowError)."""
    client.force_login(teacher)
    response = client.post(
        reverse("roster:reset_many", args=[school_class.pk]),
        {"pupils": [pupil.pk, bad]},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert "This learner is not in the class." in response.content.decode()
    assert not User.objects.filter(must_set_password=True).exists()


def test_a_reset_without_a_choice_is_a_400_with_the_reason(client, teacher, school_class, pupil):
    client.force_login(teacher)
    response = client.post(reverse("roster:reset_many", args=[school_class.pk]), {})
    assert response.status_code == 400
    assert "Wählen Sie mindestens eine Person aus." in response.content.decode()


def test_the_pupil_list_says_who_still_has_a_one_time_password(
    client, teacher, school_class, pupil
):
    User.objects.filter(pk=pupil.pk).update(must_set_password=True)
    MembershipFactory(school_class=school_class, learner=LearnerFactory(username="noah"))
    client.force_login(teacher)
    page = client.get(roster_url(school_class), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = re.findall(r"<tr>.*?</tr>", page, re.S)
    mia = next(row for row in rows if "mia.s" in row)
    noah = next(row for row in rows if "noah" in row)
    assert "still the one-time password" in mia and "Mia Schmid" in mia
    assert "own password" in noah


@pytest.mark.parametrize(
    "target", ["9999-12-31T23:59", "home", "//evil.example/", "https://evil.example/"]
)
def test_after_the_first_password_only_a_path_of_this_site_is_followed(
    client, teacher, school_class, quick_hashing, target
):
    """A bare word was taken by ``redirect`` for a view name (a 500, found by the fuzz
    test); another site is never a target."""
    username, password = made_pupil(client, teacher, school_class)
    client.post(reverse("login"), {"username": username, "password": password})
    response = client.post(
        reverse("first_password"),
        {"new_password1": OWN_PASSWORD, "new_password2": OWN_PASSWORD, "next": target},
    )
    assert response.status_code == 302 and response["Location"] == "/"
