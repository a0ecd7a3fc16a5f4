"""No page is wider than a phone: at 390 px nothing may scroll sideways (wide tables
scroll inside their own box)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import MembershipFactory, SchoolClassFactory, TeacherFactory
from tutor.classroom import assignments
from tutor.classroom.assignments import AssignmentSpec
from tutor.lessons.content import read_course
from tutor.lessons.services import load_course
from tutor.quizzes.services import answer

pytestmark = pytest.mark.django_db(transaction=True)


def test_no_page_scrolls_sideways_on_a_phone(live_server, phone, client):
    load_course()
    teacher = TeacherFactory()
    school_class = SchoolClassFactory(teacher=teacher, name="Klasse mit einem langen Namen")
    learner = MembershipFactory(school_class=school_class).learner
    now = timezone.now()
    spec = AssignmentSpec(
        title="Alle Fragenarten",
        kinds=["weis_value", "who_writes", "ladder_step", "stoeck", "target", "trick"],
        question_count=6,
        rules_preset="default",
        opens_at=now - timedelta(days=1),
        due_at=now + timedelta(days=1),
    )
    assignment = assignments.create_assignment(
        teacher=teacher, school_class=school_class, spec=spec
    )
    quiz = assignments.start_or_resume(learner=learner, assignment=assignment)
    for question in quiz.questions.all():
        answer(learner=learner, question=question, choice=question.question["answer"])

    def width_of(user, urls):
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        phone.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
        for url in urls:
            phone.goto(live_server.url + url)
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (url, width)

    lessons = [f"/lessons/{lesson.slug}/" for lesson in read_course()]
    width_of(
        learner,
        [
            "/",
            "/lessons/",
            "/lessons/rules/",
            "/weis/?contract=H&seat0_text=H6+H7+H8+H9",
            "/dashboard/",
            "/practice/",
            *lessons,
        ]
        + [f"/practice/{quiz.pk}/q/{q.position}/" for q in quiz.questions.all()],
    )
    width_of(
        teacher,
        [
            "/classes/",
            f"/classes/{school_class.pk}/",
            f"/classes/{school_class.pk}/assignments/new/",
            f"/classes/assignments/{assignment.pk}/results/",
            f"/classes/{school_class.pk}/mastery/",
            f"/classes/{school_class.pk}/learners/{learner.pk}/",
        ],
    )
