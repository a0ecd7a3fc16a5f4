"""Stored rounds stay readable and are judged as when they were played (issue 23).

``data/table_corpus.json.gz`` holds rounds played with ``teaching.table`` before its
rewrite on typed moves and judgements (``tests/teaching/table_corpus.py`` made them):
every focus under every preset, by a reference learner and by learners that go wrong
on purpose. Each stored log is replayed with the current code: the judgements, the
phase, the score and the learner's view must be the ones stored, and every move the
referee refused then must be refused now with the same code and parameters.

R5.4a (the announced claims are compared, not the best melds held) changes no stored
judgement: the referee implements it since issue 21, before the corpus was made, so
:data:`CHANGED_BY_R5_4A` is empty. A case whose judgements a later rule change alters
is listed there with the reason, and its stored judgements are then not compared.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_core import RuleSet
from teaching.table import FOCUSES, Scenario, TableError, learner_view, parse_move, referee, score

from .table_corpus import load

CORPUS = load()

CHANGED_BY_R5_4A: dict[str, str] = {}
"""Case id -> why its stored judgements differ today. Empty: see the module docstring."""


def case_id(case: dict[str, Any]) -> str:
    return f"{case['focus']}-{case['preset']}-{case['seed']}-{case['learner']}"


def _json(value: Any) -> Any:
    """``value`` as stored JSON reads back: tuples as lists, int keys as strings; the
    engine's Stöck data read as :func:`_stoeck_calls_in_order` says."""
    return _stoeck_calls_in_order(json.loads(json.dumps(value, sort_keys=True)))


def _call_order(call: dict[str, Any]) -> tuple[int, int]:
    values = call.get("values", call)
    return values["after_play"], values["seat"]


def _stoeck_calls_in_order(value: Any) -> Any:
    """A StoeckResult's data (wherever it is) with its calls in time order and without
    ``gathered``. Since the referee plays on ``rules_core.Round`` (issue 23), the
    engine lists a call made after its trick was gathered after the others and marks
    it ``gathered``; the stateless ``check_stoeck`` that judged the stored rounds got
    such a call as one made with the next card. Who called when, every verdict and
    the Stöck's status are the same; only this listing differs."""
    if isinstance(value, list):
        return [_stoeck_calls_in_order(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _stoeck_calls_in_order(v) for k, v in value.items() if k != "gathered"}
    if "calls" in out and "trace" in out and "reason" in out:
        out["calls"] = sorted(out["calls"], key=_call_order)
        calls = sorted((e for e in out["trace"] if e["key"] == "stoeck.call"), key=_call_order)
        out["trace"] = [calls.pop(0) if e["key"] == "stoeck.call" else e for e in out["trace"]]
    return out


def test_the_corpus_covers_every_focus_preset_and_learner() -> None:
    assert {c["focus"] for c in CORPUS} == set(FOCUSES)
    assert {c["preset"] for c in CORPUS} == set(RuleSet.presets())
    learners = {c["learner"] for c in CORPUS}
    assert "reference" in learners and len(learners) >= 8
    keys = {j["key"] for c in CORPUS for j in c["judgements"]}
    assert {
        "play.must_follow_suit",
        "announce.not_held",
        "stoeck.too_late",
        "writes.wrong_team",
    } <= keys
    assert set(CHANGED_BY_R5_4A) <= {case_id(c) for c in CORPUS}


@pytest.mark.parametrize("case", CORPUS, ids=case_id)
def test_a_stored_round_is_judged_as_when_it_was_played(case: dict[str, Any]) -> None:
    scenario = Scenario.from_dict(case["scenario"])
    assert _json(scenario.to_dict()) == case["scenario"]
    table = referee(scenario, case["moves"])
    assert table.phase == case["phase"]
    if case_id(case) not in CHANGED_BY_R5_4A:
        got = _json([j.to_dict() for j in table.judgements])
        for n, (mine, stored) in enumerate(zip(got, case["judgements"], strict=False)):
            assert mine == _json(stored), f"judgement {n} (move {stored['move']}, {stored['key']})"
        assert len(got) == len(case["judgements"])
        assert _json(learner_view(table).to_dict()) == _json(case["view"])
        for k, view in case["views"].items():
            earlier = learner_view(referee(scenario, case["moves"][: int(k)]))
            assert _json(earlier.to_dict()) == _json(view), k
    if case["phase"] == "done":
        assert _json(score(table).to_dict()) == _json(case["score"])
    if case["learner"] == "reference":
        assert all(j["outcome"] != "wrong" for j in case["judgements"])


@pytest.mark.parametrize("case", [c for c in CORPUS if c["refused"]], ids=case_id)
def test_a_move_refused_then_is_refused_now_with_its_reason(case: dict[str, Any]) -> None:
    scenario = Scenario.from_dict(case["scenario"])
    for at, move, code, params in case["refused"]:
        with pytest.raises(TableError) as err:
            referee(scenario, [*case["moves"][:at], move])
        assert (err.value.code, _json(err.value.params)) == (code, params), (at, move)


def test_a_stored_move_reads_into_its_typed_move_and_writes_back_the_same_json() -> None:
    moves = [m for c in CORPUS for m in c["moves"]]
    assert len(moves) > 1000
    for i, move in enumerate(moves):
        assert parse_move(move, i).to_dict() == move
