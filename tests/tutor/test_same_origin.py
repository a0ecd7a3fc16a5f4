"""Issue 16, item 4 (the part about third parties): nothing a page loads comes from
another site. Every resource URL in the HTML of the main pages, for every role
(images, scripts, stylesheets, icons, fonts, frames, media, form targets), and every
url() and @import in the site's stylesheets, is of this site."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import MembershipFactory, SchoolClassFactory, UserFactory
from tutor.accounts.models import Role
from tutor.classroom import assignments
from tutor.classroom.assignments import AssignmentSpec
from tutor.lessons.services import load_course
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db

HOST = "testserver"
# Attributes that make the browser fetch something (or send a form somewhere).
FETCHING = {
    "img": ("src", "srcset"),
    "script": ("src",),
    "link": ("href", "imagesrcset"),
    "source": ("src", "srcset"),
    "iframe": ("src",),
    "frame": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "input": ("src",),
    "image": ("href", "xlink:href"),  # SVG
    "use": ("href", "xlink:href"),
    "form": ("action",),
    "button": ("formaction",),
}
# <link rel> values that fetch nothing (plain links to other pages).
LINK_NOT_FETCHED = {"alternate", "author", "help", "license", "next", "prev", "search"}
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")


class Resources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "link" and set((attrs.get("rel") or "").split()) <= LINK_NOT_FETCHED:
            return
        for name in FETCHING.get(tag, ()):
            value = attrs.get(name)
            if not value:
                continue
            if name.endswith("srcset"):
                for part in value.split(","):
                    self.urls.append((f"{tag}[{name}]", part.strip().split(" ")[0]))
            else:
                self.urls.append((f"{tag}[{name}]", value))
        style = attrs.get("style") or ""
        for match in CSS_URL.finditer(style):
            self.urls.append((f"{tag}[style]", match.group(1) or match.group(2)))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)


def foreign(url: str) -> bool:
    """Whether fetching ``url`` from a page of this site would contact another host."""
    url = url.strip()
    if url.startswith(("data:", "#", "about:blank")):
        return False
    parts = urlsplit(url if not url.startswith("//") else "http:" + url)
    if parts.scheme and parts.scheme not in ("http", "https"):
        return True  # javascript:, ftp:, ...
    return bool(parts.netloc) and parts.netloc != HOST


def test_the_check_tells_foreign_urls_apart():
    assert foreign("https://fonts.googleapis.com/css2?family=Inter")
    assert foreign("//cdn.example.com/htmx.js") and foreign("javascript:alert(1)")
    assert not foreign("/static/css/site.css") and not foreign("http://testserver/x")
    parser = Resources()
    parser.feed(
        '<link rel="stylesheet" href="https://cdn.example.com/a.css"><img srcset="/a.png 1x, '
        'https://x.example/b.png 2x"><link rel="alternate" href="https://x.example/feed">'
        '<div style="background: url(https://x.example/c.png)"></div>'
    )
    assert [url for _where, url in parser.urls if foreign(url)] == [
        "https://cdn.example.com/a.css",
        "https://x.example/b.png",
        "https://x.example/c.png",
    ]


@pytest.fixture
def people():
    load_course()
    teacher = UserFactory(username="t_origin", role=Role.TEACHER)
    school_class = SchoolClassFactory(teacher=teacher)
    learner = MembershipFactory(school_class=school_class).learner
    now = timezone.now()
    spec = AssignmentSpec(
        title="Origin",
        kinds=["trick"],
        question_count=2,
        rules_preset="default",
        opens_at=now - timedelta(days=1),
        due_at=now + timedelta(days=1),
    )
    assignment = assignments.create_assignment(
        teacher=teacher, school_class=school_class, spec=spec
    )
    practice = create_quiz(learner=learner, kinds=["stoeck"], seeds=[3])
    return {
        "visitor": None,
        "learner": learner,
        "teacher": teacher,
        "admin": UserFactory(username="root_origin", is_staff=True, is_superuser=True),
        "pending": UserFactory(username="pending_origin", role=Role.PENDING_TEACHER),
        "pupil": UserFactory(username="fresh_origin", must_set_password=True),
        "class": school_class,
        "assignment": assignment,
        "practice": practice,
    }


def main_pages(w) -> dict[str, list[str]]:
    public = [
        reverse("home"),
        reverse("lessons:overview"),
        reverse("lessons:rules"),
        reverse("lessons:detail", args=["cards"]),
        reverse("weistool:tool") + "?seat0_text=H6+H7+H8",
    ]
    c, a, quiz = w["class"], w["assignment"], w["practice"]
    return {
        "visitor": [
            *public,
            reverse("login"),
            reverse("signup"),
            reverse("teacher_signup"),
            reverse("password_reset"),
        ],
        "learner": [
            *public,
            reverse("dashboard"),
            reverse("quizzes:practice"),
            reverse("quizzes:question", args=[quiz.pk, 0]),
            reverse("table:start"),
            reverse("classroom:my_classes"),
            reverse("password_change"),
        ],
        "teacher": [
            *public,
            reverse("classroom:teacher_classes"),
            reverse("classroom:class_detail", args=[c.pk]),
            reverse("classroom:assignment_create", args=[c.pk]),
            reverse("classroom:assignment_results", args=[a.pk]),
            reverse("classroom:class_mastery", args=[c.pk]),
            reverse("roster:roster", args=[c.pk]),
            reverse("roster:cards", args=[c.pk]),
            reverse("password_change"),
        ],
        "admin": [reverse("admin:index"), reverse("admin:accounts_user_changelist")],
        "pending": [reverse("teacher_pending")],
        "pupil": [reverse("first_password")],
    }


@pytest.mark.parametrize("role", ["visitor", "learner", "teacher", "admin", "pending", "pupil"])
def test_every_resource_of_the_main_pages_is_of_this_site(people, role):
    client = Client()
    if people[role] is not None:
        client.force_login(people[role])
    for url in main_pages(people)[role]:
        response = client.get(url)
        assert response.status_code == 200, (role, url, response.status_code)
        parser = Resources()
        parser.feed(response.content.decode())
        assert parser.urls, url  # the walk found the stylesheet and the scripts at least
        outside = [(where, src) for where, src in parser.urls if foreign(src)]
        assert outside == [], (role, url, outside)


def test_the_login_cards_load_nothing_from_elsewhere(people):
    """The cards page with cards on it: the QR codes are inline SVG, not images."""
    client = Client()
    client.force_login(people["teacher"])
    url = reverse("roster:roster", args=[people["class"].pk])
    preview = client.post(url, {"names": "Anna Meier"}).content.decode()
    digest = re.search(r'name="confirm" value="([0-9a-f]+)"', preview).group(1)
    client.post(url, {"names": "Anna Meier", "confirm": digest})
    page = client.get(reverse("roster:cards", args=[people["class"].pk])).content.decode()
    assert "<svg" in page
    parser = Resources()
    parser.feed(page)
    assert [src for _where, src in parser.urls if foreign(src)] == []


def site_stylesheets() -> list[Path]:
    sheets = [path for path in Path(settings.BASE_DIR, "static").rglob("*.css")]
    for app_sheet in ("accounts/login-cards.css",):
        sheets.append(Path(finders.find(app_sheet)))
    return sheets


def test_the_sites_stylesheets_fetch_nothing_from_elsewhere():
    sheets = site_stylesheets()
    assert any(path.name == "site.css" for path in sheets)
    for path in sheets:
        css = path.read_text(encoding="utf-8")
        for match in CSS_URL.finditer(css):
            url = match.group(1) or match.group(2)
            assert not foreign(url), (path, url)
        # Fonts are the visitor's own (system-ui, Georgia ...), never downloaded.
        assert "@font-face" not in css or not re.search(r"src:\s*url\(\s*['\"]?https?:", css)
