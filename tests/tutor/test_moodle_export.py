"""Questions for Moodle's own quiz (issue 26, item 6): the Moodle XML file of a set of
generated questions, and the teacher's page that downloads it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from rules_core import Card
from teaching.generators import KINDS, generate, recompute
from tests.factories import LearnerFactory, LessonFactory
from tutor.classroom.moodle_export import (
    ExportError,
    MoodleExportSpec,
    export_questions,
    filename,
    moodle_file,
)
from tutor.core.cards import display_name
from tutor.lessons.questions import plan_for
from tutor.quizzes.moodle import (
    MoodleSet,
    export_question,
    idnumber,
    moodle_templates,
    moodle_xml,
    self_contained,
    verdict_of,
)
from tutor.quizzes.presenters import choice_label, feedback_mistake
from tutor.quizzes.stem_check import check_question, default_templates, render

SEEDS = range(6)
LANGS = ("de", "en", "fr")
PRESETS = ("default", "w-en", "swisslos-2500")


def parse(content: bytes) -> ET.Element:
    assert content.startswith(b'<?xml version="1.0" encoding="UTF-8"?>')
    return ET.fromstring(content)


def multichoices(root: ET.Element) -> list[ET.Element]:
    return root.findall("question[@type='multichoice']")


def every_html(root: ET.Element) -> list[str]:
    """Every text of the file a Moodle page shows as HTML."""
    return [el.text or "" for el in root.iter("text")]


def a_set(questions, lang="en", deck="swiss") -> ET.Element:
    return parse(moodle_xml(questions, MoodleSet("Test", "Info", lang, deck)))


# -- the file ------------------------------------------------------------------------------


def test_the_file_is_well_formed_utf8_with_one_category_and_a_question_each():
    questions = [generate(kind, 3, "default") for kind in KINDS]
    content = moodle_xml(questions, MoodleSet("Stöck / Weis", "Info", "de", "swiss"))
    content.decode("utf-8")
    root = parse(content)
    assert root.tag == "quiz"
    assert [q.get("type") for q in root] == ["category"] + ["multichoice"] * len(KINDS)
    # A slash separates categories in Moodle's path; one in the name is doubled.
    assert root.findtext("question/category/text") == "$course$/top/Jass/Stöck // Weis"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_one_right_answer_is_the_engine_s_and_every_answer_has_feedback(kind, lang):
    for seed in SEEDS:
        for preset in PRESETS:
            q = generate(kind, seed, preset)
            (element,) = multichoices(a_set([q], lang, "french"))
            answers = element.findall("answer")
            assert len(answers) == len(q.choices)
            right = [a for a in answers if a.get("fraction") == "100"]
            assert len(right) == 1, (kind, seed, preset)
            assert {a.get("fraction") for a in answers} == {"100", "0"}
            with translation.override(lang):
                # The engine's answer, recomputed from the situation, never the stored key.
                engine = choice_label(kind, dict(recompute(q)), q.prompt, "french")["text"]
                texts = {
                    c["key"]: choice_label(kind, c["value"], q.prompt, "french")["text"]
                    for c in q.choices
                }
            assert right[0].findtext("text") == engine
            assert sorted(a.findtext("text") for a in answers) == sorted(texts.values())
            for answer in answers:
                feedback = answer.findtext("feedback/text")
                assert feedback and engine in feedback  # the correct answer, named
            for key, text in texts.items():
                if key == q.answer:
                    continue
                with translation.override(lang):
                    mistake = feedback_mistake(q.to_dict(), key, "french")
                (wrong,) = [a for a in answers if a.findtext("text") == text]
                assert mistake in unescape(wrong.findtext("feedback/text"))
            general = element.findtext("generalfeedback/text")
            for rule in q.rules_tested:
                assert rule in general
            assert element.findtext("generalfeedback/text").count("<p") >= 2


def test_the_general_feedback_is_the_site_s_explanation_without_links():
    q = generate("who_writes", 5, "default")
    with translation.override("de"):
        site = render(q, "de", "swiss").html["solution"]
        (element,) = multichoices(a_set([q], "de"))
    general = element.findtext("generalfeedback/text")
    assert self_contained(site) in general
    assert "Schritt für Schritt" in general
    assert "<a " in site and "<a " not in general


# -- nothing that points at the site -----------------------------------------------------

SITE_REFERENCE = re.compile(r"href=|src=|<script|<svg|<use\b|/static/|url\(|<a\b", re.I)


@pytest.mark.parametrize("deck", ["swiss", "french"])
def test_no_question_refers_to_the_site(deck):
    questions = [generate(kind, seed, "default") for kind in KINDS for seed in SEEDS]
    root = a_set(questions, "fr", deck)
    texts = every_html(root)
    assert len(texts) > 10 * len(questions)
    for text in texts:
        assert not SITE_REFERENCE.search(text), text[:300]


def test_cards_are_named_in_the_language_and_deck_chosen():
    q = generate("weis_value", 2, "default")
    for lang in LANGS:
        for deck in ("swiss", "french"):
            (element,) = multichoices(a_set([q], lang, deck))
            text = element.findtext("questiontext/text")
            for code in q.inputs["hand"]:
                assert display_name(Card.parse(code), lang, deck) in text
            assert "<svg" not in text


def test_self_contained_names_cards_and_keeps_rule_ids_apart():
    html = (
        '<ul class="hand"><li><span class="card suit-H card--marked" role="img" '
        'aria-label="Rosen-Ober (hervorgehoben)" title="x" data-card="HQ"><svg viewBox="0 0 1 1">'
        '<use href="/static/cards/suits.svg#swiss-H"/></svg></span></li></ul>'
        '<p>x <a class="rule-ref" href="/lessons/rules/#R5.4a">R5.4a</a>'
        '<a class="rule-ref" href="/lessons/rules/#R5.6">R5.6</a></p>'
    )
    assert self_contained(html) == (
        '<p class="hand"><strong class="card">Rosen-Ober (hervorgehoben)</strong></p>'
        '<p>x <span class="rule-ref">(R5.4a)</span> <span class="rule-ref">(R5.6)</span></p>'
    )


# -- the same words as the site, checked by the stem checker ------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_the_stem_checker_finds_nothing_in_the_exported_questions(kind):
    templates = moodle_templates()
    for seed in range(8):
        for preset in PRESETS:
            for deck in ("swiss", "french"):
                q = generate(kind, seed, preset)
                problems = check_question(q, LANGS, deck, templates)
                assert not problems, "\n".join(map(str, problems))


def test_the_stem_checker_bites_on_an_exported_stem():
    """A player said to be dealt a card they were not dealt is found in the export's
    markup too: the checker reads the cards' names there, not pictures."""
    q = generate("stoeck", 3, "default")
    templates = moodle_templates()
    body = templates["body"]

    def planted(view, deck):
        # "king of bells to Player 3" -> "... to Player 4"
        return re.sub(
            r"(king of \w+ to Player )(\d)",
            lambda m: f"{m[1]}{int(m[2]) % 4 + 1}",
            body(view, deck),
        )

    honest = render(q, "en", "swiss", templates).html["body"]
    assert render(q, "en", "swiss", {**templates, "body": planted}).html["body"] != honest
    assert not check_question(q, ["en"], "swiss", templates)
    problems = check_question(q, ["en"], "swiss", {**templates, "body": planted})
    assert any("Player" in str(p) for p in problems), problems


@pytest.mark.parametrize("lang", LANGS)
def test_the_question_text_is_the_site_s_stem(lang):
    site = default_templates()
    for kind in KINDS:
        q = generate(kind, 4, "default")
        exported = export_question(q, 1, lang, "swiss")
        rendered = render(q, lang, "swiss", site)
        for part in ("rule-set", "title", "body"):
            with translation.override(lang):
                assert self_contained(rendered.html[part]) == exported.parts[part]
            assert exported.parts[part].strip() in exported.text
        assert [c.text for c in exported.choices] != []
        assert sorted(c.text for c in exported.choices) == sorted(rendered.text["choices"])


# -- what a re-import and a reader expect ------------------------------------------------


def test_idnumbers_name_kind_seed_rule_set_language_and_deck():
    q = generate("ladder_step", 12345, "w-en")
    assert idnumber(q, "fr", "french") == "jass-ladder_step-12345-w-en-fr-french"
    root = a_set([generate(k, s, "default") for k in KINDS for s in SEEDS])
    ids = [q.findtext("idnumber") for q in multichoices(root)]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{1,100}", i) for i in ids)


def test_numbers_are_listed_in_order_and_not_shuffled_the_others_are():
    root = a_set([generate("weis_value", s, "default") for s in SEEDS])
    for element in multichoices(root):
        assert element.findtext("shuffleanswers") == "false"
        points = [int(re.sub(r"\D", "", a.findtext("text")) or 0) for a in element.iter("answer")]
        assert points == sorted(points)
    (stoeck,) = multichoices(a_set([generate("stoeck", 1, "default")]))
    assert stoeck.findtext("shuffleanswers") == "true"


MOODLE_NUMBERING = {"abc", "ABCD", "123", "iii", "IIII", "none"}


def test_the_structure_is_what_moodle_s_importer_reads():
    """What qformat_xml (moodle/moodle question/format/xml/format.php) reads:
    import_category takes category/text; import_headers fails without name/text and
    reads questiontext (format, text), generalfeedback, defaultgrade, penalty and
    idnumber; import_multichoice reads single and shuffleanswers through trans_single
    ("false" or empty is off), answernumbering, showstandardinstruction, the combined
    feedbacks, and per answer the fraction attribute (per cent), text and feedback/text."""
    root = a_set([generate(k, 2, "default") for k in KINDS], "de")
    category = root[0]
    assert category.get("type") == "category"
    assert category.findtext("category/text").startswith("$course$/top/")
    for element in multichoices(root):
        assert element.findtext("name/text").strip()
        assert element.find("questiontext").get("format") == "html"
        assert element.findtext("questiontext/text").strip()
        assert element.find("generalfeedback").get("format") == "html"
        assert float(element.findtext("defaultgrade")) == 1
        assert 0 <= float(element.findtext("penalty")) <= 1
        assert element.findtext("single") == "true"
        assert element.findtext("shuffleanswers") in ("true", "false")
        assert element.findtext("answernumbering") in MOODLE_NUMBERING
        for name in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
            assert element.find(name) is not None
        fractions = [float(a.get("fraction")) for a in element.findall("answer")]
        assert sum(f == 100 for f in fractions) == 1 and sum(fractions) == 100
        for answer in element.findall("answer"):
            assert answer.get("format") == "html"
            assert answer.findtext("text").strip()
            assert answer.find("feedback").get("format") == "html"


# -- choosing the set ------------------------------------------------------------------------


def spec(**changes) -> MoodleExportSpec:
    values = {
        "kinds": ("stoeck", "weis_value"),
        "rules_preset": "default",
        "question_count": 20,
        "lang": "de",
        "deck": "swiss",
        "seed": 77,
    }
    return MoodleExportSpec(**{**values, **changes})


def test_a_set_alternates_its_kinds_and_is_the_same_for_the_same_seed():
    questions = export_questions(spec())
    assert [q.kind for q in questions] == ["stoeck", "weis_value"] * 10
    assert [q.to_dict() for q in export_questions(spec())] == [q.to_dict() for q in questions]
    assert [q.seed for q in export_questions(spec(seed=78))] != [q.seed for q in questions]


def test_a_lesson_s_questions_are_the_ones_its_aims_ask():
    plan = plan_for("weis-obenabe-undenufe")
    questions = export_questions(spec(lesson="weis-obenabe-undenufe", question_count=6))
    assert len(questions) == 6
    for q in questions:
        assert any(aim.accepts(q) for aim in plan.aims_of(q.kind))


@pytest.mark.parametrize(
    "changes",
    [
        {"question_count": 0},
        {"question_count": 101},
        {"kinds": ("nonsense",)},
        {"kinds": ()},
        {"rules_preset": "nonsense"},
        {"lang": "it"},
        {"deck": "tarot"},
        {"seed": -1},
        {"lesson": "no-such-lesson"},
    ],
)
def test_a_set_that_cannot_be_made_is_refused_with_a_reason(changes):
    with pytest.raises(ExportError):
        export_questions(spec(**changes))


def test_the_file_name_is_ascii_with_the_kinds_and_the_date():
    today = date(2026, 12, 5)
    assert filename(spec(), today) == "jass-stoeck-weis_value-2026-12-05.xml"
    assert filename(spec(kinds=tuple(KINDS)), today) == "jass-all-2026-12-05.xml"
    assert filename(spec(lesson="stoeck"), today) == "jass-stoeck-2026-12-05.xml"


# -- the teacher's page ---------------------------------------------------------------------

URL = reverse("classroom:moodle_export")
FORM = {
    "kinds": ["stoeck", "trick"],
    "rules_preset": "default",
    "question_count": "5",
    "lang": "fr",
    "deck": "french",
    "seed": "4242",
}


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_teacher_gets_the_form_with_a_set_number(teacher):
    with translation.override("en"):
        page = login(teacher).get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Export questions for Moodle" in page
    assert re.search(r'<input type="number" name="seed" value="\d+"', page)
    assert re.search(r'name="question_count" value="20"', page)
    assert 'method="get"' in page


@pytest.mark.django_db
def test_the_teacher_downloads_the_file_and_the_same_set_again(teacher):
    client = login(teacher)
    response = client.get(URL, FORM)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/xml"
    disposition = response["Content-Disposition"]
    assert re.fullmatch(
        r'attachment; filename="jass-stoeck-trick-\d{4}-\d{2}-\d{2}\.xml"', disposition
    )
    disposition.encode("ascii")
    root = parse(response.content)
    assert len(multichoices(root)) == 5
    assert all(i.endswith("-default-fr-french") for i in map(idnumber_of, multichoices(root)))
    assert "4242" in root.findtext("question/category/text")
    assert client.get(URL, FORM).content == response.content
    assert client.get(URL, {**FORM, "seed": "4243"}).content != response.content


def idnumber_of(element: ET.Element) -> str:
    return element.findtext("idnumber")


@pytest.mark.django_db
def test_the_page_is_linked_from_the_teacher_s_pages(teacher, school_class):
    client = login(teacher)
    for page in (
        reverse("classroom:teacher_classes"),
        reverse("classroom:class_detail", args=[school_class.pk]),
    ):
        assert URL in client.get(page).content.decode()


@pytest.mark.django_db
def test_other_roles_are_refused():
    assert login(LearnerFactory()).get(URL, FORM).status_code == 403
    anonymous = Client().get(URL, FORM)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"question_count": "0"}, "question_count"),
        ({"question_count": "1000"}, "question_count"),
        ({"question_count": "many"}, "question_count"),
        ({"kinds": ["nonsense"]}, "kinds"),
        ({"kinds": []}, "kinds"),
        ({"rules_preset": "nonsense"}, "rules_preset"),
        ({"lang": "it"}, "lang"),
        ({"deck": "tarot"}, "deck"),
        ({"seed": "-5"}, "seed"),
        ({"seed": ""}, "seed"),
        ({"lesson": "no-such-lesson"}, "lesson"),
    ],
)
def test_bad_input_gives_the_form_again_with_the_error(teacher, changes, field):
    response = login(teacher).get(URL, {**FORM, **changes}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    page = response.content.decode()
    assert "errorlist" in page
    assert re.search(rf'id="id_{field}(_0)?_errors"|name="{field}"', page)
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_lesson_s_questions_are_offered_and_exported(teacher):
    LessonFactory(slug="stoeck", bodies__title="Stöck")
    LessonFactory(slug="no-questions-here")
    client = login(teacher)
    with translation.override("de"):
        page = client.get(URL).content.decode()
    assert 'value="stoeck"' in page and 'value="no-questions-here"' not in page
    response = client.get(URL, {**FORM, "kinds": [], "lesson": "stoeck", "lang": "de"})
    assert response.status_code == 200
    assert "jass-stoeck-" in response["Content-Disposition"]
    root = parse(response.content)
    assert root.findtext("question/category/text").startswith("$course$/top/Jass/Stöck · DE")
    assert {e.findtext("idnumber").split("-")[1] for e in multichoices(root)} == {"stoeck"}


@pytest.mark.django_db
def test_the_file_is_the_same_bytes_for_the_same_spec_and_day():
    day = date(2026, 12, 5)
    first = moodle_file(spec(question_count=3), day)
    assert moodle_file(spec(question_count=3), day) == first
    assert first.filename == "jass-stoeck-weis_value-2026-12-05.xml"


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_a_question_is_in_the_language_chosen(lang):
    """Also what Moodle shows after any right or wrong answer (the combined feedback),
    and the colon after a player's name in a trick (spaced in French)."""
    with translation.override(lang):
        right, wrong = _("Right!"), _("Not quite.")
    with translation.override("en" if lang != "en" else "de"):
        (element,) = multichoices(a_set([generate("trick", 0, "default")], lang))
    assert right in element.findtext("correctfeedback/text")
    assert wrong in element.findtext("incorrectfeedback/text")
    seat = re.search(
        r'<span class="timeline-seat">([^<]*)</span>', element.findtext("questiontext/text")
    )
    assert seat[1].endswith(" :" if lang == "fr" else ":")
    assert not seat[1].endswith("  :")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_page_and_the_file_use_the_glossary_s_words(teacher, lang):
    """The glossary's banned words (tutor/core/glossary.toml), as test_glossary checks
    the site's pages: in the form page and in everything the file says."""
    from tests.tutor.test_glossary import assert_clean, check_pages, page_text, problems

    client = login(teacher)
    found = check_pages(client, [URL], lang)
    response = client.get(URL, {**FORM, "kinds": list(KINDS), "lang": lang, "question_count": "45"})
    for text in every_html(parse(response.content)):
        found += problems("export", page_text(text, lang), lang)
    assert_clean(found)


@pytest.mark.parametrize("kind", KINDS)
def test_every_answer_s_feedback_gives_the_engine_s_verdict(kind):
    """The verdict sentences of the explanation, or where a kind has none the deciding
    step of the ladder, the verdict on each card or the table of points."""
    for seed in range(12):
        exported = export_question(generate(kind, seed, "default"), 1, "en", "swiss")
        verdict = verdict_of(exported.parts["solution"])
        assert verdict, (kind, seed)
        for choice in exported.choices:
            assert verdict in choice.feedback


def test_the_deciding_step_is_the_verdict_of_a_ladder():
    solution = export_question(generate("ladder_step", 3, "default"), 1, "en", "swiss")
    verdict = verdict_of(solution.parts["solution"])
    assert verdict.startswith('<p class="verdict"><strong>Step 2: number of cards</strong> – ')
    assert "Step 1" not in verdict and "(R5.5)" in verdict


def test_a_card_beside_its_name_is_named_once():
    html = (
        '<td><span class="card suit-S" role="img" aria-label="Ober of shields" title="x">'
        "<svg></svg></span> Ober of shields</td>"
    )
    assert self_contained(html) == "<td>Ober of shields</td>"
