"""Teachers assign rounds at the table (issue 14, the teacher's side).

An assignment is a quiz or a number of rounds at the table aimed at a focus. A
learner plays the rounds one after the other from the dashboard, only while the
assignment is open and only while in the class; the teacher's results pages and the
CSV count each learner's decisions per skill. Rounds are played here through the
services with the referee's reference moves and with deliberate mistakes, and every
count on the pages is checked against a fresh replay by the referee.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from rules_core import RuleSet
from teaching.table import Scenario, referee, reference_move
from tests.factories import (
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TableAssignmentFactory,
    TeacherFactory,
)
from tutor.classroom import assignments, results
from tutor.classroom.models import Assignment, Membership
from tutor.classroom.selectors import learner_assignments
from tutor.table import services
from tutor.table.models import TableRound

pytestmark = pytest.mark.django_db

SKILLS = ("trick", "weis_value", "who_writes", "stoeck", "target")
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def english(client):
    # Service messages follow the active language, pages the browser's; these tests
    # read the English ones unless they ask for German.
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def member(school_class):
    return MembershipFactory(school_class=school_class).learner


@pytest.fixture
def table_assignment(school_class):
    return TableAssignmentFactory(school_class=school_class, round_count=2, focus="stoeck")


# ---------------------------------------------------------------------------
# Helpers


def form_post(**changes):
    data = {
        "title": "Stöck am Tisch",
        "activity": "table",
        "round_count": "3",
        "focus": "stoeck",
        "rules_preset": "w-en",
        "opens_at": "2026-12-01T08:00",
        "due_at": "2026-12-08T08:00",
        "same_questions": "1",
        "late_policy": "refuse",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def play_round(learner, round_, policy=reference_move):
    """Play ``round_`` to the end through the services; returns the final table."""
    round_.refresh_from_db()
    t = services.table_of(round_)
    while t.phase != "done":
        outcome = services.play_move(
            learner=learner, round_=round_, move=policy(t), expected_count=round_.move_count
        )
        t = outcome.table
        assert round_.move_count < 80
    return t


def careless():
    """A policy that makes mistakes: one illegal card (when the hand has one), a Weis
    value with the first card that the reference would not say, a wrong ``writes``;
    otherwise the reference move."""
    done = Counter()

    def policy(t):
        move = reference_move(t)
        if t.phase == "play":
            illegal = [c for c in t.hand if c not in t.legal]
            if illegal and not done["illegal"]:
                done["illegal"] += 1
                return {"play": illegal[0]}
            if "announce" in move and not done["announce"]:
                done["announce"] += 1
                move["announce"] = 300 if move["announce"] != 300 else 0
        elif t.phase == "writes" and not done["writes"]:
            done["writes"] += 1
            move["writes"] = {**move["writes"], "points": move["writes"]["points"] + 10}
        return move

    return policy


def replayed_tally(rounds):
    """Right and wrong per skill, from a fresh replay of each round's move log."""
    counts = {skill: Counter() for skill in SKILLS}
    for round_ in rounds:
        round_.refresh_from_db()
        table = referee(Scenario.from_dict(round_.scenario), round_.moves)
        for j in table.judgements:
            counts[j.skill][j.outcome] += 1
    return {skill: (c["right"], c["wrong"]) for skill, c in counts.items()}


def start(client, assignment, **extra):
    return client.post(
        reverse("classroom:assignment_start", args=[assignment.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
        **extra,
    )


def read_csv(response):
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


# ---------------------------------------------------------------------------
# The form


def test_form_creates_a_table_assignment(client, teacher, school_class):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    # Quiz fields sent along (both groups are on the page without JS) are ignored.
    response = client.post(url, form_post(kinds=["poker"], question_count="999"))
    assert response.status_code == 302
    a = Assignment.objects.get()
    assert (a.activity, a.round_count, a.focus, a.rules_preset) == ("table", 3, "stoeck", "w-en")
    assert RuleSet.from_dict(a.rules) == RuleSet.preset("w-en") != RuleSet()
    assert (a.kinds, a.question_count, a.attempts_allowed) == ([], 0, 1)
    assert a.explanations == Assignment.Explanations.IMMEDIATELY and a.is_table
    page = client.get(response["Location"]).content.decode()
    assert "3 rounds at the table: Stöck" in page


def test_form_ignores_a_chosen_after_due_for_a_table_assignment(client, teacher, school_class):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    assert client.post(url, form_post(explanations="after_due")).status_code == 302
    a = Assignment.objects.get()
    assert a.explanations == Assignment.Explanations.IMMEDIATELY
    assert a.explanations_visible(a.opens_at)


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"round_count": None}, "round_count"),
        ({"round_count": ""}, "round_count"),
        ({"round_count": "0"}, "round_count"),
        ({"round_count": "11"}, "round_count"),
        ({"round_count": "drei"}, "round_count"),
        ({"focus": None}, "focus"),
        ({"focus": "poker"}, "focus"),
        ({"activity": "bowling"}, "activity"),
        ({"due_at": "2026-11-30T08:00"}, "due_at"),
        ({"rules_preset": "tarot"}, "rules_preset"),
    ],
)
def test_form_refuses_a_table_assignment_without_count_or_focus(
    client, teacher, school_class, bad, field
):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    response = client.post(url, form_post(**bad))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Assignment.objects.exists()


def test_a_quiz_still_needs_its_kinds_and_ignores_the_table_fields(client, teacher, school_class):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    quiz = form_post(activity="quiz", question_count="4", attempts_allowed="1", round_count="99")
    response = client.post(url, {**quiz, "focus": "poker"})
    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"kinds"}
    response = client.post(url, {**quiz, "kinds": ["stoeck"], "explanations": "after_due"})
    assert response.status_code == 302
    a = Assignment.objects.get()
    assert (a.activity, a.round_count, a.focus, a.kinds) == ("quiz", 0, "", ["stoeck"])
    assert a.explanations == "after_due"


def test_a_post_without_an_activity_sets_a_quiz(client, teacher, school_class):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    data = form_post(activity=None, kinds=["trick"], question_count="3", attempts_allowed="2")
    assert client.post(url, data).status_code == 302
    assert Assignment.objects.get().activity == "quiz"


def test_form_page_says_that_feedback_at_the_table_is_immediate(client, teacher, school_class):
    client.force_login(teacher)
    url = reverse("classroom:assignment_create", args=[school_class.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    table_group = page[page.index("Only for rounds at the table") :]
    table_group = table_group[: table_group.index("</fieldset>\n  </div>")]
    assert "every move is judged at once" in table_group
    assert "after the due date" not in table_group
    assert 'name="focus" value="target_tricks"' in table_group
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Nur für Runden am Tisch" in german and "sofort beurteilt" in german
    # Texts formatted per request, not once at import in whichever language was active.
    assert "1 to 10 rounds, played one after the other." in page
    assert "1 bis 10 Runden, eine nach der anderen gespielt." in german


def test_service_refuses_a_bad_table_spec(teacher, school_class):
    now = timezone.now()
    spec = assignments.AssignmentSpec(
        title="T",
        kinds=(),
        question_count=0,
        rules_preset="default",
        opens_at=now,
        due_at=now + timedelta(days=1),
        activity="table",
        round_count=0,
        focus="stoeck",
    )
    with pytest.raises(assignments.AssignmentError):
        assignments.create_assignment(teacher=teacher, school_class=school_class, spec=spec)
    with pytest.raises(assignments.AssignmentError):
        assignments.create_assignment(
            teacher=teacher,
            school_class=school_class,
            spec=assignments.AssignmentSpec(**{**spec.__dict__, "round_count": 2, "focus": "x"}),
        )
    other = TeacherFactory()
    with pytest.raises(assignments.AssignmentError):
        assignments.create_assignment(
            teacher=other,
            school_class=school_class,
            spec=assignments.AssignmentSpec(**{**spec.__dict__, "round_count": 2}),
        )
    created = assignments.create_assignment(
        teacher=teacher,
        school_class=school_class,
        spec=assignments.AssignmentSpec(**{**spec.__dict__, "round_count": 2}),
    )
    assert created.is_table and created.round_count == 2


def test_the_database_refuses_a_table_assignment_without_rounds(school_class):
    with pytest.raises(IntegrityError), transaction.atomic():
        TableAssignmentFactory(school_class=school_class, round_count=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableAssignmentFactory(school_class=school_class, focus="")


# ---------------------------------------------------------------------------
# The learner plays the rounds


def test_learner_plays_every_round_and_not_one_more(client, member, table_assignment):
    client.force_login(member)
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "round 1 of 2" in dashboard and "Start round 1" in dashboard

    response = start(client, table_assignment)
    first = TableRound.objects.get(learner=member)
    assert response.status_code == 302
    assert response["Location"] == reverse("table:round", args=[first.pk])
    assert (first.assignment_id, first.assignment_index, first.focus) == (
        table_assignment.pk,
        0,
        "stoeck",
    )
    # Unfinished: the button continues the same round.
    assert "Continue round 1" in client.get(reverse("dashboard")).content.decode()
    assert start(client, table_assignment)["Location"] == response["Location"]
    assert TableRound.objects.filter(learner=member).count() == 1

    page = client.get(reverse("table:round", args=[first.pk])).content.decode()
    assert table_assignment.title in page and "round 1 of 2" in page

    play_round(member, first)
    assert "Start round 2" in client.get(reverse("dashboard")).content.decode()
    second = TableRound.objects.get(pk=start(client, table_assignment)["Location"].split("/")[-2])
    assert second.assignment_index == 1 and second.pk != first.pk
    page = client.get(reverse("table:round", args=[second.pk])).content.decode()
    assert table_assignment.title in page and "round 2 of 2" in page
    play_round(member, second)

    response = start(client, table_assignment, follow=True)
    assert "You have played all 2 rounds of this assignment." in response.content.decode()
    assert TableRound.objects.filter(learner=member).count() == 2
    with pytest.raises(assignments.AssignmentError):
        assignments.start_table_round(learner=member, assignment=table_assignment)

    rows = learner_assignments(member)
    assert [(r.status, r.rounds_finished) for r in rows] == [("done", 2)]
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "2 of 2 rounds played" in dashboard


def test_rounds_of_an_assignment_appear_in_the_table_progress(client, member, table_assignment):
    round_ = assignments.start_table_round(learner=member, assignment=table_assignment)
    client.force_login(member)
    page = client.get(reverse("table:start")).content.decode()
    assert f"assignment «{table_assignment.title}», round 1 of 2" in page
    assert reverse("table:round", args=[round_.pk]) in page
    play_round(member, round_)
    page = client.get(reverse("table:start")).content.decode()
    assert reverse("table:summary", args=[round_.pk]) in page
    assert f"assignment «{table_assignment.title}», round 1 of 2" in page


def test_the_round_uses_the_assignments_rules_and_focus(member, school_class):
    a = TableAssignmentFactory(
        school_class=school_class, rules_preset="swisslos-2500", focus="undenufe"
    )
    round_ = assignments.start_table_round(learner=member, assignment=a)
    assert round_.focus == "undenufe" and round_.rules == a.rules
    assert Scenario.from_dict(round_.scenario).contract == "undenufe"


def test_same_deals_for_everybody_round_by_round(school_class):
    a, b = (MembershipFactory(school_class=school_class).learner for _ in range(2))
    same = TableAssignmentFactory(school_class=school_class, same_questions=True)
    rounds_a = [assignments.start_table_round(learner=a, assignment=same)]
    rounds_b = [assignments.start_table_round(learner=b, assignment=same)]
    assert rounds_a[0].seed == rounds_b[0].seed
    assert rounds_a[0].scenario == rounds_b[0].scenario
    assert rounds_a[0].seed in assignments.table_seeds(same, 0)
    play_round(a, rounds_a[0])
    play_round(b, rounds_b[0])
    rounds_a.append(assignments.start_table_round(learner=a, assignment=same))
    rounds_b.append(assignments.start_table_round(learner=b, assignment=same))
    assert rounds_a[1].seed == rounds_b[1].seed and rounds_a[1].seed != rounds_a[0].seed

    variant = TableAssignmentFactory(school_class=school_class, same_questions=False)
    seeds = {assignments.start_table_round(learner=u, assignment=variant).seed for u in (a, b)}
    assert len(seeds) == 2


def test_same_deals_stay_the_same_after_the_builders_change(school_class):
    """A classmate who starts after an update of the scenario builders gets the deal
    the first one got (copied), not what the seed produces now."""
    a, b = (MembershipFactory(school_class=school_class).learner for _ in range(2))
    same = TableAssignmentFactory(school_class=school_class, same_questions=True)
    first = assignments.start_table_round(learner=a, assignment=same)
    first.scenario = {**first.scenario, "before": [7, 11]}  # as if built by older code
    first.save()
    second = assignments.start_table_round(learner=b, assignment=same)
    assert second.scenario == first.scenario and second.seed == first.seed
    assert second.assignment_index == 0 and second.learner == b


def test_another_assignment_deals_other_rounds(member, school_class):
    one = TableAssignmentFactory(school_class=school_class)
    two = TableAssignmentFactory(school_class=school_class)
    assert one.base_seed != two.base_seed
    seed_one = assignments.start_table_round(learner=member, assignment=one).seed
    seed_two = assignments.start_table_round(learner=member, assignment=two).seed
    assert seed_one != seed_two


def test_one_round_per_index_even_when_two_tabs_race(member, table_assignment):
    round_ = assignments.start_table_round(learner=member, assignment=table_assignment)
    with pytest.raises(IntegrityError), transaction.atomic():
        services.start_round(
            learner=member,
            focus="stoeck",
            assignment=table_assignment,
            assignment_index=round_.assignment_index,
        )
    assert TableRound.objects.filter(learner=member).count() == 1


def test_not_open_yet_or_closed_is_refused(client, member, school_class):
    now = timezone.now()
    later = TableAssignmentFactory(
        school_class=school_class, opens_at=now + timedelta(days=1), due_at=now + timedelta(days=2)
    )
    closed = TableAssignmentFactory(
        school_class=school_class, opens_at=now - timedelta(days=2), due_at=now - timedelta(days=1)
    )
    client.force_login(member)
    for assignment, message in (
        (later, "This assignment is not open yet."),
        (closed, "The due date has passed; this assignment takes no more work."),
    ):
        response = start(client, assignment, follow=True)
        assert message in response.content.decode()
    assert not TableRound.objects.exists()
    statuses = {row.assignment.pk: row.status for row in learner_assignments(member)}
    assert statuses == {later.pk: "upcoming", closed.pk: "missed"}


def test_late_work_is_accepted_when_the_teacher_said_so(member, school_class):
    now = timezone.now()
    late = TableAssignmentFactory(
        school_class=school_class,
        opens_at=now - timedelta(days=2),
        due_at=now - timedelta(days=1),
        late_policy=Assignment.LatePolicy.MARK_LATE,
    )
    round_ = assignments.start_table_round(learner=member, assignment=late)
    play_round(member, round_)
    table = results.table_results(school_class, [late])
    assert [(r.finished, r.late) for r in table.rows] == [(1, 1)]


def test_a_round_takes_no_moves_once_the_due_date_refuses_them(client, member, table_assignment):
    round_ = assignments.start_table_round(learner=member, assignment=table_assignment)
    t = services.table_of(round_)
    Assignment.objects.filter(pk=table_assignment.pk).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    round_.refresh_from_db()
    with pytest.raises(services.RoundLocked):
        services.play_move(learner=member, round_=round_, move=reference_move(t), expected_count=0)
    client.force_login(member)
    page = client.get(
        reverse("table:round", args=[round_.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "this assignment takes no more work" in page
    assert 'name="action" value="play"' not in page
    round_.refresh_from_db()
    assert round_.move_count == 0


def post_move(client, round_, move, **extra):
    data = {"action": "play", "card": move["play"], "n": round_.move_count}
    if "announce" in move:
        data["announce"] = str(move["announce"] or 0)
    return client.post(reverse("table:move", args=[round_.pk]), data, **extra)


def test_a_removed_learner_can_neither_start_nor_continue(client, teacher, school_class):
    learner = MembershipFactory(school_class=school_class).learner
    a = TableAssignmentFactory(school_class=school_class)
    round_ = assignments.start_table_round(learner=learner, assignment=a)
    t = services.table_of(round_)
    assert t.phase == "play"
    client.force_login(teacher)
    client.post(reverse("classroom:remove_member", args=[school_class.pk, learner.pk]))
    assert not Membership.objects.filter(learner=learner).exists()

    with pytest.raises(assignments.AssignmentError):
        assignments.start_table_round(learner=learner, assignment=a)
    with pytest.raises(services.RoundLocked, match="no longer in the class"):
        services.play_move(learner=learner, round_=round_, move=reference_move(t), expected_count=0)

    client.force_login(learner)
    assert start(client, a).status_code == 404
    move = reference_move(t)
    response = post_move(client, round_, move)
    assert response.status_code == 403
    assert "You are not or no longer in the class of the assignment" in response.content.decode()
    response = post_move(client, round_, move, **HX)
    assert response.status_code == 403
    assert "no longer in the class" in response.content.decode()
    # Their work stays theirs: they still see the round, without the forms to play it.
    page = client.get(reverse("table:round", args=[round_.pk]))
    assert page.status_code == 200 and 'name="action" value="play"' not in page.content.decode()
    round_.refresh_from_db()
    assert round_.move_count == 0 and round_.moves == []
    assert a.pk not in [row.assignment.pk for row in learner_assignments(learner)]


def test_a_learner_of_another_class_cannot_start_it(client, table_assignment):
    stranger = MembershipFactory().learner
    client.force_login(stranger)
    assert start(client, table_assignment).status_code == 404
    with pytest.raises(assignments.AssignmentError):
        assignments.start_table_round(learner=stranger, assignment=table_assignment)


def test_a_quiz_assignment_is_not_dealt_at_the_table(member, school_class):
    quiz = AssignmentFactory(school_class=school_class)
    with pytest.raises(assignments.AssignmentError):
        assignments.start_table_round(learner=member, assignment=quiz)


def test_practice_rounds_are_untouched_by_the_assignment_checks(learner):
    round_ = services.start_round(learner=learner, focus="stoeck", seed=4)
    assert services.locked_reason(round_) == ""
    assert play_round(learner, round_).phase == "done"


# ---------------------------------------------------------------------------
# Results


@pytest.fixture
def played(school_class, table_assignment):
    """Three members: a careful one (every round, reference moves), a careless one
    (one round, with mistakes) and one who never started."""
    careful, sloppy, idle = (
        MembershipFactory(school_class=school_class, learner=LearnerFactory(username=name)).learner
        for name in ("anna", "beat", "cla")
    )
    for _ in range(2):
        play_round(
            careful, assignments.start_table_round(learner=careful, assignment=table_assignment)
        )
    play_round(
        sloppy,
        assignments.start_table_round(learner=sloppy, assignment=table_assignment),
        careless(),
    )
    # A second round started and left after the first card.
    unfinished = assignments.start_table_round(learner=sloppy, assignment=table_assignment)
    t = services.table_of(unfinished)
    services.play_move(learner=sloppy, round_=unfinished, move=careless()(t), expected_count=0)
    return {"careful": careful, "sloppy": sloppy, "idle": idle}


def test_results_count_the_decisions_of_the_rounds_played(played, school_class, table_assignment):
    table = results.table_results(school_class, [table_assignment])
    by_name = {row.learner.username: row for row in table.rows}
    assert list(by_name) == ["anna", "beat", "cla"]
    for name, user in played.items():
        row = by_name[user.username]
        expected = replayed_tally(TableRound.objects.filter(learner=user))
        assert {t.skill: (t.right, t.wrong) for t in row.skills} == expected, name
    anna, beat, cla = by_name["anna"], by_name["beat"], by_name["cla"]
    assert (anna.status, anna.started, anna.finished) == (results.FINISHED, 2, 2)
    assert (beat.status, beat.started, beat.finished) == (results.IN_PROGRESS, 2, 1)
    assert (cla.status, cla.started, cla.finished, cla.judged) == (results.NOT_STARTED, 0, 0, 0)
    assert anna.right == anna.judged > 0  # the reference learner is never wrong
    assert beat.right < beat.judged
    class_tally = replayed_tally(TableRound.objects.all())
    assert {t.skill: (t.right, t.wrong) for t in table.skills} == class_tally
    trick = next(t for t in table.skills if t.skill == "trick")
    assert trick.facility == round(100 * trick.right / trick.judged)
    assert (table.started, table.finished, table.not_started) == (2, 1, 1)


def test_results_page_shows_the_decisions_per_skill(client, teacher, played, table_assignment):
    client.force_login(teacher)
    url = reverse("classroom:assignment_results", args=[table_assignment.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for label in ("Legal play", "Weis value", "Who writes", "Stöck", "Target"):
        assert label in page
    beat = replayed_tally(TableRound.objects.filter(learner=played["sloppy"]))
    right, wrong = beat["trick"]
    assert f"{right} right, {wrong} wrong" in page
    assert "1 of 3 learners played every round" in page
    assert (
        '<th scope="col">Q1<br>' not in page
    )  # no quiz columns (a bare "Q1" can be in the CSRF token)
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Regelkonform gespielt" in german and "alle Runden gespielt" in german


def test_results_csv_has_the_same_counts(client, teacher, played, table_assignment):
    client.force_login(teacher)
    url = reverse("classroom:assignment_results_csv", args=[table_assignment.pk])
    rows = read_csv(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    header, body, total = rows[0], rows[1:-1], rows[-1]
    assert header[:5] == ["Learner", "Status", "Rounds set", "Rounds started", "Rounds finished"]
    assert "Legal play: right" in header and "Target: wrong" in header
    by_name = {line[0]: dict(zip(header, line, strict=True)) for line in body}
    assert set(by_name) == {"anna", "beat", "cla"}
    for user in played.values():
        expected = replayed_tally(TableRound.objects.filter(learner=user))
        line = by_name[user.username]
        for skill, label in zip(
            SKILLS, ("Legal play", "Weis value", "Who writes", "Stöck", "Target"), strict=True
        ):
            assert (int(line[f"{label}: right"]), int(line[f"{label}: wrong"])) == expected[skill]
    assert (by_name["beat"]["Rounds started"], by_name["beat"]["Rounds finished"]) == ("2", "1")
    assert by_name["cla"]["Status"] == "not started"
    assert total[0] == "Whole class"
    class_tally = replayed_tally(TableRound.objects.all())
    assert int(total[header.index("Stöck: wrong")]) == class_tally["stoeck"][1]
    german = read_csv(client.get(url, HTTP_ACCEPT_LANGUAGE="de"))
    assert german[0][:3] == ["Lernende/r", "Stand", "Runden gestellt"]


def test_class_page_and_learner_history_show_the_rounds(
    client, teacher, played, school_class, table_assignment
):
    quiz = AssignmentFactory(school_class=school_class, title="Ein Quiz")
    client.force_login(teacher)
    page = client.get(
        reverse("classroom:class_mastery", args=[school_class.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Rounds at the table" in page and table_assignment.title in page
    assert quiz.title not in page.split("Rounds at the table", 1)[1]
    anna = replayed_tally(TableRound.objects.filter(learner=played["careful"]))
    assert f"{anna['trick'][0]} right, 0 wrong" in page
    history = client.get(
        reverse("classroom:learner_history", args=[school_class.pk, played["sloppy"].pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "round 1 of 2" in history and "round 2 of 2" in history
    assert "decisions right" in history and "Ein Quiz" in history


def test_class_page_without_table_assignments_has_no_table_section(client, teacher, school_class):
    AssignmentFactory(school_class=school_class)
    client.force_login(teacher)
    page = client.get(
        reverse("classroom:class_mastery", args=[school_class.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Rounds at the table" not in page


def test_rounds_of_former_members_are_left_out(
    client, teacher, played, school_class, table_assignment
):
    Membership.objects.filter(learner=played["sloppy"]).delete()
    table = results.table_results(school_class, [table_assignment])
    assert [r.learner.username for r in table.rows] == ["anna", "cla"]
    assert {t.skill: (t.right, t.wrong) for t in table.skills} == replayed_tally(
        TableRound.objects.filter(learner=played["careful"])
    )


def test_other_teachers_get_404_and_learners_403(client, played, school_class, table_assignment):
    urls = [
        reverse("classroom:assignment_results", args=[table_assignment.pk]),
        reverse("classroom:assignment_results_csv", args=[table_assignment.pk]),
        reverse("classroom:class_mastery", args=[school_class.pk]),
        reverse("classroom:learner_history", args=[school_class.pk, played["careful"].pk]),
    ]
    client.force_login(TeacherFactory())
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(played["careful"])
    for url in urls:
        assert client.get(url).status_code == 403, url
    client.logout()
    for url in urls:
        assert client.get(url).status_code == 302, url


def test_pages_cost_the_same_queries_for_a_big_class(client, teacher):
    """The results page, its CSV and the class page run a fixed number of queries."""
    pages = []
    for size in (2, 6):
        school_class = SchoolClassFactory(teacher=teacher)
        a = TableAssignmentFactory(school_class=school_class, round_count=1)
        for _ in range(size):
            learner = MembershipFactory(school_class=school_class).learner
            round_ = services.start_round(
                learner=learner, focus="stoeck", seed=2, assignment=a, assignment_index=0
            )
            play_round(learner, round_)
        table = results.table_results(school_class, [a])
        assert [r.finished for r in table.rows] == [1] * size
        pages.append(
            [
                reverse("classroom:assignment_results", args=[a.pk]),
                reverse("classroom:assignment_results_csv", args=[a.pk]),
                reverse("classroom:class_mastery", args=[school_class.pk]),
            ]
        )
    client.force_login(teacher)
    counts = []
    for urls in pages:
        for url in urls:  # warm up: the session, translations, templates
            assert client.get(url).status_code == 200
        with CaptureQueriesContext(connection) as queries:
            for url in urls:
                assert client.get(url).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


# ---------------------------------------------------------------------------
# The Weis tool during a round of an assignment (issue 12, item 5)


def weis_tool(client):
    return client.get(
        reverse("weistool:tool"),
        {
            "contract": "H",
            "rules": "default",
            "seat0_text": "H6 H7 H8 H9",
            "seat1_text": "C6 C7 C8",
        },
    ).content.decode()


def test_r12_5_an_unfinished_round_bars_the_weis_tool_until_it_is_played(
    client, member, table_assignment
):
    client.force_login(member)
    assert "writes Weis" in weis_tool(client)  # nothing started: the tool works
    round_ = assignments.start_table_round(learner=member, assignment=table_assignment)
    html = weis_tool(client)
    assert "writes Weis" not in html and table_assignment.title in html
    play_round(member, round_)
    assert "writes Weis" in weis_tool(client)


def test_r12_5_a_table_assignment_may_allow_the_weis_tool(client, member, school_class):
    allowed = TableAssignmentFactory(school_class=school_class, tools_allowed=True)
    assignments.start_table_round(learner=member, assignment=allowed)
    client.force_login(member)
    assert "writes Weis" in weis_tool(client)


def test_r12_5_practice_rounds_never_bar_the_weis_tool(client, member):
    services.start_round(learner=member, focus="stoeck")
    client.force_login(member)
    assert "writes Weis" in weis_tool(client)


def test_r12_5_the_form_sets_tools_allowed_for_table_rounds(client, teacher, school_class):
    client.force_login(teacher)
    client.post(
        reverse("classroom:assignment_create", args=[school_class.pk]),
        form_post(title="Mit Rechner", tools_allowed="on"),
    )
    client.post(
        reverse("classroom:assignment_create", args=[school_class.pk]),
        form_post(title="Ohne Rechner"),
    )
    assert Assignment.objects.get(title="Mit Rechner").tools_allowed is True
    assert Assignment.objects.get(title="Ohne Rechner").tools_allowed is False
