"""Language switch (German, English, French) and the deck preference."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_default_language_is_german(client):
    page = client.get(reverse("home"))
    assert page.context["LANGUAGE_CODE"] == "de"
    assert '<html lang="de">' in page.content.decode()
    assert "Anmelden" in page.content.decode()


def test_switching_to_english_and_back(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in page
    assert "Log in" in page and "Anmelden" not in page
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert '<html lang="de">' in client.get(reverse("home")).content.decode()


def test_switching_to_french_and_the_browsers_language_as_first_guess(client):
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="fr">' in page
    assert "Se connecter" in page and "Anmelden" not in page and "Log in" not in page
    # Three buttons, each named in its own language.
    assert ">Deutsch</button>" in page and ">English</button>" in page
    assert ">Français</button>" in page
    fresh = Client(HTTP_ACCEPT_LANGUAGE="fr-CH,fr;q=0.9,de;q=0.5")
    assert '<html lang="fr">' in fresh.get(reverse("home")).content.decode()


@pytest.mark.parametrize("name", ["home", "login", "signup"])
def test_pages_render_in_every_language(client, name):
    for code in ("de", "en", "fr"):
        client.post(reverse("set_language"), {"language": code, "next": "/"})
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert f'<html lang="{code}">' in response.content.decode()


def test_deck_preference_for_visitor_lives_in_session(client):
    assert client.get(reverse("home")).context["deck"] == "swiss"
    response = client.post(reverse("set_deck"), {"deck": "french", "next": "/accounts/login/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert client.get(reverse("home")).context["deck"] == "french"


def test_deck_preference_is_saved_on_the_account(client, learner):
    client.force_login(learner)
    client.post(reverse("set_deck"), {"deck": "french"})
    learner.refresh_from_db()
    assert learner.deck == "french"
    assert client.get(reverse("home")).context["deck"] == "french"


def test_unknown_deck_is_a_400_with_reason(client, learner):
    client.force_login(learner)
    before = learner.deck
    response = client.post(reverse("set_deck"), {"deck": "tarot"})
    assert response.status_code == 400
    assert response.content
    learner.refresh_from_db()
    assert learner.deck == before


def test_french_readers_get_the_french_deck_until_they_choose(client, learner):
    assert learner.deck == ""  # nothing chosen yet
    in_french = Client(HTTP_ACCEPT_LANGUAGE="fr")
    assert in_french.get(reverse("home")).context["deck"] == "french"
    assert client.get(reverse("home")).context["deck"] == "swiss"  # German
    in_french.post(reverse("set_deck"), {"deck": "swiss"})
    assert in_french.get(reverse("home")).context["deck"] == "swiss"  # chosen: kept
    pupil = Client(HTTP_ACCEPT_LANGUAGE="fr")
    pupil.force_login(learner)
    assert pupil.get(reverse("home")).context["deck"] == "french"
    client.force_login(learner)
    assert client.get(reverse("home")).context["deck"] == "swiss"
    pupil.post(reverse("set_deck"), {"deck": "swiss"})  # chosen on the account
    assert pupil.get(reverse("home")).context["deck"] == "swiss"


def test_deck_next_to_another_site_is_ignored(client):
    response = client.post(reverse("set_deck"), {"deck": "french", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_htmx_is_served_locally_with_csrf_header(client):
    page = client.get(reverse("home")).content.decode()
    assert "/static/django-htmx/" in page or "htmx" in page
    assert "http://" not in page.split("<body")[0] and "https://" not in page.split("<body")[0]
    assert 'hx-headers=\'{"x-csrftoken": "' in page


def test_cached_navigation_follows_role_section_and_language(client, learner, teacher):
    """The header is cached per language, role and section; each must still show."""
    practice = reverse("quizzes:practice")
    assert f'href="{practice}"' not in client.get(reverse("home")).content.decode()
    client.force_login(learner)
    home = client.get(reverse("home")).content.decode()
    assert f'href="{practice}"' in home
    assert f'<a href="{reverse("home")}" aria-current="page">' in home
    lessons = client.get(reverse("lessons:overview")).content.decode()
    assert f'<a href="{reverse("lessons:overview")}" aria-current="page">' in lessons
    assert f'<a href="{reverse("home")}" aria-current="page">' not in lessons
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert f'<a href="{reverse("dashboard")}" aria-current="page">' in dashboard
    assert f'<a href="{reverse("home")}" aria-current="page">' not in dashboard
    client.force_login(teacher)
    teacher_home = client.get(reverse("home")).content.decode()
    assert f'href="{practice}"' not in teacher_home
    assert f'href="{reverse("classroom:teacher_classes")}"' in teacher_home
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert ">My classes<" in client.get(reverse("home")).content.decode()


def test_the_deck_switch_says_how_the_suits_pair(client):
    """Where decks are switched, the page says which suit is which (the usual pairing),
    in the reader's language, and links to the glossary's word on Swisslos's."""
    pairs = {
        "de": "Schellen = Ecken, Rosen = Herz, Schilten = Schaufeln, Eicheln = Kreuz",
        "en": "bells = diamonds, roses = hearts, shields = spades, acorns = clubs",
        "fr": "grelots = carreau, roses = cœur, boucliers = pique, glands = trèfle",
    }
    for lang, text in pairs.items():
        client.post(reverse("set_language"), {"language": lang, "next": "/"})
        assert text in client.get(reverse("home")).content.decode()
    glossary = client.get(reverse("lessons:glossary")).content.decode()
    assert 'href="/lessons/glossary/#factor"' in client.get(reverse("home")).content.decode()
    assert 'id="factor"' in glossary and "Swisslos" in glossary
