"""Questions at a table position (issue 25, live in class): rounds of the table trainer
played by the reference learner and stopped where a player decides. Each question's
answer is what the trainer's referee expects at that moment, and its position is the
round's (``check_position`` plays the round again)."""

from __future__ import annotations

import dataclasses

import pytest

from rules_core import RuleSet, best_meld, legal_cards
from teaching.generators import recompute
from teaching.generators.positions import (
    ASK_KINDS,
    ASKS,
    PositionError,
    check_position,
    played_round,
    position_questions,
    round_questions,
)
from teaching.table import FOCUSES, build_scenario, replay_state, step

PRESETS = tuple(RuleSet.presets())
ROUNDS = 4  # rounds per focus and rule set with every ask


def rounds(preset: str):
    rules = RuleSet.preset(preset)
    for focus in FOCUSES:
        questions = position_questions(focus, 100, rules, ASKS, ROUNDS * len(ASKS))
        for start in range(0, len(questions), len(ASKS)):
            yield focus, rules, questions[start : start + len(ASKS)]


@pytest.fixture(scope="module", params=PRESETS)
def asked(request):
    return list(rounds(request.param))


def test_each_round_asks_announce_writes_play_in_the_order_of_the_round(asked):
    for _focus, _rules, questions in asked:
        assert [q.kind for q in questions] == [ASK_KINDS[a] for a in ASKS]
        tables = [q.prompt["table"] for q in questions]
        assert [t["ask"] for t in tables] == list(ASKS)
        assert len({(t["focus"], t["seed"], t["round"]) for t in tables}) == 1
        assert tables[0]["trick"] == tables[1]["trick"] == 0
        assert tables[2]["trick"] in (5, 6) and tables[1]["seat"] is None


def test_every_position_is_the_round_s_and_every_answer_the_engine_s(asked):
    for _focus, _rules, questions in asked:
        for q in questions:
            assert check_position(q) == []
            assert q.answer_value == recompute(q)
            values = [repr(c["value"]) for c in q.choices]
            assert len(values) == len(set(values)) >= 3
            assert set(q.mistakes) == {c["key"] for c in q.choices} - {q.answer}


def test_r5_4_announce_asks_the_value_of_the_player_s_best_meld(asked):
    for focus, rules, questions in asked:
        q = questions[0]
        table = q.prompt["table"]
        scenario = build_scenario(focus, table["seed"], rules)
        hand = scenario.hands[table["seat"]]
        assert sorted(q.inputs["hand"]) == sorted(hand)
        meld = best_meld(hand, scenario.contract, rules)
        assert q.answer_value == {"points": 0 if meld is None else meld.points}


def test_r5_6_writes_agrees_with_the_trainer_s_writes_judgement(asked):
    """The trainer compares the announced claims; everybody announced the best meld, so
    its expected ``writes`` is the question's answer (teams 1-based there)."""
    for focus, rules, questions in asked:
        table = questions[1].prompt["table"]
        state = replay_state(build_scenario(focus, table["seed"], rules), [])
        while state.phase != "writes":
            step(state, state.reference_move().to_dict())
        weis = state.weis()
        assert questions[1].answer_value == {"team": weis.team, "points": weis.scored}


def test_r3_1_play_asks_the_legal_cards_and_the_round_played_one_of_them(asked):
    for focus, rules, questions in asked:
        q = questions[2]
        table = q.prompt["table"]
        game = played_round(focus, table["seed"], rules)
        index = 4 * table["trick"] + len(q.inputs["trick"])
        seat, card = game.plays[index]
        assert seat == table["seat"] == q.prompt["seat"]
        legal = legal_cards(q.inputs["hand"], q.inputs["trick"], q.inputs["contract"])
        assert q.answer_value == {"cards": [c.code for c in legal]}
        assert card in q.answer_value["cards"]
        assert len(legal) < len(q.inputs["hand"])  # a card the player may not play


def test_the_same_request_gives_the_same_questions():
    first = position_questions("stoeck", 5, RuleSet(), ["play", "announce"], 5)
    again = position_questions("stoeck", 5, RuleSet(), ["announce", "play"], 5)
    assert first == again
    assert [q.prompt["table"]["round"] for q in first] == [0, 0, 1, 1, 2]


def test_a_single_ask_gives_one_question_per_round():
    questions = position_questions("weis", 0, RuleSet(), ["writes"], 3)
    assert [q.kind for q in questions] == ["who_writes"] * 3
    assert len({q.prompt["table"]["seed"] for q in questions}) == 3


def test_a_round_without_a_position_for_an_ask_is_skipped():
    seeds = range(40)
    fitting = [s for s in seeds if round_questions("target_stoeck", s, RuleSet()) is not None]
    assert 0 < len(fitting) < len(seeds)
    questions = position_questions("target_stoeck", 0, RuleSet(), ASKS, 3)
    assert questions[0].prompt["table"]["seed"] == fitting[0]


@pytest.mark.parametrize("asks", [[], ["bid"], ["announce", "bid"]])
def test_an_unknown_ask_is_refused(asks):
    with pytest.raises(PositionError):
        position_questions("weis", 0, RuleSet(), asks, 3)


def test_check_position_finds_a_false_position():
    announce, writes, play = position_questions("kreuzweis", 7, RuleSet(), ASKS, 3)

    def moved(q, **table):
        return dataclasses.replace(q, prompt={**q.prompt, "table": {**q.prompt["table"], **table}})

    assert check_position(moved(play, trick=5)) != []
    assert check_position(moved(announce, seat=(announce.prompt["table"]["seat"] + 1) % 4)) != []
    assert check_position(moved(writes, seed=8)) != []
    other_hand = dataclasses.replace(play, inputs={**play.inputs, "hand": play.inputs["hand"][1:]})
    assert check_position(other_hand) != []
    assert check_position(dataclasses.replace(play, prompt={"sub": "legal"})) != []
