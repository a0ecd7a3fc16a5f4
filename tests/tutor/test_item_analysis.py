"""Item analysis a teacher can trust: facility, Moodle's discrimination index, every
wrong choice with its share and sentence, and what to reteach; on the results page
and in its CSV."""

from __future__ import annotations

import csv
import doctest
import io
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
from tutor.classroom import results
from tutor.classroom.models import Assignment
from tutor.quizzes.mistakes import mistake_text
from tutor.quizzes.models import Quiz, QuizQuestion

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- the statistics, by hand ---------------------------------------------------------


def test_discrimination_index_on_nine_learners_worked_by_hand():
    """Moodle's discrimination index, D = (right in the top third - right in the bottom
    third) / size of a third, on nine learners (the class of :func:`nine_learners`).

    Scores on a three-question attempt (R right, b/c wrong choices, - unanswered):

        learner  Q1 Q2 Q3  total
        L1       R  R  R   3
        L2       R  R  R   3
        L3       R  c  R   2
        L4       R  b  R   2
        L5       b  R  R   2
        L6       R  c  -   1
        L7       b  R  c   1
        L8       c  b  -   0
        L9       b  -  c   0

    Nine learners: a third is n = 9 // 3 = 3.
    Top third: L1 and L2 (3 each), then one place for the three tied at 2 (L3, L4,
    L5): each counts 1/3. Bottom third: L8 and L9 (0 each), then one place for the
    two tied at 1 (L6, L7): each counts 1/2.

    Q1: top = 1 + 1 + (1 + 1 + 0)/3 = 8/3; bottom = 0 + 0 + (1 + 0)/2 = 1/2;
        D = (8/3 - 1/2) / 3 = (16/6 - 3/6) / 3 = 13/18 = 0.722
    Q2: top = 1 + 1 + (0 + 0 + 1)/3 = 7/3; bottom = 0 + 0 + (0 + 1)/2 = 1/2;
        D = (7/3 - 1/2) / 3 = (14/6 - 3/6) / 3 = 11/18 = 0.611
    Q3: top = 1 + 1 + (1 + 1 + 1)/3 = 3; bottom = 0 + 0 + (0 + 0)/2 = 0;
        D = 3 / 3 = 1
    The kind (all three questions, fractional credit = right / 3):
        top = 1 + 1 + (2/3 + 2/3 + 2/3)/3 = 8/3; bottom = 0 + 0 + (1/3 + 1/3)/2 = 1/3;
        D = (8/3 - 1/3) / 3 = 7/9 = 0.778
    """
    totals = [3, 3, 2, 2, 2, 1, 1, 0, 0]
    q1 = [1, 1, 1, 1, 0, 1, 0, 0, 0]
    q2 = [1, 1, 0, 0, 1, 0, 1, 0, 0]
    q3 = [1, 1, 1, 1, 1, 0, 0, 0, 0]
    d = results.discrimination_index
    assert d(list(zip(totals, q1, strict=True))) == pytest.approx(13 / 18)
    assert d(list(zip(totals, q2, strict=True))) == pytest.approx(11 / 18)
    assert d(list(zip(totals, q3, strict=True))) == pytest.approx(1.0)
    kind = [t / 3 for t in totals]
    assert d(list(zip(totals, kind, strict=True))) == pytest.approx(7 / 9)
    # The order of the learners does not matter, nor who wins a tie.
    shuffled = list(zip(totals, q1, strict=True))[::-1]
    assert d(shuffled) == pytest.approx(13 / 18)


def test_ties_share_the_places_left():
    # Two places; the best (5) takes one, the three tied at 4 share the other.
    assert results.third_sum([(5, 1), (4, 1), (4, 0), (4, 0)], 2) == pytest.approx(1 + 1 / 3)
    assert results.third_sum([(5, 1), (4, 1)], 0) == 0
    assert results.third_sum([(5, 1)], 3) == 1  # fewer learners than places
    result = doctest.run_docstring_examples(results.third_sum, {}, verbose=False)
    assert result is None


def test_discrimination_extremes_and_small_classes():
    d = results.discrimination_index
    # Six learners is the least: a third of two.
    perfect = [(3, 1), (3, 1), (2, 1), (1, 0), (0, 0), (0, 0)]
    assert d(perfect) == 1.0
    assert d([(t, 1 - i) for t, i in perfect]) == -1.0  # only the weak get it right
    assert d([(t, 1) for t, _i in perfect]) == 0.0  # everybody right: it tells nothing
    assert d(perfect[:5]) is None  # five learners: "too few"
    assert d([]) is None
    # Ten learners: thirds of three, the middle four left out.
    ten = [(9 - k, 1 if k < 3 else 0) for k in range(10)]
    assert d(ten) == 1.0
    assert results.MIN_LEARNERS == 6


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


def attempt(learner, assignment, picks, *, number=1, submitted=True, seeds=(0, 1, 2)):
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
            kind="weis_value",
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
    assert kind.discrimination == pytest.approx(7 / 9)
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
    assert [q.discrimination for q in (q1, q2, q3)] == pytest.approx([13 / 18, 11 / 18, 1.0])
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


def test_too_few_learners_give_no_discrimination(school_class):
    assignment = AssignmentFactory(
        school_class=school_class, kinds=["weis_value"], question_count=3, same_questions=True
    )
    for picks in list(FIRST_ATTEMPTS.values())[:5]:
        learner = MembershipFactory(school_class=school_class).learner
        attempt(learner, assignment, picks)
    items = analysis(assignment)
    assert items.learners == 5 and items.too_few
    assert all(item.discrimination is None for item in items.items)
    assert items.by_kind[0].facility is not None


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
    assert "0.72" in html and "0.61" in html and "0.78" in html and "1.00" in html
    translation.activate("en")
    assert "Facility 56 % (5 of 9 right)" in html
    assert "“150 points”" in html  # the distractor nobody picked is listed
    assert mistake_text("three_of_a_kind_counted") in html
    assert reverse("lessons:detail", args=["weis"]) + "#sequences" in html
    assert reverse("classroom:assignment_items_csv", args=[nine_learners.pk]) in html
    # Each figure is explained.
    for term in ("Facility</strong>", "Discrimination</strong>", "Reteach</strong>"):
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
    assert "Trennschärfe" in html and "0,72" in html and "0.72" not in html


def test_too_few_on_the_page(english, teacher, school_class):
    assignment = AssignmentFactory(school_class=school_class, kinds=["weis_value"])
    learner = MembershipFactory(school_class=school_class).learner
    attempt(learner, assignment, "RbRR", seeds=(0, 1, 2, 3))
    english.force_login(teacher)
    html = english.get(
        reverse("classroom:assignment_results", args=[assignment.pk])
    ).content.decode()
    assert "too few" in html


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
        "Discrimination index",
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
    assert kind[:8] == [
        "Weis value of a hand",
        "",
        "Weis value of a hand",
        "9",
        "27",
        "14",
        "52",
        "0.78",
    ]
    assert kind[8:14] == [
        "wrong choice",
        "100 points",
        "card_points_counted",
        mistake_text("card_points_counted"),
        "5",
        "19",
    ]
    assert kind[14] == "R5.1"
    assert kind[15] == "http://testserver/lessons/weis/#sequences"
    assert body[2][8:14] == ["not answered", "", "", "", "3", "11"]
    q1 = [row for row in body if row[1] == "1"]
    assert [(row[9], row[12], row[13]) for row in q1] == [
        ("50 points", "3", "33"),
        ("100 points", "1", "11"),
        ("150 points", "0", "0"),
        ("", "0", "0"),
    ]
    assert q1[0][7] == "0.72" and q1[0][0] == "Q1 · Weis value of a hand"


def test_item_analysis_csv_in_german_and_too_few(client, teacher, school_class):
    assignment = AssignmentFactory(school_class=school_class, kinds=["weis_value"])
    attempt(
        MembershipFactory(school_class=school_class).learner, assignment, "RbRR", seeds=(0, 1, 2, 3)
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    client.force_login(teacher)
    rows = read_csv(client.get(reverse("classroom:assignment_items_csv", args=[assignment.pk])))
    assert rows[0][:8] == [
        "Item",
        "Frage",
        "Fragenart",
        "Gezählte Lernende",
        "Gezählte Fragen",
        "Richtig",
        "Lösungsquote (%)",
        "Trennschärfe-Index",
    ]
    assert rows[1][7] == "zu wenige"


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
