"""Stöck questions: ``stoeck`` (R6.1-R6.5). Formats: see :mod:`tutor.quizzes.generators`.

The rounds come from :func:`tutor.quizzes.scenarios.stoeck_scenario` (a Stöck in
one hand, the call at a chosen moment) and :func:`~tutor.quizzes.scenarios.pair_scenario`
(King and Ober in Obenabe/Undenufe, or split between two players).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_core import RuleSet, StoeckReason, check_stoeck

from ..scenarios import ScenarioError, StoeckScenario, pair_scenario, stoeck_scenario
from .base import Draft, Kind, Retry, Solved, trace_dicts
from .deal import NO_TRUMP_CONTRACTS, TRUMP_CONTRACTS, weighted

R = StoeckReason
REASONS = tuple(StoeckReason)

# the call pattern of stoeck_scenario that gives each reason
_CALL_OF = {
    R.VALID: "second",
    R.NOT_DECLARED: "none",
    R.DECLARED_AT_FIRST_CARD: "first",
    R.TOO_LATE: "late",
    R.PROMPTED: "prompted",
    R.STILL_POSSIBLE: "pending",
    R.SECOND_CARD_NOT_PLAYED: "not-yet",
}
# how a call pattern would be judged if the King and Ober were a Stöck
_AS_IF_STOECK = {
    "second": R.VALID,
    "late": R.TOO_LATE,
    "first": R.DECLARED_AT_FIRST_CARD,
    "none": R.NOT_DECLARED,
    "prompted": R.PROMPTED,
}


def _v(reason: StoeckReason) -> dict[str, str]:
    return {"status": reason.status, "reason": reason.value}


# the common mistakes for each correct reason, most telling first
_MISTAKES: dict[StoeckReason, list[tuple[StoeckReason, str]]] = {
    R.VALID: [
        (R.TOO_LATE, "deadline_misread"),
        (R.DECLARED_AT_FIRST_CARD, "call_belongs_to_first_card"),
        (R.NOT_DECLARED, "call_overlooked"),
        (R.STILL_POSSIBLE, "call_thought_still_open"),
    ],
    R.TOO_LATE: [
        (R.VALID, "late_call_counted"),
        (R.STILL_POSSIBLE, "deadline_misread"),
        (R.NOT_DECLARED, "call_overlooked"),
    ],
    R.PROMPTED: [
        (R.VALID, "prompted_call_counted"),
        (R.TOO_LATE, "prompt_read_as_late"),
        (R.NOT_DECLARED, "call_overlooked"),
    ],
    R.DECLARED_AT_FIRST_CARD: [
        (R.VALID, "first_card_call_counted"),
        (R.NOT_DECLARED, "call_overlooked"),
        (R.STILL_POSSIBLE, "deadline_misread"),
    ],
    R.NOT_DECLARED: [
        (R.VALID, "stoeck_counted_without_call"),
        (R.STILL_POSSIBLE, "deadline_misread"),
        (R.NOT_HELD_BY_ONE_PLAYER, "holder_overlooked"),
    ],
    R.STILL_POSSIBLE: [
        (R.NOT_DECLARED, "deadline_misread"),
        (R.VALID, "stoeck_counted_without_call"),
        (R.TOO_LATE, "call_thought_too_late"),
    ],
    R.SECOND_CARD_NOT_PLAYED: [
        (R.NOT_DECLARED, "call_expected_at_first_card"),
        (R.VALID, "stoeck_counted_without_call"),
        (R.NOT_HELD_BY_ONE_PLAYER, "holder_overlooked"),
    ],
    R.NO_TRUMP_CONTRACT: [
        (R.VALID, "stoeck_in_no_trump_contract"),
        (R.NOT_DECLARED, "no_trump_read_as_lost"),
        (R.NOT_HELD_BY_ONE_PLAYER, "reason_confused"),
    ],
    R.NOT_HELD_BY_ONE_PLAYER: [
        (R.VALID, "split_pair_counted"),
        (R.NOT_DECLARED, "split_pair_read_as_lost"),
        (R.NO_TRUMP_CONTRACT, "reason_confused"),
    ],
}


def solve_stoeck(inputs: Mapping[str, Any], rules: RuleSet) -> Solved:
    result = check_stoeck(
        inputs["hands"],
        inputs["contract"],
        [tuple(p) for p in inputs["plays"]],
        [tuple(c) for c in inputs["calls"]],
        rules,
    )
    return Solved(
        {"status": result.status, "reason": result.reason.value}, trace_dicts(result.trace)
    )


def _tricks(rng: random.Random) -> tuple[int, int]:
    first = rng.randint(1, 8)
    return first, rng.randint(first + 1, 9)


def _scenario(
    rng: random.Random, reason: StoeckReason, rules: RuleSet
) -> tuple[StoeckScenario, str, str]:
    """A round excerpt for ``reason``, its call pattern and the suit of King and Ober."""
    sub_seed = rng.randrange(1 << 30)
    first, second = _tricks(rng)
    try:
        if reason in _CALL_OF:
            call = _CALL_OF[reason]
            contract = rng.choice(TRUMP_CONTRACTS)
            holder = rng.randrange(4)
            scenario = stoeck_scenario(contract, holder, first, second, call, sub_seed, rules)
            return scenario, call, contract
        call = str(weighted(rng, [("second", 0.6), ("late", 0.15), ("first", 0.15), ("none", 0.1)]))
        if reason is R.NO_TRUMP_CONTRACT:
            contract = rng.choice(NO_TRUMP_CONTRACTS)
            suit = rng.choice(TRUMP_CONTRACTS)
            seat = rng.randrange(4)
            scenario = pair_scenario(
                contract, suit, seat, seat, first, second, call, sub_seed, rules
            )
            return scenario, call, suit
        contract = rng.choice(TRUMP_CONTRACTS)
        king_seat = rng.randrange(4)
        queen_seat = (king_seat + (2 if rng.random() < 0.75 else rng.choice((1, 3)))) % 4
        if rng.random() < 0.5:
            king_seat, queen_seat = queen_seat, king_seat
        scenario = pair_scenario(
            contract, contract, king_seat, queen_seat, first, second, call, sub_seed, rules
        )
        return scenario, call, contract
    except ScenarioError as err:
        raise Retry(str(err)) from None


def build_stoeck(rng: random.Random, seed: int, rules: RuleSet) -> Draft:
    wanted = REASONS[seed % len(REASONS)]
    scenario, call, suit = _scenario(rng, wanted, rules)
    if scenario.result.reason is not wanted:
        raise Retry("the scenario gives another reason")
    inputs = {
        "hands": [[c.code for c in hand] for hand in scenario.hands],
        "contract": scenario.contract.code,
        "plays": [[seat, c.code] for seat, c in scenario.plays],
        "calls": [[c.seat, c.after_play, c.prompted] for c in scenario.calls],
    }
    solved = solve_stoeck(inputs, rules)
    if solved.value["reason"] != wanted.value:
        raise Retry("the recomputed reason differs")
    if scenario.holder is not None:
        focus = scenario.holder
    else:
        focus = scenario.plays[scenario.second_index][0]
    distractors: list[tuple[Any, str]] = []
    if wanted in (R.NO_TRUMP_CONTRACT, R.NOT_HELD_BY_ONE_PLAYER):
        tag = (
            "stoeck_in_no_trump_contract" if wanted is R.NO_TRUMP_CONTRACT else "split_pair_counted"
        )
        distractors.append((_v(_AS_IF_STOECK[call]), tag))
    distractors += [(_v(reason), tag) for reason, tag in _MISTAKES[wanted]]
    rules_tested = ["R6.1"] + [r for r in wanted.rules if r != "R6.1"]
    return Draft(
        inputs=inputs,
        prompt={
            "preset": rules.preset_name(),
            "pair": [suit + "K", suit + "Q"],
            "seat": focus,
            "complete": len(scenario.plays) == 36,
        },
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


STOECK = Kind(
    "stoeck",
    "Does a Stöck count, is it lost (and why), still possible, or no Stöck at all (R6.1-R6.5).",
    build_stoeck,
    solve_stoeck,
    tuple(
        dict.fromkeys(
            ["stoeck_in_no_trump_contract", "split_pair_counted"]
            + [tag for mistakes in _MISTAKES.values() for _reason, tag in mistakes]
        )
    ),
)
