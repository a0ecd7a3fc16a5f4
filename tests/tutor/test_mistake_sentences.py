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

from rules_core import Contract, RuleSet
from teaching.generators import MISTAKES as GENERATOR_MISTAKES
from tutor.quizzes.mistakes import IN_CONTEXT, MISTAKES, MistakeContext, mistake_text

RULE_ID = re.compile(r"\(R\d+\.\d+[a-z]?(?:, R\d+\.\d+[a-z]?)*\)")

GENERATED = sorted({name for names in GENERATOR_MISTAKES.values() for name in names})


def sentence(name: str, lang: str) -> str:
    with translation.override(lang):
        return mistake_text(name)


def test_every_mistake_a_generator_can_produce_has_a_sentence():
    missing = [name for name in GENERATED if name not in MISTAKES]
    assert not missing, f"mistakes without a feedback sentence: {missing}"


def test_every_sentence_belongs_to_a_mistake_the_generators_produce():
    unused = sorted((set(MISTAKES) | set(IN_CONTEXT)) - set(GENERATED))
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


# --- sentences for one question: its contract and rule set (issue 21) ----------------------

CONTEXTS = [
    MistakeContext(Contract.parse(code) if code else None, RuleSet.preset(preset), deck)
    for code in ("H", "S", "obenabe", "undenufe", None)
    for preset in RuleSet.presets()
    for deck in ("swiss", "french")
]


def in_context(name: str, context: MistakeContext, lang: str) -> str:
    with translation.override(lang):
        return mistake_text(name, context)


@pytest.mark.parametrize("name", sorted(IN_CONTEXT))
def test_sentences_for_a_question_keep_the_framing_in_both_languages(name):
    for context in CONTEXTS:
        english, german = in_context(name, context, "en"), in_context(name, context, "de")
        assert english.startswith("This answer "), english
        assert german.startswith("Diese Antwort ") and german != english, german
        assert RULE_ID.search(english) and RULE_ID.search(german), english
        assert sorted(re.findall(r"R\d+\.\d+[a-z]?", english)) == sorted(
            re.findall(r"R\d+\.\d+[a-z]?", german)
        )
        assert "ß" not in german


@pytest.mark.parametrize("lang", ["en", "de"])
def test_u1_no_trump_sentences_cite_the_contracts_own_values_rule(lang):
    """U1: in Obenabe the values are R4.2's, in Undenufe R4.3's, never R4.1's."""
    for code, rule in (("obenabe", "R4.2"), ("undenufe", "R4.3")):
        context = MistakeContext(Contract.parse(code), RuleSet(), "swiss")
        for name in ("plain_values_as_trump", "eights_not_counted"):
            text = in_context(name, context, lang)
            assert f"({rule})" in text and "R4.1" not in text, text
            assert ("no trump" in text) or ("keinen Trumpf" in text) or ("Puur" not in text)


def test_l9_rule_set_sentences_name_the_quizs_rule_set():
    context = MistakeContext(Contract.parse("H"), RuleSet.preset("w-en"), "swiss")
    german = in_context("low_quads_counted", context, "de")
    assert "Regelwerk dieses Quiz, «Lesart W-EN" in german and "Regelsatz" not in german
    order = in_context(
        "wrong_block_order", MistakeContext(None, RuleSet.preset("ausmachregel")), "en"
    )
    assert "Stöck, Weis, tricks" in order
