"""Issue 12, items 3, 8 and 9: bounded ids in every URL, assignment dates that can be
stored, the 503 page from every place a request writes (and a "try again" that leads
to a page), a locked SQLite database that leaves reads answering, German card errors in
the Weis tool, and the security headers (CSP, Permissions-Policy, Vary)."""

from __future__ import annotations

import json
import os
import re
import time
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.messages.middleware import MessageMiddleware
from django.db import OperationalError
from django.test import Client, RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter
from django.urls.exceptions import NoReverseMatch
from django.utils import timezone, translation

from rules_core import RulesError, parse_cards
from tests.factories import MembershipFactory, SchoolClassFactory
from tests.tutor.test_setup import PRODUCTION, run_python
from tutor.accounts.sessions import SessionStore
from tutor.classroom import assignments
from tutor.classroom.assignments import AssignmentSpec
from tutor.classroom.models import Assignment
from tutor.classroom.privacy_views import DELETED_SESSION_KEY
from tutor.core.converters import MAX_ID, IdConverter
from tutor.core.middleware import (
    LOCK_FUSE_SECONDS,
    LockFuse,
    lock_fuse,
    retry_url,
    sqlite_fuse_path,
)
from tutor.lessons.services import load_course
from tutor.quizzes.services import create_quiz
from tutor.weistool.forms import card_error

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
BIG_IDS = [MAX_ID + 1, 2**64, 10**30]


# --- URL routes with numbers ------------------------------------------------------------


def site_routes(resolver=None, prefix="", converters=None):
    """(route, converters) of every URL pattern of the site's own apps (not the admin)."""
    resolver = resolver or get_resolver()
    converters = converters or {}
    for entry in resolver.url_patterns:
        route = str(entry.pattern)
        if route.startswith(("admin/", "^admin/")):
            continue
        found = {**converters, **entry.pattern.converters}
        if isinstance(entry, URLResolver):
            yield from site_routes(entry, prefix + route, found)
        elif isinstance(entry, URLPattern):
            yield prefix + route, found


def number_routes() -> list[tuple[str, list[str]]]:
    """(route, names of its number parameters), whatever their converter."""
    routes = []
    for route, converters in site_routes():
        names = [name for name, c in converters.items() if type(c).__name__ != "SlugConverter"]
        if names:
            routes.append((route, names))
    return routes


def fill_route(route: str, numbers: dict[str, object], slug: str = "cards") -> str:
    """The path of ``route`` with its numbers (any text: the route decides) and slug."""

    def value(match: re.Match) -> str:
        name = match.group(1)
        return str(numbers[name]) if name in numbers else slug

    return "/" + re.sub(r"<\w+:(\w+)>", value, route)


def test_every_number_in_a_path_uses_the_bounded_id_converter():
    routes = list(site_routes())
    assert len(number_routes()) >= 15  # the walk reaches every app's urls.py
    unbounded = [
        route
        for route, converters in routes
        if any(type(c) is IntConverter for c in converters.values())
    ]
    assert unbounded == []
    for route, converters in routes:
        for name, converter in converters.items():
            if converter.__class__.__name__ != "SlugConverter":
                assert isinstance(converter, IdConverter), (route, name)


def test_the_id_converter_takes_every_database_id_and_nothing_larger():
    converter = IdConverter()
    assert re.fullmatch(converter.regex, str(MAX_ID))
    assert converter.to_python(str(MAX_ID)) == MAX_ID
    assert converter.to_python("0") == 0
    for big in BIG_IDS:
        with pytest.raises(ValueError):
            converter.to_python(str(big))
    with pytest.raises(NoReverseMatch):
        reverse("quizzes:question", args=[MAX_ID + 1, 0])


@pytest.fixture
def world(teacher):
    load_course()
    school_class = SchoolClassFactory(teacher=teacher)
    learner = MembershipFactory(school_class=school_class).learner
    now = timezone.now()
    spec = AssignmentSpec(
        title="Hardening",
        kinds=["trick"],
        question_count=2,
        rules_preset="default",
        opens_at=now - timedelta(days=1),
        due_at=now + timedelta(days=1),
    )
    assignment = assignments.create_assignment(
        teacher=teacher, school_class=school_class, spec=spec
    )
    attempt = assignments.start_or_resume(learner=learner, assignment=assignment)
    practice = create_quiz(learner=learner, kinds=["stoeck"], seeds=[3])
    return {
        "teacher": teacher,
        "learner": learner,
        "class": school_class,
        "assignment": assignment,
        "attempt": attempt,
        "practice": practice,
    }


def real_ids(w) -> dict[str, int]:
    """For each parameter name, an id that exists and the user may open."""
    return {
        "class_id": w["class"].pk,
        "learner_id": w["learner"].pk,
        "assignment_id": w["assignment"].pk,
        "quiz_id": w["practice"].pk,
        "position": 0,
    }


@pytest.mark.parametrize("big", BIG_IDS)
def test_ids_and_positions_beyond_the_largest_id_are_a_404_for_everybody(world, big):
    """Each number in turn too large, the others real: before, SQLite raised
    OverflowError (a 500) for /practice/<2^63>/q/0/ and /classes/1/learners/<2^63>/."""
    clients = {"anonymous": Client()}
    for role in ("learner", "teacher"):
        clients[role] = Client()
        clients[role].force_login(world[role])
    for route, names in number_routes():
        for name in names:
            numbers = {**real_ids(world), name: big}
            path = fill_route(route, numbers)
            for role, client in clients.items():
                for method in (client.get, client.post):
                    response = method(path)
                    assert response.status_code == 404, (role, method.__name__, path)


# --- assignment dates ----------------------------------------------------------------


def assignment_post(opens: str, due: str) -> dict:
    return {
        "title": "Datum",
        "kinds": ["trick"],
        "question_count": 2,
        "rules_preset": "default",
        "opens_at": opens,
        "due_at": due,
        "attempts_allowed": 1,
        "same_questions": "1",
        "explanations": "immediately",
        "late_policy": "refuse",
    }


@pytest.mark.parametrize(
    ("opens", "due", "field"),
    [
        ("0001-01-01T00:00", "2026-05-01T10:00", "opens_at"),
        ("0001-01-01T00:00", "0001-01-02T00:00", "opens_at"),
        ("2026-05-01T10:00", "9999-12-31T23:59", "due_at"),
        ("1999-12-31T23:59", "2026-05-01T10:00", "opens_at"),
        ("2026-05-01T10:00", "2101-01-01T00:00", "due_at"),
    ],
)
def test_assignment_dates_outside_2000_to_2100_are_refused_with_a_message(
    client, teacher, school_class, opens, due, field
):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    response = client.post(url, assignment_post(opens, due))
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert "Wähle ein Datum zwischen den Jahren 2000 und 2100." in response.content.decode()
    english = client.post(url, assignment_post(opens, due), HTTP_ACCEPT_LANGUAGE="en")
    assert "Choose a date between the years 2000 and 2100." in english.content.decode()
    assert not Assignment.objects.exists()


def test_assignment_dates_inside_the_range_are_stored(client, teacher, school_class):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    response = client.post(url, assignment_post("2000-01-01T00:00", "2100-12-31T23:00"))
    assert response.status_code == 302
    assert Assignment.objects.get().due_at.year == 2100


# --- the 503 page from every place a request writes -----------------------------------


@pytest.fixture
def _fuse_reset():
    lock_fuse.reset()
    yield
    lock_fuse.reset()


def locked(*args, **kwargs):
    raise OperationalError("database is locked")


@pytest.mark.usefixtures("_fuse_reset")
def test_a_session_save_the_locked_database_refuses_gives_the_503_page(monkeypatch):
    """The page after an account deletion writes only the session, after the view (it
    takes the one-time notice out of it): before, the OperationalError escaped the 503
    handling (a 500 after the busy timeout)."""
    client = Client()
    session = client.session
    session[DELETED_SESSION_KEY] = "self"
    session.save()
    client.cookies["sessionid"] = session.session_key
    monkeypatch.setattr(SessionStore, "save", locked)
    response = client.get(reverse("privacy:deleted"))
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "Nichts wurde gespeichert" in response.content.decode()
    monkeypatch.undo()
    assert SessionStore(session.session_key).get(DELETED_SESSION_KEY) == "self"


@pytest.mark.usefixtures("_fuse_reset")
def test_a_database_error_outside_the_view_still_gives_the_503_page(monkeypatch, learner):
    """A middleware's write after the view (here: the messages) is caught by the
    handler500 backstop (production, DEBUG off), not shown as a 500."""
    monkeypatch.setattr(MessageMiddleware, "process_response", locked)
    client = Client(raise_request_exception=False)
    client.force_login(learner)
    response = client.get(reverse("home"))
    assert response.status_code == 503
    assert "Nichts wurde gespeichert" in response.content.decode()
    assert lock_fuse.on  # a lock error turns the fuse on (see the real-lock test)


@pytest.mark.usefixtures("_fuse_reset")
def test_try_again_after_a_refused_answer_leads_to_the_question_page(world, monkeypatch):
    """Before, the no-JS page linked to the answer URL (POST only: 405 on GET)."""
    from tutor.quizzes import services

    monkeypatch.setattr(services, "answer", locked)
    client = Client()
    client.force_login(world["learner"])
    quiz = world["practice"]
    question = reverse("quizzes:question", args=[quiz.pk, 0])
    answer = reverse("quizzes:answer", args=[quiz.pk, 0])
    cases = {
        f"http://testserver{question}?from=referer": f"http://testserver{question}?from=referer",
        "": question,  # no Referer: the question the answer belongs to
        "https://evil.example/phish": question,  # not this site: never linked
    }
    for referer, expected in cases.items():
        headers = {"Referer": referer} if referer else {}
        response = client.post(answer, {"choice": "a"}, headers=headers)
        assert response.status_code == 503
        link = re.search(r'<a href="([^"]+)">Nochmals versuchen</a>', response.content.decode())
        assert link and link.group(1) == expected, (referer, link and link.group(1))
        assert client.get(link.group(1)).status_code == 200


def test_try_again_after_other_posts_leads_to_the_lesson_or_home():
    factory = RequestFactory()
    lesson_answer = reverse("lessons:answer_question", args=["cards", 7, 0])
    assert retry_url(factory.post(lesson_answer)) == reverse("lessons:detail", args=["cards"])
    assert retry_url(factory.post(reverse("set_deck"))) == reverse("home")
    assert retry_url(factory.post("/no/such/page/")) == reverse("home")
    assert retry_url(factory.get("/lessons/?x=1")) == "/lessons/?x=1"
    htmx = factory.post(reverse("set_deck"))
    htmx.htmx = type("H", (), {"current_url": "javascript:alert(1)"})()
    assert retry_url(htmx) == reverse("home")


def test_try_again_never_links_to_a_url_a_get_cannot_open(world):
    """Whatever page a refused post came from (its Referer), even a post-only URL
    (a plain form's error page keeps the post's URL), the link opens with a GET."""
    factory = RequestFactory()
    numbers = real_ids(world)
    routes = [route for route, _converters in site_routes()]
    assert (
        "accounts/logout/" in routes and "practice/<id:quiz_id>/q/<id:position>/answer/" in routes
    )
    learner = Client()
    learner.force_login(world["learner"])
    for route in routes:
        path = fill_route(route, numbers)
        request = factory.post(path, headers={"Referer": f"http://testserver{path}"})
        link = retry_url(request)
        assert learner.get(link).status_code != 405, (path, link)


# --- a real write lock on SQLite ---------------------------------------------------------

LOCK_SCRIPT = r"""
import json, os, sqlite3, time
import django
django.setup()
from django.core.management import call_command
from django.db import connections
from django.test import Client
from tutor.core.middleware import lock_fuse

call_command("migrate", verbosity=0)
call_command("load_lessons", verbosity=0)
from tutor.accounts.models import User
client = Client()
# Logged in: marking a lesson read and the deck go to the account, writes (a visitor's
# deck goes to a cookie).
client.force_login(User.objects.create(username="mia"))
out = {}

def timed(name, method, path, data=None):
    connections.close_all()  # as in production: a new connection for every request
    start = time.monotonic()
    response = getattr(client, method)(path, data or {})
    out[name] = [response.status_code, round(time.monotonic() - start, 3)]

timed("read before", "get", "/weis/")
holder = sqlite3.connect(os.environ["DJANGO_SQLITE_PATH"], isolation_level=None)
holder.execute("BEGIN IMMEDIATE")
timed("read", "get", "/weis/?seat0_text=H6+H7+H8")
timed("deck", "post", "/accounts/deck/", {"deck": "french"})
lock_fuse.reset()  # the deck's 503 tripped it: see the next write wait without it
timed("first write", "post", "/lessons/weis-values/read/")
timed("second write", "post", "/lessons/weis-values/read/")
timed("read again", "get", "/lessons/")
holder.execute("ROLLBACK")
timed("write after", "post", "/lessons/weis-values/read/")
timed("deck after", "post", "/accounts/deck/", {"deck": "french"})
print(json.dumps(out))
"""


def test_under_a_real_write_lock_reads_answer_and_writes_give_up_quickly(tmp_path):
    """Another connection holds SQLite's write lock. Reads answer at once (WAL); a deck
    preference does not wait at all (a write the site can do without); the first other
    write waits the request's busy timeout and gets the 503 page, the next gives up at
    once (the lock fuse); after the lock, writes work. Before: a 500 after 20 s."""
    result = run_python(
        LOCK_SCRIPT,
        DJANGO_SQLITE_PATH=str(tmp_path / "lock.sqlite3"),
        JASS_SQLITE_REQUEST_BUSY_MS="2000",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["read"][0] == 200 and out["read"][1] < 1.5, out
    assert out["read again"][0] == 200 and out["read again"][1] < 1.5, out
    assert out["deck"][0] == 503 and out["deck"][1] < 1.0, out
    assert out["first write"][0] == 503 and 1.9 <= out["first write"][1] < 6, out
    assert out["second write"][0] == 503 and out["second write"][1] < 1.0, out
    assert out["write after"][0] == 302, out
    assert out["deck after"][0] == 302, out


def test_the_lock_fuse_reaches_every_worker_process_of_the_server(tmp_path):
    """One process trips the fuse; another (here: a second fuse on the same file, as a
    second gunicorn worker has) sees it on, so it does not wait the full busy timeout
    for the same lock. The mark lasts LOCK_FUSE_SECONDS and a reset clears it."""
    mark = tmp_path / "db.sqlite3-fuse"
    worker_1, worker_2 = LockFuse(lambda: mark), LockFuse(lambda: mark)
    assert not worker_1.on and not worker_2.on
    worker_1.trip()
    assert worker_2.on
    stale = time.time() - LOCK_FUSE_SECONDS - 1
    os.utime(mark, (stale, stale))
    assert not worker_2.on
    worker_2.trip()
    assert worker_1.on and mark.stat().st_mtime > stale + 1
    worker_1.reset()
    assert not mark.exists() and not LockFuse(lambda: mark).on


def test_the_lock_fuse_has_no_file_for_in_memory_or_other_databases():
    """The test database is in memory: the fuse is per process there."""
    assert sqlite_fuse_path() is None


# --- Weis tool: German card errors, Vary ------------------------------------------------


def test_unreadable_cards_are_explained_in_german_with_the_word(client):
    response = client.get(reverse("weistool:tool"), {"seat0_text": "H6 Rosen Zwölf"})
    text = response.content.decode()
    assert "«Rosen Zwölf» ist keine Karte: «Zwölf» ist kein bekannter Rang." in text
    assert "Schreib einen Code wie H7 oder einen Namen wie Rosen-Ass." in text
    assert "cannot read" not in text and "unknown" not in text


def test_unreadable_cards_are_explained_in_english_on_english_pages(client):
    url = reverse("weistool:tool")
    response = client.get(url, {"seat0_text": "Foo"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "«Foo» is neither a card nor a suit nor a rank." in response.content.decode()


@pytest.mark.parametrize(
    "text", ["Rosen Zwölf", "Zwölf", "Rosen", "Ass", "H7 Foo", "of", "Rosen Schellen", "HX"]
)
def test_every_card_error_of_rules_core_has_a_translation(text):
    """If rules_core words its errors differently, this fails instead of English
    (or a generic message) reaching a German page."""
    with pytest.raises(RulesError) as caught:
        parse_cards(text)
    with translation.override("de"):
        message = card_error(caught.value)
    assert "Diese Karten lassen sich nicht lesen" not in message
    assert message.endswith("Schreib einen Code wie H7 oder einen Namen wie Rosen-Ass.")
    assert "«" in message and "cannot" not in message


def test_the_weis_tool_varies_on_htmx(client):
    page = client.get(reverse("weistool:tool"), {"seat0_text": "H6 H7 H8"})
    partial = client.get(
        reverse("weistool:tool"), {"seat0_text": "H6 H7 H8"}, headers={"HX-Request": "true"}
    )
    for response in (page, partial):
        assert "HX-Request" in response["Vary"]
    assert "<html" in page.content.decode() and "<html" not in partial.content.decode()


# --- Content-Security-Policy and Permissions-Policy ----------------------------------------

HEADERS_SCRIPT = r"""
import json
import os
import django
django.setup()
from django.conf import settings
from django.test import Client
response = Client().get("/health/", secure=True, headers={"Host": "jass.example.ch"})
print(json.dumps({"status": response.status_code, "debug": settings.DEBUG,
                  "headers": dict(response.headers)}))
"""


def test_production_sends_a_strict_csp_and_a_permissions_policy():
    result = run_python(HEADERS_SCRIPT, **PRODUCTION)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["status"] == 200 and out["debug"] is False
    csp = {
        part.split()[0]: part.split()[1:]
        for part in out["headers"]["Content-Security-Policy"].split(";")
        if part.strip()
    }
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]  # no inline script, no eval
    assert csp["style-src"] == ["'self'"]  # no <style> elements
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"] and csp["form-action"] == ["'self'"]
    policy = out["headers"]["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in policy


class InlineCode(HTMLParser):
    """Collects what a CSP without 'unsafe-inline' for scripts and <style> would block."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            if not attrs.get("src"):
                self.problems.append("inline <script>")
            self.in_script = True
        if tag == "style":
            self.problems.append("<style> element")
        for name, value in attrs.items():
            if name.startswith("on"):
                self.problems.append(f"event handler {name}")
            if name in ("href", "src", "action", "formaction") and (
                value or ""
            ).strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in {name}")
            if name.startswith("hx-") and (value or "").lstrip().startswith(("js:", "javascript:")):
                self.problems.append(f"evaluated {name}")
        if tag == "meta" and attrs.get("name") == "htmx-config":
            config = json.loads(attrs["content"])
            if config.get("allowEval", True) or config.get("includeIndicatorStyles", True):
                self.problems.append("htmx may eval or inject a <style>")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.problems.append("inline script text")


def test_pages_have_no_inline_script_no_event_handlers_and_the_csp_header(world):
    learner, teacher = Client(), Client()
    learner.force_login(world["learner"])
    teacher.force_login(world["teacher"])
    quiz = world["practice"]
    pages = [
        (Client(), reverse("home")),
        (Client(), reverse("lessons:overview")),
        (Client(), reverse("lessons:detail", args=["cards"])),
        (Client(), reverse("weistool:tool") + "?seat0_text=H6+H7+H8+SA+SK&seat1_text=Zwölf"),
        (Client(), reverse("login")),
        (learner, reverse("lessons:detail", args=["cards"])),
        (learner, reverse("dashboard")),
        (learner, reverse("quizzes:practice")),
        (learner, reverse("quizzes:question", args=[quiz.pk, 0])),
        (teacher, reverse("classroom:class_detail", args=[world["class"].pk])),
        (teacher, reverse("classroom:assignment_create", args=[world["class"].pk])),
        (teacher, reverse("classroom:assignment_results", args=[world["assignment"].pk])),
    ]
    for client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "script-src 'self'" in response["Content-Security-Policy"], url
        parser = InlineCode()
        parser.feed(response.content.decode())
        assert parser.problems == [], (url, parser.problems)


def test_the_base_template_loads_htmx_from_static_and_only_from_there(client):
    scripts = re.findall(r"<script[^>]*>", client.get(reverse("home")).content.decode())
    assert scripts and all(re.search(r'src="/static/[^"]+\.js"', tag) for tag in scripts)


@pytest.mark.django_db
def test_with_debug_on_no_script_replaces_the_page_by_a_refusal(client):
    """`make run` serves with DEBUG on, where django-htmx's ``{% htmx_script %}`` adds a
    helper that replaces the whole page by any 400, 403 or 404 response to htmx: a pupil
    who tried the same card twice at the table saw the refusal as a page without styles
    or navigation. The site swaps those responses in (base.html's htmx config), so the
    page loads htmx alone, with DEBUG on or off."""
    from django.core.cache import caches
    from django.test import override_settings

    for debug in (True, False):
        caches["fragments"].clear()  # the page's head is kept there
        with override_settings(DEBUG=debug):
            html = client.get(reverse("home")).content.decode()
        assert "django_htmx/htmx-2.min" in html and "django-htmx.js" not in html, debug
