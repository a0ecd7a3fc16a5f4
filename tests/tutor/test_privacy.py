"""A learner's data (issue 16, item 4): who may see it, the export, and deletion.

Deletion removes the learner's answers from class results (docs/data-protection.md):
the statistics are then exactly those of the remaining members, as when a pupil
leaves the class. The tests below check that arithmetic, that nothing of another
learner leaks into an export, and that a deleted account is gone everywhere.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessLog
from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.factories import (
    PASSWORD,
    AssignmentFactory,
    LearnerFactory,
    MembershipFactory,
    SchoolClassFactory,
    TableAssignmentFactory,
    TableRoundFactory,
    TeacherFactory,
    UserFactory,
)
from tutor.accounts.models import Role, User, UserSession
from tutor.accounts.sessions import SessionStore
from tutor.classroom import privacy, results
from tutor.classroom.assignments import start_or_resume, submit
from tutor.classroom.models import Assignment, Membership
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.services import answer, create_quiz
from tutor.table.models import TableRound

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """The factories hash a password per user; the slow default hasher is not under test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def take(learner, assignment, picks, *, hand_in=True):
    """``picks`` per position: "right", "wrong", or None (unanswered)."""
    quiz = start_or_resume(learner=learner, assignment=assignment)
    for question, pick in zip(quiz.questions.order_by("position"), picks, strict=False):
        if pick is None:
            continue
        data = question.question
        choice = data["answer"]
        if pick == "wrong":
            choice = sorted(c["key"] for c in data["choices"] if c["key"] != data["answer"])[0]
        answer(learner=learner, question=question, choice=choice)
    if hand_in:
        submit(learner=learner, quiz=quiz)
    return quiz


def tally_round(learner, assignment, index, tally, finished=True):
    now = timezone.now()
    return TableRoundFactory(
        learner=learner,
        assignment=assignment,
        assignment_index=index,
        tally=tally,
        finished_at=now if finished else None,
        last_move_at=now,
    )


def login_record(username, address, agent="Firefox/128"):
    return AccessLog.objects.create(
        username=username, ip_address=address, user_agent=agent, http_accept="*/*", path_info="/"
    )


@pytest.fixture
def classroom():
    """A class of three with a quiz assignment, a table assignment, practice and logins.

    - anna: Q1 right, Q2 wrong, Q3 right, Q4 right; two finished rounds.
    - bruno: right, right, wrong, unanswered; one finished round.
    - carla: wrong, wrong, right, right; no round.
    """
    teacher = TeacherFactory(username="frau_keller")
    school_class = SchoolClassFactory(teacher=teacher, name="Klasse 6b")
    people = {}
    for name in ("anna", "bruno", "carla"):
        people[name] = MembershipFactory(
            school_class=school_class, learner=LearnerFactory(username=name)
        ).learner
    quiz_assignment = AssignmentFactory(school_class=school_class, title="Weis und Stiche")
    table_assignment = TableAssignmentFactory(school_class=school_class, title="Stöck am Tisch")
    take(people["anna"], quiz_assignment, ["right", "wrong", "right", "right"])
    take(people["bruno"], quiz_assignment, ["right", "right", "wrong", None])
    take(people["carla"], quiz_assignment, ["wrong", "wrong", "right", "right"])
    stoeck = {"stoeck": {"right": 2, "wrong": 1, "info": 0}}
    tally_round(people["anna"], table_assignment, 0, stoeck)
    tally_round(people["anna"], table_assignment, 1, {"stoeck": {"right": 1, "wrong": 0}})
    tally_round(people["bruno"], table_assignment, 0, {"stoeck": {"right": 0, "wrong": 3}})
    create_quiz(learner=people["anna"], kinds=["trick"], seeds=[7])
    login_record("anna", "198.51.100.1", "AnnasBrowser/1.0")
    login_record("bruno", "203.0.113.77", "BrunosBrowser/2.0")
    return {
        "teacher": teacher,
        "class": school_class,
        "quiz": quiz_assignment,
        "table": table_assignment,
        **people,
    }


def json_export(client, learner):
    response = client.get(reverse("privacy:export_json", args=[learner.pk]))
    assert response.status_code == 200
    return response, json.loads(response.content.decode("utf-8"))


def zip_export(client, learner):
    response = client.get(reverse("privacy:export_zip", args=[learner.pk]))
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    return response, {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def csv_rows(text):
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=";"))


# --- who may -------------------------------------------------------------------------------


def test_who_may_see_a_learners_data(classroom):
    anna = classroom["anna"]
    other_class = SchoolClassFactory(teacher=TeacherFactory(username="herr_other"))
    outsider = MembershipFactory(school_class=other_class, learner=LearnerFactory()).learner
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    staff_teacher = TeacherFactory(username="staff_teacher", is_staff=True)
    pending = UserFactory(username="pending_t", role=Role.PENDING_TEACHER)
    urls = [
        reverse("privacy:learner", args=[anna.pk]),
        reverse("privacy:export_json", args=[anna.pk]),
        reverse("privacy:export_zip", args=[anna.pk]),
        reverse("privacy:delete", args=[anna.pk]),
    ]
    expected = {
        None: 302,
        anna: 200,
        classroom["bruno"]: 404,  # same class, still not his data
        outsider: 404,
        classroom["teacher"]: 200,
        other_class.teacher: 404,
        admin: 200,
        staff_teacher: 200,
        pending: 404,
    }
    for person, status in expected.items():
        client = Client()
        if person is not None:
            client.force_login(person)
        for url in urls:
            response = client.get(url)
            assert response.status_code == status, (person, url, response.status_code)
            if status == 302:
                assert reverse("login") in response["Location"]
            if status == 404:
                assert b"anna" not in response.content


def test_a_teacher_sees_a_pupil_only_while_the_pupil_is_in_the_class(client, classroom):
    client.force_login(classroom["teacher"])
    url = reverse("privacy:export_json", args=[classroom["anna"].pk])
    assert client.get(url).status_code == 200
    Membership.objects.filter(learner=classroom["anna"]).delete()
    assert client.get(url).status_code == 404


def test_accounts_other_than_learners_are_not_handled_here(client, classroom):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True, role=Role.TEACHER)
    client.force_login(admin)
    for other in (classroom["teacher"], UserFactory(username="root2", is_superuser=True)):
        assert client.get(reverse("privacy:learner", args=[other.pk])).status_code == 404
    client.force_login(classroom["teacher"])
    assert client.get(reverse("privacy:mine")).status_code == 403


def test_the_own_page_shows_the_learners_data_in_both_languages(client, classroom):
    client.force_login(classroom["anna"])
    page = client.get(reverse("privacy:mine"))
    body = page.content.decode()
    assert page.status_code == 200 and page["Cache-Control"].count("no-store")
    assert "Deine Daten" in body and "Klasse 6b" in body and "frau_keller" in body
    assert reverse("privacy:export_json", args=[classroom["anna"].pk]) in body
    assert "bruno" not in body and "carla" not in body
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    body = client.get(reverse("privacy:mine")).content.decode()
    assert "Your data" in body and "Delete my account" in body


# --- the export ------------------------------------------------------------------------


def test_the_json_export_has_the_documented_shape(client, classroom):
    anna = classroom["anna"]
    client.force_login(anna)
    response, doc = json_export(client, anna)
    assert response["Content-Disposition"] == (
        f'attachment; filename="jass-data_anna_{timezone.localdate():%Y-%m-%d}.json"'
    )
    assert "no-store" in response["Cache-Control"]
    assert doc["schema"] == "jass-tutor/learner-export" and doc["schema_version"] == 1
    assert doc["exported_by"] == "self"
    assert list(doc) == [
        "schema",
        "schema_version",
        "exported_at",
        "exported_by",
        *(s.name for s in privacy.all_sections()),
    ]
    for section in privacy.all_sections():
        rows = [doc[section.name]] if section.name == "account" else doc[section.name]
        for row in rows:
            assert tuple(row) == section.columns, section.name
    assert doc["account"]["username"] == "anna" and "password" not in doc["account"]
    assert [c["class_name"] for c in doc["classes"]] == ["Klasse 6b"]
    assert doc["classes"][0]["teacher"] == "frau_keller"
    # The assignment attempt and the practice quiz, with all their questions.
    assert sorted(q["source"] for q in doc["quizzes"]) == ["assignment", "practice"]
    assert len(doc["answers"]) == 5
    attempt = next(q for q in doc["quizzes"] if q["source"] == "assignment")
    mine = [a for a in doc["answers"] if a["quiz_id"] == attempt["quiz_id"]]
    assert [a["question_number"] for a in mine] == [1, 2, 3, 4]  # people count from 1
    assert [a["correct"] for a in mine] == [True, False, True, True]
    assert all(a["released"] and a["question"]["answer"] for a in mine)
    assert attempt["submitted_at"].endswith("Z") and attempt["assignment_title"] == (
        "Weis und Stiche"
    )
    assert {m["skill"] for m in doc["mastery"]} >= {"weis_value", "trick"}
    assert [r["round_number"] for r in doc["table_rounds"]] == [1, 2]
    assert doc["table_rounds"][0]["tally"]["stoeck"]["right"] == 2
    assert doc["table_rounds"][0]["scenario"]["hands"]  # finished: the deal is there
    # The record made above, and the one of this test client's login.
    assert ("198.51.100.1", "AnnasBrowser/1.0") in [
        (r["ip_address"], r["user_agent"]) for r in doc["logins"]
    ]
    assert len(doc["logins"]) == 2 and len(doc["sessions"]) == 1


def test_the_csv_export_is_a_zip_of_one_file_per_table(client, classroom):
    anna = classroom["anna"]
    client.force_login(classroom["teacher"])
    response, files = zip_export(client, anna)
    assert response["Content-Type"] == "application/zip"
    assert set(files) == {
        "README.txt",
        "export.json",
        *(f"{section.name}.csv" for section in privacy.all_sections()),
    }
    doc = json.loads(files["export.json"])
    assert doc["exported_by"] == "teacher"
    for section in privacy.all_sections():
        rows = csv_rows(files[f"{section.name}.csv"])
        assert tuple(rows[0]) == section.columns
        expected = 1 if section.name == "account" else len(doc[section.name])
        assert len(rows) - 1 == expected, section.name
        assert section.name in files["README.txt"]
    answers = csv_rows(files["answers.csv"])
    header = answers[0]
    first = dict(zip(header, answers[1], strict=True))
    assert first["released"] == "1" and json.loads(first["question"])["answer"]
    # Local time, to the second, as a spreadsheet reads it.
    assert len(first["answered_at"]) == len("2025-01-01 10:00:00")


def test_no_other_learners_data_is_in_the_export(client, classroom):
    """bruno did the same assignment in the same class, logged in, has sessions; and a
    learner whose name starts like anna's must not be matched by a loose filter."""
    anna, bruno = classroom["anna"], classroom["bruno"]
    annabelle = MembershipFactory(
        school_class=classroom["class"], learner=LearnerFactory(username="annabelle")
    ).learner
    login_record("annabelle", "192.0.2.200", "AnnabellesBrowser")
    AccessAttempt.objects.create(
        username="annabelle",
        ip_address="192.0.2.201",
        user_agent="GuessingBrowser",
        http_accept="*/*",
        path_info="/accounts/login/",
        get_data="",
        post_data="",
        failures_since_start=3,
    )
    for person in (bruno, annabelle):
        other = Client()
        other.force_login(person)
        other.get(reverse("privacy:mine"))
    foreign_ids = set(Quiz.objects.exclude(learner=anna).values_list("pk", flat=True))
    foreign_rounds = set(TableRound.objects.exclude(learner=anna).values_list("pk", flat=True))
    client.force_login(anna)
    _response, doc = json_export(client, anna)
    _response, files = zip_export(client, anna)
    texts = [json.dumps(doc, ensure_ascii=False), *files.values()]
    for marker in (
        "bruno",
        "carla",
        "annabelle",
        "203.0.113.77",
        "BrunosBrowser",
        "192.0.2.200",
        "GuessingBrowser",
    ):
        for text in texts:
            assert marker not in text, marker
    assert not {q["quiz_id"] for q in doc["quizzes"]} & foreign_ids
    assert not {a["quiz_id"] for a in doc["answers"]} & foreign_ids
    assert not {r["round_id"] for r in doc["table_rounds"]} & foreign_rounds
    assert len(doc["sessions"]) == 1  # anna's own, not the others'
    assert doc["login_failures"] == []


def test_solutions_stay_out_of_the_export_until_the_quiz_page_would_show_them(client, classroom):
    """The stored question holds the right answer: a learner must not read it in the
    export before answering, nor before the due date of an assignment that explains
    only then; the same for the deal of an unfinished round (everybody's cards)."""
    anna = classroom["anna"]
    later = AssignmentFactory(
        school_class=classroom["class"],
        title="Nach Termin",
        explanations=Assignment.Explanations.AFTER_DUE,
    )
    take(anna, later, ["right", None, None, None], hand_in=False)
    open_round = tally_round(anna, classroom["table"], 2, {}, finished=False)
    client.force_login(anna)
    _response, doc = json_export(client, anna)
    attempt = next(q for q in doc["quizzes"] if q["assignment_title"] == "Nach Termin")
    rows = [a for a in doc["answers"] if a["quiz_id"] == attempt["quiz_id"]]
    assert [a["answered_choice"] != "" for a in rows] == [True, False, False, False]
    for row in rows:
        assert row["released"] is False
        assert row["question"] is None and row["seed"] is None and row["correct"] is None
    unfinished = next(r for r in doc["table_rounds"] if r["round_id"] == open_round.pk)
    assert unfinished["released"] is False
    assert unfinished["scenario"] is None and unfinished["seed"] is None
    # After the due date the same export shows the first answer's solution.
    Assignment.objects.filter(pk=later.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    _response, doc = json_export(client, anna)
    rows = [a for a in doc["answers"] if a["quiz_id"] == attempt["quiz_id"]]
    assert rows[0]["released"] is True and rows[0]["correct"] is True
    assert rows[0]["question"]["answer"] == rows[0]["answered_choice"]
    assert rows[1]["question"] is None  # still unanswered


# --- deletion ------------------------------------------------------------------------------


def snapshot():
    return (
        list(User.objects.order_by("pk").values_list("pk", "username", "password")),
        Membership.objects.count(),
        Quiz.objects.count(),
        QuizQuestion.objects.count(),
        SkillState.objects.count(),
        TableRound.objects.count(),
        AccessLog.objects.count(),
    )


def test_a_learner_deletes_their_account_with_username_and_password(classroom):
    anna = classroom["anna"]
    client, second_browser = Client(), Client()
    client.force_login(anna)
    second_browser.force_login(anna)
    # An expired session still names anna until clearsessions runs: it goes too.
    old = SessionStore()
    old["_auth_user_id"] = str(anna.pk)
    old.create()
    UserSession.objects.filter(pk=old.session_key).update(
        expire_date=timezone.now() - timedelta(days=1)
    )
    url = reverse("privacy:delete", args=[anna.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'name="password"' in page.content.decode()

    before = snapshot()
    wrong_password = client.post(url, {"username": "anna", "password": "nope"})
    assert wrong_password.status_code == 400
    assert wrong_password.context["form"].has_error("password", "password_incorrect")
    # Counted as a failed login, like a wrong current password on the change form.
    assert AccessAttempt.objects.filter(username="anna").exists()
    wrong_name = client.post(url, {"username": "bruno", "password": PASSWORD})
    assert wrong_name.status_code == 400 and wrong_name.context["form"].has_error("username")
    assert snapshot() == before and User.objects.filter(username="anna").exists()

    response = client.post(url, {"username": " Anna ", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("privacy:deleted")
    assert not User.objects.filter(username="anna").exists()
    for model in (Quiz, SkillState, TableRound):
        assert not model.objects.filter(learner_id=anna.pk).exists()
    assert not Membership.objects.filter(learner_id=anna.pk).exists()
    assert not AccessLog.objects.filter(username="anna").exists()
    assert not AccessAttempt.objects.filter(username="anna").exists()
    done = client.get(response["Location"])
    assert done.status_code == 200 and "Konto gelöscht" in done.content.decode()
    assert not done.wsgi_request.user.is_authenticated
    # Logged out everywhere: the other browser's session is gone from the database.
    assert not UserSession.objects.filter(pk=old.session_key).exists()
    remaining = [s.get_decoded().get("_auth_user_id") for s in UserSession.objects.all()]
    assert str(anna.pk) not in remaining
    assert second_browser.get(reverse("dashboard")).status_code == 302
    # The others are untouched.
    assert Quiz.objects.filter(learner=classroom["bruno"]).count() == 1
    assert AccessLog.objects.filter(username="bruno").count() == 1


def log_in(username, password):
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": password})
    return client, response


def test_a_deleted_learner_cannot_log_in(classroom):
    anna = classroom["anna"]
    _client, response = log_in("anna", PASSWORD)
    assert response.status_code == 302  # the marker is real: anna could log in before
    privacy.delete_learner(privacy.access_to(anna, anna.pk))
    client, response = log_in("anna", PASSWORD)
    assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    assert "_auth_user_id" not in client.session
    assert response.context["form"].errors


def test_the_deleted_page_is_shown_once_and_only_after_a_deletion(client, classroom):
    assert client.get(reverse("privacy:deleted"))["Location"] == reverse("home")
    client.force_login(classroom["teacher"])
    client.post(reverse("privacy:delete", args=[classroom["carla"].pk]), {"username": "carla"})
    page = client.get(reverse("privacy:deleted"))
    assert page.status_code == 200 and "carla" not in page.content.decode()
    assert client.get(reverse("privacy:deleted")).status_code == 302


def test_an_administrators_own_account_is_not_deleted_here(client):
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    url = reverse("privacy:delete", args=[admin.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"username": "root", "password": PASSWORD})
    assert response.status_code == 403 and User.objects.filter(pk=admin.pk).exists()


def test_a_teacher_deletes_a_pupil_with_a_typed_confirmation(client, classroom):
    bruno = classroom["bruno"]
    LogEntry.objects.create(
        user=UserFactory(username="root", is_staff=True, is_superuser=True),
        content_type=ContentType.objects.get_for_model(User),
        object_id=str(bruno.pk),
        object_repr="bruno",
        action_flag=CHANGE,
    )
    client.force_login(classroom["teacher"])
    url = reverse("privacy:delete", args=[bruno.pk])
    page = client.get(url).content.decode()
    assert 'name="password"' not in page and "Klasse 6b" in page
    before = snapshot()
    assert client.post(url, {}).status_code == 400
    assert client.post(url, {"username": "anna"}).status_code == 400
    assert snapshot() == before
    response = client.post(url, {"username": "bruno"})
    assert response["Location"] == reverse("privacy:deleted")
    assert not User.objects.filter(username="bruno").exists()
    assert not LogEntry.objects.filter(object_repr="bruno").exists()
    assert User.objects.filter(username="frau_keller").exists()  # the teacher stays in


def test_a_teacher_may_not_delete_a_pupil_who_is_also_in_another_teachers_class(client, classroom):
    bruno = classroom["bruno"]
    MembershipFactory(school_class=SchoolClassFactory(name="Chor"), learner=bruno)
    client.force_login(classroom["teacher"])
    url = reverse("privacy:delete", args=[bruno.pk])
    page = client.get(url)
    assert page.status_code == 200 and '<form method="post" class="form"' not in (
        page.content.decode()
    )
    before = snapshot()
    response = client.post(url, {"username": "bruno"})
    assert response.status_code == 403 and snapshot() == before
    # An administrator may.
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.post(url, {"username": "bruno"}).status_code == 302
    assert not User.objects.filter(pk=bruno.pk).exists()


def test_deleting_needs_the_csrf_token(classroom):
    client = Client(enforce_csrf_checks=True)
    client.force_login(classroom["teacher"])
    before = snapshot()
    url = reverse("privacy:delete", args=[classroom["anna"].pk])
    assert client.post(url, {"username": "anna"}).status_code == 403
    assert snapshot() == before


def test_class_statistics_after_a_deletion_are_those_of_the_remaining_pupils(classroom):
    """The documented choice: answers are deleted, not re-homed; every count and every
    average of the class is the same as if the pupil had never been a member."""
    school_class, quiz_assignment = classroom["class"], classroom["quiz"]
    anna = classroom["anna"]
    before = results.assignment_results(quiz_assignment)
    grid_before = results.mastery_grid(school_class)
    table_before = results.table_results(school_class, [classroom["table"]])
    annas_row = next(r for r in before.rows if r.learner == anna)
    annas_answers = {
        kind: (
            QuizQuestion.objects.filter(
                quiz__learner=anna, quiz__assignment=quiz_assignment, kind=kind
            ).count(),
            QuizQuestion.objects.filter(
                quiz__learner=anna, quiz__assignment=quiz_assignment, kind=kind, correct=True
            ).count(),
        )
        for kind in quiz_assignment.kinds
    }

    privacy.delete_learner(privacy.access_to(classroom["teacher"], anna.pk))

    after = results.assignment_results(quiz_assignment)
    # Rows: the others, unchanged.
    assert [r.learner.username for r in after.rows] == ["bruno", "carla"]
    others_before = [r for r in before.rows if r.learner != anna]
    assert [(r.right, r.answered, r.cells) for r in after.rows] == [
        (r.right, r.answered, r.cells) for r in others_before
    ]
    # Per kind: anna's answers are out of the counts, nothing else moved.
    for stat_before, stat_after in zip(before.by_kind, after.by_kind, strict=True):
        removed, removed_right = annas_answers[stat_before.kind]
        assert stat_after.answered == stat_before.answered - removed
        assert stat_after.right == stat_before.right - removed_right
    # Averages: those of the remaining rows, and consistent with them.
    assert after.averages.learners == before.averages.learners - 1 == 2
    assert after.averages.submitted == before.averages.submitted - 1
    percents = [r.percent for r in after.rows]
    assert after.averages.mean_percent == round(sum(percents) / len(percents))
    for i, column in enumerate(after.averages.columns):
        old = before.averages.columns[i]
        cell = annas_row.cells[i]
        assert column.answered == old.answered - (cell.state != results.UNANSWERED)
        assert column.right == old.right - (cell.state == results.RIGHT)

    grid_after = results.mastery_grid(school_class)
    assert [r.learner.username for r in grid_after.rows] == ["bruno", "carla"]
    for i, average in enumerate(grid_after.averages):
        practised = [r.cells[i].mastery for r in grid_after.rows if r.cells[i].mastery is not None]
        assert average.practised == len(practised)
        expected = sum(practised) / len(practised) if practised else None
        assert average.mastery == pytest.approx(expected) if practised else average.mastery is None
        assert average.practised == grid_before.averages[i].practised - (
            next(r for r in grid_before.rows if r.learner == anna).cells[i].mastery is not None
        )

    table_after = results.table_results(school_class, [classroom["table"]])
    stoeck_before = next(t for t in table_before.skills if t.skill == "stoeck")
    stoeck_after = next(t for t in table_after.skills if t.skill == "stoeck")
    assert (stoeck_after.right, stoeck_after.wrong) == (
        stoeck_before.right - 3,
        stoeck_before.wrong - 1,
    )
    assert (stoeck_after.right, stoeck_after.wrong) == (0, 3)  # bruno's round alone
    assert table_after.started == table_before.started - 1


def test_the_deleted_username_is_nowhere_in_the_results_pages_or_csv(client, classroom):
    anna = classroom["anna"]
    teacher = classroom["teacher"]
    client.force_login(teacher)
    pages = [
        reverse("classroom:class_detail", args=[classroom["class"].pk]),
        reverse("classroom:assignment_results", args=[classroom["quiz"].pk]),
        reverse("classroom:assignment_results_csv", args=[classroom["quiz"].pk]),
        reverse("classroom:assignment_results", args=[classroom["table"].pk]),
        reverse("classroom:assignment_results_csv", args=[classroom["table"].pk]),
        reverse("classroom:class_mastery", args=[classroom["class"].pk]),
        reverse("classroom:class_mastery_csv", args=[classroom["class"].pk]),
    ]
    for url in pages:  # the marker is a real one: it shows before
        assert "anna" in client.get(url).content.decode("utf-8-sig"), url
    response = client.post(reverse("privacy:delete", args=[anna.pk]), {"username": "anna"})
    assert response.status_code == 302
    client.get(response["Location"])
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode("utf-8-sig")
        assert "anna" not in body, url
        assert "bruno" in body and "carla" in body, url
    history = reverse("classroom:learner_history", args=[classroom["class"].pk, anna.pk])
    assert client.get(history).status_code == 404


# --- fuzzed confirmation forms ----------------------------------------------------------

junk = st.one_of(
    st.text(max_size=40),
    st.text(min_size=150, max_size=5000),
    st.sampled_from(["", " ", "anna", "ANNA", "anna\x00", PASSWORD, "<script>", "=1+1"]),
)


@hypothesis_settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_confirmations_never_give_a_500_and_refusals_change_nothing(classroom, data):
    anna = classroom["anna"]
    url = reverse("privacy:delete", args=[anna.pk])
    for person, fields in ((anna, ["username", "password"]), (classroom["teacher"], ["username"])):
        client = Client()
        if User.objects.filter(pk=person.pk).exists():  # an earlier example may have deleted it
            client.force_login(person)
        names = data.draw(st.lists(st.sampled_from([*fields, "unexpected"]), unique=True))
        payload = {name: data.draw(st.one_of(junk, st.lists(junk, max_size=3))) for name in names}
        before = snapshot()
        response = client.post(url, payload)
        assert response.status_code < 500, payload
        if response.status_code >= 400:
            assert snapshot() == before, payload
        # Too many wrong passwords lock the form; start each example afresh. (A right
        # guess deletes the account; later examples then meet a 404 or the login.)
        AccessAttempt.objects.all().delete()


def test_deleting_an_account_elsewhere_also_forgets_its_sessions_and_login_records(classroom):
    """The Django admin or a script deletes the row directly: the pre_delete hook
    (ClassroomConfig.ready) still removes what the foreign keys do not reach."""
    anna = classroom["anna"]
    browser = Client()
    browser.force_login(anna)
    key = browser.session.session_key
    assert AccessLog.objects.filter(username="anna").exists()
    User.objects.get(pk=anna.pk).delete()
    assert not UserSession.objects.filter(pk=key).exists()
    assert not AccessLog.objects.filter(username="anna").exists()
    assert AccessLog.objects.filter(username="bruno").count() == 1
