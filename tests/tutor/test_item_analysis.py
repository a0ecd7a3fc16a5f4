"""Item analysis a teacher can trust: facility, Moodle's discrimination index, every
wrong choice with its share and sentence, and what to reteach; on the results page
and in its CSV."""

from __future__ import annotations

import csv
import doctest
import io
import math
import random
import statistics
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    LessonFactory,
    MembershipFactory,
    TableAssignmentFactory,
    TeacherFactory,
)
from tutor.classroom import csv_export, results
from tutor.classroom.models import Assignment
from tutor.quizzes.mistakes import mistake_text
from tutor.quizzes.models import Quiz, QuizQuestion

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- the statistics, by hand ---------------------------------------------------------


def rest_of_test(rows, position):
    """(mark, othermark) per learner for the question at ``position``: its mark and the
    learner's total on the other questions (Moodle's othermark)."""
    return [(row[position], sum(row) - row[position]) for row in rows]


# The class of :func:`nine_learners`, 1 = right (a wrong or blank answer is 0):
NINE = [
    [1, 1, 1],  # L1  total 3
    [1, 1, 1],  # L2  3
    [1, 0, 1],  # L3  2
    [1, 0, 1],  # L4  2
    [0, 1, 1],  # L5  2
    [1, 0, 0],  # L6  1
    [0, 1, 0],  # L7  1
    [0, 0, 0],  # L8  0
    [0, 0, 0],  # L9  0
]


def test_moodle_index_and_efficiency_on_nine_learners_worked_by_hand():
    """Moodle's discrimination index and discriminative efficiency, by hand.

    With S_xy = n·Σxy − Σx·Σy (n·(n − 1) times the covariance; the same for S_xx and
    S_yy), index = 100·S_xy / sqrt(S_xx·S_yy) and efficiency = 100·S_xy / S_max, where
    S_max is S_xy with x and y each sorted and paired lowest with lowest. n = 9.

    Q1: x = 1 1 1 1 0 1 0 0 0, rest y = 2 2 1 1 2 0 1 0 0.
        Σx = 5, Σy = 9, Σxy = 2+2+1+1 = 6, Σx² = 5, Σy² = 4+4+1+1+4+1 = 15.
        S_xy = 54 − 45 = 9, S_xx = 45 − 25 = 20, S_yy = 135 − 81 = 54.
        index = 900 / sqrt(1080) = 27.39.
        sorted y = 0 0 0 1 1 1 2 2 2; the five 1s of x meet 1 1 2 2 2: Σ = 8,
        S_max = 72 − 45 = 27, efficiency = 900 / 27 = 33.33.
    Q2: x = 1 1 0 0 1 0 1 0 0, y = 2 2 2 2 1 1 0 0 0.
        Σx = 4, Σy = 10, Σxy = 2+2+1 = 5, Σx² = 4, Σy² = 16+1+1 = 18.
        S_xy = 45 − 40 = 5, S_xx = 36 − 16 = 20, S_yy = 162 − 100 = 62.
        index = 500 / sqrt(1240) = 14.20.
        sorted y = 0 0 0 1 1 2 2 2 2; the four 1s meet 2 2 2 2: Σ = 8,
        S_max = 72 − 40 = 32, efficiency = 500 / 32 = 15.625 (not dubious: 15 or more).
    Q3: x = 1 1 1 1 1 0 0 0 0, y = 2 2 1 1 1 1 1 0 0.
        Σx = 5, Σy = 9, Σxy = 2+2+1+1+1 = 7, Σx² = 5, Σy² = 4+4+1+1+1+1+1 = 13.
        S_xy = 63 − 45 = 18, S_xx = 20, S_yy = 117 − 81 = 36.
        index = 1800 / sqrt(720) = 67.08; the pairs are already in the best order
        (S_max = 18), efficiency = 100.
    """
    q1, q2, q3 = (results.discrimination(rest_of_test(NINE, p)) for p in range(3))
    assert q1.index == pytest.approx(900 / math.sqrt(1080))
    assert round(q1.index, 3) == 27.386
    assert q1.efficiency == pytest.approx(100 / 3)
    assert q2.index == pytest.approx(500 / math.sqrt(1240))
    assert round(q2.index, 3) == 14.199
    assert q2.efficiency == pytest.approx(15.625)
    assert q3.index == pytest.approx(1800 / math.sqrt(720))
    assert round(q3.index, 3) == 67.082
    assert q3.efficiency == pytest.approx(100.0)
    assert not (q1.dubious or q2.dubious or q3.dubious)
    # The order of the learners does not matter.
    assert results.discrimination(rest_of_test(NINE[::-1], 0)) == q1


# Two kinds, alternating: Q1 and Q3 Weis value, Q2 and Q4 Stöck (1 = right).
SIX = [
    [1, 1, 1, 0],  # A  total 3
    [1, 1, 1, 1],  # B  4
    [1, 0, 1, 0],  # C  2
    [0, 1, 0, 1],  # D  2
    [0, 0, 1, 1],  # E  2
    [0, 0, 0, 1],  # F  1
]


def test_a_question_the_weak_get_right_is_dubious_worked_by_hand():
    """Q4 of SIX: x = 0 1 0 1 1 1, rest y = 3 3 2 1 1 0. n = 6.
    Σx = 4, Σy = 10, Σxy = 3+1+1 = 5, Σx² = 4, Σy² = 9+9+4+1+1 = 24.
    S_xy = 30 − 40 = −10, S_xx = 24 − 16 = 8, S_yy = 144 − 100 = 44.
    index = −1000 / sqrt(352) = −53.30.
    sorted y = 0 1 1 2 3 3; the four 1s meet 1 2 3 3: Σ = 9, S_max = 54 − 40 = 14,
    efficiency = −1000 / 14 = −71.43: below 15, dubious.

    Q1: x = 1 1 1 0 0 0, y = 2 3 1 2 2 1: Σx = 3, Σy = 11, Σxy = 6, Σx² = 3, Σy² = 23;
    S_xy = 36 − 33 = 3, S_xx = 9, S_yy = 138 − 121 = 17; index = 300 / sqrt(153) = 24.25;
    sorted y = 1 1 2 2 2 3, top three 2+2+3 = 7, S_max = 42 − 33 = 9, efficiency 33.33.
    """
    q4 = results.discrimination(rest_of_test(SIX, 3))
    assert q4.index == pytest.approx(-1000 / math.sqrt(352))
    assert round(q4.index, 3) == -53.300
    assert q4.efficiency == pytest.approx(-1000 / 14) and q4.dubious
    q1 = results.discrimination(rest_of_test(SIX, 0))
    assert q1.index == pytest.approx(300 / math.sqrt(153))
    assert round(q1.index, 3) == 24.254
    assert q1.efficiency == pytest.approx(100 / 3) and not q1.dubious


def test_dubious_below_15_as_moodle():
    assert results.DUBIOUS_BELOW == 15
    assert results.Discrimination(index=10.0, efficiency=14.99).dubious
    assert not results.Discrimination(index=10.0, efficiency=15.0).dubious
    assert results.Discrimination(index=-5.0, efficiency=-7.0).dubious
    assert not results.Discrimination(index=None, efficiency=None).dubious  # blank: no flag


def test_zero_variance_gives_blank_not_zero():
    d = results.discrimination
    blank = results.Discrimination(index=None, efficiency=None)
    everybody_right = [(1, 2), (1, 0), (1, 1), (1, 2)]
    nobody_right = [(0, 2), (0, 0), (0, 1), (0, 2)]
    same_rest = [(1, 2), (0, 2), (1, 2), (0, 2)]  # every learner 2 on the rest
    assert d(everybody_right) == d(nobody_right) == d(same_rest) == blank
    assert d([(1, 2)]) == d([]) == blank  # fewer than two learners
    assert d([(1, 1), (0, 0)]).index == pytest.approx(100.0)  # two: Moodle computes it


def test_doctests_of_the_statistics():
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    tests = [
        t
        for obj in (
            results.discrimination,
            results.chance_spread,
            results.Discrimination,
            results.percent_text,
            csv_export.two_places,
        )
        for t in finder.find(obj)
    ]
    assert sum(len(t.examples) for t in tests) == 9  # every example above ran
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_percent_text_for_the_page():
    with translation.override("de"):
        assert results.percent_text(-9.94) == "\N{MINUS SIGN}9,9\N{NO-BREAK SPACE}%"
        assert results.percent_text(15.625) == "15,6\N{NO-BREAK SPACE}%"  # half up
    with translation.override("en"):
        assert results.percent_text(0.04) == "0.0\N{NO-BREAK SPACE}%"


def old_thirds_index(rows, position):
    """The index the site showed before (thirds of the learners ranked by a total that
    includes the item; ties broken by order): kept here only to show that the
    simulation below would have caught it."""
    n = len(rows) // 3
    ranked = sorted(rows, key=sum, reverse=True)
    return (sum(r[position] for r in ranked[:n]) - sum(r[position] for r in ranked[-n:])) / n


@pytest.mark.parametrize(("questions", "assignments"), [(4, 250), (20, 50)])
def test_coin_flip_answers_find_no_discrimination(questions, assignments):
    """30 learners answering every question by coin flip, 1,000 questions in all
    (seeded: the same draws every run). No question can tell anybody apart, so:

    - the index spreads around 0 with a standard deviation of 100 / sqrt(29) = 18.6
      (:func:`chance_spread`); mean within ±3: the standard error of a mean of 1,000
      values is 18.6 / sqrt(1000) = 0.6, so ±3 is five of them;
    - the share at 30 or more is P(Z ≥ 30 / 18.6 = 1.61), about 5.4 % (the review
      counted 6 % with Moodle's index); bound 10 %, six binomial standard errors
      (0.7 %) above;
    - the spread is the chance spread within 10 % (its standard error is about 2 %);
    - most questions are dubious (efficiency below 15); about 73 % in trials with other
      seeds, bound 50 %.
    The old index gave 90 % of 4-question items 0.3 or more: the bounds would catch it.
    """
    rng = random.Random(20261204 + questions)
    found, old = [], []
    for _ in range(assignments):
        rows = [[rng.randint(0, 1) for _q in range(questions)] for _l in range(30)]
        for position in range(questions):
            found.append(results.discrimination(rest_of_test(rows, position)))
            old.append(old_thirds_index(rows, position))
    indices = [d.index for d in found if d.index is not None]
    assert len(indices) >= 990  # a question all right or all wrong is 2 in 10^9
    spread = results.chance_spread(30)
    assert spread == pytest.approx(100 / math.sqrt(29))
    assert abs(statistics.mean(indices)) < 3
    assert sum(i >= 30 for i in indices) / len(indices) < 0.10
    assert statistics.pstdev(indices) == pytest.approx(spread, rel=0.10)
    assert sum(d.dubious for d in found) / len(found) > 0.50
    if questions == 4:
        assert sum(o >= 0.3 for o in old) / len(old) > 0.5  # what the test guards against


def test_facility_and_mistake_rules():
    assert results.facility(5, 9) == 56 and results.facility(0, 0) is None
    assert results.mistake_rules("sum_of_melds") == ["R5.4"]
    assert results.mistake_rules("card_points_counted") == ["R5.1", "R5.2"]
    assert results.mistake_rules("no_such_mistake") == []
    with translation.override("de"):  # read from the untranslated sentence
        assert results.mistake_rules("card_points_counted") == ["R5.1", "R5.2"]


# --- a class of nine, built as stored --------------------------------------------------

QUESTION = {
    "prompt": {},
    "inputs": {},
    "choices": [
        {"key": "a", "value": {"points": 20}},
        {"key": "b", "value": {"points": 50}},
        {"key": "c", "value": {"points": 100}},
        {"key": "d", "value": {"points": 150}},
    ],
    "answer": "a",
    "mistakes": {
        "b": "sum_of_melds",
        "c": "card_points_counted",
        "d": "three_of_a_kind_counted",
    },
    "rules_tested": ["R5.1"],
}

# The table of the docstring above; "R" right, "-" unanswered.
FIRST_ATTEMPTS = {
    "L1": "RRR",
    "L2": "RRR",
    "L3": "RcR",
    "L4": "RbR",
    "L5": "bRR",
    "L6": "Rc-",
    "L7": "bRc",
    "L8": "cb-",
    "L9": "b-c",
}


def attempt(
    learner, assignment, picks, *, number=1, submitted=True, seeds=(0, 1, 2), kinds=("weis_value",)
):
    now = timezone.now()
    quiz = Quiz.objects.create(
        learner=learner,
        source=Quiz.Source.ASSIGNMENT,
        assignment=assignment,
        attempt=number,
        submitted_at=now if submitted else None,
    )
    for position, pick in enumerate(picks):
        answered = pick != "-"
        choice = "a" if pick == "R" else pick if answered else ""
        QuizQuestion.objects.create(
            quiz=quiz,
            position=position,
            kind=kinds[position % len(kinds)],
            seed=seeds[position],
            question=QUESTION,
            shown_at=now - timedelta(seconds=30),
            answered_choice=choice,
            correct=(choice == "a") if answered else None,
            answered_at=now if answered else None,
        )
    return quiz


@pytest.fixture
def nine_learners(school_class):
    """Nine learners' first attempts as in the docstring; besides, a tenth learner's
    first attempt is still open (not counted) and L1's second attempt is all wrong
    (not counted: only first attempts are)."""
    assignment = AssignmentFactory(
        school_class=school_class,
        title="Weis zählen",
        kinds=["weis_value"],
        question_count=3,
        attempts_allowed=2,
        same_questions=True,
    )
    learners = {}
    for name, picks in FIRST_ATTEMPTS.items():
        learner = MembershipFactory(
            school_class=school_class, learner=LearnerFactory(username=name)
        ).learner
        learners[name] = learner
        attempt(learner, assignment, picks)
    attempt(learners["L1"], assignment, "bbb", number=2)
    tenth = MembershipFactory(school_class=school_class, learner=LearnerFactory(username="L10"))
    attempt(tenth.learner, assignment, "ccc", submitted=False)
    return assignment


@pytest.fixture
def weis_lesson():
    body = (
        "## Sequences\n\nThree cards in a row [R5.1].\n\n## Four of a kind\n\n"
        "Four cards of a rank [R5.2].\n\n## One meld\n\nYou announce your best [R5.4].\n"
    )
    return LessonFactory(
        slug="weis", rules=["R5.1", "R5.2", "R5.4"], bodies={"en": body, "de": body}
    )


@pytest.fixture
def in_english():
    with translation.override("en"):
        yield


def analysis(assignment):
    with translation.override("en"):
        return results.assignment_results(assignment).items


def test_item_analysis_of_nine_learners(nine_learners, weis_lesson, in_english):
    items = analysis(nine_learners)
    assert (items.learners, items.members, items.not_counted, items.too_few) == (9, 10, 1, False)

    [kind] = items.by_kind
    assert (kind.kind, kind.number, kind.learners, kind.questions) == ("weis_value", None, 9, 27)
    assert (kind.right, kind.unanswered, kind.facility) == (14, 3, 52)
    assert kind.facility_exact == pytest.approx(100 * 14 / 27)
    # Every question is of this kind: no rest of the test to compare it with.
    assert kind.whole_test and kind.discrimination == results.NO_DISCRIMINATION
    assert (kind.index, kind.efficiency, kind.dubious) == (None, None, False)
    assert kind.blank_reason == "whole test"
    # Every mistake picked, with its share of the 27 questions; 5 and 5 tie, by name.
    assert [(w.mistake, w.count, w.share) for w in kind.wrong] == [
        ("card_points_counted", 5, 19),
        ("sum_of_melds", 5, 19),
    ]
    assert kind.wrong[0].text == mistake_text("card_points_counted")
    assert kind.unanswered_share == 11
    # Reteach the most picked mistake, at the lesson paragraph of the first rule its
    # sentence cites (R5.1 of "(R5.1, R5.2)").
    reteach = kind.reteach
    assert (reteach.mistake, reteach.rule, reteach.section) == (
        "card_points_counted",
        "R5.1",
        "Sequences",
    )
    assert reteach.url == reverse("lessons:detail", args=["weis"]) + "#sequences"

    q1, q2, q3 = items.by_question
    assert [q.number for q in items.by_question] == [1, 2, 3]
    assert q1.name == "Q1 · Weis value of a hand"
    assert [(q.right, q.unanswered, q.facility) for q in (q1, q2, q3)] == [
        (5, 0, 56),
        (4, 1, 44),
        (5, 2, 56),
    ]
    # As worked by hand in test_moodle_index_and_efficiency_on_nine_learners_worked_by_hand.
    assert [q.index for q in (q1, q2, q3)] == pytest.approx([27.386, 14.199, 67.082], abs=1e-3)
    assert [q.efficiency for q in (q1, q2, q3)] == pytest.approx([100 / 3, 15.625, 100.0])
    assert not any(q.dubious or q.whole_test or q.blank_reason for q in (q1, q2, q3))
    assert (items.chance_spread, items.chance_spread_twice) == (35, 71)  # 100 / sqrt(8)
    # Every wrong choice the question offered, also the one nobody picked, worded.
    assert [(w.key, w.count, w.share, w.label) for w in q1.wrong] == [
        ("b", 3, 33, "50 points"),
        ("c", 1, 11, "100 points"),
        ("d", 0, 0, "150 points"),
    ]
    assert [w.mistake for w in q1.wrong] == [
        "sum_of_melds",
        "card_points_counted",
        "three_of_a_kind_counted",
    ]
    assert [(w.key, w.count) for w in q2.wrong] == [("b", 2), ("c", 2), ("d", 0)]
    assert q1.reteach.mistake == "sum_of_melds" and q1.reteach.rule == "R5.4"
    assert q1.reteach.url.endswith("#one-meld")
    assert q3.reteach.mistake == "card_points_counted"


def test_too_few_learners_give_no_discrimination(school_class, in_english):
    assignment = AssignmentFactory(
        school_class=school_class, kinds=["weis_value"], question_count=3, same_questions=True
    )
    for picks in list(FIRST_ATTEMPTS.values())[:5]:
        learner = MembershipFactory(school_class=school_class).learner
        attempt(learner, assignment, picks)
    items = analysis(assignment)
    assert items.learners == 5 and items.too_few
    # Moodle would show figures from two learners on; with five, chance alone moves the
    # index by 100 / sqrt(4) = 50, so the page says "too few" instead.
    assert all(item.index is None and item.efficiency is None for item in items.items)
    assert all(item.blank_reason in ("too few", "whole test") for item in items.items)
    assert items.by_question[0].discrimination.index is not None  # computed, not shown
    assert items.by_kind[0].facility is not None


def class_of(school_class, rows, kinds, *, same_questions=True):
    """An assignment whose learners' first attempts are ``rows`` (1 = right; a wrong
    answer picks "b")."""
    assignment = AssignmentFactory(
        school_class=school_class,
        kinds=list(kinds),
        question_count=len(rows[0]),
        same_questions=same_questions,
    )
    for row in rows:
        learner = MembershipFactory(school_class=school_class).learner
        picks = "".join("R" if mark else "b" for mark in row)
        attempt(learner, assignment, picks, seeds=tuple(range(len(row))), kinds=kinds)
    return assignment


def test_per_kind_compares_the_kind_with_the_other_kinds(school_class, in_english):
    """SIX, two kinds: Weis value (Q1, Q3) against Stöck (Q2, Q4), each the other's rest.

    Weis value right per learner w = 2 2 2 0 1 0, Stöck s = 1 2 0 2 1 1. n = 6.
    Σw = 7, Σs = 7, Σws = 2+4+1 = 7, Σw² = 4+4+4+1 = 13, Σs² = 1+4+4+1+1 = 11.
    S_ws = 42 − 49 = −7, S_ww = 78 − 49 = 29, S_ss = 66 − 49 = 17.
    index = −700 / sqrt(493) = −31.53 (the same for both kinds: a correlation).
    Best order: w sorted 0 0 1 2 2 2, s sorted 0 1 1 1 2 2: Σ = 1+2+4+4 = 11,
    S_max = 66 − 49 = 17, efficiency = −700 / 17 = −41.18 for both: dubious.
    """
    items = analysis(class_of(school_class, SIX, ["weis_value", "stoeck"]))
    weis, stoeck = items.by_kind
    assert items.two_kinds
    assert (weis.kind, stoeck.kind) == ("weis_value", "stoeck")
    for kind in (weis, stoeck):
        assert not kind.whole_test and kind.blank_reason == ""
        assert kind.index == pytest.approx(-700 / math.sqrt(493))
        assert round(kind.index, 3) == -31.526
        assert kind.efficiency == pytest.approx(-700 / 17) and kind.dubious
    # Per question, the rest of the test holds both kinds (worked by hand above).
    q1, _q2, _q3, q4 = items.by_question
    assert q1.index == pytest.approx(300 / math.sqrt(153)) and not q1.dubious
    assert q4.index == pytest.approx(-1000 / math.sqrt(352)) and q4.dubious


def test_a_dubious_question_on_the_page(client, teacher, school_class):
    assignment = class_of(school_class, SIX, ["weis_value", "stoeck"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.force_login(teacher)
    html = client.get(
        reverse("classroom:assignment_results", args=[assignment.pk])
    ).content.decode()
    # Q4 (worked by hand above): −53.30 and −71.43, flagged; the kinds −31.53 and −41.18.
    figure = '<span class="figure">\N{MINUS SIGN}{}\N{NO-BREAK SPACE}%</span>'
    assert figure.replace("{}", "53,3") in html
    assert figure.replace("{}", "71,4") + ' <strong class="dubious">fragwürdig</strong>' in html
    assert figure.replace("{}", "41,2") + ' <strong class="dubious">fragwürdig</strong>' in html
    assert "Unter 15 % ist das Item als" in html  # the help names Moodle's threshold
    assert "Bei zwei Fragenarten ist jede der übrige Test der anderen" in html
    # 100 / sqrt(5) = 44.7, twice 89.4.
    assert "Bei den 6 hier gezählten Lernenden streut" in html
    assert "um etwa ±45 um 0" in html and "Werte bis etwa ±89" in html


def test_per_kind_alone_is_the_whole_test_even_without_same_questions(school_class, in_english):
    rows = [row[:2] for row in SIX]
    items = analysis(class_of(school_class, rows, ["stoeck"], same_questions=False))
    [kind] = items.by_kind
    assert items.by_question == []
    assert kind.whole_test and kind.index is None and kind.blank_reason == "whole test"


def test_blank_reasons_when_nothing_varies(school_class, in_english):
    # Q1 everybody right, Q2 nobody right, Q3 varies but the rest (Q1 + Q2) is 1 for all.
    rows = [[1, 0, k % 2] for k in range(6)]
    q1, q2, q3 = analysis(class_of(school_class, rows, ["weis_value"])).by_question
    assert [q.blank_reason for q in (q1, q2, q3)] == ["all right", "none right", "no spread"]
    assert all(q.index is None and q.efficiency is None and not q.dubious for q in (q1, q2, q3))


def test_a_class_answering_by_coin_flip_finds_no_discrimination(school_class, in_english):
    """The whole way from stored answers: 30 learners, 20 questions of two kinds, each
    answered right with probability 1/2 (seeded). With 20 questions the expected count
    at 30 or more is 20 × 5.4 % = 1.1; at most 4 (a seed giving 5 or more has odds of
    about 1 in 200). The mean of 20 indices has a standard error of about
    18.6 / sqrt(20) = 4.2; bound ±12 (nearly three of them)."""
    rng = random.Random(7)
    rows = [[rng.randint(0, 1) for _q in range(20)] for _l in range(30)]
    items = analysis(class_of(school_class, rows, ["weis_value", "stoeck"]))
    assert items.learners == 30 and len(items.by_question) == 20
    indices = [q.index for q in items.by_question]
    assert None not in indices
    assert sum(i >= 30 for i in indices) <= 4
    assert abs(statistics.mean(indices)) < 12
    # The same figures as the statistics computed straight from the marks.
    assert indices == [results.discrimination(rest_of_test(rows, p)).index for p in range(20)]
    assert items.chance_spread == 19  # 100 / sqrt(29) = 18.6


def test_per_question_needs_the_same_questions(nine_learners, school_class):
    Assignment.objects.filter(pk=nine_learners.pk).update(same_questions=False)
    nine_learners.refresh_from_db()
    items = analysis(nine_learners)
    assert items.by_question == [] and len(items.by_kind) == 1
    # A first attempt with another question at a position (the teacher changed the
    # assignment): the positions would mix questions, so none is analysed alone.
    Assignment.objects.filter(pk=nine_learners.pk).update(same_questions=True)
    nine_learners.refresh_from_db()
    stranger = MembershipFactory(school_class=school_class).learner
    attempt(stranger, nine_learners, "RRR", seeds=(0, 1, 99))
    assert analysis(nine_learners).by_question == []


def test_no_lesson_leaves_the_reteach_sentence_without_a_link(nine_learners, in_english):
    reteach = analysis(nine_learners).by_kind[0].reteach
    assert reteach.url == "" and reteach.rule == "R5.1"
    assert reteach.short == "This answer adds up the card points of the meld's cards."


# --- on the page and in the CSV --------------------------------------------------------------


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_results_page_shows_the_item_analysis(english, teacher, nine_learners, weis_lesson):
    english.force_login(teacher)
    url = reverse("classroom:assignment_results", args=[nine_learners.pk])
    html = english.get(url).content.decode()
    assert "Item analysis" in html
    # Q1-Q3: index and efficiency with one decimal; the kind is the whole test.
    for figure in ("27.4", "33.3", "14.2", "15.6", "67.1", "100.0"):
        assert f'<span class="figure">{figure}\N{NO-BREAK SPACE}%</span>' in html
    assert "whole test" in html and "dubious</strong>" not in html.split("Per question kind")[1]
    assert (
        'Discrimination index and efficiency: <span class="blank-reason">whole test</span>'
    ) in html
    translation.activate("en")
    assert "Facility 56 % (5 of 9 right)" in html
    assert (
        'Discrimination index&nbsp;<span class="figure">27.4\N{NO-BREAK SPACE}%</span> · '
        'Discriminative efficiency&nbsp;<span class="figure">33.3\N{NO-BREAK SPACE}%</span>'
    ) in html
    # The help gives the chance spread for the nine learners counted: 100 / sqrt(8).
    assert "by about ±35 (one standard deviation)" in html and "about ±71" in html
    assert "“150 points”" in html  # the distractor nobody picked is listed
    assert mistake_text("three_of_a_kind_counted") in html
    assert reverse("lessons:detail", args=["weis"]) + "#sequences" in html
    assert reverse("classroom:assignment_items_csv", args=[nine_learners.pk]) in html
    # Each figure is explained.
    for term in (
        "Facility</strong>",
        "Discrimination index</strong>",
        "Discriminative efficiency</strong>",
        "Reteach</strong>",
    ):
        assert term in html
    # The bar per kind is a picture with a text equivalent.
    assert 'id="kind-bars"' in html and 'role="img"' in html
    assert "The numbers of the bars, as a table" in html


def test_numbers_are_formatted_for_the_locale(client, teacher, nine_learners):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.force_login(teacher)
    html = client.get(
        reverse("classroom:assignment_results", args=[nine_learners.pk])
    ).content.decode()
    assert "Trennschärfe" in html and "27,4\N{NO-BREAK SPACE}%" in html and "27.4" not in html
    assert "ganzer Test" in html


def test_too_few_on_the_page(english, teacher, school_class):
    # Five learners of SIX: Moodle's figures exist but the page shows "too few".
    assignment = class_of(school_class, SIX[:5], ["weis_value", "stoeck"])
    english.force_login(teacher)
    html = english.get(
        reverse("classroom:assignment_results", args=[assignment.pk])
    ).content.decode()
    # Two kinds and four questions: two figures each in the table, one on the card.
    assert html.count('<span class="blank-reason">too few</span>') == (2 + 4) * 3
    assert "with fewer than 6 learners counted it would mostly show chance" in html
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    html = english.get(
        reverse("classroom:assignment_results", args=[assignment.pk])
    ).content.decode()
    assert "Mit weniger als 6 gezählten Lernenden zeigte er vor allem den Zufall" in html
    assert html.count('<span class="blank-reason">zu wenige</span>') == 18
    assert "dubious</strong>" not in html.split('id="items-kinds"')[1]


def read_csv(response):
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline=""), delimiter=";"))


def test_item_analysis_csv(english, teacher, nine_learners, weis_lesson):
    english.force_login(teacher)
    response = english.get(reverse("classroom:assignment_items_csv", args=[nine_learners.pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('_weis-zahlen_items.csv"')
    rows = read_csv(response)
    assert rows[0] == [
        "Item",
        "Question",
        "Question kind",
        "Learners counted",
        "Questions counted",
        "Right",
        "Facility (%)",
        "Discrimination index (%)",
        "Discriminative efficiency (%)",
        "Dubious (efficiency below 15 %)",
        "Outcome",
        "Choice",
        "Mistake",
        "What the mistake means",
        "Picked",
        "Share (%)",
        "Reteach: rule",
        "Reteach: lesson",
    ]
    body = rows[1:]
    # The kind: two mistakes and "not answered"; each question: three choices and it.
    assert len(body) == 3 + 3 * 4
    kind = body[0]
    assert kind[:10] == [
        "Weis value of a hand",
        "",
        "Weis value of a hand",
        "9",
        "27",
        "14",
        "51.85",  # 14 / 27
        "whole test",
        "whole test",
        "",
    ]
    assert kind[10:16] == [
        "wrong choice",
        "100 points",
        "card_points_counted",
        mistake_text("card_points_counted"),
        "5",
        "19",
    ]
    assert kind[16] == "R5.1"
    assert kind[17] == "http://testserver/lessons/weis/#sequences"
    assert body[2][10:16] == ["not answered", "", "", "", "3", "11"]
    q1 = [row for row in body if row[1] == "1"]
    assert [(row[11], row[14], row[15]) for row in q1] == [
        ("50 points", "3", "33"),
        ("100 points", "1", "11"),
        ("150 points", "0", "0"),
        ("", "0", "0"),
    ]
    assert q1[0][0] == "Q1 · Weis value of a hand"
    assert q1[0][6:10] == ["55.56", "27.39", "33.33", "no"]  # 5 / 9; worked by hand above
    q2 = next(row for row in body if row[1] == "2")
    assert q2[6:10] == ["44.44", "14.20", "15.63", "no"]  # 15.625 rounds half up


def test_item_analysis_csv_in_german_and_too_few(client, teacher, school_class):
    assignment = AssignmentFactory(school_class=school_class, kinds=["weis_value"])
    attempt(
        MembershipFactory(school_class=school_class).learner, assignment, "RbRR", seeds=(0, 1, 2, 3)
    )
    few = class_of(school_class, SIX[:5], ["weis_value", "stoeck"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.force_login(teacher)
    rows = read_csv(client.get(reverse("classroom:assignment_items_csv", args=[assignment.pk])))
    assert rows[0][:10] == [
        "Item",
        "Frage",
        "Fragenart",
        "Gezählte Lernende",
        "Gezählte Fragen",
        "Richtig",
        "Lösungsquote (%)",
        "Trennschärfe-Index (%)",
        "Trenneffizienz (%)",
        "Fragwürdig (Effizienz unter 15 %)",
    ]
    assert rows[1][6:10] == ["75.00", "ganzer Test", "ganzer Test", ""]  # 3 of 4 right
    rows = read_csv(client.get(reverse("classroom:assignment_items_csv", args=[few.pk])))
    assert {tuple(row[7:10]) for row in rows[1:]} == {("zu wenige", "zu wenige", "")}


def test_item_analysis_csv_access(client, teacher, nine_learners, school_class):
    url = reverse("classroom:assignment_items_csv", args=[nine_learners.pk])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(TeacherFactory())
    assert client.get(url).status_code == 404
    client.force_login(nine_learners.attempts.first().learner)
    assert client.get(url).status_code == 403
    client.force_login(teacher)
    table = TableAssignmentFactory(school_class=school_class)
    assert client.get(reverse("classroom:assignment_items_csv", args=[table.pk])).status_code == 404
