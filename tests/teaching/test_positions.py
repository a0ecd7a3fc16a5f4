"""Questions at a table position (issue 25, live in class): rounds of the table trainer
played by the reference learner and asked at their moments. Each question's position is
the round's (``check_position`` plays the round again), its answer is what the engine
says of that moment, and what decides the right choice is drawn evenly (issue 12: the
choices do not give the answer away)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from rules_core import Card, RuleSet, best_meld, legal_cards
from teaching.generators import recompute
from teaching.generators.positions import (
    AIMS,
    ASK_KINDS,
    ASKS,
    PLACES,
    PositionError,
    asks_for,
    check_position,
    played_round,
    position_questions,
    round_question,
)
from teaching.table import FOCUSES, build_scenario, referee, replay_state, score, step
from tests.quizzes.choice_leakage import BOUND, Sample, measure

PRESETS = tuple(RuleSet.presets())
PER_ASK = 30  # questions of each ask per focus and rule set


@pytest.fixture(scope="module", params=PRESETS)
def asked(request):
    """``(focus, rules, question)`` for every focus and ask under one rule set."""
    rules = RuleSet.preset(request.param)
    found = []
    for focus in FOCUSES:
        for ask in asks_for(focus):
            found += [
                (focus, rules, q) for q in position_questions(focus, 500, rules, [ask], PER_ASK)
            ]
    return found


def test_every_position_is_the_round_s_and_every_answer_the_engine_s(asked):
    for _focus, _rules, q in asked:
        assert check_position(q) == []
        assert q.kind == ASK_KINDS[q.prompt["table"]["ask"]]
        assert q.answer_value == recompute(q)
        values = [json.dumps(c["value"], sort_keys=True) for c in q.choices]
        assert len(values) == len(set(values)) >= 3
        assert set(q.mistakes) == {c["key"] for c in q.choices} - {q.answer}


def test_r5_4_announce_the_first_trick_as_played_and_true_announcements(asked):
    for focus, rules, q in (a for a in asked if a[2].kind == "announce"):
        game = played_round(focus, q.prompt["table"]["seed"], rules)
        assert [tuple(p) for p in q.inputs["plays"]] == list(game.plays[:4])
        hands = build_scenario(focus, q.seed, rules).hands
        melds = {s: best_meld(hands[s], q.inputs["contract"], rules) for s in range(4)}
        said = {seat: value for seat, value, _after in q.inputs["announcements"]}
        assert said == {s: m.points for s, m in melds.items() if m is not None}
        asked_seat = q.prompt["asked"]
        after = next(a for s, _v, a in q.inputs["announcements"] if s == asked_seat)
        assert q.answer_value["deadline"] == q.prompt["case"]
        assert (after == asked_seat) == (q.answer_value["deadline"] == "in_time")


def test_r3_1_play_offers_one_card_the_player_may_play_and_two_of_other_suits(asked):
    for focus, rules, q in (a for a in asked if a[2].kind == "trick"):
        table = q.prompt["table"]
        game = played_round(focus, table["seed"], rules)
        index = 4 * table["trick"] + len(q.inputs["trick"])
        assert game.plays[index][0] == table["seat"] == q.prompt["seat"]
        legal = {
            c.code for c in legal_cards(q.inputs["hand"], q.inputs["trick"], q.inputs["contract"])
        }
        offered = [c["value"]["card"] for c in q.choices]
        assert [c for c in offered if c in legal] == [q.answer_value["card"]]
        assert len({c[0] for c in offered}) == 3
        assert set(offered) <= set(q.inputs["hand"])


def test_r7_1_jasstafel_agrees_with_the_trainer_s_score(asked):
    """The trainer's own score of the round (``teaching.table.score``), played again by
    the reference learner, is the question's answer for the team asked about."""
    for focus, rules, q in (a for a in asked if a[2].kind == "jasstafel"):
        scenario = build_scenario(focus, q.seed, rules)
        state = replay_state(scenario, [])
        while state.phase != "jasstafel":
            step(state, state.reference_move().to_dict())
        result = score(referee(scenario, list(state.moves)))
        team = q.inputs["team"]
        written = sum(result.blocks[team][block] for block in ("weis", "stoeck", "tricks"))
        assert q.answer_value == {"points": written}


def test_issue12_what_decides_the_answer_is_drawn_evenly(asked):
    """Each deadline, place of the card and Jasstafel case is right about equally often."""
    for ask, aims in AIMS.items():
        cases = Counter(
            q.prompt["case"] if ask != "play" else _card_place(q)
            for _f, _r, q in asked
            if q.prompt["table"]["ask"] == ask
        )
        total = sum(cases.values())
        for aim in aims:
            assert abs(cases[aim] / total - 1 / len(aims)) < 0.08, (ask, cases)


def _card_place(q) -> str:
    """Where the card that may be played stands among the three offered, by rank."""
    cards = sorted((Card.parse(c["value"]["card"]).rank.index, c["key"]) for c in q.choices)
    return PLACES[[key for _rank, key in cards].index(q.answer)]


def test_issue12_no_strategy_on_the_choices_alone_beats_a_blind_guess(asked):
    """The strategies of ``tests.quizzes.choice_leakage`` (a card question measured as
    ``trick.winner``'s cards are) over these questions: none beats chance by more than
    the bound, measured as issue 12's test measures the generated questions."""
    labels = {"announce": "announce.deadline", "trick": "trick.winner", "jasstafel": "jasstafel"}
    preset = asked[0][1].preset_name()
    samples = [
        Sample(
            labels[q.kind],
            i,
            tuple(json.dumps(c["value"], sort_keys=True, separators=(",", ":")) for c in q.choices),
            [c["key"] for c in q.choices].index(q.answer),
            tuple(rules.target_order),
        )
        for i, (_focus, rules, q) in enumerate(asked)
    ]
    for report in measure(samples, preset):
        over = {name: edge for name, edge in report.edges().items() if edge > BOUND}
        assert not over, (report.label, preset, over)


def test_the_same_request_gives_the_same_questions():
    first = position_questions("stoeck", 5, RuleSet(), ["play", "announce"], 5)
    again = position_questions("stoeck", 5, RuleSet(), ["announce", "play"], 5)
    assert first == again
    assert [q.kind for q in first] == ["announce", "trick", "announce", "trick", "announce"]


def test_rounds_are_numbered_in_the_order_the_session_meets_them():
    questions = position_questions("kreuzweis", 0, RuleSet(), ASKS, 9)
    numbers = {}
    for q in questions:
        table = q.prompt["table"]
        assert numbers.setdefault(table["seed"], len(numbers)) == table["round"]


def test_a_round_without_a_moment_for_the_aim_is_skipped():
    fits = [
        s for s in range(30) if round_question("target_stoeck", s, RuleSet(), "jasstafel", "both")
    ]
    assert 0 < len(fits) < 30


@pytest.mark.parametrize(
    ("focus", "asks"),
    [("weis", []), ("weis", ["bid"]), ("weis", ["announce", "bid"]), ("undenufe", ["jasstafel"])],
)
def test_an_ask_the_focus_cannot_give_is_refused(focus, asks):
    with pytest.raises(PositionError):
        position_questions(focus, 0, RuleSet(), asks, 3)


def test_r6_1_undenufe_has_no_jasstafel_moment():
    assert asks_for("undenufe") == ("announce", "play")
    assert all(asks_for(f) == ASKS for f in FOCUSES if f != "undenufe")


def test_check_position_finds_a_false_position():
    announce, play, jasstafel = position_questions("stoeck", 7, RuleSet(), ASKS, 3)

    def moved(q, **table):
        return dataclasses.replace(q, prompt={**q.prompt, "table": {**q.prompt["table"], **table}})

    assert check_position(moved(play, trick=play.prompt["table"]["trick"] - 1)) != []
    assert check_position(moved(play, seat=(play.prompt["table"]["seat"] + 1) % 4)) != []
    assert check_position(moved(announce, seed=announce.seed + 1)) != []
    assert check_position(moved(jasstafel, seed=jasstafel.seed + 1)) != []
    assert check_position(moved(jasstafel, ask="play")) != []
    fewer = dataclasses.replace(play, inputs={**play.inputs, "hand": play.inputs["hand"][1:]})
    assert check_position(fewer) != []
    lie = [[s, v + 30, a] for s, v, a in announce.inputs["announcements"]]
    assert check_position(
        dataclasses.replace(announce, inputs={**announce.inputs, "announcements": lie})
    )
    assert check_position(dataclasses.replace(play, prompt={"sub": "may_play"})) != []
