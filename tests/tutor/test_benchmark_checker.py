"""The web benchmark's reconciliation must notice every kind of lost or extra answer.

The load run itself is too long for the suite (``make bench``); its verdict rests on
``reconcile`` and, for the table rounds, ``check_round`` and ``reconcile_tables``, so
those are tested here against planted errors.
"""

import pytest

from bench.data import (
    Ack,
    TableLog,
    check_round,
    judgement_counts,
    reconcile,
    reconcile_tables,
)
from teaching.table import reference_move
from tests.factories import LearnerFactory, TableRoundFactory
from tutor.quizzes.models import Quiz, SkillState
from tutor.quizzes.services import answer, create_quiz
from tutor.table.models import TableRound
from tutor.table.services import play_move, table_of

# reconcile() closes its connection, as the benchmark process needs; a test
# transaction would not survive that on PostgreSQL.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def answered():
    """A learner with a three-question quiz, two questions answered and acknowledged."""
    learner = LearnerFactory()
    quiz = create_quiz(learner=learner, kinds=["ladder_step"] * 3, seeds=[1, 2, 3])
    acks = []
    for position in (0, 1):
        question = quiz.questions.get(position=position)
        choice = question.question["choices"][position]["key"]
        answer(learner=learner, question=question, choice=choice)
        acks.append(Ack(learner.username, quiz.pk, position, choice, "class"))
    return learner, quiz, acks


def test_matching_acknowledgements_are_clean(answered):
    learner, _quiz, acks = answered
    report = reconcile([learner.pk], acks)
    assert report.clean
    assert (report.acknowledged, report.answered_in_db, report.skill_states) == (2, 2, 1)


def test_an_acknowledged_answer_that_is_not_stored_is_lost(answered):
    learner, quiz, acks = answered
    report = reconcile([learner.pk], [*acks, Ack(learner.username, quiz.pk, 2, "a", "class")])
    assert len(report.lost) == 1 and "not stored" in report.lost[0]
    assert not report.clean


def test_an_acknowledged_answer_stored_with_another_choice_is_lost(answered):
    learner, quiz, acks = answered
    stored = acks[0].choice
    other = next(k for k in "abcde" if k != stored)
    wrong = Ack(learner.username, quiz.pk, 0, other, "class")
    report = reconcile([learner.pk], [wrong, acks[1]])
    assert len(report.lost) == 1 and f"stored {stored!r}" in report.lost[0]


def test_a_stored_answer_nobody_was_told_about_is_unacknowledged(answered):
    learner, _quiz, acks = answered
    report = reconcile([learner.pk], acks[:1])
    assert len(report.unacknowledged) == 1 and not report.lost


def test_two_200s_for_one_question_are_a_duplicate(answered):
    learner, _quiz, acks = answered
    report = reconcile([learner.pk], [*acks, acks[0]])
    assert len(report.duplicated) == 1


def test_a_409_retry_after_a_crash_is_not_a_duplicate(answered):
    learner, _quiz, acks = answered
    retry = Ack(acks[0].learner, acks[0].quiz_id, 0, acks[0].choice, "fault", how="409")
    assert reconcile([learner.pk], [*acks, retry]).clean


def test_a_skill_state_that_counted_too_many_answers_is_a_duplicate(answered):
    learner, _quiz, acks = answered
    state = SkillState.objects.get(learner=learner)
    state.attempts += 1
    state.save()
    report = reconcile([learner.pk], acks)
    assert len(report.skill_mismatches) == 1 and len(report.duplicated) == 1


def test_a_wrong_completion_mark_is_reported(answered):
    learner, quiz, acks = answered
    Quiz.objects.filter(pk=quiz.pk).update(completed_at="2026-01-01T00:00:00Z")
    report = reconcile([learner.pk], acks)
    assert len(report.completion_mismatches) == 1


# --- the table rounds (issue 14) ------------------------------------------------------
# ``check_round`` is pure: the client's log of one round against the stored one.

MOVES = [{"play": "H7", "announce": 0}, {"play": "S6"}, {"writes": {"team": None, "points": 0}}]


def table_log(acked, refused=(), finished=False):
    return TableLog(
        "bench-000", 1, 7, "stoeck", acked=list(acked), refused=list(refused), finished=finished
    )


def told(moves=MOVES):
    return [(n, move) for n, move in enumerate(moves)]


def test_a_round_stored_as_acknowledged_is_clean():
    check = check_round(table_log(told()), list(MOVES), len(MOVES), finished=False)
    assert check.clean


def test_an_acknowledged_move_missing_from_the_log_is_lost():
    check = check_round(table_log(told()), MOVES[:2], 2, finished=False)
    assert len(check.lost) == 1 and "move 3" in check.lost[0] and "not stored" in check.lost[0]
    assert not check.clean


def test_another_move_at_an_acknowledged_place_is_lost():
    stored = [MOVES[0], {"play": "S7"}, MOVES[2]]
    check = check_round(table_log(told()), stored, 3, finished=False)
    assert len(check.lost) == 1 and "move 2" in check.lost[0]


def test_a_move_acknowledged_twice_for_one_move_count_is_doubled():
    acked = [*told(), (1, MOVES[1])]
    stored = [MOVES[0], MOVES[1], MOVES[1], MOVES[2]]
    check = check_round(table_log(acked), stored, 4, finished=False)
    assert len(check.doubled) == 1 and "acknowledged 2 times" in check.doubled[0]
    assert not check.clean


def test_a_move_count_out_of_step_with_the_log_is_doubled():
    check = check_round(table_log(told()), list(MOVES), 4, finished=False)
    assert check.doubled == ["bench-000 round 7: move_count 4, 3 moves stored"]


def test_a_stale_move_refused_and_absent_is_clean():
    # The back button: the page for move count 1 posts another card after move 2 was made.
    check = check_round(
        table_log(told(), refused=[(1, {"play": "S9"})]), list(MOVES), 3, finished=False
    )
    assert check.clean


def test_a_stale_move_refused_but_stored_is_detected():
    stale = {"play": "S9"}
    stored = [*MOVES, stale]
    check = check_round(table_log(told(), refused=[(1, stale)]), stored, 4, finished=False)
    assert len(check.refused_stored) == 1 and "move 4" in check.refused_stored[0]
    assert not check.unacknowledged and not check.clean


def test_a_second_tab_refused_but_stored_in_place_of_the_first_is_detected():
    other = {"play": "S9"}
    stored = [MOVES[0], other, MOVES[2]]
    check = check_round(table_log(told(), refused=[(1, other)]), stored, 3, finished=False)
    assert len(check.refused_stored) == 1 and len(check.lost) == 1


def test_a_stored_move_nobody_was_told_about_is_unacknowledged():
    check = check_round(table_log(told(MOVES[:2])), list(MOVES), 3, finished=False)
    assert len(check.unacknowledged) == 1 and "move 3" in check.unacknowledged[0]


def test_a_round_the_client_saw_end_must_be_finished():
    check = check_round(table_log(told(), finished=True), list(MOVES), 3, finished=False)
    assert len(check.finish) == 1 and not check.clean
    check = check_round(table_log(told()), list(MOVES), 3, finished=True)
    assert len(check.finish) == 1


# ``reconcile_tables`` against rounds played through the site's own service.


@pytest.fixture
def played():
    """A learner's round aimed at Stöck, played to the end by the reference learner
    with one illegal card first (a wrong judgement), and the client's log of it."""
    learner = LearnerFactory()
    round_ = TableRoundFactory(learner=learner, seed=2)
    log = TableLog(learner.username, learner.pk, round_.pk, round_.focus)
    table = table_of(round_)
    illegal = next(c for c in table.hand if c not in table.legal) if table.legal else None
    while table.phase != "done":
        if illegal and table.phase == "play" and illegal in table.hand:
            move = {"play": illegal}
            illegal = None
        else:
            move = reference_move(table)
        n = round_.move_count
        outcome = play_move(learner=learner, round_=round_, move=move, expected_count=n)
        log.acked.append((n, move))
        table = outcome.table
    log.finished = True
    return learner, round_, log, table


def test_a_round_played_as_acknowledged_reconciles(played):
    learner, _round, log, table = played
    report = reconcile_tables([learner.pk], [log])
    assert report.clean, report.lines()
    assert report.counts == {(learner.pk, s): c for s, c in judgement_counts(table).items()}
    assert any(right < judged for judged, right in report.counts.values())  # the wrong card
    assert reconcile([learner.pk], [], report.counts).clean


def test_skill_states_without_the_table_judgements_do_not_match(played):
    learner, _round, log, _table = played
    assert not reconcile([learner.pk], []).clean


def test_a_skill_state_that_counted_a_table_judgement_twice_is_a_duplicate(played):
    learner, _round, log, _table = played
    report = reconcile_tables([learner.pk], [log])
    state = SkillState.objects.get(learner=learner, skill="trick")
    state.attempts += 1
    state.save()
    result = reconcile([learner.pk], [], report.counts)
    assert len(result.skill_mismatches) == 1 and len(result.duplicated) == 1


def test_a_move_stored_twice_is_unacknowledged_and_breaks_the_replay(played):
    learner, round_, log, table = played
    moves = [*round_.moves, round_.moves[-1]]
    TableRound.objects.filter(pk=round_.pk).update(moves=moves, move_count=len(moves))
    report = reconcile_tables([learner.pk], [log])
    assert len(report.unacknowledged) == 1 and f"move {len(moves)}:" in report.unacknowledged[0]
    assert len(report.bookkeeping) == 1 and "refuses the stored log" in report.bookkeeping[0]
    # The mastery check still gets the judgements of what the client was told.
    assert report.counts == {(learner.pk, s): c for s, c in judgement_counts(table).items()}


def test_a_lost_move_is_reported(played):
    learner, round_, log, _table = played
    TableRound.objects.filter(pk=round_.pk).update(
        moves=round_.moves[:-1], move_count=len(round_.moves) - 1
    )
    report = reconcile_tables([learner.pk], [log])
    assert len(report.lost) == 1 and not report.clean


def test_a_tally_out_of_step_with_the_judgements_is_reported(played):
    learner, round_, log, _table = played
    tally = dict(round_.tally)
    tally["trick"] = {**tally["trick"], "right": tally["trick"]["right"] + 1}
    TableRound.objects.filter(pk=round_.pk).update(tally=tally)
    report = reconcile_tables([learner.pk], [log])
    assert len(report.bookkeeping) == 1 and "tally" in report.bookkeeping[0]


def test_a_round_no_client_started_is_unacknowledged(played):
    learner, _round, log, _table = played
    TableRoundFactory(learner=learner, seed=4)
    report = reconcile_tables([learner.pk], [log])
    assert len(report.unacknowledged) == 1 and "no client was told" in report.unacknowledged[0]
