"""Django's {# #} comment ends at the end of its line: one spread over lines is shown on
the page as text (it happened once, on the question page). Longer comments use
{% comment %}."""

from __future__ import annotations

from django.conf import settings


def test_every_short_comment_of_a_django_template_closes_on_its_line():
    open_comments = [
        f"{path.relative_to(settings.BASE_DIR)}:{number}"
        for path in sorted((settings.BASE_DIR / "templates").rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert open_comments == []
