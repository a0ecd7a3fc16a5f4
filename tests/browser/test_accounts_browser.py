"""Issue 16 in the browser, in German, without JavaScript of the site's own: a teacher
signs up, confirms the address from the mail, waits, is approved in the admin, makes a
class and pupil accounts from a pasted list, and a pupil logs in with a login card,
must choose a password, forgets it and gets a new card from the teacher.

The live server runs in this process with Django's test mail backend, so the mails are
in ``django.core.mail.outbox``."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from tests.factories import PASSWORD, UserFactory
from tutor.accounts.models import Role, User

pytestmark = pytest.mark.django_db(transaction=True)

TEACHER_PASSWORD = "Lehrer-Passwort-26"
PUPIL_PASSWORD = "Stoeck-und-Weis-7"
CLASS_LIST = "\n".join(
    [
        "Name;Vorname;Klasse",
        "Meier;Anna;5c",
        "Müller;Jürg;5c",
        "Keller;Zoë;5c",
        *[f"Kind{n:02d};Test;5c" for n in range(22)],
    ]
)


def new_page(browser: Browser, browser_context_args: dict) -> Page:
    return browser.new_context(**browser_context_args).new_page()


def log_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(base + "/accounts/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort", exact=True).fill(password)
    page.locator("main").get_by_role("button", name="Anmelden").click()


def first_card(page: Page) -> tuple[str, str]:
    card = page.locator(".login-card").first
    return (
        card.locator(".login-card-username").inner_text().strip(),
        card.locator(".login-card-password").inner_text().strip(),
    )


def test_a_teacher_signs_up_and_a_pupil_logs_in_with_a_card(
    live_server, browser, browser_context_args
):
    base = live_server.url
    UserFactory(username="root", is_staff=True, is_superuser=True, email="admin@example.ch")

    # The teacher signs up ...
    teacher = new_page(browser, browser_context_args)
    teacher.goto(base + "/accounts/login/")
    teacher.get_by_role("link", name="Als Lehrperson registrieren").click()
    teacher.get_by_label("Ihr Name").fill("Regula Keller")
    teacher.get_by_label("Benutzername").fill("frau_keller")
    teacher.get_by_label("E-Mail-Adresse").fill("r.keller@schule.example.ch")
    teacher.get_by_label("Passwort", exact=True).fill(TEACHER_PASSWORD)
    teacher.get_by_label("Passwort bestätigen").fill(TEACHER_PASSWORD)
    teacher.get_by_role("button", name="Lehrpersonen-Konto erstellen").click()
    expect(teacher.locator("main")).to_contain_text("r.keller@schule.example.ch")

    # ... reads the mail and confirms the address ...
    [message] = [m for m in mail.outbox if m.to == ["r.keller@schule.example.ch"]]
    link = re.search(r"https?://\S+/accounts/teacher/verify/\S+/", message.body).group(0)
    teacher.goto(link)
    teacher.get_by_role("button", name="Meine Adresse bestätigen").click()
    expect(teacher.locator("h1")).to_have_text("Adresse bestätigt")

    # ... logs in and waits for the approval.
    log_in(teacher, base, "frau_keller", TEACHER_PASSWORD)
    expect(teacher.locator("h1")).to_have_text("Warten auf die Freigabe")
    teacher.goto(base + "/classes/")
    expect(teacher.locator("h1")).to_have_text("Warten auf die Freigabe")

    # An administrator (told by mail) approves in the admin.
    assert any(m.to == ["admin@example.ch"] for m in mail.outbox)
    admin = new_page(browser, browser_context_args)
    admin.goto(base + "/admin/login/")
    admin.locator("#id_username").fill("root")
    admin.locator("#id_password").fill(PASSWORD)
    admin.locator("input[type=submit]").click()
    admin.goto(base + "/admin/accounts/user/?role__exact=pending_teacher")
    admin.locator("input[name=_selected_action]").first.check()
    admin.locator("select[name=action]").select_option("approve_teachers")
    admin.locator("button[name=index]").click()
    expect(admin.locator(".messagelist")).to_contain_text("1 Lehrperson freigegeben")
    assert User.objects.get(username="frau_keller").role == Role.TEACHER
    assert any("ist bereit" in m.subject for m in mail.outbox if m.to[0].startswith("r.keller"))

    # The teacher makes a class and 25 pupil accounts from the school's export.
    teacher.goto(base + "/classes/")
    teacher.get_by_label("Name der Klasse").fill("Klasse 5c")
    teacher.get_by_role("button", name="Klasse erstellen").click()
    teacher.goto(teacher.url + "pupils/")
    teacher.get_by_label("Namen der Lernenden").fill(CLASS_LIST)
    teacher.get_by_role("button", name="Liste prüfen").click()
    expect(teacher.locator(".roster-preview h3")).to_have_text("25 neue Konten")
    expect(teacher.locator(".roster-preview")).to_contain_text("juerg.m")
    teacher.get_by_role("button", name="25 Konten erstellen und die Anmeldekarten zeigen").click()
    expect(teacher.locator(".login-card")).to_have_count(25)
    expect(teacher.locator(".login-card svg.qr")).to_have_count(25)
    username, password = first_card(teacher)
    assert username == "anna.m"
    cards_url = teacher.url
    teacher.reload()  # shown once
    expect(teacher.locator(".login-card")).to_have_count(0)

    # The pupil logs in with the card and must choose a password first.
    pupil = new_page(browser, browser_context_args)
    pupil.goto(base + "/accounts/login/?u=anna.m")  # the card's QR code
    expect(pupil.get_by_label("Benutzername")).to_have_value("anna.m")
    pupil.get_by_label("Passwort", exact=True).fill(password)
    pupil.locator("main").get_by_role("button", name="Anmelden").click()
    expect(pupil.locator("h1")).to_have_text("Wähle dein Passwort")
    pupil.goto(base + "/dashboard/")
    expect(pupil.locator("h1")).to_have_text("Wähle dein Passwort")
    pupil.get_by_label("Neues Passwort", exact=True).fill(PUPIL_PASSWORD)
    pupil.get_by_label("Neues Passwort bestätigen").fill(PUPIL_PASSWORD)
    pupil.get_by_role("button", name="Passwort speichern").click()
    expect(pupil.locator(".messages")).to_contain_text("Dein Passwort ist gesetzt")
    expect(pupil).to_have_url(re.compile(r"/dashboard/$"))

    # The pupil forgets it; the teacher gives a new card.
    pupil_id = User.objects.get(username="anna.m").pk
    teacher.goto(cards_url.replace("cards/", ""))
    teacher.get_by_role("link", name="Neues Passwort für anna.m").click()
    teacher.get_by_role("button", name="Neues Einmal-Passwort erstellen").click()
    expect(teacher.locator(".login-card")).to_have_count(1)
    username, new_password = first_card(teacher)
    assert (username, User.objects.get(pk=pupil_id).must_set_password) == ("anna.m", True)

    forgetful = new_page(browser, browser_context_args)
    log_in(forgetful, base, "anna.m", PUPIL_PASSWORD)  # the old one no longer works
    expect(forgetful.locator("main .errorlist")).to_be_visible()
    log_in(forgetful, base, "anna.m", new_password)
    expect(forgetful.locator("h1")).to_have_text("Wähle dein Passwort")
