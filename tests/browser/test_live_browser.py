"""Live in class (issue 25), in a real browser: the teacher's projector and three
pupils' phones through a whole session, with JavaScript (htmx polling, keyboard
shortcuts) and without (buttons, redirects and «Neu laden»), and axe-core on both
views in every phase (with JavaScript: axe is a page script)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.test_accessibility import assert_no_serious, check
from tests.factories import MembershipFactory, SchoolClassFactory, TeacherFactory
from tutor.classroom.models import LiveSession
from tutor.quizzes.models import QuizQuestion

pytestmark = pytest.mark.django_db(transaction=True)

# Polling runs every second; a page must have caught up well within this.
CATCH_UP_MS = 8000


def open_as(browser: Browser, args: dict, sign_in, user, *, width: int, js: bool = True) -> Page:
    context: BrowserContext = browser.new_context(
        **{
            **args,
            "viewport": {"width": width, "height": 844 if width < 600 else 800},
            "java_script_enabled": js,
        }
    )
    sign_in(context, user)
    return context.new_page()


def keys(session: LiveSession, position: int) -> tuple[str, str]:
    data = session.questions[position]
    right = data["answer"]
    return right, next(c["key"] for c in data["choices"] if c["key"] != right)


def axe_clean(*pages: Page) -> None:
    for page in pages:
        assert_no_serious(check(page))


@pytest.fixture
def world():
    teacher = TeacherFactory(username="frau_keller")
    school_class = SchoolClassFactory(teacher=teacher, name="Klasse 5c")
    pupils = [
        MembershipFactory(school_class=school_class, learner__username=name).learner
        for name in ("anna", "ben", "chiara")
    ]
    return teacher, school_class, pupils


def test_a_whole_session_with_javascript(
    live_server, browser, browser_context_args, sign_in, world
):
    teacher, school_class, pupils = world
    base = live_server.url
    projector = open_as(browser, browser_context_args, sign_in, teacher, width=1280)
    projector.goto(f"{base}/classes/{school_class.pk}/")
    projector.get_by_role("link", name="Live-Fragen").click()
    projector.get_by_role("checkbox", name="Wer schreibt den Weis").check()
    projector.get_by_label("Anzahl Fragen").fill("2")
    projector.get_by_role("button", name="Live-Runde eröffnen").click()
    session = LiveSession.objects.get()
    expect(projector.locator(".live-code")).to_have_text(session.code)
    axe_clean(projector)

    phones = [open_as(browser, browser_context_args, sign_in, p, width=390) for p in pupils]
    # Three ways in: the code typed on the dashboard, the QR code's link, the dashboard's button.
    phones[0].goto(f"{base}/dashboard/")
    phones[0].get_by_label("Code vom Beamer").fill(session.code.lower())
    phones[0].get_by_role("button", name="Beitreten").click()  # straight in
    phones[1].goto(f"{base}/live/join/?code={session.code}")
    phones[1].get_by_role("button", name="Mitmachen").click()
    phones[2].goto(f"{base}/dashboard/")
    phones[2].get_by_role("link", name="Mitmachen").click()
    phones[2].get_by_role("button", name="Mitmachen").click()
    for phone in phones:
        expect(phone.locator("h1")).to_contain_text("Du bist dabei")
    axe_clean(phones[0])
    expect(projector.locator(".live-count")).to_contain_text(
        "3 Lernende sind dabei", timeout=CATCH_UP_MS
    )

    projector.keyboard.press("n")  # the first question
    for phone in phones:
        expect(phone.locator(".question-title")).to_be_visible(timeout=CATCH_UP_MS)
    expect(projector.locator(".live-count")).to_contain_text("0 von 3")
    axe_clean(projector, phones[0])

    right, wrong = keys(session, 0)
    for phone, choice in zip(phones, (right, wrong, wrong), strict=True):
        phone.locator(f'input[name="choice"][value="{choice}"]').check()
        phone.get_by_role("button", name="Antworten").click()
        expect(phone.locator(".message.success")).to_contain_text("gespeichert")
        # Nothing about correctness before the reveal.
        expect(phone.locator(".feedback")).to_have_count(0)
    expect(projector.locator(".live-count")).to_contain_text("3 von 3", timeout=CATCH_UP_MS)

    # A pupil drops out and comes back: the answer is kept.
    phones[1].reload()
    expect(phones[1].locator(".message.success")).to_contain_text("gespeichert")

    projector.keyboard.press("r")  # show the answer
    expect(projector.locator(".live-choice--right")).to_contain_text("1 Antwort")
    expect(projector.locator(".live-explanation")).to_contain_text("Schritt für Schritt")
    expect(phones[0].locator(".feedback")).to_contain_text("Richtig!", timeout=CATCH_UP_MS)
    expect(phones[1].locator(".feedback")).to_contain_text("Nicht ganz.", timeout=CATCH_UP_MS)
    axe_clean(projector, phones[1])

    projector.keyboard.press("n")  # question 2
    expect(projector.locator(".question-meta")).to_contain_text("Frage 2 von 2")
    expect(phones[2].locator(".question-meta")).to_contain_text(
        "Frage 2 von 2", timeout=CATCH_UP_MS
    )
    projector.keyboard.press("r")
    projector.get_by_role("button", name=re.compile("^Beenden")).click()
    expect(projector.locator("h1")).to_contain_text("zu Ende")
    expect(phones[0].locator("h1")).to_contain_text("zu Ende", timeout=CATCH_UP_MS)
    expect(phones[0].locator(".live-count")).to_contain_text("1 Frage beantwortet, 1 davon richtig")
    axe_clean(projector, phones[0])

    projector.get_by_role("link", name="Übersicht pro Frage").click()
    expect(projector.locator(".live-summary-question").first).to_contain_text("33 % richtig")
    axe_clean(projector)
    answered = QuizQuestion.objects.filter(
        quiz__assignment_id=session.pk, answered_at__isnull=False
    )
    assert answered.count() == 3


def test_a_whole_session_without_javascript(
    live_server, browser, browser_context_args, sign_in, world
):
    teacher, school_class, pupils = world
    base = live_server.url
    projector = open_as(browser, browser_context_args, sign_in, teacher, width=1280, js=False)
    projector.goto(f"{base}/live/class/{school_class.pk}/new/")
    projector.get_by_role("checkbox", name="Zählen die Stöck").check()
    projector.get_by_label("Anzahl Fragen").fill("1")
    projector.get_by_role("button", name="Live-Runde eröffnen").click()
    session = LiveSession.objects.get()
    phones = [
        open_as(browser, browser_context_args, sign_in, p, width=390, js=False) for p in pupils
    ]
    for phone in phones:
        phone.goto(f"{base}/live/join/?code={session.code}")
        phone.get_by_role("button", name="Mitmachen").click()
        expect(phone.locator("h1")).to_contain_text("Du bist dabei")

    projector.get_by_role("button", name=re.compile("Erste Frage")).click()
    expect(projector.locator(".live-count")).to_contain_text("0 von 3")
    right, wrong = keys(session, 0)
    for phone, choice in zip(phones, (right, right, wrong), strict=True):
        phone.get_by_role("link", name="Neu laden").click()
        phone.locator(f'input[name="choice"][value="{choice}"]').check()
        phone.get_by_role("button", name="Antworten").click()
        expect(phone.locator(".messages")).to_contain_text("Deine Antwort ist gespeichert.")
        expect(phone.locator(".feedback")).to_have_count(0)
    projector.get_by_role("link", name="Neu laden").click()
    expect(projector.locator(".live-count")).to_contain_text("3 von 3")
    projector.get_by_role("button", name=re.compile("Antwort zeigen")).click()
    expect(projector.locator(".live-choice--right")).to_contain_text("2 Antworten")
    phones[2].get_by_role("link", name="Neu laden").click()
    expect(phones[2].locator(".feedback")).to_contain_text("Nicht ganz.")
    # (axe-core runs as a page script: the same views were checked with JavaScript.)
    projector.get_by_role("button", name=re.compile("Beenden")).click()
    expect(projector.locator("h1")).to_contain_text("zu Ende")


def test_table_positions_on_the_projector_and_a_phone(
    live_server, browser, browser_context_args, sign_in, world
):
    """A session of table positions (a Stöck round's three moments) started from the
    form: each question names the contract and its place in the round, on the projector
    and the phone, and axe finds nothing serious on either view, asked and revealed."""
    teacher, school_class, pupils = world
    base = live_server.url
    projector = open_as(browser, browser_context_args, sign_in, teacher, width=1280)
    projector.goto(f"{base}/live/class/{school_class.pk}/new/")
    projector.get_by_label("Oder: Stellungen aus Runden «Am Tisch»").select_option("stoeck")
    projector.get_by_label("Anzahl Fragen").fill("3")
    projector.get_by_role("button", name="Live-Runde eröffnen").click()
    session = LiveSession.objects.get()
    assert [q["prompt"]["table"]["ask"] for q in session.questions] == [
        "announce",
        "play",
        "jasstafel",
    ]
    phone = open_as(browser, browser_context_args, sign_in, pupils[0], width=390)
    phone.goto(f"{base}/live/join/?code={session.code}")
    phone.get_by_role("button", name="Mitmachen").click()
    for number in range(3):
        projector.keyboard.press("n")
        for page in (projector, phone):
            meta = page.locator(".question-meta")
            expect(meta).to_contain_text(f"Frage {number + 1} von 3", timeout=CATCH_UP_MS)
            expect(page.locator(".table-position")).to_contain_text("am Tisch")
            expect(page.locator(".example-head")).to_contain_text("Trumpf")
        axe_clean(projector, phone)
        projector.keyboard.press("r")
        expect(phone.locator(".feedback")).to_be_visible(timeout=CATCH_UP_MS)
        expect(projector.locator(".live-explanation")).to_contain_text("Schritt für Schritt")
        axe_clean(projector, phone)
