"""Quiz mistake sentences (issue 11, section 3): each one says what the chosen answer
assumes before it states the rule, so that no sentence, read alone, sounds like a rule.

A wrong choice's feedback is one of these sentences. "Hier musst du stechen, wenn du
nicht bedienen kannst" was the belief of a wrong answer, but reads as an instruction;
every sentence must instead open with the answer ("This answer ..."/"Diese Antwort ...")
and then give the rule with its ID from RULES.md.
"""

import re

import pytest
from django.utils import translation

from teaching.generators import MISTAKES as GENERATOR_MISTAKES
from tutor.quizzes.mistakes import MISTAKES, mistake_text

RULE_ID = re.compile(r"\(R\d+\.\d+[a-z]?(?:, R\d+\.\d+[a-z]?)*\)")

GENERATED = sorted({name for names in GENERATOR_MISTAKES.values() for name in names})


def sentence(name: str, lang: str) -> str:
    with translation.override(lang):
        return mistake_text(name)


def test_every_mistake_a_generator_can_produce_has_a_sentence():
    missing = [name for name in GENERATED if name not in MISTAKES]
    assert not missing, f"mistakes without a feedback sentence: {missing}"


def test_every_sentence_belongs_to_a_mistake_the_generators_produce():
    unused = sorted(set(MISTAKES) - set(GENERATED))
    assert not unused, f"sentences no generator can show: {unused}"


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_english_sentence_opens_with_the_answer_and_cites_a_rule(name):
    text = sentence(name, "en")
    assert text.startswith("This answer "), text
    assert RULE_ID.search(text), f"no rule ID like (R5.4) in: {text}"


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_german_sentence_is_translated_opens_with_the_answer_and_cites_a_rule(name):
    english = sentence(name, "en")
    german = sentence(name, "de")
    assert german != english, f"not translated: {english}"
    assert german.startswith("Diese Antwort "), german
    assert RULE_ID.search(german), f"no rule ID like (R5.4) in: {german}"
    assert "ß" not in german, f"Swiss spelling uses ss, not ß: {german}"


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_both_languages_cite_the_same_rules(name):
    def rules(text: str) -> list[str]:
        return sorted(re.findall(r"R\d+\.\d+[a-z]?", text))

    assert rules(sentence(name, "de")) == rules(sentence(name, "en"))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_unknown_mistake_falls_back_to_the_same_framing(lang):
    opening = {"en": "This answer ", "de": "Diese Antwort "}[lang]
    assert sentence("no_such_mistake", lang).startswith(opening)
