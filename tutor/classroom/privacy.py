"""What the site stores about one learner: who may see it, the export, and deletion.

The shape of the export and the reasons behind the choices are documented in
``docs/data-protection.md``; this module is the one place that knows every table a
learner's data lives in. It sits in the class app because it reads every lower app
(quizzes, table, lessons, accounts) and the login records of django-axes; nothing
below imports it.

Access (:func:`access_to`): the learner themself, the teacher of a class the learner
is in (while they are), or an administrator (staff or superuser). Anybody else gets
a 404, so a foreign id reveals nothing.

Deletion removes the account and everything hanging off it, and with it the
learner's answers in class results: results pages compute every row, count and
average from the stored answers of the class's current members on each request, so
after a deletion they are those of the remaining pupils, exactly as when a pupil
leaves the class. A per-class placeholder was rejected: with one deleted pupil in a
class it would hold that pupil's answers under a label everybody can put a name to.
"""

from __future__ import annotations

import io
import json
import logging
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from importlib import import_module
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tutor.accounts.models import Role, User, UserSession
from tutor.accounts.throttle import login_name
from tutor.lessons.models import LessonRead
from tutor.quizzes.models import Quiz, QuizQuestion, SkillState
from tutor.quizzes.selectors import skill_states
from tutor.quizzes.services import explanations_visible
from tutor.table.models import TableRound

from .csv_export import csv_text
from .models import Membership, SchoolClass

logger = logging.getLogger("tutor.accounts.security")

SCHEMA = "jass-tutor/learner-export"
SCHEMA_VERSION = 1


class PrivacyError(Exception):
    """A refused deletion; the message says why, for the page."""


class Relation(StrEnum):
    """How the person asking relates to the learner whose data it is."""

    SELF = "self"
    TEACHER = "teacher"
    ADMINISTRATOR = "administrator"


@dataclass(frozen=True)
class Access:
    learner: User
    requester: User
    relation: Relation

    @property
    def is_self(self) -> bool:
        return self.relation == Relation.SELF


def is_administrator(user: User) -> bool:
    return user.is_active and (user.is_superuser or user.is_staff)


def access_to(requester: User, learner_id: int) -> Access:
    """The learner whose data ``requester`` may see, and how; any other id is a 404.

    Only learner accounts are handled here; a teacher's or an administrator's
    account is somebody else's business (the admin), even for an administrator.
    """
    if requester.pk == learner_id and requester.role == Role.LEARNER:
        return Access(requester, requester, Relation.SELF)
    learner = User.objects.filter(
        pk=learner_id, role=Role.LEARNER, is_staff=False, is_superuser=False
    ).first()
    if learner is None:
        raise Http404("No such learner")
    if is_administrator(requester):
        return Access(learner, requester, Relation.ADMINISTRATOR)
    if (
        requester.role == Role.TEACHER
        and Membership.objects.filter(learner=learner, school_class__teacher=requester).exists()
    ):
        return Access(learner, requester, Relation.TEACHER)
    raise Http404("No such learner")


def deletion_refusal(access: Access) -> str | None:
    """Why ``access`` does not allow deleting the account; None when it does."""
    learner = access.learner
    if learner.is_staff or learner.is_superuser:
        return _(
            "An administrator's account is not deleted here: another administrator "
            "deletes it in the administration."
        )
    if (
        access.relation == Relation.TEACHER
        and Membership.objects.filter(learner=learner)
        .exclude(school_class__teacher=access.requester)
        .exists()
    ):
        # The account holds work done for another teacher's class: one teacher may
        # not erase what another one's class results are made of.
        return _(
            "This pupil is also in a class of another teacher, so you cannot delete the "
            "account. You can remove the pupil from your class; the pupil or an "
            "administrator can delete the account."
        )
    return None


# --- what is stored ----------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """What the overview and the confirmation pages count."""

    classes: list[SchoolClass]
    quizzes: int
    answers: int
    skills: int
    table_rounds: int
    lessons_read: int
    logins: int
    login_failures: int
    sessions: int


def summary(learner: User) -> Summary:
    name = login_name(learner.username)
    return Summary(
        classes=list(
            SchoolClass.objects.filter(memberships__learner=learner)
            .select_related("teacher")
            .order_by("name", "id")
        ),
        quizzes=Quiz.objects.filter(learner=learner).count(),
        answers=QuizQuestion.objects.filter(
            quiz__learner=learner, answered_at__isnull=False
        ).count(),
        skills=SkillState.objects.filter(learner=learner).count(),
        table_rounds=TableRound.objects.filter(learner=learner).count(),
        lessons_read=LessonRead.objects.filter(user=learner).count(),
        logins=AccessLog.objects.filter(username=name).count(),
        login_failures=AccessAttempt.objects.filter(username=name).count()
        + AccessFailureLog.objects.filter(username=name).count(),
        sessions=len(list(_sessions_of(learner))),
    )


def _session_store() -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore


def _sessions_of(user: User, *, expired: bool = False) -> Iterator[tuple[str, datetime]]:
    """(key, expiry) of the stored sessions logged in as ``user``; with ``expired``,
    also those past their expiry (they stay in the table until ``clearsessions``).
    Found by the user's id, an indexed column (``accounts.sessions``): the cost does not
    grow with other people's sessions."""
    rows = UserSession.objects.filter(user_id=user.pk)
    if not expired:
        rows = rows.filter(expire_date__gt=timezone.now())
    yield from rows.order_by("expire_date").values_list("session_key", "expire_date")


# --- the export ------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One table of the export: a list in the JSON document, a CSV file in the zip."""

    name: str
    columns: tuple[str, ...]
    description: Any  # lazy text, for the README of the zip


SECTIONS: tuple[Section, ...] = (
    Section(
        "account",
        (
            "id",
            "username",
            "first_name",
            "last_name",
            "email",
            "role",
            "deck",
            "is_active",
            "date_joined",
            "last_login",
            "must_set_password",
            "email_verified_at",
        ),
        gettext_lazy("The account (one row). The password is stored only as a hash."),
    ),
    Section(
        "classes",
        ("class_id", "class_name", "teacher", "joined_at"),
        gettext_lazy("The classes the learner is in."),
    ),
    Section(
        "quizzes",
        (
            "quiz_id",
            "source",
            "assignment_id",
            "assignment_title",
            "class_id",
            "lesson",
            "attempt",
            "rules",
            "created_at",
            "completed_at",
            "submitted_at",
            "late",
        ),
        gettext_lazy("Practice quizzes, lesson questions and attempts at assignments."),
    ),
    Section(
        "answers",
        (
            "quiz_id",
            "question_number",
            "kind",
            "released",
            "seed",
            "question",
            "shown_at",
            "answered_at",
            "answered_choice",
            "correct",
            "counted_for_mastery_at",
        ),
        gettext_lazy(
            "Every question of those quizzes and the answer given. Where released is 0 "
            "the question is not answered yet or its assignment shows solutions only after "
            "the due date: seed, question and correct stay empty until then."
        ),
    ),
    Section(
        "mastery",
        ("skill", *SkillState.REVIEWED_FIELDS),
        gettext_lazy("Mastery per skill and when it is due for review."),
    ),
    Section(
        "table_rounds",
        (
            "round_id",
            "focus",
            "assignment_id",
            "assignment_title",
            "class_id",
            "round_number",
            "released",
            "seed",
            "rules",
            "scenario",
            "moves",
            "move_count",
            "judgements_counted",
            "tally",
            "created_at",
            "last_move_at",
            "finished_at",
        ),
        gettext_lazy(
            "Rounds at the table with every move. Until a round is finished (released 0) "
            "its deal (seed, scenario) stays empty: it holds the other players' cards."
        ),
    ),
    Section(
        "lessons_read",
        ("lesson", "read_at"),
        gettext_lazy("Lessons marked as read."),
    ),
    Section(
        "logins",
        ("logged_in_at", "logged_out_at", "ip_address", "user_agent", "path"),
        gettext_lazy("Successful logins (address and browser)."),
    ),
    Section(
        "login_failures",
        ("record", "attempted_at", "ip_address", "user_agent", "path", "failures", "locked_out"),
        gettext_lazy("Failed logins under this username still counted for throttling."),
    ),
    Section(
        "sessions",
        ("expires_at",),
        gettext_lazy("Browsers where the learner is logged in (the session keys are secret)."),
    ),
)

Row = dict[str, Any]


@dataclass(frozen=True)
class ExtraSection:
    """A table an app above the classroom adds to the export, with its rows."""

    section: Section
    rows: Callable[[User, datetime], list[Row]]


# Tables of apps above this one, which it may not import (the layers in pyproject.toml):
# tutor.lti adds what a school platform sent and the grades sent back, when it is ready.
EXTRA_SECTIONS: list[ExtraSection] = []


def all_sections() -> tuple[Section, ...]:
    """Every table of the export: the classroom's, then the other apps'."""
    return SECTIONS + tuple(extra.section for extra in EXTRA_SECTIONS)


@dataclass(frozen=True)
class Export:
    access: Access
    exported_at: datetime
    tables: dict[str, list[Row]]


def _account(learner: User) -> list[Row]:
    return [
        {
            "id": learner.pk,
            "username": learner.username,
            "first_name": learner.first_name,
            "last_name": learner.last_name,
            "email": learner.email,
            "role": learner.role,
            "deck": learner.deck,
            "is_active": learner.is_active,
            "date_joined": learner.date_joined,
            "last_login": learner.last_login,
            "must_set_password": learner.must_set_password,
            "email_verified_at": learner.email_verified_at,
        }
    ]


def _classes(learner: User) -> list[Row]:
    memberships = (
        Membership.objects.filter(learner=learner)
        .select_related("school_class__teacher")
        .order_by("joined_at", "id")
    )
    return [
        {
            "class_id": m.school_class_id,
            "class_name": m.school_class.name,
            "teacher": m.school_class.teacher.display_name,
            "joined_at": m.joined_at,
        }
        for m in memberships
    ]


def _quizzes_and_answers(learner: User, now: datetime) -> tuple[list[Row], list[Row]]:
    quizzes = list(
        Quiz.objects.filter(learner=learner)
        .select_related("assignment", "lesson")
        .order_by("created_at", "id")
    )
    by_id = {quiz.pk: quiz for quiz in quizzes}
    quiz_rows = [
        {
            "quiz_id": quiz.pk,
            "source": quiz.source,
            "assignment_id": quiz.assignment_id,
            "assignment_title": quiz.assignment.title if quiz.assignment else None,
            "class_id": quiz.assignment.school_class_id if quiz.assignment else None,
            "lesson": quiz.lesson.slug if quiz.lesson else None,
            "attempt": quiz.attempt,
            "rules": quiz.rules,
            "created_at": quiz.created_at,
            "completed_at": quiz.completed_at,
            "submitted_at": quiz.submitted_at,
            "late": quiz.late,
        }
        for quiz in quizzes
    ]
    answer_rows = []
    for question in QuizQuestion.objects.filter(quiz__learner=learner).order_by(
        "quiz__created_at", "quiz_id", "position"
    ):
        # The stored question holds the right answer and its explanation: the export
        # may not show them before the quiz page would.
        released = question.answered_at is not None and explanations_visible(
            by_id[question.quiz_id], now
        )
        answer_rows.append(
            {
                "quiz_id": question.quiz_id,
                "question_number": question.position + 1,
                "kind": question.kind,
                "released": released,
                "seed": question.seed if released else None,
                "question": question.question if released else None,
                "shown_at": question.shown_at,
                "answered_at": question.answered_at,
                "answered_choice": question.answered_choice,
                "correct": question.correct if released else None,
                "counted_for_mastery_at": question.skill_recorded_at,
            }
        )
    return quiz_rows, answer_rows


def _mastery(learner: User, now: datetime) -> list[Row]:
    # As the pages show it: answers whose solutions were released since count.
    states = skill_states([learner.pk], now)
    return [
        {
            "skill": state.skill,
            "mastery": state.mastery,
            "attempts": state.attempts,
            "correct": state.correct,
            "streak": state.streak,
            "last_answered_at": state.last_answered_at,
            "due_at": state.due_at,
            "fsrs_card": state.fsrs_card,
        }
        for _key, state in sorted(states.items())
    ]


def _table_rounds(learner: User) -> list[Row]:
    rows = []
    for round_ in (
        TableRound.objects.filter(learner=learner)
        .select_related("assignment")
        .order_by("created_at", "id")
    ):
        # The scenario holds every player's hand, the seed rebuilds it.
        released = round_.finished_at is not None
        rows.append(
            {
                "round_id": round_.pk,
                "focus": round_.focus,
                "assignment_id": round_.assignment_id,
                "assignment_title": round_.assignment.title if round_.assignment else None,
                "class_id": round_.assignment.school_class_id if round_.assignment else None,
                "round_number": (
                    round_.assignment_index + 1 if round_.assignment_index is not None else None
                ),
                "released": released,
                "seed": round_.seed if released else None,
                "rules": round_.rules,
                "scenario": round_.scenario if released else None,
                "moves": round_.moves,
                "move_count": round_.move_count,
                "judgements_counted": round_.recorded,
                "tally": round_.tally,
                "created_at": round_.created_at,
                "last_move_at": round_.last_move_at,
                "finished_at": round_.finished_at,
            }
        )
    return rows


def _lessons_read(learner: User) -> list[Row]:
    return [
        {"lesson": read.lesson.slug, "read_at": read.read_at}
        for read in LessonRead.objects.filter(user=learner)
        .select_related("lesson")
        .order_by("read_at", "id")
    ]


def _logins(learner: User) -> list[Row]:
    return [
        {
            "logged_in_at": log.attempt_time,
            "logged_out_at": log.logout_time,
            "ip_address": log.ip_address,
            "user_agent": log.user_agent,
            "path": log.path_info,
        }
        for log in AccessLog.objects.filter(username=login_name(learner.username)).order_by(
            "attempt_time"
        )
    ]


def _login_failures(learner: User) -> list[Row]:
    # get_data and post_data are left out: the form as sent (masked password, CSRF token).
    rows = [
        {
            "record": "counter",
            "attempted_at": attempt.attempt_time,
            "ip_address": attempt.ip_address,
            "user_agent": attempt.user_agent,
            "path": attempt.path_info,
            "failures": attempt.failures_since_start,
            "locked_out": None,
        }
        for attempt in AccessAttempt.objects.filter(username=login_name(learner.username))
    ]
    rows += [
        {
            "record": "log",
            "attempted_at": log.attempt_time,
            "ip_address": log.ip_address,
            "user_agent": log.user_agent,
            "path": log.path_info,
            "failures": None,
            "locked_out": log.locked_out,
        }
        for log in AccessFailureLog.objects.filter(username=login_name(learner.username))
    ]
    return sorted(rows, key=lambda row: row["attempted_at"])


def collect(access: Access, now: datetime | None = None) -> Export:
    """Everything stored about ``access.learner``, table by table (see ``SECTIONS``)."""
    now = now or timezone.now()
    learner = access.learner
    quizzes, answers = _quizzes_and_answers(learner, now)
    tables = {
        "account": _account(learner),
        "classes": _classes(learner),
        "quizzes": quizzes,
        "answers": answers,
        "mastery": _mastery(learner, now),
        "table_rounds": _table_rounds(learner),
        "lessons_read": _lessons_read(learner),
        "logins": _logins(learner),
        "login_failures": _login_failures(learner),
        "sessions": [{"expires_at": expiry} for _key, expiry in _sessions_of(learner)],
    }
    for extra in EXTRA_SECTIONS:
        tables[extra.section.name] = extra.rows(learner, now)
    logger.info(
        "data export of user %s by user %s (%s)", learner.pk, access.requester.pk, access.relation
    )
    return Export(access=access, exported_at=now, tables=tables)


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return value


def export_json(export: Export) -> bytes:
    """The export as one JSON document (shape: docs/data-protection.md)."""
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "exported_at": _json_value(export.exported_at),
        "exported_by": str(export.access.relation),
    }
    for section in all_sections():
        rows = [
            {column: _json_value(row[column]) for column in section.columns}
            for row in export.tables[section.name]
        ]
        document[section.name] = rows[0] if section.name == "account" else rows
    return json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")


def _csv_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return value


def _readme(export: Export) -> str:
    lines = [
        _("Everything the Jass rules tutor stores about %(name)s, exported %(when)s.")
        % {
            "name": export.access.learner.username,
            "when": timezone.localtime(export.exported_at).strftime("%Y-%m-%d %H:%M"),
        },
        _(
            "One CSV file per table (UTF-8, semicolons). Times are local time "
            "(%(zone)s); structured values are JSON. export.json holds the same data "
            "as one document (times in UTC)."
        )
        % {"zone": settings.TIME_ZONE},
        f"schema: {SCHEMA}, schema_version: {SCHEMA_VERSION}",
        "",
    ]
    for section in all_sections():
        lines.append(f"{section.name}.csv: {section.description}")
    return "\r\n".join(lines) + "\r\n"


def export_zip(export: Export) -> bytes:
    """The export as a zip of one CSV file per table, a README and the JSON document."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", _readme(export).encode("utf-8"))
        for section in all_sections():
            rows = (
                [_csv_value(row[column]) for column in section.columns]
                for row in export.tables[section.name]
            )
            text = csv_text(section.columns, rows)
            archive.writestr(f"{section.name}.csv", text.encode("utf-8"))
        archive.writestr("export.json", export_json(export))
    return buffer.getvalue()


def export_filename(export: Export, extension: str) -> str:
    """'jass-data_anna-meier_2025-03-01.json': ASCII, so every browser saves it as sent."""
    name = slugify(export.access.learner.username) or "learner"
    day = timezone.localtime(export.exported_at).strftime("%Y-%m-%d")
    return f"jass-data_{name[:60]}_{day}.{extension}"


# --- deletion ---------------------------------------------------------------------------


def forget_traces(user: User) -> None:
    """Remove what names ``user`` outside the foreign keys that cascade: the sessions
    logged in as them (expired ones too), django-axes' login records under the
    username, and the admin's history entries about the account.

    Connected to ``pre_delete`` of the user model, so deleting an account anywhere
    (these pages, the Django admin, the shell) leaves none of these behind.
    """
    store = _session_store()
    for key, _expiry in list(_sessions_of(user, expired=True)):
        store(session_key=key).delete()
    name = login_name(user.username)
    AccessLog.objects.filter(username=name).delete()
    AccessAttempt.objects.filter(username=name).delete()
    AccessFailureLog.objects.filter(username=name).delete()
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)
    ).delete()


def forget_on_delete(sender: type[User], instance: User, **kwargs: Any) -> None:
    forget_traces(instance)


def delete_learner(access: Access) -> Summary:
    """Delete the learner's account and everything stored about them; returns what
    was there, counted just before.

    The account row takes with it (by cascade) the memberships, quizzes with their
    answers, mastery, rounds at the table and lessons read. Outside those foreign keys:
    the login records of django-axes (by username), the sessions logged in as the
    learner, and the admin's history entries about the account, which name it.

    Raises :class:`PrivacyError` when :func:`deletion_refusal` refuses.
    """
    refusal = deletion_refusal(access)
    if refusal is not None:
        raise PrivacyError(refusal)
    learner = access.learner
    learner_pk, requester_pk = learner.pk, access.requester.pk
    with transaction.atomic():
        counted = summary(learner)
        learner.delete()  # forget_traces runs first (pre_delete, ClassroomConfig.ready)
    logger.info(
        "account deleted: user %s by user %s (%s)", learner_pk, requester_pk, access.relation
    )
    return counted
