"""Lessons: loading the files, rendering live examples from rules_core, read state."""

import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape

from rules_core import RuleSet, find_melds
from tutor.lessons import examples
from tutor.lessons.content import CONTENT_DIR, LessonFormatError, find_examples, read_course
from tutor.lessons.models import Lesson, LessonRead
from tutor.lessons.rule_index import RULE_TITLES
from tutor.lessons.services import load_course

pytestmark = pytest.mark.django_db

LESSON = """+++
title = "{title}"
summary = "A test lesson."
rules = ["R5.2"]
sources = ["W-DE"]
+++
Four sixes count in the default rule set [R5.2].

```jass melds
hand: D6 H6 S6 C6 DA
contract: obenabe
```
"""


@pytest.fixture
def loaded(db):
    load_course()


@pytest.fixture
def tiny_course(tmp_path: Path) -> Path:
    for lang, title in (("de", "Vier Sechser"), ("en", "Four sixes"), ("fr", "Quatre 6")):
        (tmp_path / f"01-low-quads.{lang}.md").write_text(LESSON.format(title=title))
    return tmp_path


def set_language(client, code):
    client.post(reverse("set_language"), {"language": code, "next": "/"})


def test_course_has_at_least_twelve_lessons_in_every_language():
    course = read_course()
    assert len(course) >= 12
    assert all(set(lesson.files) == {"de", "en", "fr"} for lesson in course)


def test_every_rule_is_taught_by_some_lesson():
    taught = {rule for lesson in read_course() for rule in lesson.rules}
    assert set(RULE_TITLES) - taught == set()


def test_ladder_lesson_has_a_worked_example_per_step():
    """At least one compare example per ladder step (R5.5), decided by rules_core."""
    from rules_core import Step

    decided = set()
    for lesson in read_course():
        for spec in lesson.files["en"].examples:
            if spec.kind == "compare":
                decided.add(examples.evaluate(spec).data["comparison"].step)
    assert decided == set(Step)


@pytest.mark.parametrize("lang", ["de", "en", "fr"])
def test_every_lesson_renders_with_all_examples(client, loaded, lang):
    set_language(client, lang)
    for lesson in read_course():
        response = client.get(reverse("lessons:detail", args=[lesson.slug]))
        assert response.status_code == 200, lesson.slug
        html = response.content.decode()
        assert f'<html lang="{lang}">' in html
        assert escape(lesson.files[lang].title) in html
        shown = len(re.findall(r'<figure class="example example--', html))
        assert shown == len(lesson.files[lang].examples), lesson.slug
        assert "example--broken" not in html, lesson.slug


def test_live_example_follows_the_rule_set(client, tiny_course, monkeypatch):
    """Live examples are computed when the page renders, never typed in by hand."""
    load_course(tiny_course)
    url = reverse("lessons:detail", args=["low-quads"])
    set_language(client, "en")
    default_page = client.get(url).content.decode()
    assert "four sixes (100)" in default_page
    assert [m.points for m in find_melds("D6 H6 S6 C6", RuleSet())] == [100]

    monkeypatch.setattr(examples, "DEFAULT_PRESET", "w-en")
    variant_page = client.get(url).content.decode()
    assert "four sixes (100)" not in variant_page
    assert "No Weis in this hand." in variant_page


def test_cached_lesson_follows_the_deck_and_edits(client, tiny_course):
    """Lesson HTML is cached; a deck switch or an edited lesson must still show."""
    load_course(tiny_course)
    url = reverse("lessons:detail", args=["low-quads"])
    set_language(client, "de")

    def lesson(page: str) -> str:  # the footer names both decks' suits
        return page.split("<main", 1)[1].split("</main>", 1)[0]

    swiss = lesson(client.get(url).content.decode())
    assert "Rosen" in swiss and "Herz" not in swiss
    client.post(reverse("set_deck"), {"deck": "french"})
    french = lesson(client.get(url).content.decode())
    assert "Herz" in french and "Rosen" not in french
    path = tiny_course / "01-low-quads.de.md"
    path.write_text(path.read_text().replace("Vier Sechser", "Vier kleine Sechser"))
    path.write_text(path.read_text().replace("Four sixes count", "Vier Sechser zählen"))
    load_course(tiny_course)
    assert "Vier Sechser zählen" in client.get(url).content.decode()


def test_load_lessons_is_idempotent_and_picks_up_edits(tiny_course):
    first = load_course(tiny_course)
    assert first.created == ["low-quads"]
    assert load_course(tiny_course).unchanged == ["low-quads"]
    path = tiny_course / "01-low-quads.en.md"
    path.write_text(path.read_text().replace("Four sixes", "Four little sixes"))
    assert load_course(tiny_course).updated == ["low-quads"]
    assert Lesson.objects.get().texts.get(language="en").title == "Four little sixes"


def test_removed_lesson_file_is_deleted(tiny_course, tmp_path):
    load_course(tiny_course)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert load_course(empty).deleted == ["low-quads"]
    assert not Lesson.objects.exists()


def test_bad_card_in_example_stops_the_load_with_file_and_line(tiny_course):
    path = tiny_course / "01-low-quads.de.md"
    path.write_text(path.read_text().replace("DA", "DX"))
    with pytest.raises(CommandError) as error:
        call_command("load_lessons", directory=tiny_course)
    assert "01-low-quads.de.md:9" in str(error.value)
    assert not Lesson.objects.exists()


@pytest.mark.parametrize("lang", ["de", "en", "fr"])
def test_lesson_without_translation_is_refused(tiny_course, lang):
    (tiny_course / f"01-low-quads.{lang}.md").unlink()
    with pytest.raises(LessonFormatError, match=f"no {lang} version"):
        read_course(tiny_course)


def test_a_french_lesson_with_another_example_is_refused(tiny_course):
    path = tiny_course / "01-low-quads.fr.md"
    path.write_text(path.read_text().replace("hand: D6 H6 S6 C6 DA", "hand: D6 H6 S6 C6 DK"))
    with pytest.raises(LessonFormatError, match="differ between languages"):
        read_course(tiny_course)


def test_unknown_rule_id_is_refused(tiny_course):
    path = tiny_course / "01-low-quads.en.md"
    path.write_text(path.read_text().replace('"R5.2"', '"R99.1"'))
    with pytest.raises(LessonFormatError, match="unknown rule IDs"):
        read_course(tiny_course)


def test_example_block_syntax_error_names_the_line():
    with pytest.raises(LessonFormatError, match="line 3"):
        find_examples("text\n```jass melds\nhand H6 H7 H8\n```\n")


def test_rule_references_become_links(client, tiny_course):
    load_course(tiny_course)
    html = client.get(reverse("lessons:detail", args=["low-quads"])).content.decode()
    assert f'href="{reverse("lessons:rules")}#R5.2"' in html


def test_r5_4a_and_r5_4b_are_indexed_in_rule_order_and_linked(client, tiny_course):
    from tutor.lessons.rule_index import rule_sort_key

    assert {"R5.4a", "R5.4b"} <= set(RULE_TITLES)
    assert sorted(["R5.5", "R5.4b", "R5.4", "R5.4a"], key=rule_sort_key) == [
        "R5.4",
        "R5.4a",
        "R5.4b",
        "R5.5",
    ]
    for path in tiny_course.glob("*.md"):
        text = path.read_text().replace('rules = ["R5.2"]', 'rules = ["R5.2", "R5.4b"]')
        path.write_text(text.replace("[R5.2].", "[R5.2]; a silent player [R5.4b]."))
    load_course(tiny_course)
    html = client.get(reverse("lessons:detail", args=["low-quads"])).content.decode()
    assert f'href="{reverse("lessons:rules")}#R5.4b"' in html


def test_box_for_the_curious_folds_prose_and_examples(client, tiny_course):
    """A <details class="curious"> box may hold Markdown and live examples; its lines
    pass through, the Markdown inside is converted, and the example renders inside."""
    for path in tiny_course.glob("*.md"):
        text = path.read_text()
        text = text.replace(
            "```jass melds",
            '<details class="curious">\n<summary>For the curious</summary>\n\n'
            "*W-EN* reads it otherwise.\n\n```jass melds",
        )
        path.write_text(text + "\nAfter the box.\n\n</details>\n\nOutside again.\n")
    load_course(tiny_course)
    set_language(client, "en")
    html = client.get(reverse("lessons:detail", args=["low-quads"])).content.decode()
    box = html.index('<details class="curious"><summary>For the curious</summary>')
    figure = html.index('<figure class="example example--melds">')
    end = html.index("</details>", figure)
    assert box < html.index("<p><em>W-EN</em> reads it otherwise.</p>") < figure < end
    assert box < html.index("<p>After the box.</p>") < end < html.index("<p>Outside again.</p>")
    assert "&lt;details" not in html and "<p><details" not in html


def test_renumbered_lesson_keeps_its_row_and_its_readers(tiny_course, learner):
    """Lessons are keyed by slug: renaming 01-low-quads to 03-low-quads moves the lesson
    (position 3), keeps its row and who has read it, and a second load changes nothing."""
    load_course(tiny_course)
    lesson = Lesson.objects.get(slug="low-quads")
    LessonRead.objects.create(user=learner, lesson=lesson)
    for path in list(tiny_course.glob("01-*.md")):
        path.rename(path.with_name(path.name.replace("01-", "03-")))
    report = load_course(tiny_course)
    assert (report.updated, report.created, report.deleted) == (["low-quads"], [], [])
    moved = Lesson.objects.get()
    assert (moved.pk, moved.position) == (lesson.pk, 3)
    assert moved.texts.get(language="en").source_file == "03-low-quads.en.md"
    assert LessonRead.objects.filter(user=learner, lesson=moved).exists()
    assert load_course(tiny_course).unchanged == ["low-quads"]


def test_mark_read_plain_and_htmx(client, learner, loaded):
    client.force_login(learner)
    slug = read_course()[0].slug
    url = reverse("lessons:toggle_read", args=[slug])
    assert client.post(url, {"read": "1"}).status_code == 302
    assert LessonRead.objects.filter(user=learner, lesson__slug=slug).exists()
    response = client.post(url, {"read": "0"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert 'id="read-state"' in response.content.decode()
    assert not LessonRead.objects.filter(user=learner).exists()


def test_overview_shows_read_state_per_learner(client, learner, loaded):
    from tests.factories import LearnerFactory

    slug = read_course()[0].slug
    client.force_login(learner)
    client.post(reverse("lessons:toggle_read", args=[slug]), {"read": "1"})
    set_language(client, "en")
    page = client.get(reverse("lessons:overview")).content.decode()
    assert f"You have read 1 of {len(read_course())} lessons." in page
    client.force_login(LearnerFactory())
    page = client.get(reverse("lessons:overview")).content.decode()
    assert f"You have read 0 of {len(read_course())} lessons." in page


def test_marking_read_needs_login_and_post(client, loaded):
    url = reverse("lessons:toggle_read", args=[read_course()[0].slug])
    assert client.post(url).status_code == 302
    assert not LessonRead.objects.exists()


def test_unknown_lesson_is_404(client, loaded):
    assert client.get(reverse("lessons:detail", args=["no-such-lesson"])).status_code == 404


def test_rule_index_lists_every_rule(client, loaded):
    html = client.get(reverse("lessons:rules")).content.decode()
    for rule in RULE_TITLES:
        assert f'id="{rule}"' in html


def test_shipped_course_directory_is_the_default():
    assert CONTENT_DIR.name == "content" and any(CONTENT_DIR.glob("*.md"))
