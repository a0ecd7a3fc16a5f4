"""Issue 21, item 5: the announce and jasstafel questions state only facts of their data.

Every case of both kinds is rendered (title, situation, explanation after the right and
after each wrong choice) in German and English, and each sentence that names a player,
a team, a value or a deadline is checked against the question's data and rules_core.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from rules_core import find_melds, score_round, stoeck_holder
from teaching.generators import case_of, generate
from teaching.generators.announce import deadline_of, solve_claims
from tutor.core.explain import announced_value, meld_label
from tutor.quizzes.presenters import present
from tutor.quizzes.services import unsaved_question
from tutor.quizzes.stem_check import default_templates

SEEDS = range(42)  # six periods of announce's seven cases, ten of jasstafel's four
WRONG_NUMBER = re.compile(r"\b(?:Player|Spieler|Team)\s*[05-9]\b")
VERDICT = {
    "en": {
        "in_time": "in time, the announcement counts",
        "next_card_played": "too late, the announcement does not count",
        "trick_gathered": "only after the trick had been gathered in: too late",
    },
    "de": {
        "in_time": "rechtzeitig, die Meldung zählt",
        "next_card_played": "zu spät, die Meldung zählt nicht",
        "trick_gathered": "erst, als der Stich schon eingezogen war: zu spät",
    },
}
WRITES = {"en": "{team} writes Weis", "de": "{team} schreibt Weis"}
TEAM = {"en": "Team {n} (players {a} and {b})", "de": "Team {n} (Spieler {a} und {b})"}
PLAYER = {"en": "Player {n}", "de": "Spieler {n}"}


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def render(question, choice: str, lang: str) -> dict[str, str]:
    row = unsaved_question(question, choice)
    with translation.override(lang):
        view = present(row, reveal=True)
        drawn = default_templates()  # the parts as the site draws them
        parts = {part: text(drawn[part](view, "swiss")) for part in ("title", "body", "solution")}
        parts["choices"] = " | ".join(c["text"] for c in view.choices)
        parts["mistake"] = view.mistake
    return parts


def team_label(team: int, lang: str) -> str:
    return TEAM[lang].format(n=team + 1, a=team + 1, b=team + 3)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_announce_sentences_are_the_questions_facts(lang):
    for seed in SEEDS:
        q = generate("announce", seed)
        for choice in [c["key"] for c in q.choices]:
            page = render(q, choice, lang)
            everything = " ".join(page.values())
            assert not WRONG_NUMBER.search(everything), (seed, everything)
            assert "ß" not in everything
            with translation.override(lang):
                words = {seat: announced_value(v) for seat, v, _a in q.inputs["announcements"]}
            for word in words.values():  # every announcement is shown, as said
                assert word in page["body"], (seed, word)
            if q.inputs["sub"] == "deadline":
                asked = q.inputs["asked"]
                after = next(a for s, _v, a in q.inputs["announcements"] if s == asked)
                deadline = deadline_of(asked, after)
                assert PLAYER[lang].format(n=asked + 1) in page["title"]
                assert VERDICT[lang][deadline] in page["solution"], (seed, page["solution"])
                others = set(VERDICT[lang].values()) - {VERDICT[lang][deadline]}
                assert not any(v in page["solution"] for v in others)
                assert words[asked] in page["solution"]
                continue
            result, _trace = solve_claims(q.inputs, q.rule_set())
            verdict = WRITES[lang].format(team=team_label(result.team, lang))
            assert verdict in page["solution"], (seed, page["solution"])
            assert f" {result.scored}" in page["solution"]
            # the melds named as not written are those of the writing team's players
            # without a claim in time, and only theirs
            said = {s: a for s, _v, a in q.inputs["announcements"]}
            silent = [
                s
                for s in (result.team, result.team + 2)
                if (s not in said or deadline_of(s, said[s]) != "in_time")
                and find_melds(q.inputs["hands"][s])
            ]
            named = re.findall(
                r"(?:The melds of Player|Die Weise von Spieler) (\d) ", page["solution"]
            )
            assert sorted(int(n) - 1 for n in named) == sorted(silent), (seed, named, silent)
            assert ("R5.4b" in page["solution"]) == bool(silent)


def test_r5_4a_a_smaller_claims_better_meld_is_named_in_the_explanation():
    seen = 0
    for seed in SEEDS:
        q = generate("announce", seed)
        if case_of(q) != "smaller_claim":
            continue
        page = render(q, q.answer, "en")
        (x,) = [
            s
            for s, value, _after in q.inputs["announcements"]
            if max(m.points for m in find_melds(q.inputs["hands"][s])) > value
        ]
        with translation.override("en"):
            best = meld_label(sort_best(q, x), "swiss")
        assert f"The better meld {best} was not announced" in page["solution"]
        seen += 1
    assert seen >= 5


def sort_best(q, seat):
    from rules_core import Contract
    from rules_core.melds import sort_melds

    melds = find_melds(q.inputs["hands"][seat], q.rule_set())
    return sort_melds(melds, Contract.parse(q.inputs["contract"]), q.rule_set())[0]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_jasstafel_sentences_are_the_rounds_facts(lang):
    for seed in range(16):
        q = generate("jasstafel", seed, "swisslos-2500" if seed % 2 else "default")
        i = q.inputs
        score = score_round(i["hands"], i["contract"], i["plays"], i["calls"], q.rule_set())
        holder = stoeck_holder(i["hands"], i["contract"])
        for choice in [c["key"] for c in q.choices]:
            page = render(q, choice, lang)
            everything = " ".join(page.values())
            assert not WRONG_NUMBER.search(everything), (seed, everything)
            assert f"Team {i['team'] + 1}" in page["title"]
            weis = f"Team {score.weis.team + 1}"
            assert weis in page["body"] and f" {score.weis.points} " in page["body"]
            assert PLAYER[lang].format(n=holder + 1) in page["body"]
            said = {"en": "said «Stöck» with the second", "de": "sagte «Stöck» mit der zweiten"}
            never = {"en": "never said «Stöck»", "de": "sagte nie «Stöck»"}
            assert (said[lang] in page["body"]) == (score.stoeck.status == "scored")
            assert (never[lang] in page["body"]) == (score.stoeck.reason.value == "not_declared")
            factor = {"en": "factor", "de": "Faktor"}[lang]
            assert (factor in page["body"]) == (score.factor != 1)
            blocks = score.blocks[i["team"]]
            total = f"{blocks['weis']} (Weis) + {blocks['stoeck']} (Stöck) + {blocks['tricks']}"
            assert total in page["solution"] and f"= {score.totals[i['team']]}." in page["solution"]
