"""Classes and assignments: join codes, attempts, late work, explanations after the due date."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import AssignmentFactory, LearnerFactory, MembershipFactory, SchoolClassFactory
from tutor.classroom import assignments
from tutor.classroom.models import Assignment, Membership
from tutor.quizzes.models import Quiz, QuizQuestion, Skill
from tutor.quizzes.services import AttemptClosed, answer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    # Service messages follow the active language; these tests read the English ones.
    with translation.override("en"):
        yield


NOW = timezone.now()


@pytest.fixture
def member(school_class):
    return MembershipFactory(school_class=school_class).learner


def answer_all(learner, quiz, right=True):
    for question in quiz.questions.all():
        data = question.question
        key = (
            data["answer"]
            if right
            else next(c["key"] for c in data["choices"] if c["key"] != data["answer"])
        )
        answer(learner=learner, question=question, choice=key)


def test_teacher_rotates_join_code_and_old_code_stops_working(client, teacher, school_class):
    old = school_class.join_code
    client.force_login(teacher)
    client.post(reverse("classroom:rotate_code", args=[school_class.pk]))
    school_class.refresh_from_db()
    assert school_class.join_code != old
    learner = LearnerFactory()
    client.force_login(learner)
    response = client.post(reverse("classroom:join_class"), {"code": old})
    assert response.context["form"].errors["code"]
    client.post(reverse("classroom:join_class"), {"code": school_class.join_code})
    assert school_class.learners.filter(pk=learner.pk).exists()


def test_join_link_sends_visitors_to_signup_with_the_code(client, school_class):
    link = reverse("classroom:join_class") + f"?code={school_class.join_code}"
    response = client.get(link)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert f'value="{school_class.join_code}"' in page


def test_learner_can_be_in_several_classes(client, learner):
    first, second = SchoolClassFactory(), SchoolClassFactory()
    client.force_login(learner)
    for c in (first, second):
        client.post(reverse("classroom:join_class"), {"code": c.join_code})
    assert set(learner.classes.all()) == {first, second}


def test_teacher_removes_learner_and_their_work_stays(client, teacher, school_class, member):
    assignment = AssignmentFactory(school_class=school_class)
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    client.force_login(teacher)
    client.post(reverse("classroom:remove_member", args=[school_class.pk, member.pk]))
    assert not Membership.objects.filter(learner=member).exists()
    assert Quiz.objects.filter(pk=quiz.pk).exists()


def test_other_teacher_cannot_change_a_class(client, school_class, member):
    from tests.factories import TeacherFactory

    client.force_login(TeacherFactory())
    code = school_class.join_code
    assert client.post(reverse("classroom:rotate_code", args=[school_class.pk])).status_code == 404
    url = reverse("classroom:remove_member", args=[school_class.pk, member.pk])
    assert client.post(url).status_code == 404
    school_class.refresh_from_db()
    assert school_class.join_code == code and Membership.objects.filter(learner=member).exists()


def test_assignment_form_creates_assignment(client, teacher, school_class):
    client.force_login(teacher)
    response = client.post(
        reverse("classroom:assignment_create", args=[school_class.pk]),
        {
            "title": "Stöck üben",
            "kinds": ["stoeck", "target"],
            "question_count": 5,
            "rules_preset": "ausmachregel",
            "opens_at": "2026-12-01T08:00",
            "due_at": "2026-12-08T08:00",
            "attempts_allowed": 2,
            "same_questions": "0",
            "explanations": "after_due",
            "late_policy": "mark_late",
        },
    )
    assert response.status_code == 302
    a = Assignment.objects.get()
    assert (a.title, a.kinds, a.question_count, a.attempts_allowed) == (
        "Stöck üben",
        ["stoeck", "target"],
        5,
        2,
    )
    assert a.rules["target_order"] == ["stoeck", "weis", "tricks"] and not a.same_questions


@pytest.mark.parametrize(
    "bad",
    [
        {"kinds": []},
        {"kinds": ["poker"]},
        {"question_count": 0},
        {"question_count": 51},
        {"due_at": "2026-11-30T08:00"},
        {"opens_at": "not a date"},
        {"rules_preset": "tarot"},
        {"attempts_allowed": 0},
        {"late_policy": "whatever"},
    ],
)
def test_assignment_form_rejects_bad_input(client, teacher, school_class, bad):
    client.force_login(teacher)
    data = {
        "title": "X",
        "kinds": ["stoeck"],
        "question_count": 5,
        "rules_preset": "default",
        "opens_at": "2026-12-01T08:00",
        "due_at": "2026-12-08T08:00",
        "attempts_allowed": 1,
        "same_questions": "1",
        "explanations": "immediately",
        "late_policy": "refuse",
        **bad,
    }
    response = client.post(reverse("classroom:assignment_create", args=[school_class.pk]), data)
    assert response.status_code == 200 and response.context["form"].errors
    assert not Assignment.objects.exists()


def test_same_questions_for_everybody_or_a_variant_each(school_class):
    a, b = LearnerFactory(), LearnerFactory()
    same = AssignmentFactory(
        school_class=school_class, same_questions=True, kinds=["ladder_step", "stoeck"]
    )
    variant = AssignmentFactory(school_class=school_class, same_questions=False)
    assert assignments.question_plan(same, a, 1) == assignments.question_plan(same, b, 1)
    assert assignments.question_plan(variant, a, 1) != assignments.question_plan(variant, b, 1)
    assert [k for k, _s in assignments.question_plan(same, a, 1)] == [
        "ladder_step",
        "stoeck",
        "ladder_step",
        "stoeck",
    ]


def test_same_questions_stay_the_same_after_the_generators_change(school_class):
    """A generator update between two pupils' starts (the golden file changes on
    purpose now and then) must not give them different questions: the second copies
    what the first was given. A variant per learner is generated afresh."""
    a, b, c = (MembershipFactory(school_class=school_class).learner for _ in range(3))
    same = AssignmentFactory(school_class=school_class, same_questions=True)
    first = assignments.start_or_resume(learner=a, assignment=same)
    changed = first.questions.get(position=0)
    changed.question = {**changed.question, "prompt": {**changed.question["prompt"], "v": 2}}
    changed.save()  # as if that seed had produced another question back then
    second = assignments.start_or_resume(learner=b, assignment=same)
    assert [q.question for q in second.questions.order_by("position")] == [
        q.question for q in first.questions.order_by("position")
    ]
    assert second.questions.get(position=0).question["prompt"]["v"] == 2
    variant = AssignmentFactory(school_class=school_class, same_questions=False)
    mine = assignments.start_or_resume(learner=a, assignment=variant)
    theirs = assignments.start_or_resume(learner=c, assignment=variant)
    assert "v" not in theirs.questions.get(position=0).question["prompt"]
    assert mine.questions.get(position=0).seed != theirs.questions.get(position=0).seed


def test_start_resume_submit(client, school_class, member):
    assignment = AssignmentFactory(school_class=school_class)
    client.force_login(member)
    start = reverse("classroom:assignment_start", args=[assignment.pk])
    first = client.post(start)
    quiz = Quiz.objects.get(learner=member)
    assert first["Location"] == reverse("quizzes:quiz", args=[quiz.pk])
    assert client.post(start)["Location"] == first["Location"]  # resumes, no second attempt
    answer_all(member, quiz)
    client.post(reverse("classroom:assignment_submit", args=[quiz.pk]))
    quiz.refresh_from_db()
    assert quiz.submitted_at is not None and not quiz.late
    # One attempt allowed: a new start is refused with a message, nothing created.
    client.post(start)
    assert Quiz.objects.filter(learner=member).count() == 1


def test_submitted_attempt_takes_no_more_answers(school_class, member):
    assignment = AssignmentFactory(school_class=school_class, question_count=2)
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    assignments.submit(learner=member, quiz=quiz)
    question = quiz.questions.first()
    with pytest.raises(AttemptClosed):
        answer(learner=member, question=question, choice=question.question["answer"])
    assert not QuizQuestion.objects.filter(answered_at__isnull=False).exists()


def test_late_work_refused(school_class, member):
    assignment = AssignmentFactory(
        school_class=school_class, due_at=NOW - timedelta(hours=1), opens_at=NOW - timedelta(days=2)
    )
    with pytest.raises(assignments.AssignmentError, match="due date has passed"):
        assignments.start_or_resume(learner=member, assignment=assignment)


def test_late_work_marked_late(school_class, member):
    assignment = AssignmentFactory(
        school_class=school_class,
        opens_at=NOW - timedelta(days=2),
        due_at=NOW - timedelta(hours=1),
        late_policy="mark_late",
    )
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    answer_all(member, quiz)
    assert assignments.submit(learner=member, quiz=quiz).late is True


def test_not_open_yet(school_class, member):
    assignment = AssignmentFactory(
        school_class=school_class, opens_at=NOW + timedelta(days=1), due_at=NOW + timedelta(days=2)
    )
    with pytest.raises(assignments.AssignmentError, match="not open yet"):
        assignments.start_or_resume(learner=member, assignment=assignment)


def test_explanations_hidden_until_due_date(client, school_class, member):
    assignment = AssignmentFactory(school_class=school_class, explanations="after_due")
    quiz = assignments.start_or_resume(learner=member, assignment=assignment)
    question = quiz.questions.first()
    client.force_login(member)
    url = reverse("quizzes:answer", args=[quiz.pk, 0])
    html = client.post(
        url, {"choice": question.question["answer"]}, headers={"HX-Request": "true"}
    ).content.decode()
    assert "Deine Antwort ist gespeichert" in html
    assert "feedback--right" not in html and "choice--answer" not in html
    Assignment.objects.filter(pk=assignment.pk).update(due_at=NOW - timedelta(minutes=1))
    html = client.get(reverse("quizzes:question", args=[quiz.pk, 0])).content.decode()
    assert "feedback--right" in html


def test_attempts_allowed(school_class, member):
    assignment = AssignmentFactory(school_class=school_class, attempts_allowed=2, question_count=1)
    for attempt in (1, 2):
        quiz = assignments.start_or_resume(learner=member, assignment=assignment)
        assert quiz.attempt == attempt
        assignments.submit(learner=member, quiz=quiz)
    with pytest.raises(assignments.AssignmentError, match="all your attempts"):
        assignments.start_or_resume(learner=member, assignment=assignment)


def test_learner_of_another_class_cannot_start(client, school_class):
    assignment = AssignmentFactory(school_class=school_class)
    outsider = LearnerFactory()
    client.force_login(outsider)
    response = client.post(reverse("classroom:assignment_start", args=[assignment.pk]))
    assert response.status_code == 404
    assert not Quiz.objects.exists()


def test_dashboard_shows_due_work_and_mastery(client, school_class, member):
    AssignmentFactory(school_class=school_class, title="Stöck-Test")
    AssignmentFactory(
        school_class=school_class,
        title="Später",
        opens_at=NOW + timedelta(days=3),
        due_at=NOW + timedelta(days=5),
    )
    other = AssignmentFactory(school_class=SchoolClassFactory(), title="Fremde Aufgabe")
    client.force_login(member)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Stöck-Test" in page and "Später" in page
    assert other.title not in page
    assert page.count('role="meter"') == len(Skill)  # one meter per skill


def _lesson_form(**changes):
    data = {
        "title": "Varianten",
        "lesson": "variants",
        "question_count": 6,
        "rules_preset": "default",
        "opens_at": "2026-12-01T08:00",
        "due_at": "2099-12-08T08:00",
        "attempts_allowed": 1,
        "same_questions": "1",
        "explanations": "immediately",
        "late_policy": "refuse",
    }
    data.update(changes)
    return data


def test_an_assignment_of_a_lessons_questions_asks_what_the_lesson_asks(
    client, teacher, school_class
):
    """A quiz of a lesson's questions (the form's lesson choice, also offered when a
    school platform adds an activity): the lesson's kinds, each question drawn as the
    lesson draws it, in its aim's rule set; the same questions for everybody."""
    import random

    from tests.factories import LessonFactory
    from tutor.lessons.questions import plan_for

    LessonFactory(slug="variants")
    client.force_login(teacher)
    page = client.get(reverse("classroom:assignment_create", args=[school_class.pk]))
    assert b'name="lesson"' in page.content and b'value="variants"' in page.content
    response = client.post(
        reverse("classroom:assignment_create", args=[school_class.pk]), _lesson_form()
    )
    assert response.status_code == 302
    a = Assignment.objects.get()
    plan = plan_for("variants")
    assert a.lesson == "variants" and a.kinds == list(plan.kinds)
    first, second = (MembershipFactory(school_class=school_class).learner for _ in range(2))
    quizzes = [assignments.start_or_resume(learner=p, assignment=a) for p in (first, second)]
    rows = [list(QuizQuestion.objects.filter(quiz=q).order_by("position")) for q in quizzes]
    assert [r.question for r in rows[0]] == [r.question for r in rows[1]]
    for row, (kind, seed) in zip(rows[0], assignments.question_plan(a, first, 1), strict=True):
        assert row.kind == kind
        assert row.question == plan.draw(kind, random.Random(seed)).question.to_dict()
    # The assignment names the rule set of the lesson's first aim; each question
    # carries its own (the lesson "variants" draws under three).
    assert a.rules == plan.rules.to_dict() and a.rules_preset == plan.rules.preset_name()


@pytest.mark.parametrize("lesson", ["no-such-lesson", "../etc"])
def test_an_unknown_lesson_is_refused_with_a_message(client, teacher, school_class, lesson):
    client.force_login(teacher)
    response = client.post(
        reverse("classroom:assignment_create", args=[school_class.pk]),
        _lesson_form(lesson=lesson),
    )
    assert response.status_code == 200 and b'class="errorlist' in response.content
    assert not Assignment.objects.exists()
