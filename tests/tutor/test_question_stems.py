"""Issue 21 on the pages: the Stöck stem states only what is true, every question names its
rule set, and the feedback says which rule of it the answer depends on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules_core import RuleSet
from teaching.generators import KINDS, generate
from teaching.generators.rule_sets import answer_depends_on
from tests.factories import LearnerFactory, LessonFactory
from tests.tutor.test_numbering import readable_text
from tutor.quizzes import presenters
from tutor.quizzes.presenters import present, stored_differences
from tutor.quizzes.services import answer, create_quiz

pytestmark = pytest.mark.django_db

LABELS = {"en": "Rule set: Default (Jassverband)", "de": "Regelwerk: Standard (Jassverband)"}


def seed_where(kind: str, preset: str, wanted) -> int:
    return next(s for s in range(300) if wanted(generate(kind, s, preset)))


def page(client, url: str, lang: str) -> str:
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    return readable_text(client.get(url).content.decode())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_c3_every_question_page_names_its_rule_set_the_default_too(client, learner, lang):
    quiz = create_quiz(learner=learner, kinds=list(KINDS), seeds=list(range(len(KINDS))))
    client.force_login(learner)
    for position in range(len(KINDS)):
        text = page(client, reverse("quizzes:question", args=[quiz.pk, position]), lang)
        assert LABELS[lang] in text, (KINDS[position], text[:300])


def test_c3_a_question_at_the_end_of_a_lesson_names_its_rule_set(client, learner):
    body = "## Stöck\n\nKing and Ober of trump in one hand [R6.1], said with the second [R6.2].\n"
    LessonFactory(
        slug="stoeck", position=11, rules=["R6.1", "R6.2"], bodies={"de": body, "en": body}
    )
    client.force_login(learner)
    text = page(client, reverse("lessons:detail", args=["stoeck"]), "en")
    assert "Is there Stöck here, and does it count?" in text
    assert LABELS["en"] in text


def answered_page(client, learner, kind: str, seed: int, preset: str, lang: str) -> str:
    quiz = create_quiz(learner=learner, kinds=[kind], seeds=[seed], rules=RuleSet.preset(preset))
    question = quiz.questions.get()
    client.force_login(learner)
    client.post(
        reverse("quizzes:answer", args=[quiz.pk, 0]), {"choice": question.question["answer"]}
    )
    return page(client, reverse("quizzes:question", args=[quiz.pk, 0]), lang)


def test_item2_feedback_names_the_rule_the_answer_depends_on(client, learner):
    """Four 6s, 7s or 8s: 100 by default, nothing with the W-EN reading (R5.2)."""
    seed = seed_where(
        "weis_value",
        "default",
        lambda q: (
            q.answer_value["points"] == 100 and "low_quads_not_counted" in q.mistakes.values()
        ),
    )
    text = answered_page(client, learner, "weis_value", seed, "default", "en")
    assert "The answer depends on the rule set." in text
    assert "«Default (Jassverband)», four 6s, 7s or 8s score 100 (R5.2)" in text
    assert "With «W-EN reading" in text
    german = answered_page(client, learner, "weis_value", seed, "default", "de")
    assert "Die Antwort hängt vom Regelwerk ab." in german
    assert "zählen vier Sechser, Siebner oder Achter 100 (R5.2)" in german


def test_item2_feedback_is_silent_where_no_rule_set_would_change_the_answer(client, learner):
    text = answered_page(client, learner, "basics", 2, "default", "en")
    assert "depends on the rule set" not in text
    assert LABELS["en"] in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_f2_r6_1_a_split_pair_names_two_players_and_no_single_holder(client, learner, lang):
    seed = seed_where(
        "stoeck", "default", lambda q: q.answer_value["reason"] == "not_held_by_one_player"
    )
    quiz = create_quiz(learner=learner, kinds=["stoeck"], seeds=[seed])
    client.force_login(learner)
    text = page(client, reverse("quizzes:question", args=[quiz.pk, 0]), lang)
    lead = {
        "en": "The two cards were dealt like this:",
        "de": "Die beiden Karten wurden so verteilt:",
    }
    sentence = text[text.index(lead[lang]) :].split(".")[0]
    players = set(re.findall(r"(?:Player|Spieler) (\d)", sentence))
    assert len(players) == 2, sentence
    assert not re.search(r"(?:Player|Spieler) \d( \(Vorhand\))? (?:holds|hält)", text)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_f2_r6_1_an_undenufe_stoeck_question_speaks_of_no_trump(client, learner, lang):
    seed = seed_where("stoeck", "default", lambda q: q.inputs["contract"] == "undenufe")
    quiz = create_quiz(learner=learner, kinds=["stoeck"], seeds=[seed])
    client.force_login(learner)
    text = page(client, reverse("quizzes:question", args=[quiz.pk, 0]), lang)
    body = text[text.index({"en": "The two cards", "de": "Die beiden Karten"}[lang]) :]
    stem = body.split({"en": "The round so far", "de": "Die Runde bis jetzt"}[lang])[0]
    assert "trump" not in stem.lower() and "Trumpf" not in stem, stem


def test_item2_the_rule_set_differences_are_solved_once_when_the_question_is_stored():
    """Issue 24: stored with the question, equal to what the engine solves on a reveal."""
    learner = LearnerFactory()
    quiz = create_quiz(
        learner=learner,
        kinds=[kind for kind in KINDS for _ in range(3)],
        seeds=list(range(3 * len(KINDS))),
        rules=RuleSet.preset("w-en"),
    )
    questions = list(quiz.questions.all())
    assert any(q.rule_set_differences for q in questions)  # some answers do depend on it
    for q in questions:
        solved = answer_depends_on(q.kind, q.question["inputs"], RuleSet.preset("w-en"))
        assert q.rule_set_differences == [d.to_dict() for d in solved]
        assert stored_differences(q) == solved


def test_item2_a_reveal_uses_the_stored_differences_and_solves_for_older_questions(
    monkeypatch,
):
    seed = seed_where(
        "weis_value",
        "default",
        lambda q: (
            q.answer_value["points"] == 100 and "low_quads_not_counted" in q.mistakes.values()
        ),
    )
    quiz = create_quiz(learner=LearnerFactory(), kinds=["weis_value"], seeds=[seed])
    question = quiz.questions.get()
    answer(learner=quiz.learner, question=question, choice=question.question["answer"])
    with_stored = present(question, reveal=True)
    assert [n.rule for n in with_stored.rule_set_notes] == ["R5.2"]

    def unsolvable(*args):
        raise AssertionError("solved again although stored")

    monkeypatch.setattr(presenters, "answer_depends_on", unsolvable)
    assert present(question, reveal=True).rule_set_notes == with_stored.rule_set_notes
    monkeypatch.undo()
    question.rule_set_differences = None  # a question stored before the column
    assert present(question, reveal=True).rule_set_notes == with_stored.rule_set_notes
