"""Issue 21: every sentence a learner reads about a question's position is true.

The stem checker (``tutor.quizzes.stem_check``) verifies the facts each kind's stem is
built from against rules_core and scans the rendered text in German, English and French.
It runs here over 500 seeds of every kind under every rule-set preset, in each language
(``python -m tests.quizzes.stem_runner`` prints the problems and the time taken), and
planted false sentences show that it reports them, naming the kind, the seed, the rule
set and the language.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.template import engines
from django.utils import translation

from rules_core import RuleSet
from teaching.generators import KINDS, generate
from tests.quizzes.stem_runner import PRESETS, run
from tutor.quizzes import mistakes, presenters, stem_check
from tutor.quizzes.stem_check import check_question, default_templates

SEEDS = 500


def template(source: str):
    """A part's stand-in (a Django template), drawn as the real ones are: (view, deck)."""
    compiled = engines["django"].from_string("{% load i18n cards rules_ui %}" + source)
    return lambda view, deck: compiled.render({"view": view, "deck": deck})


def first(kind: str, preset: str, wanted, seeds=range(200)):
    """The first question of ``kind`` under ``preset`` for which ``wanted(q)`` holds."""
    for seed in seeds:
        q = generate(kind, seed, preset)
        if wanted(q):
            return q
    raise AssertionError(f"no {kind} question under {preset} fits")


# --- the checker over every kind, rule set and language -----------------------------------


@pytest.fixture(scope="module")
def outcomes():
    return run(SEEDS)


def test_every_kind_has_a_fact_check():
    """Adding a question kind is one entry in FACT_CHECKS; without it this fails."""
    assert set(stem_check.FACT_CHECKS) == set(KINDS)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", KINDS)
def test_issue21_every_fact_a_question_states_is_true(outcomes, kind, preset):
    outcome = outcomes[(kind, preset)]
    assert outcome.checked == SEEDS
    assert not outcome.problems, "\n".join(outcome.problems[:40])


# --- planted false sentences: the checker bites ---------------------------------------------

# The stem before issue 21 (its German catalogue entry is gone with it).
OLD_STOECK_STEM = (
    "{% get_current_language as lang %}{% with player=view.body.ober_seat|seat_label %}<p>"
    "{% if lang == 'de' %}{{ player }} hält König und Ober im Trumpf. Die Runde bis jetzt:"
    "{% else %}{{ player }} holds King and Ober of trump. The round so far:{% endif %}"
    "</p>{% endwith %}"
)


def test_r6_1_the_old_stoeck_stem_is_reported_in_undenufe_and_for_a_split_pair():
    """F2: "Player 3 holds King and Ober of trump" in Obenabe/Undenufe and for a pair
    split between two players (the player named holds only one of the cards)."""
    templates = {**default_templates(), "body": template(OLD_STOECK_STEM)}
    no_trump = first("stoeck", "default", lambda q: q.inputs["contract"] in ("obenabe", "undenufe"))
    split = first(
        "stoeck",
        "default",
        lambda q: q.answer_value["reason"] == "not_held_by_one_player",
    )
    for q, expected in ((no_trump, "trump, Puur or Nell in"), (split, "were not dealt it")):
        found = [str(p) for p in check_question(q, templates=templates)]
        for lang in ("de", "en"):
            mine = [p for p in found if f"lang {lang} [body]" in p]
            assert any(expected in p for p in mine), found
            assert all(p.startswith(f"stoeck seed {q.seed} rule set default lang ") for p in mine)


def test_r6_1_the_new_stoeck_stem_passes_for_the_same_questions():
    for reason in ("not_held_by_one_player", "no_trump_contract", "valid"):
        q = first("stoeck", "default", lambda q, r=reason: q.answer_value["reason"] == r)
        assert check_question(q) == []


def test_u1_a_trump_sentence_in_a_no_trump_trick_is_reported(monkeypatch):
    """U1: the card-points feedback of an Obenabe/Undenufe trick talked of Puur and Nell
    and cited R4.1."""
    old = "This answer counts an Under or a 9 outside trump like the Puur or the Nell. (R4.1)"
    monkeypatch.delitem(mistakes.IN_CONTEXT, "plain_values_as_trump")
    monkeypatch.setitem(mistakes.MISTAKES, "plain_values_as_trump", old)
    q = first(
        "trick",
        "default",
        lambda q: (
            q.inputs["sub"] == "points"
            and q.inputs["contract"] in ("obenabe", "undenufe")
            and "plain_values_as_trump" in q.mistakes.values()
        ),
    )
    key = next(k for k, m in q.mistakes.items() if m == "plain_values_as_trump")
    found = [str(p) for p in check_question(q, langs=["en"])]
    where = f"trick seed {q.seed} rule set default lang en [mistake {key}]"
    assert any(p.startswith(where) and "trump, Puur or Nell" in p for p in found), found
    assert any(p.startswith(where) and "R4.1 cited in" in p for p in found), found


def test_a_rule_of_another_contract_is_reported(monkeypatch):
    q = first("trick", "default", lambda q: q.inputs["contract"] == "obenabe")
    templates = {**default_templates(), "solution": template("<p>Every 8 counts 8 (R4.3).</p>")}
    found = [str(p) for p in check_question(q, langs=["en"], templates=templates)]
    assert any("R4.3 cited in obenabe" in p for p in found), found


def test_a_lesson_link_to_a_rule_of_another_contract_is_reported():
    q = first("trick", "default", lambda q: q.inputs["contract"] == "undenufe")
    wrong = replace(q, rules_tested=["R4.1", "R4.3"])
    found = stem_check.check_facts(wrong, _view(wrong))
    assert found == ["links to R4.1, which does not apply in undenufe"], found


def test_c3_a_question_without_its_rule_set_is_reported():
    q = generate("weis_value", 5, "default")
    templates = {**default_templates(), "rule-set": template("")}
    found = [str(p) for p in check_question(q, templates=templates)]
    assert {p.split(" [")[0] for p in found if "[rule-set]" in p} == {
        "weis_value seed 5 rule set default lang de",
        "weis_value seed 5 rule set default lang en",
        "weis_value seed 5 rule set default lang fr",
    }


def test_a_wrong_rule_set_name_is_reported():
    q = generate("target", 3, "ausmachregel")
    templates = {
        **default_templates(),
        "rule-set": template(
            "{% blocktranslate %}Rule set: Default (Jassverband){% endblocktranslate %}"
        ),
    }
    found = [str(p) for p in check_question(q, langs=["en"], templates=templates)]
    assert any("[rule-set]" in p and "Ausmachregel" in p for p in found), found


def test_a_false_trump_suit_a_wrong_player_and_a_bad_sum_are_reported():
    q = first("who_writes", "default", lambda q: q.inputs["contract"] == "H")
    body = (
        "<p>The trump suit is bells.</p><p>Player 5 announces first.</p>"
        "<p>player 2 writes 20 + 30 = 60.</p><p>Team 2 (players 1 and 3) writes.</p>"
        "<p>It counts 50 points × factor 2 = 90.</p>"
        "<p>Its tricks: (79 + 5) × 2 = 170.</p>"
    )
    templates = {**default_templates(), "body": template(body)}
    found = " ".join(str(p) for p in check_question(q, langs=["en"], templates=templates))
    for expected in (
        "names bells as trump",
        "player 5",
        "20 + 30 is not 60",
        "Team 2 is not players 1 and 3",
        "capitalised",
        "50 × 2 is not 90",
        "(79 + 5) × 2 is not 170",
        "factor 2: H counts with 1",
    ):
        assert expected in found


def test_french_a_false_trump_suit_a_wrong_player_and_a_bad_sum_are_reported():
    q = first("who_writes", "default", lambda q: q.inputs["contract"] == "H")
    body = (
        "<p>La couleur d'atout est grelots.</p><p>Joueur 5 annonce en premier.</p>"
        "<p>Joueur 2 marque 20 + 30 = 60.</p><p>Équipe 2 (joueurs 1 et 3) marque.</p>"
        "<p>Cela fait 50 points × facteur 2 = 90.</p><p>Ses plis : (79 + 5) × 2 = 170.</p>"
        "<p>L'autre camp ne marque rien.</p>"
    )
    templates = {**default_templates(), "body": template(body)}
    found = " ".join(str(p) for p in check_question(q, langs=["fr"], templates=templates))
    for expected in (
        "names grelots as trump",
        "player 5",
        "20 + 30 is not 60",
        "Team 2 is not players 1 and 3",
        "50 × 2 is not 90",
        "(79 + 5) × 2 is not 170",
        "factor 2: H counts with 1",
        "'camp' is not the site's word",
    ):
        assert expected in found, (expected, found)


def test_french_a_false_holding_is_reported():
    q = first("stoeck", "default", lambda q: q.answer_value["reason"] == "valid")
    hands = q.inputs["hands"]
    nobody = next(seat for seat in range(4) if "HA" not in hands[seat])
    body = f"<p>Joueur {nobody + 1} tient l'as de cœur.</p>"
    templates = {**default_templates(), "body": template(body)}
    found = " ".join(
        str(p) for p in check_question(q, langs=["fr"], deck="french", templates=templates)
    )
    assert f"says Player {nobody + 1} holds HA" in found, found


def test_a_jasstafel_question_whose_tricks_block_is_not_the_engines_is_reported():
    """The new kinds' fact checks compare what the stem states with score_round."""
    q = first("jasstafel", "swisslos-2500", lambda q: True)
    view = _view(q)
    body = dict(view.body)
    body["tricks"] = [{**t, "points": t["points"] + 1} for t in body["tricks"]]
    body["stoeck_seat"] = (body["stoeck_seat"] + 1) % 4
    found = stem_check.check_facts(q, replace(view, body=body))
    assert any("nine tricks shown" in p for p in found), found
    assert any("Stöck holder" in p for p in found), found


def test_an_announce_question_whose_timeline_is_not_the_questions_is_reported():
    q = first("announce", "default", lambda q: q.inputs["sub"] == "writes")
    view = _view(q)
    body = dict(view.body)
    assert q.inputs["announcements"]
    # every announcement shown one card later than it was made
    body["timeline"] = [{**row, "said": []} for row in body["timeline"][:1]] + [
        {**row, "said": before["said"]}
        for before, row in zip(body["timeline"], body["timeline"][1:], strict=False)
    ]
    found = stem_check.check_facts(q, replace(view, body=body))
    assert any("announcements shown" in p for p in found), found


def test_a_false_holding_is_reported():
    q = first("stoeck", "default", lambda q: q.answer_value["reason"] == "valid")
    body = presenters._stoeck_body(q.inputs, q.prompt)
    nobody = (body.king_seat + 1) % 4
    wrong = replace(body, king_seat=nobody)  # the king "went to" a player who never had it
    found = stem_check.check_facts(q, replace(_view(q), body=wrong))
    assert any("was dealt" in p or "dealt" in p for p in found), found


def test_a_rule_set_note_left_out_is_reported(monkeypatch):
    q = generate("weis_value", 4, "default")  # four 6s-8s: 100 here, a run of four (50) under W-EN
    monkeypatch.setattr(presenters, "rule_set_notes", lambda *args, **kwargs: ())
    found = [str(p) for p in check_question(q, langs=["en"])]
    assert any("depends on the rule set" in p for p in found), found


def test_a_mistake_whose_premise_is_false_is_reported():
    q = first("weis_value", "default", lambda q: "low_quads_not_counted" in q.mistakes.values())
    w_en = replace(q, rules=RuleSet.preset("w-en").to_dict())  # same mistakes, other rules
    found = stem_check.check_facts(w_en, _view(w_en))
    assert any("low_quads_not_counted" in p for p in found), found


def _view(q):
    from tutor.quizzes.services import unsaved_question

    return presenters.present(unsaved_question(q, q.answer), reveal=True)


# --- the scanner on its own ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "In fact Obenabe has no trump, so there is no Puur and no Nell."),
        ("de", "Tatsächlich hat Undenufe keinen Trumpf, also gibt es weder Puur noch Nell."),
        ("en", "Step 4: trump"),
        ("en", "four Nell (150)"),
        ("de", "Stufe 4 (Trumpf) entscheidet; Spieler 1 gewinnt"),
        ("fr", "En fait, en oben-abe il n'y a pas d'atout, donc ni bour ni nell."),
        ("fr", "quatre nells (150)"),
    ],
)
def test_no_trump_sentences_that_say_so_or_name_a_step_or_meld_pass(lang, sentence):
    assert not _trump_problem(lang, sentence)


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        ("en", "Player 3 holds King and Ober of trump."),
        ("de", "Spieler 3 hält König und Ober im Trumpf."),
        ("en", "This answer counts an Under like the Puur."),
        ("de", "Der Spieler muss bedienen (oder stechen)."),
        ("fr", "Joueur 3 tient le roi et la dame d'atout."),
        ("fr", "Cette réponse compte un valet comme le bour."),
        ("fr", "Le joueur doit fournir (ou couper)."),
    ],
)
def test_trump_sentences_in_a_no_trump_contract_are_reported(lang, sentence):
    assert _trump_problem(lang, sentence)


def _trump_problem(lang: str, sentence: str) -> bool:
    with translation.override(lang):
        text = stem_check._exempt(sentence)
    return bool(stem_check.TRUMP_WORDS.search(text)) and not stem_check.NO_TRUMP.search(sentence)


def test_the_scanners_text_leaves_out_card_pictures_and_keeps_blocks_apart():
    html = (
        '<p>Trick <b>1</b></p><ul class="hand"><li><span class="card" aria-label="7 of bells">'
        "<svg><text>7</text></svg></span></li></ul><p>A &amp; B</p>"
    )
    assert stem_check.readable_lines(html) == ["Trick 1", "A & B"]
    table = '<table class="data points-table"><tr><td>x</td><td>+5</td></tr></table>'
    assert stem_check.table_rows(table, "points-table") == [["x", "+5"]]


# --- questions at a table position (issue 25) ------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_issue25_a_table_position_states_only_true_facts(preset):
    """The position line ("Round 2 at the table, trick 7: Player 3 is to play.") and the
    kind's own stem, checked in both languages; the round is played again for the
    position (``check_position``)."""
    from teaching.generators.positions import asks_for, position_questions
    from teaching.table import FOCUSES

    rules = RuleSet.preset(preset)
    for focus in FOCUSES:
        for q in position_questions(focus, 300, rules, asks_for(focus), 6):
            assert check_question(q) == [], (focus, q.prompt["table"])
            view = _view(q)
            assert view.position is not None and view.position.ask == q.prompt["table"]["ask"]


def test_issue25_a_false_table_position_is_reported():
    from teaching.generators.positions import position_questions

    play = position_questions("kreuzweis", 7, RuleSet(), ["play"], 1)[0]
    table = play.prompt["table"]
    moved = replace(play, prompt={**play.prompt, "table": {**table, "trick": table["trick"] - 1}})
    found = [str(p) for p in check_question(moved, langs=["en"])]
    assert any("[position]" in p for p in found), found
    english = stem_check.render(play, "en", "swiss", None).text["body"][0]
    player = f"Player {table['seat'] + 1}" + (" (Vorhand)" if table["seat"] == 0 else "")
    assert english == f"Round 1 at the table, trick {table['trick'] + 1}: {player} is to play."
