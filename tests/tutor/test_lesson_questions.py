"""Questions at the end of a lesson: chosen for its rules, answered in place, counted for
learners, stored for nobody else; feedback links to the section that teaches a rule."""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core import signing
from django.core.cache import caches
from django.urls import reverse
from django.utils import timezone, translation

from teaching import mastery
from teaching.generators import KINDS, generate
from tests.factories import LearnerFactory, LessonFactory, TeacherFactory
from tutor.lessons.models import Lesson
from tutor.lessons.questions import plan_for
from tutor.lessons.render import heading_anchor, sections, with_heading_ids
from tutor.lessons.selectors import lessons_for, rule_links
from tutor.quizzes import showing
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.services import create_quiz

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}

# A small course of our own, so these tests do not hang on the wording of the real one.
STOECK_BODY = {
    "en": """Stöck are King and Ober of trump.

## What Stöck is

One player holds both cards [R6.1].

## When to say it

With the second card [R6.2]. Not before.

## The deadline

Before the next card is played [R6.3]. Again [R6.3].

## Only on your own

No reminders [R6.4]. Still possible mid-round [R6.4a].

## All or nothing

Late Stöck are lost [R6.5].
""",
    "de": """Stöck sind König und Ober im Trumpf.

## Was Stöck sind

Eine Spielerin hält beide Karten [R6.1].

## Wann du sie ansagst

Mit der zweiten Karte [R6.2].

## Die Frist

Bevor die nächste Karte fällt [R6.3].

## Nur aus eigenem Antrieb

Keine Erinnerung [R6.4]. Auch mitten in der Runde [R6.4a].

## Alles oder nichts

Zu spät ist verloren [R6.5].
""",
}
CARDS_BODY = "## Cards\n\nThirty-six cards [R1.1], ranks [R1.2], Puur and Nell [R1.3].\n"
DECK_BODY = "## The deck\n\nThirty-six cards [R1.1] in four suits, ranks [R1.2].\n"
TARGET_BODY = (
    "## Blocks\n\nThree blocks [R7.1].\n\n## The target\n\nPlay to 1000 [R7.2]; "
    "blocks in order [R7.3]; trick by trick [R7.4]; nobody yet [R7.5].\n"
)


def make_lesson(slug, position, rules, bodies):
    return LessonFactory(
        slug=slug, position=position, rules=rules, sources=["ST-DE"], bodies=bodies
    )


@pytest.fixture
def mini_course(db):
    make_lesson("cards", 1, ["R1.1", "R1.2", "R1.3"], {"de": CARDS_BODY, "en": CARDS_BODY})
    make_lesson("deck", 2, ["R1.1", "R1.2"], {"de": DECK_BODY, "en": DECK_BODY})
    stoeck = make_lesson(
        "stoeck", 11, ["R6.1", "R6.2", "R6.3", "R6.4", "R6.4a", "R6.5"], STOECK_BODY
    )
    make_lesson(
        "target",
        13,
        ["R7.1", "R7.2", "R7.3", "R7.4", "R7.5"],
        {"de": TARGET_BODY, "en": TARGET_BODY},
    )
    return stoeck


def lesson_url(slug="stoeck"):
    return reverse("lessons:detail", args=[slug])


def strip_csrf(html: str) -> str:
    """Without what changes per request: the CSRF token and the note of when a form was
    drawn (tutor.quizzes.showing)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'name="shown" value="[^"]*"', "", html)
    return re.sub(r'"x-csrftoken": "[^"]+"', "", html)


def lesson_quiz(learner, slug="stoeck"):
    return Quiz.objects.get(learner=learner, lesson__slug=slug, source=Quiz.Source.LESSON)


def shown_question(learner, slug="stoeck"):
    """The learner's newest question in the lesson (the one on the page)."""
    return lesson_quiz(learner, slug).questions.order_by("-position").first()


def answer_url(question, name="answer_question"):
    return reverse(
        f"lessons:{name}", args=[question.quiz.lesson.slug, question.quiz_id, question.position]
    )


def right_and_wrong(data):
    wrong = next(c["key"] for c in data["choices"] if c["key"] != data["answer"])
    return data["answer"], wrong


def visitor_form(html):
    """The token and kind of the first visitor question on a page."""
    token = re.search(r'name="token" value="([^"]+)"', html)[1]
    kind = re.search(r'name="kind" value="([^"]+)"', html)[1]
    return token, kind


def visitor_answer(token, kind, slug="stoeck"):
    """The right answer of a visitor's question, worked out the way the server does."""
    from tutor.lessons.questions import read_visitor_token, visitor_question

    plan = plan_for(slug)
    _kind, nonce = read_visitor_token(token, slug, plan)
    return right_and_wrong(visitor_question(slug, kind, nonce, plan).to_dict())


# --- Which questions a lesson gets (tests/tutor/test_lesson_aims.py: the real course) --


def test_questions_are_aimed_at_the_lessons_rules():
    plan = plan_for("stoeck")
    assert plan.kinds == ("stoeck",)
    rng = random.Random(5)
    for _ in range(10):
        question = plan.draw("stoeck", rng).question
        assert set(question.rules_tested) & {"R6.1", "R6.2", "R6.3", "R6.4", "R6.4a", "R6.5"}


def test_questions_avoid_rules_taught_only_later():
    """Lesson 07 (announcing) comes before the ladder (R5.5) and who writes (R5.6)."""
    plan = plan_for("announcing-weis")
    assert plan.kinds == ("weis_value", "announce")
    rng = random.Random(7)
    for kind in plan.kinds * 5:
        tested = plan.draw(kind, rng).question.rules_tested
        assert "R5.4" in tested and not {"R5.5", "R5.6"} & set(tested)


def test_at_most_two_kinds_and_the_ladder_first_for_the_ladder_lesson():
    plan = plan_for("comparison-ladder")
    assert plan.kinds[0] == "ladder_step" and len(plan.kinds) <= 2


def test_factor_lesson_uses_a_rule_set_that_has_factors():
    plan = plan_for("factors")
    assert plan.rules.preset_name() == "swisslos-2500" and plan.kinds
    rng = random.Random(3)
    for kind in plan.kinds:
        drawn = plan.draw(kind, rng)
        assert drawn.rules.preset_name() == "swisslos-2500"
        assert "R4.5" in drawn.question.rules_tested


def test_r1_3_r2_cards_and_table_lessons_ask_about_puur_nell_and_the_players():
    """Lesson 01 asks which card is the Puur or the Nell, lesson 02 about the players."""
    rng = random.Random(11)
    for slug, tested in (
        ("cards", {"R1.3"}),
        ("table-and-contracts", {"R2.1", "R2.2", "R2.3"}),
    ):
        plan = plan_for(slug)
        assert plan.kinds == ("basics",)
        for _ in range(10):
            question = plan.draw("basics", rng).question
            assert set(question.rules_tested) <= tested


def test_a_lesson_without_aims_gets_no_question():
    assert plan_for("deck").kinds == ()


def test_lesson_without_a_kind_shows_no_question_but_links_to_practice(client, mini_course):
    html = client.get(lesson_url("deck")).content.decode()
    assert 'class="question-card' not in html
    assert f'href="{reverse("quizzes:practice")}"' in html


# --- Learners: stored, exactly once, counted -----------------------------------------


def test_learner_gets_a_lesson_quiz_on_first_visit_and_only_one(client, learner, mini_course):
    client.force_login(learner)
    html = client.get(lesson_url()).content.decode()
    quiz = lesson_quiz(learner)
    assert [q.kind for q in quiz.questions.all()] == ["stoeck"]
    assert html.count('class="question-card lesson-question"') == 1
    assert 'name="token"' not in html  # a learner's question is stored, not named by a token
    client.get(lesson_url())
    assert Quiz.objects.filter(learner=learner).count() == 1
    assert quiz.questions.count() == 1


def test_answer_is_not_in_the_lesson_page_before_answering(client, learner, mini_course):
    """The page must not depend on the stored answer: swap it and compare the HTML."""
    client.force_login(learner)
    before = strip_csrf(client.get(lesson_url()).content.decode())
    question = shown_question(learner)
    data = question.question
    _right, wrong = right_and_wrong(data)
    data["mistakes"] = {**{k: "x" for k in data["mistakes"]}, data["answer"]: "x"}
    data["mistakes"].pop(wrong)
    data["answer"] = wrong
    data["explanation"] = []
    QuizQuestion.objects.filter(pk=question.pk).update(question=data)
    caches["fragments"].clear()
    after = strip_csrf(client.get(lesson_url()).content.decode())
    assert before == after
    assert "choice--answer" not in before and "feedback--" not in before


def test_htmx_answer_swaps_in_the_feedback_and_counts_toward_mastery(client, learner, mini_course):
    client.force_login(learner)
    client.get(lesson_url())
    question = shown_question(learner)
    right, _wrong = right_and_wrong(question.question)
    response = client.post(answer_url(question), {"choice": right}, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<article id="lesson-q-stoeck"')
    assert 'class="feedback feedback--right"' in html and "choice--answer" in html
    question.refresh_from_db()
    assert question.correct is True and question.answered_choice == right
    state = SkillState.objects.get(learner=learner, skill="stoeck")
    assert state.attempts == 1 and state.correct == 1
    assert state.mastery == pytest.approx(mastery.update(mastery.P_INIT, True))


def test_wrong_answer_without_js_redirects_to_the_lesson_with_feedback(
    client, learner, mini_course
):
    client.force_login(learner)
    client.get(lesson_url())
    question = shown_question(learner)
    _right, wrong = right_and_wrong(question.question)
    response = client.post(answer_url(question), {"choice": wrong})
    assert response.status_code == 302
    assert response["Location"] == lesson_url() + "#lesson-q-stoeck"
    page = client.get(lesson_url()).content.decode()
    assert "feedback--wrong" in page and "choice--answer" in page and "choice--chosen" in page
    state = SkillState.objects.get(learner=learner, skill="stoeck")
    assert (state.attempts, state.correct) == (1, 0)
    assert state.mastery == pytest.approx(mastery.update(mastery.P_INIT, False))


def test_the_lesson_page_writes_no_showing_and_the_answer_stores_its_forms_note(
    client, learner, mini_course
):
    """As a practice question (tests/tutor/test_showing.py): the page notes in each form
    when it was drawn, and the answer stores that moment, which times it."""
    client.force_login(learner)
    before = timezone.now()
    html = client.get(lesson_url()).content.decode()
    question = shown_question(learner)
    assert question.shown_at is None
    note = re.search(r'name="shown" value="([^"]+)"', html)[1]
    right, _wrong = right_and_wrong(question.question)
    client.post(answer_url(question), {"choice": right, "shown": note}, headers=HX)
    question.refresh_from_db()
    assert before - timedelta(milliseconds=1) <= question.shown_at <= question.answered_at
    assert question.shown_at == showing.shown_at(
        note, question.quiz_id, question.position, timezone.now()
    )


def test_second_answer_is_409_and_changes_nothing(client, learner, mini_course):
    client.force_login(learner)
    client.get(lesson_url())
    question = shown_question(learner)
    right, wrong = right_and_wrong(question.question)
    client.post(answer_url(question), {"choice": wrong})
    state = SkillState.objects.get(learner=learner, skill="stoeck")
    response = client.post(answer_url(question), {"choice": right}, headers=HX)
    assert response.status_code == 409
    assert "deine erste Antwort zählt" in response.content.decode()
    question.refresh_from_db()
    assert question.answered_choice == wrong and question.correct is False
    after = SkillState.objects.get(pk=state.pk)
    assert (after.attempts, after.mastery) == (state.attempts, state.mastery)
    plain = client.post(answer_url(question), {"choice": right})
    assert plain.status_code == 302  # without JS: back to the lesson, with the message


@pytest.mark.parametrize("choice", ["z", "", "a' OR 1=1", "x" * 50])
def test_unknown_choice_is_400_with_a_message(client, learner, mini_course, choice):
    client.force_login(learner)
    client.get(lesson_url())
    question = shown_question(learner)
    for headers in (HX, {}):
        response = client.post(answer_url(question), {"choice": choice}, headers=headers)
        assert response.status_code == 400
        html = response.content.decode()
        assert "Antwort" in html and 'role="alert"' in html
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()
    assert not SkillState.objects.exists()


def test_one_learner_cannot_answer_into_anothers_lesson_quiz(client, learner, mini_course):
    client.force_login(learner)
    client.get(lesson_url())
    question = shown_question(learner)
    right, _wrong = right_and_wrong(question.question)
    client.force_login(LearnerFactory())
    assert client.post(answer_url(question), {"choice": right}).status_code == 404
    assert client.post(answer_url(question), {"choice": right}, headers=HX).status_code == 404
    assert client.post(answer_url(question, "another_question")).status_code == 404
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()
    assert not SkillState.objects.exists()
    assert lesson_quiz(learner).questions.count() == 1


def test_practice_quiz_and_other_lessons_are_not_reachable_as_lesson_questions(
    client, learner, mini_course
):
    client.force_login(learner)
    practice = create_quiz(learner=learner, kinds=["stoeck"], seeds=[3])
    url = reverse("lessons:answer_question", args=["stoeck", practice.pk, 0])
    assert client.post(url, {"choice": "a"}).status_code == 404
    client.get(lesson_url())
    question = shown_question(learner)
    url = reverse("lessons:answer_question", args=["target", question.quiz_id, 0])
    assert client.post(url, {"choice": "a"}).status_code == 404
    # and the lesson quiz is not reachable through the practice pages
    assert client.get(reverse("quizzes:quiz", args=[question.quiz_id])).status_code == 404
    assert client.get(reverse("quizzes:question", args=[question.quiz_id, 0])).status_code == 404
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()


def test_another_question_after_answering_appends_one_and_is_idempotent(
    client, learner, mini_course
):
    client.force_login(learner)
    client.get(lesson_url())
    first = shown_question(learner)
    refused = client.post(answer_url(first, "another_question"), headers=HX)
    assert refused.status_code == 409  # answer first
    client.post(answer_url(first), {"choice": first.question["answer"]})
    response = client.post(answer_url(first, "another_question"), headers=HX)
    assert response.status_code == 200 and 'name="choice"' in response.content.decode()
    quiz = lesson_quiz(learner)
    assert quiz.questions.count() == 2 and quiz.completed_at is None
    again = client.post(answer_url(first, "another_question"), headers=HX)  # a double click
    assert again.status_code == 200 and quiz.questions.count() == 2
    plain = client.post(answer_url(first, "another_question"))
    assert plain.status_code == 302 and plain["Location"].endswith("#lesson-q-stoeck")
    second = shown_question(learner)
    assert second.position == 1 and not second.answered
    assert f'action="{answer_url(second)}"' in client.get(lesson_url()).content.decode()


def test_teacher_sees_questions_but_answers_do_not_count(client, mini_course):
    client.force_login(TeacherFactory())
    html = client.get(lesson_url()).content.decode()
    assert 'class="question-card lesson-question"' in html
    token, kind = visitor_form(html)
    right, _wrong = visitor_answer(token, kind)
    url = reverse("lessons:try_answer", args=["stoeck"])
    response = client.post(url, {"token": token, "kind": kind, "choice": right}, headers=HX)
    assert response.status_code == 200 and "feedback--right" in response.content.decode()
    assert not Quiz.objects.exists() and not SkillState.objects.exists()


def test_learner_pages_need_a_learner(client, learner, mini_course):
    client.force_login(learner)
    client.get(lesson_url())
    question = shown_question(learner)
    client.logout()
    assert client.post(answer_url(question), {"choice": "a"}).status_code == 302  # to login
    client.force_login(TeacherFactory())
    assert client.post(answer_url(question), {"choice": "a"}).status_code == 403
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()


# --- Visitors: answered and explained, stored nowhere -----------------------------------


def test_visitor_answers_with_htmx_and_nothing_is_stored(client, mini_course):
    html = client.get(lesson_url()).content.decode()
    token, kind = visitor_form(html)
    right, wrong = visitor_answer(token, kind)
    url = reverse("lessons:try_answer", args=["stoeck"])
    response = client.post(url, {"token": token, "kind": kind, "choice": wrong}, headers=HX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert "feedback--wrong" in body and "choice--answer" in body
    again = client.post(url, {"token": token, "kind": kind, "choice": right}, headers=HX)
    assert "feedback--right" in again.content.decode()  # the same question, judged again
    assert not Quiz.objects.exists() and not QuizQuestion.objects.exists()
    assert not SkillState.objects.exists()


def test_visitor_token_holds_neither_answer_nor_seed(client, mini_course):
    html = client.get(lesson_url()).content.decode()
    token, _kind = visitor_form(html)
    payload = signing.loads(token, salt="tutor.lessons.questions.question")
    assert set(payload) == {"l", "k", "n"}
    assert visitor_form(client.get(lesson_url()).content.decode())[0] != token


def test_visitor_without_js_is_redirected_to_the_feedback(client, mini_course):
    html = client.get(lesson_url()).content.decode()
    token, kind = visitor_form(html)
    right, _wrong = visitor_answer(token, kind)
    url = reverse("lessons:try_answer", args=["stoeck"])
    response = client.post(url, {"token": token, "kind": kind, "choice": right})
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert location.path == lesson_url() and location.fragment == "lesson-q-stoeck"
    assert "answered" in parse_qs(location.query)
    page = client.get(response["Location"]).content.decode()
    assert "feedback--right" in page
    assert not Quiz.objects.exists() and not SkillState.objects.exists()


@pytest.mark.parametrize("headers", [HX, {}])
def test_tampered_visitor_token_is_400_with_a_message(client, mini_course, headers):
    html = client.get(lesson_url()).content.decode()
    token, kind = visitor_form(html)
    url = reverse("lessons:try_answer", args=["stoeck"])
    forged = signing.dumps({"l": "stoeck", "k": "target", "n": "x"}, salt="other")
    for bad in (token[:-2] + "xy", "", forged, json.dumps({"k": kind})):
        response = client.post(url, {"token": bad, "kind": kind, "choice": "a"}, headers=headers)
        assert response.status_code == 400
        assert "Lektion" in response.content.decode()
    other_lesson = reverse("lessons:try_answer", args=["target"])
    response = client.post(other_lesson, {"token": token, "kind": kind, "choice": "a"})
    assert response.status_code == 400


def test_visitor_unknown_choice_and_bad_redirect_are_400(client, mini_course):
    html = client.get(lesson_url()).content.decode()
    token, kind = visitor_form(html)
    url = reverse("lessons:try_answer", args=["stoeck"])
    response = client.post(url, {"token": token, "kind": kind, "choice": "q"}, headers=HX)
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    response = client.get(lesson_url() + "?answered=forged")
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()


def test_learner_cannot_use_the_visitor_path(client, learner, mini_course):
    html = client.get(lesson_url()).content.decode()
    token, kind = visitor_form(html)
    client.force_login(learner)
    url = reverse("lessons:try_answer", args=["stoeck"])
    response = client.post(url, {"token": token, "kind": kind, "choice": "a"}, headers=HX)
    assert response.status_code == 403
    assert not SkillState.objects.exists()


def test_visitor_another_question_is_a_fresh_card(client, mini_course):
    html = client.get(lesson_url()).content.decode()
    token, kind = visitor_form(html)
    url = reverse("lessons:try_another", args=["stoeck"])
    response = client.post(url, {"kind": kind}, headers=HX)
    assert response.status_code == 200
    fresh, _kind = visitor_form(response.content.decode())
    assert fresh != token
    assert client.post(url, {"kind": "nonsense"}, headers=HX).status_code == 400
    assert client.post(url, {"kind": kind})["Location"].endswith("#lesson-q-stoeck")


# --- Feedback links to the section that teaches the rule ------------------------------


def test_heading_ids_are_stable_words():
    assert heading_anchor("Was **Stöck** sind") == "was-stoeck-sind"
    assert heading_anchor("Step 1: points") == "step-1-points"
    body = "## Merke\n\ntext\n\n```jass cards\ncards: H7\n```\n\n## Merke\n"
    assert [s.anchor for s in sections(body)] == [None, "merke", "merke-2"]
    assert "## Merke {#merke-2}" in with_heading_ids(body)


def test_rule_links_point_at_the_first_section_citing_the_rule(mini_course):
    links = rule_links("en")
    assert links["R6.3"].url == lesson_url() + "#the-deadline"
    assert links["R6.4a"].url == lesson_url() + "#only-on-your-own"
    assert rule_links("de")["R6.3"].url == lesson_url() + "#die-frist"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_feedback_link_has_its_anchor_in_the_rendered_lesson(client, mini_course, lang):
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    pages: dict[str, str] = {}
    for seed in range(9):  # every Stöck scenario
        with translation.override(lang):  # as in the request that renders the feedback
            links = lessons_for(generate("stoeck", seed).rules_tested)
        for rule, url in links:
            path, _sep, anchor = url.partition("#")
            assert anchor, rule
            if path not in pages:
                pages[path] = client.get(path).content.decode()
            assert f'id="{anchor}"' in pages[path], (rule, url)


def test_lesson_feedback_links_to_the_lesson_section(client, learner, mini_course):
    client.force_login(learner)
    client.get(lesson_url(), headers={"Accept-Language": "en"})
    question = shown_question(learner)
    response = client.post(
        answer_url(question), {"choice": question.question["answer"]}, headers=HX
    )
    links = re.findall(r'href="(/lessons/stoeck/#[^"]+)"', response.content.decode())
    assert links and all("#" in link for link in links)


# --- Practice of the lesson's skill ---------------------------------------------------


def test_lesson_links_to_practice_with_its_skill_ticked(client, learner, mini_course):
    client.force_login(learner)
    html = client.get(lesson_url()).content.decode()
    practice = reverse("quizzes:practice") + "?skill=stoeck"
    assert f'href="{practice}"' in html
    page = client.get(practice).content.decode()
    assert re.search(r'<input[^>]*value="stoeck"[^>]*checked', page)
    assert not re.search(r'<input[^>]*value="target"[^>]*checked', page)
    assert client.get(reverse("quizzes:practice") + "?skill=bogus").status_code == 200


# --- The real course ------------------------------------------------------------------


@pytest.fixture
def real_course(db):
    from tutor.lessons.services import load_course

    load_course()


def test_real_course_questions_test_their_lessons_rules(client, real_course):
    """A learner's first visit stores one question per planned kind, each testing one of
    the lesson's own rules (50 draws per lesson: tests/tutor/test_lesson_aims.py)."""
    learner = LearnerFactory()
    client.force_login(learner)
    for lesson in Lesson.objects.all():
        client.get(lesson_url(lesson.slug))
        stored = lesson_quiz(learner, lesson.slug).questions.all()
        assert [q.kind for q in stored] == list(plan_for(lesson.slug).kinds), lesson.slug
        for question in stored:
            assert set(question.question["rules_tested"]) & set(lesson.rules), lesson.slug


@pytest.mark.parametrize("lang", ["de", "en"])
def test_real_course_feedback_anchors_exist(client, real_course, lang):
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    pages: dict[str, str] = {}
    for kind in KINDS:
        for seed in range(12):
            with translation.override(lang):
                links = lessons_for(generate(kind, seed).rules_tested)
            for rule, url in links:
                path, _sep, anchor = url.partition("#")
                if path not in pages:
                    pages[path] = client.get(path).content.decode()
                if anchor:
                    assert f'id="{anchor}"' in pages[path], (rule, url)
