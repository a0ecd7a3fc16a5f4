"""A table move applies one move (issue 23, item 3): the referee's state after a
round's log is kept in the process (``services.KEPT``), and a move takes it and steps it once; the stored
log stays the truth and the full replay the audit.

Checked here: moves made on the kept state give exactly what a full replay gives
(the table, its judgements, the stored log, the tally, the page), over random rounds
of every focus and rule set with wrong, refused and repeated moves in them; a missing,
stale or poisoned entry is never used (the move replays the log instead); a move on a
kept state takes one referee step (the calls of ``step`` are counted, not the time);
the summary is drawn from the audit; two moves racing from one page store one.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules_core import RuleSet
from teaching.table import FOCUSES, Scenario, referee, reference_move, replay_state
from teaching.table import replay as replay_module
from teaching.table.model import sort_codes
from tests.factories import TableRoundFactory
from tutor.quizzes.models import SkillState
from tutor.table import services
from tutor.table.forms import post_data
from tutor.table.models import TableRound

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def empty_cache():
    services.KEPT.clear()
    yield
    services.KEPT.clear()


@pytest.fixture
def steps(monkeypatch):
    """Counts the referee's steps: the full replay's (it folds ``step`` over the log)
    and the service's own."""
    calls = []
    real = replay_module.step

    def counted(state, move):
        calls.append(move)
        return real(state, move)

    monkeypatch.setattr(replay_module, "step", counted)
    monkeypatch.setattr(services, "step", counted)
    return calls


def audit(round_):
    round_.refresh_from_db()
    return referee(Scenario.from_dict(round_.scenario), round_.moves)


def wild_move(table, rng):
    """A learner who mostly plays well but also tries illegal cards, wrong values,
    calls and announcements on their own, and wrong writes and Jasstafels: moves the
    referee judges wrong, and moves it or the site refuses."""
    move = reference_move(table)
    roll = rng.random()
    if table.phase == "play":
        if roll < 0.3:
            move = {"play": rng.choice(table.hand)}
            if rng.random() < 0.3:
                move["announce"] = rng.choice((0, 20, 50, 100))
            if rng.random() < 0.2:
                move["stoeck"] = True
        elif roll < 0.4:
            move = {"stoeck": True}
        elif roll < 0.45:
            move = {"announce": 20}
        elif roll < 0.5:
            move = {"writes": {"team": 1, "points": 20}}  # out of phase: refused
    elif table.phase == "writes" and roll < 0.5:
        move = {"writes": {"team": rng.choice((1, 2, None)), "points": rng.choice((0, 20, 50))}}
    elif table.phase == "jasstafel" and roll < 0.5:
        move["jasstafel"]["blocks"]["2"]["tricks"] += rng.choice((-10, 10))
    return move


def play(round_, move):
    """``play_move`` on the stored round: the outcome, or the refusal."""
    round_.refresh_from_db()
    try:
        return services.play_move(
            learner=round_.learner, round_=round_, move=move, expected_count=round_.move_count
        )
    except services.MoveRefused as refused:
        return refused


def stored(round_):
    round_.refresh_from_db()
    return round_.moves, round_.move_count, round_.recorded, round_.tally, round_.finished


def mastery(learner):
    return sorted(
        SkillState.objects.filter(learner=learner).values_list(
            "skill", "mastery", "attempts", "correct", "streak"
        )
    )


def twins(focus, seed, preset):
    """Two rounds with one deal, for two learners: one played on the kept state, the
    other with the cache emptied before every move (a full replay each time)."""
    kept = TableRoundFactory(focus=focus, seed=seed, preset=preset)
    replayed = TableRoundFactory(focus=focus, seed=seed, preset=preset)
    assert kept.scenario == replayed.scenario
    return kept, replayed


# Every focus under every rule set, each with its own seed and its own random learner.
CASES = [
    (focus, 7 * p + f, preset)
    for p, preset in enumerate(RuleSet.presets())
    for f, focus in enumerate(FOCUSES)
]


@pytest.mark.parametrize("focus, seed, preset", CASES)
def test_moves_on_the_kept_state_give_what_the_full_replay_gives(focus, seed, preset):
    """Every move, refused or made, through the site's service: the kept state's table,
    the move's judgements, the stored log, the tally, the finish and the learner's
    mastery equal those of the same moves made on full replays, and the table equals
    the audit of the stored log after every move."""
    rng = random.Random(f"{focus}:{seed}:{preset}")
    kept, replayed = twins(focus, seed, preset)
    table = audit(kept)
    refused = made = 0
    while table.phase != "done":
        move = wild_move(table, rng)
        a = play(kept, move)
        services.KEPT.clear()
        b = play(replayed, move)
        assert type(a) is type(b), (move, a, b)
        if isinstance(a, services.MoveRefused):
            refused += 1
            assert str(a) == str(b)
            assert (a.refusal and a.refusal.code) == (b.refusal and b.refusal.code)
        else:
            made += 1
            assert a.table == b.table == audit(kept)
            assert a.judgements == b.judgements
            table = a.table
        assert stored(kept) == stored(replayed)
        assert services.table_of(kept) == audit(kept)
        assert made + refused < 150
    assert mastery(kept.learner) == mastery(replayed.learner)
    assert made >= 10


def _page(client, round_, response):
    """The response with what tells two rounds apart (ids, tokens, the learner's name)
    taken out."""
    html = response.content.decode()
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"x-csrftoken": "[^"]+"', "", html)
    html = html.replace(f">{round_.learner.username} <", ">LEARNER <")
    return html.replace(f"/table/{round_.pk}/", "/table/N/")


@pytest.mark.parametrize("focus", FOCUSES)
def test_the_page_after_a_move_on_the_kept_state_is_the_page_after_a_full_replay(client, focus):
    """The htmx partial a move answers with, and the page a plain POST leads to, are
    the same bytes whether the move stepped the kept state or replayed the log."""
    rng = random.Random(focus)
    kept, replayed = twins(focus, 5, "default")
    pages = 0
    table = audit(kept)
    while table.phase != "done":
        move = wild_move(table, rng)
        htmx = rng.random() < 0.5
        responses = []
        for round_ in (kept, replayed):
            if round_ is replayed:
                services.KEPT.clear()
            client.force_login(round_.learner)
            round_.refresh_from_db()
            response = client.post(
                reverse("table:move", args=[round_.pk]),
                post_data(move, round_.move_count),
                **(HX if htmx else {}),
            )
            if not htmx and response.status_code == 302:
                if round_ is replayed:
                    services.KEPT.clear()
                response = client.get(response["Location"])
            responses.append((response.status_code, _page(client, round_, response)))
        assert responses[0] == responses[1], move
        pages += 1
        table = audit(kept)
        assert pages < 150
    assert stored(kept) == stored(replayed)


def _half_played(moves=6):
    round_ = TableRoundFactory(focus="stoeck", seed=4)
    for _ in range(moves):
        assert not isinstance(play(round_, reference_move(audit(round_))), Exception)
    return round_


def test_a_move_on_the_kept_state_takes_one_referee_step(steps):
    round_ = _half_played()
    move = reference_move(audit(round_))
    steps.clear()
    outcome = play(round_, move)
    assert len(steps) == 1
    assert outcome.table == audit(round_)


def test_a_move_without_a_kept_state_replays_the_log_and_keeps_the_new_state(steps):
    round_ = _half_played()
    services.KEPT.clear()
    move = reference_move(audit(round_))
    steps.clear()
    play(round_, move)
    assert len(steps) == round_.move_count  # the old log replayed, then the move
    steps.clear()
    kept = services.table_of(round_)
    assert steps == [] and kept == audit(round_)


def test_a_page_read_leaves_the_kept_state_to_the_next_move(steps):
    round_ = _half_played()
    expected = audit(round_)
    steps.clear()
    read = [services.table_of(round_) for _ in range(2)]
    assert steps == [] and len(services.KEPT) == 1
    assert read == [expected, expected]
    move = reference_move(expected)
    steps.clear()
    play(round_, move)
    assert len(steps) == 1


def test_a_refused_move_drops_the_state_it_took_and_the_next_move_replays(steps):
    """The refused move may have half-stepped the state it took: it is not put back."""
    round_ = _half_played()
    assert isinstance(play(round_, {"writes": {"team": 1, "points": 0}}), Exception)
    assert len(services.KEPT) == 0
    move = reference_move(audit(round_))
    steps.clear()
    outcome = play(round_, move)
    assert len(steps) == round_.move_count  # replayed from the deal
    assert outcome.table == audit(round_)


def _keep(round_, value):
    """Put ``value`` where the state after the round's stored log is kept."""
    round_.refresh_from_db()
    services.KEPT.put(services.state_key(round_, round_.moves), value)


def _poisons(round_):
    """Values kept under the right key that must not be used: not a state, the state
    of a shorter log, of a longer one, of the same log's length with other moves, and
    of the same log on another deal (two of the site players' cards swapped)."""
    scenario = Scenario.from_dict(round_.scenario)
    log = list(round_.moves)
    longer = replay_state(scenario, [*log, reference_move(referee(scenario, log))])
    shorter = replay_state(scenario, log[:-1])
    same_length = replay_state(scenario, [*log[:-1], {"stoeck": True}])
    assert len(same_length.moves) == len(log) and same_length.moves != log
    a, b = [s for s in range(4) if s != scenario.seat][:2]
    hands = [list(h) for h in scenario.hands]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    other_deal = replace(scenario, hands=tuple(sort_codes(h) for h in hands))
    assert other_deal.hands != scenario.hands
    return {
        "garbage": "not a state",
        "shorter": shorter,
        "longer": longer,
        "same length, other moves": same_length,
        "other deal": replay_state(other_deal, log),
    }


@pytest.mark.parametrize(
    "poison", ["garbage", "shorter", "longer", "same length, other moves", "other deal"]
)
def test_a_stale_or_poisoned_kept_state_is_not_used(steps, poison):
    round_ = _half_played()
    _keep(round_, _poisons(round_)[poison])
    steps.clear()
    table = services.table_of(round_)
    assert len(steps) == round_.move_count  # replayed: the kept value was refused
    assert table == audit(round_)
    move = reference_move(audit(round_))
    _keep(round_, _poisons(round_)[poison])
    steps.clear()
    outcome = play(round_, move)
    assert len(steps) == round_.move_count
    assert outcome.table == audit(round_)


def test_a_log_changed_under_the_kept_state_is_replayed(steps):
    """A state is kept for one log: the same round with another log of the same length
    (written by a script, restored from a backup) finds nothing kept for it."""
    round_ = _half_played()
    assert services.table_of(round_) == audit(round_)
    log = list(round_.moves)
    log[-1] = {"stoeck": True}
    TableRound.objects.filter(pk=round_.pk).update(moves=log)
    round_.refresh_from_db()
    steps.clear()
    table = services.table_of(round_)
    assert len(steps) == len(log)
    assert table == referee(Scenario.from_dict(round_.scenario), log)


def test_a_move_is_kept_as_the_stored_log_holds_it(steps):
    """A caller's move with int team keys (the referee takes them) is stored as JSON,
    with string keys: the state kept after it is the stored log's, and found."""
    round_ = TableRoundFactory(focus="stoeck", seed=4)
    table = audit(round_)
    while table.phase != "jasstafel":
        play(round_, reference_move(table))
        table = audit(round_)
    move = reference_move(table)
    blocks = move["jasstafel"]["blocks"]
    move["jasstafel"]["blocks"] = {int(team): block for team, block in blocks.items()}
    outcome = play(round_, move)
    assert outcome.table.phase == "done"
    round_.refresh_from_db()
    assert round_.moves[-1]["jasstafel"]["blocks"] == blocks
    steps.clear()
    kept = services.table_of(round_)
    assert steps == [] and kept == audit(round_)


def test_the_key_does_not_depend_on_the_order_of_a_moves_keys():
    """PostgreSQL's jsonb gives a move's keys back in its own order: the kept state
    must still be found."""
    round_ = TableRoundFactory(focus="stoeck", seed=4)
    a = services.state_key(round_, [{"play": "H6", "announce": 20}])
    b = services.state_key(round_, [{"announce": 20, "play": "H6"}])
    assert a == b != services.state_key(round_, [{"play": "H6", "announce": 50}])


def test_the_summary_is_the_audit_not_the_kept_state(client, steps):
    round_ = _half_played()
    assert services.table_of(round_) == audit(round_)  # kept
    client.force_login(round_.learner)
    steps.clear()
    assert client.get(reverse("table:summary", args=[round_.pk])).status_code == 200
    assert len(steps) == round_.move_count
    steps.clear()
    assert client.get(reverse("table:round", args=[round_.pk])).status_code == 200
    assert steps == []


def test_an_htmx_move_on_the_kept_state_takes_one_step_and_answers_with_its_table(client, steps):
    """The view answers with the table the move produced (``MoveOutcome.table``), not
    a second look-up or replay."""
    round_ = _half_played()
    client.force_login(round_.learner)
    move = reference_move(audit(round_))
    steps.clear()
    response = client.post(
        reverse("table:move", args=[round_.pk]), post_data(move, round_.move_count), **HX
    )
    assert response.status_code == 200 and len(steps) == 1


def test_two_moves_racing_on_the_kept_state_store_one(steps):
    """Two tabs post from the same page: both step their own copy of the kept state;
    the conditional UPDATE stores one move, and the state kept is that log's."""
    round_ = _half_played()
    services.table_of(round_)
    stale = TableRound.objects.get(pk=round_.pk)
    move = reference_move(audit(round_))
    count = round_.move_count
    services.play_move(learner=round_.learner, round_=round_, move=move, expected_count=count)
    with pytest.raises(services.StaleMove):
        services.play_move(learner=stale.learner, round_=stale, move=move, expected_count=count)
    assert round_.move_count == count + 1 and audit(round_).moves[-1] == move
    assert len(round_.moves) == count + 1
    steps.clear()
    kept = services.table_of(round_)
    assert steps == [] and kept == audit(round_)


# ---------------------------------------------------------------------------
# The round's row as this process's last move wrote it (services.ROWS)


def _post(client, round_, move, count):
    return client.post(reverse("table:move", args=[round_.pk]), post_data(move, count), **HX)


def _moved_by_this_process(client):
    """A half-played round whose last move this process made through the view (so its
    row and states are kept here), its learner logged in; the row as stored."""
    round_ = _half_played()
    client.force_login(round_.learner)
    response = _post(client, round_, reference_move(audit(round_)), round_.move_count)
    assert response.status_code == 200
    round_.refresh_from_db()
    return round_


def _round_reads(queries):
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("SELECT") and "table_tableround" in q["sql"]
    ]


def test_a_move_after_a_move_of_this_process_does_not_read_the_round(client):
    round_ = _half_played()
    client.force_login(round_.learner)
    first = reference_move(audit(round_))
    assert _post(client, round_, first, round_.move_count).status_code == 200
    round_.refresh_from_db()
    second = reference_move(audit(round_))
    with CaptureQueriesContext(connection) as queries:
        response = _post(client, round_, second, round_.move_count)
    assert response.status_code == 200 and _round_reads(queries) == []
    sql = [q["sql"] for q in queries.captured_queries]
    assert any(q.startswith('UPDATE "quizzes_skillstate"') for q in sql)  # judged, written
    assert not [q for q in sql if 'FROM "quizzes_skillstate"' in q]  # and not read
    round_.refresh_from_db()
    assert round_.moves[-2:] == [first, second]
    assert services.table_of(round_) == audit(round_)


def test_a_move_whose_round_was_read_reads_the_skills_before_writing_them(client):
    """Another worker made the last move (this one read the round): the skill states
    kept here are probably stale, so they are read, not tried with a write that would
    miss."""
    round_ = _moved_by_this_process(client)
    services.ROWS.clear()
    with CaptureQueriesContext(connection) as queries:
        _post(client, round_, reference_move(audit(round_)), round_.move_count)
    sql = [q["sql"] for q in queries.captured_queries]
    assert any(q.startswith("SELECT") and "quizzes_skillstate" in q for q in sql)
    assert not [q for q in sql if q.startswith("UPDATE") and '"attempts" =' in q.split("WHERE")[-1]]


def test_a_kept_row_that_another_process_moved_on_is_read_again(client):
    """Another worker appended a move: a page of the new count reads the row; a page
    of the old count is refused as stale and shown the table as it is."""
    round_ = _moved_by_this_process(client)
    old_count = round_.move_count
    elsewhere = TableRound.objects.get(pk=round_.pk)  # the other worker, without ROWS
    services.ROWS.take((round_.learner_id, round_.pk))
    services.play_move(
        learner=round_.learner,
        round_=elsewhere,
        move=reference_move(audit(round_)),
        expected_count=old_count,
    )
    services.ROWS.put((round_.learner_id, round_.pk), round_)  # this worker's old row
    services.KEPT.clear()
    stale = _post(client, round_, reference_move(audit(round_)), old_count)
    assert stale.status_code == 409
    assert f'data-n="{old_count + 1}"' in stale.content.decode()
    services.ROWS.put((round_.learner_id, round_.pk), round_)
    fresh = _post(client, round_, reference_move(audit(elsewhere)), old_count + 1)
    assert fresh.status_code == 200
    elsewhere.refresh_from_db()
    assert elsewhere.move_count == old_count + 2


def test_a_kept_row_of_a_deleted_round_gives_404_and_stores_nothing(client):
    round_ = _moved_by_this_process(client)
    move = reference_move(audit(round_))
    TableRound.objects.filter(pk=round_.pk).delete()
    assert _post(client, round_, move, round_.move_count).status_code == 404
    assert not TableRound.objects.filter(pk=round_.pk).exists()


def test_a_kept_row_is_no_use_to_another_learner(client):
    round_ = _moved_by_this_process(client)
    intruder = TableRoundFactory(focus="stoeck", seed=5).learner
    client.force_login(intruder)
    count = round_.move_count
    assert _post(client, round_, reference_move(audit(round_)), count).status_code == 404
    round_.refresh_from_db()
    assert round_.move_count == count


def test_a_kept_row_reads_its_assignment_afresh(client):
    """The teacher closes the assignment between two moves: the second is refused."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.factories import MembershipFactory, TableAssignmentFactory
    from tutor.classroom import assignments
    from tutor.classroom.models import Assignment

    assignment = TableAssignmentFactory(round_count=1, focus="stoeck")
    learner = MembershipFactory(school_class=assignment.school_class).learner
    round_ = assignments.start_table_round(learner=learner, assignment=assignment)
    client.force_login(learner)
    assert _post(client, round_, reference_move(audit(round_)), 0).status_code == 200
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    round_.refresh_from_db()
    assert _post(client, round_, reference_move(audit(round_)), 1).status_code == 403
    round_.refresh_from_db()
    assert round_.move_count == 1


def test_the_key_names_the_deal_even_when_its_digest_is_kept():
    """The deal's digest is made once per scenario object (issue 24): rounds of other
    deals get other keys for the same log, a scenario replaced on the row is digested
    again, and a kept row's copy for the next move finds the same key."""
    round_ = _half_played(moves=2)
    other = TableRoundFactory(focus="stoeck", seed=5)
    key = services.state_key(round_, round_.moves)
    assert services.state_key(other, round_.moves).split(":")[-1] != key.split(":")[-1]
    copy = services.round_to_move(round_.learner, round_.pk, round_.move_count)
    assert copy.kept and copy.round is not round_
    assert services.state_key(copy.round, round_.moves) == key
    round_.scenario = {**round_.scenario, "before": [7, 11]}
    assert services.state_key(round_, round_.moves) != key
