"""Deep linking: the instructor picks an assignment inside the platform; the tool makes
it in the course's class and answers with a signed ltiResourceLink, which the test
decodes with the tool's published key, then launches as the platform would."""

from __future__ import annotations

import jwt
import pytest
from django.urls import reverse
from lti_tool.models import Key

from tests.tutor.lti.conftest import (
    CLIENT_ID,
    INSTRUCTOR,
    ISSUER,
    LEARNER,
    LTI,
    launch,
    new_browser,
)
from tutor.classroom.models import Assignment
from tutor.lti.models import LtiAssignmentLink, LtiClass
from tutor.quizzes.models import Quiz

pytestmark = pytest.mark.django_db

RETURN_URL = "https://moodle.school.example/mod/lti/contentitem_return.php?course=7"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"


def deep_linking_claims(accept_types=("ltiResourceLink",)) -> dict:
    return {
        LTI + "message_type": "LtiDeepLinkingRequest",
        DL + "deep_linking_settings": {
            "deep_link_return_url": RETURN_URL,
            "accept_types": list(accept_types),
            "accept_presentation_document_targets": ["iframe", "window"],
            "data": "platform-opaque-7",
        },
    }


def quiz_form(title: str = "Weis zählen") -> dict:
    return {
        "title": title,
        "activity": "quiz",
        "kinds": ["weis_value", "trick"],
        "question_count": "5",
        "attempts_allowed": "1",
        "explanations": "after_due",
        "round_count": "3",
        "focus": "stoeck",
        "rules_preset": "default",
        "opens_at": "2026-01-01T08:00",
        "due_at": "2099-01-31T18:00",
        "same_questions": "1",
        "late_policy": "refuse",
    }


def test_deep_linking_round_trip(platform):
    teacher = new_browser()
    response = launch(teacher, platform, sub="teacher-1", roles=INSTRUCTOR, **deep_linking_claims())
    assert response.status_code == 302 and response["Location"] == reverse("lti:deep_link")
    school_class = LtiClass.objects.get().school_class
    picker = teacher.get(response["Location"])
    assert picker.status_code == 200
    assert b'name="kinds"' in picker.content and b'name="rules_preset"' in picker.content

    answer = teacher.post(reverse("lti:deep_link"), quiz_form())
    assert answer.status_code == 200, answer.content
    assignment = Assignment.objects.get(school_class=school_class)
    assert assignment.title == "Weis zählen" and assignment.question_count == 5
    html = answer.content.decode()
    assert f'action="{RETURN_URL.replace("&", "&amp;")}"' in html
    assert "form-action 'self' https://moodle.school.example" in answer["Content-Security-Policy"]
    token = html.split('name="JWT" value="', 1)[1].split('"', 1)[0]

    # The platform checks the answer with the key the tool publishes.
    kid = jwt.get_unverified_header(token)["kid"]
    published = {key["kid"]: key for key in teacher.get("/lti/jwks/").json()["keys"]}
    body = jwt.decode(token, jwt.PyJWK(published[kid]).key, algorithms=["RS256"], audience=ISSUER)
    assert body["iss"] == CLIENT_ID
    assert body[LTI + "message_type"] == "LtiDeepLinkingResponse"
    assert body[LTI + "deployment_id"] == "1"
    assert body[DL + "data"] == "platform-opaque-7"
    (item,) = body[DL + "content_items"]
    assert item["type"] == "ltiResourceLink" and item["title"] == "Weis zählen"
    assert item["url"] == "http://testserver/lti/launch/"
    assert item["custom"] == {"assignment": str(assignment.pk)}
    assert item["lineItem"]["scoreMaximum"] == 1
    assert item["lineItem"]["resourceId"] == f"assignment-{assignment.pk}"

    # The platform stores the link; a pupil's launch of it opens the assignment.
    pupil = new_browser()
    landed = launch(
        pupil, platform, sub="pupil-1", roles=LEARNER, **{LTI + "custom": item["custom"]}
    )
    quiz = Quiz.objects.get(assignment=assignment)
    assert landed["Location"] == reverse("quizzes:quiz", args=[quiz.pk])
    assert LtiAssignmentLink.objects.get().assignment == assignment
    # The request was answered: the picker is closed now.
    assert teacher.get(reverse("lti:deep_link")).status_code == 400


def test_a_form_error_keeps_the_picker_open(platform):
    teacher = new_browser()
    launch(teacher, platform, sub="teacher-1", roles=INSTRUCTOR, **deep_linking_claims())
    bad = quiz_form()
    bad["question_count"] = "0"
    response = teacher.post(reverse("lti:deep_link"), bad)
    assert response.status_code == 200
    assert not Assignment.objects.exists()
    assert response.context["form"].errors


def test_learners_cannot_add_activities(platform):
    response = launch(
        new_browser(), platform, sub="pupil-1", roles=LEARNER, **deep_linking_claims()
    )
    assert response.status_code == 403
    assert not LtiClass.objects.exists()


def test_a_request_for_other_content_types_is_refused(platform):
    response = launch(
        new_browser(),
        platform,
        sub="teacher-1",
        roles=INSTRUCTOR,
        **deep_linking_claims(accept_types=("link",)),
    )
    # pylti1p3 refuses it already (a deep-linking request must accept resource links).
    assert response.status_code == 403
    assert b"resource link placement" in response.content
    assert not LtiClass.objects.exists()


def test_the_picker_needs_a_deep_linking_launch(client, platform):
    launch(client, platform, sub="teacher-1", roles=INSTRUCTOR)  # a resource launch
    assert client.get(reverse("lti:deep_link")).status_code == 400
    assert new_browser().get(reverse("lti:deep_link")).status_code == 302  # to the login
    assert Key.objects.count() == 1


def test_deep_linking_adds_a_lessons_questions(platform):
    """The picker offers a lesson's questions too (issue 26 item 3): the activity opens
    an assignment of that lesson's questions."""
    from tests.factories import LessonFactory

    LessonFactory(slug="stoeck")
    teacher = new_browser()
    response = launch(teacher, platform, sub="teacher-1", roles=INSTRUCTOR, **deep_linking_claims())
    picker = teacher.get(response["Location"])
    assert b'<option value="stoeck">' in picker.content
    form = {**quiz_form("Stöck"), "lesson": "stoeck", "kinds": []}
    answer = teacher.post(reverse("lti:deep_link"), form)
    assert answer.status_code == 200, answer.content
    assignment = Assignment.objects.get()
    assert assignment.lesson == "stoeck" and assignment.kinds == ["stoeck"]
    token = answer.content.decode().split('name="JWT" value="', 1)[1].split('"', 1)[0]
    body = jwt.decode(token, options={"verify_signature": False})
    (item,) = body[DL + "content_items"]
    assert item["custom"] == {"assignment": str(assignment.pk)}
