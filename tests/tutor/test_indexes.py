"""Tables carry only the indexes their queries use (issue 24).

A foreign key's own index repeats the first column of a composite index that starts
with the same column: every lookup by the key can use the composite one, and the
single-column index is one more insert per row stored and per update that moves the
row. The composite index must hold for every row (no ``condition``), or it covers
only some lookups: the quiz's learner keeps its own index, as ``unique_lesson_quiz``
holds for lesson quizzes only.

The checks run over every model of the site, so an index added later is held to the
same rule; a key without an index of its own must still lead one, or deleting the row
it points to (``on_delete=CASCADE``) would read the whole table."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection, models

from tutor.quizzes.models import QuizQuestion, SkillState
from tutor.table.models import TableRound

pytestmark = pytest.mark.django_db

SITE_MODELS = sorted(
    (m for m in apps.get_models() if m.__module__.startswith("tutor.") and m._meta.managed),
    key=lambda m: m._meta.label,
)


def _constraints(model: type[models.Model]) -> dict[str, dict]:
    """The table's constraints and indexes, as the database reports them."""
    with connection.cursor() as cursor:
        return connection.introspection.get_constraints(cursor, model._meta.db_table)


def _conditional(model: type[models.Model]) -> set[str]:
    """The names of the model's partial indexes and constraints (the database's
    introspection does not report their conditions)."""
    return {
        rule.name
        for rule in [*model._meta.constraints, *model._meta.indexes]
        if getattr(rule, "condition", None) is not None
    }


def _plain_indexes(model: type[models.Model]) -> dict[str, list[str]]:
    """The table's indexes besides its primary key and unique constraints, and
    PostgreSQL's ``_like`` twins (another operator class, for LIKE lookups)."""
    return {
        name: details["columns"]
        for name, details in _constraints(model).items()
        if details["index"]
        and not details["primary_key"]
        and not details["unique"]
        and not name.endswith("_like")
    }


def _whole(model: type[models.Model]) -> list[tuple[str, list[str]]]:
    """The table's indexes, unique constraints and primary key that hold for every row
    (no condition), with their columns, as the database reports them."""
    conditional = _conditional(model)
    return [
        (name, details["columns"])
        for name, details in _constraints(model).items()
        if (details["index"] or details["unique"] or details["primary_key"])
        and details["columns"]
        and name not in conditional
        and not name.endswith("_like")
    ]


def _repeated(model: type[models.Model]) -> list[str]:
    """Each plain, unconditional index whose columns lead another index or unique
    constraint of the table that holds for every row, with the one that covers it."""
    whole = _whole(model)
    plain = _plain_indexes(model)
    return [
        f"{name} {columns} leads {other} {wider}"
        for name, columns in whole
        if name in plain
        for other, wider in whole
        if other != name and len(wider) > len(columns) and wider[: len(columns)] == columns
    ]


def _covering(model: type[models.Model], column: str) -> list[str]:
    """The table's indexes and unique constraints that hold for every row and whose
    first column is ``column``."""
    return [name for name, columns in _whole(model) if columns[0] == column]


def _keys_without_index(model: type[models.Model]) -> list[str]:
    return [
        field.column
        for field in model._meta.concrete_fields
        if field.is_relation and not field.db_index and not field.unique
    ]


@pytest.mark.parametrize("model", SITE_MODELS, ids=lambda m: m._meta.label)
def test_no_index_repeats_the_leading_columns_of_another(model):
    assert _repeated(model) == []


@pytest.mark.parametrize("model", SITE_MODELS, ids=lambda m: m._meta.label)
def test_a_key_without_its_own_index_leads_an_index_that_holds_for_every_row(model):
    for column in _keys_without_index(model):
        assert _covering(model, column), f"{model.__name__}.{column}: no index starts with it"


def test_the_checks_see_what_they_look_for():
    """The checks above pass vacuously if they find nothing to check: they must see the
    keys that gave up their own index, and would see an index that repeats."""
    keys = {
        (model._meta.label, column)
        for model in SITE_MODELS
        for column in _keys_without_index(model)
    }
    assert {
        ("quizzes.SkillState", "learner_id"),
        ("quizzes.QuizQuestion", "quiz_id"),
        ("table.TableRound", "learner_id"),
        ("table.TableRound", "assignment_id"),
        ("classroom.Membership", "school_class_id"),
        ("lessons.LessonText", "lesson_id"),
        ("lessons.LessonRead", "user_id"),
        ("lti.GradePost", "link_id"),
    } <= keys
    # Inside the test's transaction, so it is gone after it (both databases roll DDL back).
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE INDEX probe_repeats_learner ON {SkillState._meta.db_table} (learner_id)"
        )
    assert _repeated(SkillState) == [
        "probe_repeats_learner ['learner_id'] leads unique_learner_skill ['learner_id', 'skill']"
    ]


def test_the_round_keeps_its_one_composite_index():
    plain = {tuple(columns) for columns in _plain_indexes(TableRound).values()}
    assert plain == {("learner_id", "finished_at")}


def test_questions_carry_only_the_indexes_their_queries_use():
    """Each index of the questions' table is one more insert per question stored and
    per answer. The one on (kind, answered_at) was never used by a query, and
    PostgreSQL planned a learner's progress with it, reading every learner's answers in
    answer order (9.6 ms against 0.24 ms on the benchmark's data); the quiz's own index
    repeated the first column of (quiz, position). An index added here needs the query
    that uses it."""
    # Besides the primary key and the unique (quiz, position), which every lookup by
    # quiz uses: only the partial index of the answers waiting to count.
    assert set(_plain_indexes(QuizQuestion)) == {"quizquestion_unsettled"}
    assert _constraints(QuizQuestion)["unique_quiz_position"]["columns"] == ["quiz_id", "position"]
