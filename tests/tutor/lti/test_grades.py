"""Grades back to the platform (LTI AGS, issue 26 item 4): a platform played for real, with
a token endpoint that checks the tool's signed request against its key and a line item
that records every score it is sent, over HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

import jwt
import pytest
from django.core.management import call_command
from django.utils import timezone, translation
from lti_tool.models import (
    Key,
    LtiContext,
    LtiDeployment,
    LtiRegistration,
    LtiResourceLink,
    LtiUser,
)

from tests.factories import AssignmentFactory, MembershipFactory
from tutor.classroom import assignments
from tutor.classroom.signals import work_submitted
from tutor.lti import grades
from tutor.lti.models import GradePost, LtiAssignmentLink
from tutor.quizzes.models import Quiz, QuizQuestion

pytestmark = pytest.mark.django_db

SCORES_PATH = "/api/lti/courses/7/lineitems/3/lineitem/scores"


class Gradebook:
    """The gradebook's side: what it was sent, and how it answers (``mode``)."""

    def __init__(self) -> None:
        self.mode = "up"  # "up", "down" (503), "slow" (answers after `delay`)
        self.delay = 2.0
        self.tokens: list[dict] = []
        self.scores: list[dict] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        gradebook = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if gradebook.mode == "slow":
                    time.sleep(gradebook.delay)
                if gradebook.mode == "down":
                    return self._answer(503, {"error": "maintenance"})
                if self.path == "/token":
                    form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                    gradebook.tokens.append(form)
                    return self._answer(
                        200, {"access_token": "token-1", "token_type": "Bearer", "expires_in": 3600}
                    )
                if self.path == SCORES_PATH:
                    gradebook.scores.append(
                        {
                            "authorization": self.headers.get("Authorization"),
                            "content_type": self.headers.get("Content-Type"),
                            "body": json.loads(body),
                        }
                    )
                    return self._answer(200, {})
                return self._answer(404, {})

            def _answer(self, status: int, data: dict) -> None:
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler


@pytest.fixture
def gradebook():
    running = Gradebook()
    running.thread.start()
    yield running
    running.server.shutdown()
    running.server.server_close()


@pytest.fixture
def setup(gradebook):
    """A learner who came from the gradebook, in the class of a course whose activity
    opens a four-question assignment, with the line item on the running gradebook."""
    key = Key.objects.generate()
    registration = LtiRegistration.objects.create(
        name="Moodle of the school",
        issuer="https://moodle.example.ch",
        client_id="client-1",
        auth_url=f"{gradebook.url}/auth",
        token_url=f"{gradebook.url}/token",
        keyset_url=f"{gradebook.url}/jwks",
    )
    deployment = LtiDeployment.objects.create(
        registration=registration, deployment_id="1", is_active=True
    )
    context = LtiContext.objects.create(deployment=deployment, id_on_platform="course-7")
    resource_link = LtiResourceLink.objects.create(context=context, id_on_platform="rl-3")
    member = MembershipFactory()
    assignment = AssignmentFactory(
        school_class=member.school_class, question_count=4, kinds=["weis_value", "trick"]
    )
    link = LtiAssignmentLink.objects.create(
        resource_link=resource_link,
        assignment=assignment,
        lineitem_url=f"{gradebook.url}{SCORES_PATH.removesuffix('/scores')}",
    )
    LtiUser.objects.create(
        registration=registration, sub="moodle-user-42", auth_user=member.learner
    )
    return {"key": key, "link": link, "learner": member.learner, "assignment": assignment}


def _attempt(setup, right_positions=(0, 1, 2)) -> Quiz:
    quiz = assignments.start_or_resume(learner=setup["learner"], assignment=setup["assignment"])
    now = timezone.now()
    QuizQuestion.objects.filter(quiz=quiz).update(
        answered_at=now, answered_choice="a", correct=False
    )
    QuizQuestion.objects.filter(quiz=quiz, position__in=right_positions).update(correct=True)
    return quiz


def _submit(quiz, setup, django_capture_on_commit_callbacks) -> Quiz:
    with django_capture_on_commit_callbacks(execute=True):
        return assignments.submit(learner=setup["learner"], quiz=quiz)


def test_ags_a_submit_posts_the_learners_score_once(
    setup, gradebook, django_capture_on_commit_callbacks
):
    quiz = _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)

    assert len(gradebook.scores) == 1
    sent = gradebook.scores[0]
    assert sent["authorization"] == "Bearer token-1"
    assert sent["content_type"] == "application/vnd.ims.lis.v1.score+json"
    body = sent["body"]
    assert body["userId"] == "moodle-user-42"
    assert body["scoreGiven"] == 0.75 and body["scoreMaximum"] == 1
    assert body["activityProgress"] == "Completed" and body["gradingProgress"] == "FullyGraded"
    assert body["timestamp"] == quiz.submitted_at.isoformat(timespec="milliseconds")
    # The comment names the skills of the attempt, with their counts.
    assert "3" in body["comment"] and "4" in body["comment"]
    kinds = set(QuizQuestion.objects.filter(quiz=quiz).values_list("kind", flat=True))
    assert len(kinds) == 2 and body["comment"].count("/") == len(kinds)
    post = GradePost.objects.get()
    assert post.state == GradePost.State.SENT and post.tries == 0 and post.sent_at is not None
    assert post.score == Decimal("0.7500")


def test_ags_the_token_request_is_signed_with_the_tools_key_and_names_it(
    setup, gradebook, django_capture_on_commit_callbacks
):
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    [form] = gradebook.tokens
    assert form["grant_type"] == "client_credentials"
    assert form["scope"] == grades.SCORE_SCOPE
    assertion = form["client_assertion"]
    # The kid is the one the tool's JWKS publishes (platforms look the key up by it).
    assert jwt.get_unverified_header(assertion)["kid"] == setup["key"].as_jwk()["kid"]
    claims = jwt.decode(
        assertion, setup["key"].public_key, algorithms=["RS256"], audience=f"{gradebook.url}/token"
    )
    assert claims["iss"] == claims["sub"] == "client-1"
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(
            assertion,
            Key.objects.generate().public_key,
            algorithms=["RS256"],
            audience=f"{gradebook.url}/token",
        )


def test_ags_a_platform_that_is_down_gets_the_score_later_and_only_once(
    setup, gradebook, django_capture_on_commit_callbacks
):
    gradebook.mode = "down"
    quiz = _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    post = GradePost.objects.get()
    assert quiz.submitted_at is not None  # the learner's submit stands
    assert post.state == GradePost.State.PENDING and post.tries == 1
    assert "503" in post.last_error
    assert post.next_try_at > timezone.now() + timedelta(seconds=50)

    gradebook.mode = "up"
    assert grades.send_due() == grades.SendReport()  # not due yet
    later = timezone.now() + timedelta(minutes=2)
    assert grades.send_due(later).sent == 1
    assert grades.send_due(later + timedelta(days=1)) == grades.SendReport()
    assert len(gradebook.scores) == 1
    post.refresh_from_db()
    assert post.state == GradePost.State.SENT


def test_ags_a_platform_that_does_not_answer_is_given_up_on_in_time(
    setup, gradebook, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(grades, "TIMEOUT_SECONDS", 0.3)
    gradebook.mode, gradebook.delay = "slow", 1.5
    started = time.monotonic()
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    assert time.monotonic() - started < 1.4  # the submit did not wait for the gradebook
    post = GradePost.objects.get()
    assert post.state == GradePost.State.PENDING and post.tries == 1
    assert "Timeout" in post.last_error or "timed out" in post.last_error


def test_ags_a_post_is_given_up_after_the_last_try(
    setup, gradebook, django_capture_on_commit_callbacks
):
    gradebook.mode = "down"
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    when = timezone.now()
    for minutes in grades.RETRY_MINUTES:
        when += timedelta(minutes=minutes + 1)
        grades.send_due(when)
    post = GradePost.objects.get()
    assert post.state == GradePost.State.FAILED
    assert post.tries == len(grades.RETRY_MINUTES) + 1
    gradebook.mode = "up"
    assert grades.send_due(when + timedelta(days=30)) == grades.SendReport()
    assert gradebook.scores == []


def test_ags_a_submit_announced_twice_queues_and_posts_one_score(
    setup, gradebook, django_capture_on_commit_callbacks
):
    quiz = _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    work_submitted.send(sender=Quiz, quiz_ids=[quiz.pk])
    grades.send_due(timezone.now() + timedelta(days=1))
    assert GradePost.objects.count() == 1 and len(gradebook.scores) == 1


def test_ags_a_claimed_post_is_not_sent_by_a_second_sender(setup, gradebook):
    quiz = _attempt(setup)
    Quiz.objects.filter(pk=quiz.pk).update(submitted_at=timezone.now())
    [post] = grades.queue_grades([quiz.pk])
    now = timezone.now()
    assert grades._claim(post, now) is True
    assert grades._claim(post, now) is False
    assert grades.send_due(now) == grades.SendReport()  # the claim is fresh: not stale
    assert gradebook.scores == []
    # A sender that died: its claim is taken up after STALE_CLAIM, and sent once.
    assert grades.send_due(now + grades.STALE_CLAIM + timedelta(seconds=1)).sent == 1
    assert len(gradebook.scores) == 1


def test_ags_only_the_newest_waiting_score_goes(
    setup, gradebook, django_capture_on_commit_callbacks
):
    """Two attempts handed in while the gradebook was down: the second's score (the best
    so far, with the later timestamp) goes, the first's never does."""
    assignment = setup["assignment"]
    assignment.attempts_allowed = 2
    assignment.save()
    gradebook.mode = "down"
    first = _submit(
        _attempt(setup, right_positions=(0,)), setup, django_capture_on_commit_callbacks
    )
    second = _submit(
        _attempt(setup, right_positions=(0, 1, 2, 3)), setup, django_capture_on_commit_callbacks
    )
    assert first.attempt == 1 and second.attempt == 2
    gradebook.mode = "up"
    report = grades.send_due(timezone.now() + timedelta(hours=1))
    assert report.sent == 1 and report.superseded == 1
    [sent] = gradebook.scores
    assert sent["body"]["scoreGiven"] == 1.0
    assert sent["body"]["timestamp"] == second.submitted_at.isoformat(timespec="milliseconds")


def test_ags_the_best_attempt_counts_as_on_the_results_page(
    setup, gradebook, django_capture_on_commit_callbacks
):
    assignment = setup["assignment"]
    assignment.attempts_allowed = 2
    assignment.save()
    _submit(_attempt(setup, right_positions=(0, 1, 2)), setup, django_capture_on_commit_callbacks)
    _submit(_attempt(setup, right_positions=(0,)), setup, django_capture_on_commit_callbacks)
    assert [s["body"]["scoreGiven"] for s in gradebook.scores] == [0.75, 0.75]
    timestamps = [s["body"]["timestamp"] for s in gradebook.scores]
    assert timestamps[0] < timestamps[1]  # the gradebook keeps the later one


def test_ags_learners_from_the_class_code_and_assignments_without_activity_post_nothing(
    setup, gradebook, django_capture_on_commit_callbacks
):
    LtiUser.objects.all().delete()  # the learner joined with the class code
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    other = AssignmentFactory(school_class=setup["assignment"].school_class)
    quiz = assignments.start_or_resume(learner=setup["learner"], assignment=other)
    _submit(quiz, setup, django_capture_on_commit_callbacks)
    assert GradePost.objects.count() == 0 and gradebook.scores == [] and gradebook.tokens == []


def test_ags_the_command_sends_what_is_due(
    setup, gradebook, django_capture_on_commit_callbacks, capsys
):
    gradebook.mode = "down"
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    gradebook.mode = "up"
    GradePost.objects.update(next_try_at=timezone.now() - timedelta(seconds=1))
    call_command("lti_send_grades")
    assert "sent 1," in capsys.readouterr().out
    assert len(gradebook.scores) == 1


def test_ags_rounds_at_the_table_post_the_decisions_right_and_complete_with_the_last(
    setup, gradebook, django_capture_on_commit_callbacks
):
    """A table assignment of two rounds: each finished round posts the decisions right
    over those judged so far (as the results page counts them), "InProgress" after the
    first, "Completed" after the last."""
    from tests.factories import TableAssignmentFactory
    from tests.tutor.test_table_assignments import play_round

    table_assignment = TableAssignmentFactory(
        school_class=setup["assignment"].school_class, round_count=2, focus="stoeck"
    )
    setup["link"].assignment = table_assignment
    setup["link"].save()
    learner = setup["learner"]
    for _n in range(2):
        round_ = assignments.start_table_round(learner=learner, assignment=table_assignment)
        with django_capture_on_commit_callbacks(execute=True):
            play_round(learner, round_)
    first, second = (s["body"] for s in gradebook.scores)
    assert first["activityProgress"] == "InProgress"
    assert second["activityProgress"] == "Completed"
    rounds = table_assignment.table_rounds.filter(learner=learner)
    right = sum(c.get("right", 0) for r in rounds for c in r.tally.values())
    judged = right + sum(c.get("wrong", 0) for r in rounds for c in r.tally.values())
    assert judged > 0 and second["scoreGiven"] == round(right / judged, 4)
    assert "2" in second["comment"]
    assert GradePost.objects.filter(state=GradePost.State.SENT).count() == 2


def test_ags_end_to_end_a_launched_pupil_submits_and_the_platform_gets_the_score(
    platform, django_capture_on_commit_callbacks
):
    """The whole way, as a school sees it: the teacher opens the course, a pupil opens
    the activity from the platform (its AGS claim names the line item), answers and
    hands in on the site's pages; the platform's gradebook gets one score for that
    pupil's platform id, and a second submit click posts nothing more."""
    from django.urls import reverse

    from tests.tutor.lti.conftest import LTI, launch, new_browser
    from tests.tutor.lti.test_launch import teacher_opens

    school_class = teacher_opens(platform)
    assignment = AssignmentFactory(school_class=school_class, question_count=4)
    client = new_browser()
    ags = {"scope": [grades.SCORE_SCOPE], "lineitem": platform.lineitem_url}
    response = launch(
        client,
        platform,
        sub="moodle-pupil-5",
        **{
            LTI + "custom": {"assignment": str(assignment.pk)},
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": ags,
        },
    )
    assert response.status_code == 302
    quiz = Quiz.objects.get(assignment=assignment)
    now = timezone.now()
    QuizQuestion.objects.filter(quiz=quiz).update(
        answered_at=now, answered_choice="a", correct=False
    )
    QuizQuestion.objects.filter(quiz=quiz, position__in=[0, 2]).update(correct=True)
    submit = reverse("classroom:assignment_submit", args=[quiz.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(submit).status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        client.post(submit)  # a second click: refused, and nothing posted again
    [score] = platform.scores
    assert score["userId"] == "moodle-pupil-5"
    assert score["scoreGiven"] == 0.5 and score["scoreMaximum"] == 1
    assert GradePost.objects.get().state == GradePost.State.SENT


def test_ags_a_live_session_that_ends_posts_the_pupils_scores(
    setup, gradebook, django_capture_on_commit_callbacks
):
    """A live session hands in every pupil's attempt when it ends: an activity that
    opens its assignment gets their scores, as for a submit."""
    from tutor.classroom.models import LiveSession
    from tutor.live import services as live
    from tutor.live.services import Action, LiveSpec

    teacher = setup["assignment"].school_class.teacher
    session = live.start_live(
        teacher=teacher,
        school_class=setup["assignment"].school_class,
        spec=LiveSpec(kinds=["stoeck"], question_count=2),
    )
    setup["link"].assignment = session.assignment
    setup["link"].save()
    pupil = setup["learner"]
    live.join_live(learner=pupil, session=session)
    session = live.advance(
        teacher=teacher, session=session, action=Action.BEGIN, version=session.version
    )
    right = session.questions[0]["answer"]
    live.answer_live(learner=pupil, session=session, position=0, choice=right)
    with django_capture_on_commit_callbacks(execute=True):
        session = live.advance(
            teacher=teacher, session=session, action=Action.FINISH, version=session.version
        )
    assert session.phase == LiveSession.Phase.FINISHED
    [sent] = gradebook.scores
    assert sent["body"]["userId"] == "moodle-user-42"
    assert sent["body"]["scoreGiven"] == 0.5  # one of two right


def test_ags_a_score_waits_for_the_due_date_when_solutions_wait_for_it(
    setup, gradebook, django_capture_on_commit_callbacks
):
    """An assignment that shows its solutions after the due date keeps the score back
    too (the pupil reads the platform's gradebook): queued at the submit, sent once
    the due date has passed."""
    assignment = setup["assignment"]
    assignment.explanations = assignment.Explanations.AFTER_DUE
    assignment.save()
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    post = GradePost.objects.get()
    assert post.state == GradePost.State.PENDING and post.tries == 0
    assert post.next_try_at == assignment.due_at
    assert grades.send_due(assignment.due_at - timedelta(seconds=1)) == grades.SendReport()
    assert gradebook.scores == [] and gradebook.tokens == []
    assert grades.send_due(assignment.due_at + timedelta(seconds=1)).sent == 1
    assert len(gradebook.scores) == 1


def test_the_learners_data_export_holds_what_the_platform_sent_and_the_grades(
    setup, gradebook, django_capture_on_commit_callbacks
):
    """The learner's own export (JSON and the zip's CSVs) lists their platform record
    (with the e-mail the platform sent, kept there only) and the scores sent back; a
    score the assignment still keeps back shows empty, as on the platform."""
    import json

    from tutor.classroom import privacy

    LtiUser.objects.filter(sub="moodle-user-42").update(
        given_name="Anna", family_name="Meier", email="anna@schule.example"
    )
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    learner = setup["learner"]
    export = privacy.collect(privacy.access_to(learner, learner.pk))
    doc = json.loads(privacy.export_json(export))
    [platform] = doc["school_platform"]
    assert platform["platform_user_id"] == "moodle-user-42"
    assert platform["email"] == "anna@schule.example" and platform["given_name"] == "Anna"
    [sent] = doc["grades_sent"]
    assert sent["score"] == 0.75
    assert sent["state"] == "sent" and sent["assignment_id"] == setup["assignment"].pk
    # Kept back: an "after the due date" assignment before its due date.
    setup["assignment"].explanations = setup["assignment"].Explanations.AFTER_DUE
    setup["assignment"].save()
    export = privacy.collect(privacy.access_to(learner, learner.pk))
    [hidden] = export.tables["grades_sent"]
    assert hidden["score"] is None and hidden["comment"] == ""
    assert "grades_sent.csv" in privacy.export_zip(export).decode("latin-1")


def test_the_teachers_results_page_says_how_the_scores_reached_the_platform(
    setup, gradebook, django_capture_on_commit_callbacks, client
):
    from django.urls import reverse

    gradebook.mode = "down"
    _submit(_attempt(setup), setup, django_capture_on_commit_callbacks)
    teacher = setup["assignment"].school_class.teacher
    client.force_login(teacher)
    url = reverse("classroom:assignment_results", args=[setup["assignment"].pk])
    with translation.override("en"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Scores for the gradebook of «Moodle of the school»: 0 sent, 1 waiting" in page
    gradebook.mode = "up"
    grades.send_due(timezone.now() + timedelta(hours=1))
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 sent, 0 waiting, 0 given up" in page
    # An assignment no activity opens says nothing of platforms.
    other = AssignmentFactory(school_class=setup["assignment"].school_class)
    page = client.get(reverse("classroom:assignment_results", args=[other.pk])).content
    assert b"assignment-note" not in page
