"""Tables carry only the indexes their queries use (issue 24).

A foreign key's own index repeats the first column of a composite index that starts
with the same column: every lookup by the key can use the composite one, and the
single-column index is one more insert per row stored and per update that moves the
row. The composite index must hold for every row (no ``condition``), or it covers
only some lookups: the quiz's learner keeps its own index, as ``unique_lesson_quiz``
holds for lesson quizzes only."""

from __future__ import annotations

import pytest
from django.db import connection, models

from tutor.quizzes.models import QuizQuestion, SkillState
from tutor.table.models import TableRound

pytestmark = pytest.mark.django_db


def _constraints(model: type[models.Model]) -> dict[str, dict]:
    """The table's constraints and indexes, as the database reports them."""
    with connection.cursor() as cursor:
        return connection.introspection.get_constraints(cursor, model._meta.db_table)


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


def _covering(model: type[models.Model], column: str) -> list[str]:
    """The unconditional unique constraints and indexes of ``model`` whose first
    column is ``column``."""
    firsts = []
    for rule in [*model._meta.constraints, *model._meta.indexes]:
        fields = getattr(rule, "fields", ())
        if (
            fields
            and getattr(rule, "condition", None) is None
            and model._meta.get_field(fields[0]).column == column
        ):
            firsts.append(rule.name)
    return firsts


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (SkillState, set()),
        (TableRound, {("learner_id", "finished_at")}),
    ],
)
def test_no_index_repeats_the_first_column_of_another(model, expected):
    plain = {tuple(columns) for columns in _plain_indexes(model).values()}
    assert plain == expected


@pytest.mark.parametrize(
    ("model", "column"),
    [
        (SkillState, "learner_id"),
        (TableRound, "learner_id"),
        (TableRound, "assignment_id"),
    ],
)
def test_a_key_without_its_own_index_leads_an_index_that_holds_for_every_row(model, column):
    assert _covering(model, column), f"{model.__name__}.{column}: no index starts with it"


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
