"""Issue 21, item 5: in-lesson questions ask what the lesson teaches.

For every lesson of the real course, 50 questions are drawn the way the pages draw
them (``QuestionPlan.draw``, which the learner's lesson quiz, "another question" and
the visitor's token all call), one kind after the other as the page shows them. At
least 80 % must test one of the lesson's own rule IDs (front matter ``rules``), and
each lesson's named cases must be among them: 04 which cards may be played, 10 the
Undenufe reversal, 14 variants whose answer the default rule set would change, 15
announcing (its deadline, claims, silence), 16 a whole round's Jasstafel and the
target. The named cases are checked on the questions themselves (their inputs,
answers and the engine), not on the table of aims that chose them.
"""

from __future__ import annotations

import dataclasses
import random
from functools import cache

import pytest

from rules_core import RuleSet
from teaching.generators import KINDS, Question, get_kind, recompute, recompute_under
from tutor.lessons.content import LessonSource, read_course
from tutor.lessons.questions import LESSON_AIMS, MAX_DRAWS, plan_for

DRAWS = 50
OWN_SHARE = 0.8
LEGALITY = {"R3.1", "R3.2", "R3.3", "R3.4", "R3.5"}


@cache
def course() -> tuple[LessonSource, ...]:
    return tuple(read_course())


@cache
def drawn(slug: str) -> tuple[Question, ...]:
    """50 questions of the lesson, its kinds in turn, from a seeded random stream."""
    plan = plan_for(slug)
    rng = random.Random(f"aims:{slug}")
    return tuple(plan.draw(plan.kinds[i % len(plan.kinds)], rng).question for i in range(DRAWS))


def lesson(slug: str) -> LessonSource:
    return next(source for source in course() if source.slug == slug)


def test_every_lesson_of_the_course_has_aims_and_every_aim_a_lesson():
    slugs = {source.slug for source in course()}
    assert set(LESSON_AIMS) == slugs
    for slug, aims in LESSON_AIMS.items():
        assert 1 <= len(plan_for(slug).kinds) <= 3, slug
        for aim in aims:
            spec = get_kind(aim.kind)
            assert set(aim.cases) <= set(spec.cases), (slug, aim)
            assert aim.preset in RuleSet.presets(), (slug, aim)
            assert aim.differs_under in (None, *RuleSet.presets()), (slug, aim)
            assert aim.weight >= 1


@pytest.mark.parametrize("slug", sorted(LESSON_AIMS))
def test_at_least_80_percent_test_one_of_the_lessons_own_rules(slug):
    own = set(lesson(slug).rules)
    questions = drawn(slug)
    hits = [q for q in questions if set(q.rules_tested) & own]
    assert len(hits) >= OWN_SHARE * DRAWS, (
        f"{slug}: {len(hits)} of {DRAWS} test one of {sorted(own)}; "
        f"the others test {sorted({r for q in questions for r in q.rules_tested} - own)}"
    )
    # every kind the lesson shows is asked, and every answer is the engine's
    assert {q.kind for q in questions} == set(plan_for(slug).kinds)
    for q in questions:
        assert recompute(q) == q.answer_value


@pytest.mark.parametrize("slug", sorted(LESSON_AIMS))
def test_every_aim_finds_its_question_well_within_the_draws(slug):
    """An aim whose questions are rare would fall back to one fixed seed after
    MAX_DRAWS misses; each must accept at least one in ten of its seeds."""
    from teaching.generators import generate

    for aim in LESSON_AIMS[slug]:
        period = len(get_kind(aim.kind).cases)
        rng = random.Random(f"rate:{slug}:{aim.kind}")
        residues = aim.residues()
        accepted = sum(
            aim.accepts(
                generate(aim.kind, rng.randrange(10**6) * period + rng.choice(residues), aim.rules)
            )
            for _ in range(30)
        )
        assert accepted >= 3, (slug, aim, accepted, MAX_DRAWS)


def test_lesson_04_asks_which_cards_may_be_played():
    questions = drawn("tricks")
    legal = [q for q in questions if q.kind == "trick" and q.inputs["sub"] == "legal"]
    assert len(legal) >= DRAWS // 3
    assert all(set(q.rules_tested) & LEGALITY for q in legal)
    assert any(q.inputs["sub"] == "winner" for q in questions)  # and who wins the trick


def _without_reversal(q: Question) -> object:
    natural = dataclasses.replace(q.rule_set(), undenufe_reverses_weis=False)
    return recompute_under(q, natural)


def test_lesson_10_asks_the_undenufe_reversal():
    """Ladder questions decided at Step 3 in Undenufe, and who-writes questions in
    Undenufe, each with an answer the natural order would change (R5.5)."""
    questions = drawn("weis-obenabe-undenufe")
    ladder = [q for q in questions if q.kind == "ladder_step"]
    writes = [q for q in questions if q.kind == "who_writes"]
    assert ladder and writes
    for q in ladder:
        assert q.inputs["contract"] == "undenufe" and q.answer_value["step"] == "high_card"
        assert _without_reversal(q) != q.answer_value
    for q in writes:
        assert q.inputs["contract"] == "undenufe"
        assert _without_reversal(q) != q.answer_value


def test_lesson_14_asks_variants_whose_answer_the_default_changes():
    questions = drawn("variants")
    presets = set()
    for q in questions:
        preset = q.rule_set().preset_name()
        assert preset not in (None, "default"), q.kind
        assert recompute_under(q, RuleSet()) != q.answer_value, (q.kind, q.seed, preset)
        presets.add(preset)
    # low quads and the Undenufe reversal (W-EN), the block order and the factors
    assert presets == {"w-en", "ausmachregel", "swisslos-2500"}
    assert {q.kind for q in questions} == {"weis_value", "ladder_step", "target"}


def test_lesson_15_asks_announcing_its_deadline_claims_and_silence():
    questions = drawn("weis-at-the-table")
    announce = [q for q in questions if q.kind == "announce"]
    assert len(announce) >= DRAWS // 3
    subs = {q.inputs["sub"] for q in announce}
    assert subs == {"deadline", "writes"}
    assert any({"R5.4a", "R5.4b"} & set(q.rules_tested) for q in announce)
    # equal values settled by the later steps of the ladder (the «Vom Ass» exchange)
    steps = {q.answer_value["step"] for q in questions if q.kind == "ladder_step"}
    assert steps and steps <= {"high_card", "trump", "seat"}


def test_lesson_16_asks_a_round_on_the_jasstafel_and_the_target():
    questions = drawn("jasstafel-round")
    kinds = {q.kind for q in questions}
    assert kinds == {"jasstafel", "target"}
    for q in questions:
        if q.kind == "jasstafel":
            assert "R7.1" in q.rules_tested
        else:
            assert q.answer_value["team"] is not None  # a team reaches it in a block
            assert "R7.3" in q.rules_tested


def test_lesson_07_asks_the_announcing_deadline_and_never_the_later_ladder():
    questions = drawn("announcing-weis")
    assert any(q.kind == "announce" and q.inputs["sub"] == "deadline" for q in questions)
    for q in questions:
        assert not {"R5.5", "R5.6"} & set(q.rules_tested), (q.kind, q.seed)


def test_drawing_is_the_same_for_the_same_random_stream():
    plan = plan_for("variants")
    a = [plan.draw(k, random.Random(3)).question for k in plan.kinds]
    b = [plan.draw(k, random.Random(3)).question for k in plan.kinds]
    assert a == b
    assert all(k in KINDS for k in plan.kinds)


def test_a_lesson_without_aims_asks_nothing():
    assert plan_for("no-such-lesson").kinds == ()
