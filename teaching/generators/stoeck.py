"""Stöck questions: ``stoeck`` (R6.1-R6.5). Formats: see :mod:`teaching.generators`.

The rounds come from :func:`teaching.scenarios.stoeck_scenario` (a Stöck in
one hand, the call at a chosen moment) and :func:`~teaching.scenarios.pair_scenario`
(King and Ober in Obenabe/Undenufe, or split between two players).
"""

from __future__ import annotations

import random

from rules_core import RuleSet, StoeckReason, check_stoeck
from teaching.scenarios import ScenarioError, StoeckScenario, pair_scenario, stoeck_scenario

from .base import Draft, Inputs, Kind, Retry, Solved, StoeckValue, trace_dicts
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


def _v(reason: StoeckReason) -> StoeckValue:
    return {"status": reason.status, "reason": reason.value}


_LOST = (R.TOO_LATE, R.PROMPTED, R.DECLARED_AT_FIRST_CARD, R.NOT_DECLARED)
_PENDING = (R.STILL_POSSIBLE, R.SECOND_CARD_NOT_PLAYED)
_HELD = (R.VALID, *_LOST, *_PENDING)  # one player holds King and Ober of trump

# The mistake that turns the right reason (first) into a wrong one (second), for the
# pairs that have one mistake in particular.
_MISTAKE: dict[tuple[StoeckReason, StoeckReason], str] = {
    (R.VALID, R.TOO_LATE): "deadline_misread",
    (R.VALID, R.DECLARED_AT_FIRST_CARD): "call_belongs_to_first_card",
    (R.VALID, R.NOT_DECLARED): "call_overlooked",
    (R.VALID, R.STILL_POSSIBLE): "call_thought_still_open",
    (R.VALID, R.SECOND_CARD_NOT_PLAYED): "call_thought_still_open",
    (R.TOO_LATE, R.VALID): "late_call_counted",
    (R.TOO_LATE, R.STILL_POSSIBLE): "deadline_misread",
    (R.TOO_LATE, R.NOT_DECLARED): "call_overlooked",
    (R.PROMPTED, R.VALID): "prompted_call_counted",
    (R.PROMPTED, R.TOO_LATE): "prompt_read_as_late",
    (R.PROMPTED, R.NOT_DECLARED): "call_overlooked",
    (R.DECLARED_AT_FIRST_CARD, R.VALID): "first_card_call_counted",
    (R.DECLARED_AT_FIRST_CARD, R.NOT_DECLARED): "call_overlooked",
    (R.DECLARED_AT_FIRST_CARD, R.STILL_POSSIBLE): "deadline_misread",
    (R.NOT_DECLARED, R.VALID): "stoeck_counted_without_call",
    (R.NOT_DECLARED, R.STILL_POSSIBLE): "deadline_misread",
    (R.NOT_DECLARED, R.SECOND_CARD_NOT_PLAYED): "deadline_misread",
    (R.STILL_POSSIBLE, R.NOT_DECLARED): "deadline_misread",
    (R.STILL_POSSIBLE, R.VALID): "stoeck_counted_without_call",
    (R.STILL_POSSIBLE, R.TOO_LATE): "call_thought_too_late",
    (R.SECOND_CARD_NOT_PLAYED, R.NOT_DECLARED): "call_expected_at_first_card",
    (R.SECOND_CARD_NOT_PLAYED, R.VALID): "stoeck_counted_without_call",
    (R.NO_TRUMP_CONTRACT, R.NOT_HELD_BY_ONE_PLAYER): "reason_confused",
    (R.NOT_HELD_BY_ONE_PLAYER, R.NO_TRUMP_CONTRACT): "reason_confused",
}


def _tag(right: StoeckReason, shown: StoeckReason, as_if: StoeckReason | None) -> str:
    """The mistake behind showing ``shown`` when ``right`` is the answer; ``as_if``:
    how the call would be judged if King and Ober were a Stöck (no-Stöck questions)."""
    if right is R.NO_TRUMP_CONTRACT and shown is as_if:
        return "stoeck_in_no_trump_contract"
    if right is R.NOT_HELD_BY_ONE_PLAYER and shown is as_if:
        return "split_pair_counted"
    if (right, shown) in _MISTAKE:
        return _MISTAKE[(right, shown)]
    if right is R.NO_TRUMP_CONTRACT and shown in _LOST:
        return "no_trump_read_as_lost"
    if right is R.NOT_HELD_BY_ONE_PLAYER and shown in _LOST:
        return "split_pair_read_as_lost"
    if right in _HELD and shown is R.NOT_HELD_BY_ONE_PLAYER:
        return "holder_overlooked"
    if right in _HELD and shown is R.NO_TRUMP_CONTRACT:
        return "trump_suit_overlooked"
    if right.status == shown.status:  # lost, or still open, but for another reason
        return "right_status_wrong_reason"
    raise ValueError(f"no mistake shows {shown.value} for {right.value}")  # pragma: no cover


# The sets of reasons a question shows, with a weight, and which of them may be the
# right one there. Drawn for a question by the weight among the sets where its
# reason may be right: every reason's weights add up to 37, so with the reasons
# equally often right (``seed % 9``) each allowed reason of a set is right equally
# often, and the set tells nothing about which one it is. Every wrong choice in them
# is a mistake of ``_tag``; sets with only such choices and the tests' musts (a
# "too late" or a "prompted" question shows "scored", a no-trump question shows what
# the call would give with trump) leave one gap: "scored" is never right beside
# "prompted" (no mistake makes a valid call look prompted), which a pupil who
# remembered it would gain 2 points of 100 from. Found with a linear program that
# minimises what the best guess from the set alone gains over a blind one.
_SHOWN: tuple[tuple[tuple[StoeckReason, ...], int, tuple[StoeckReason, ...]], ...] = (
    ((R.VALID, R.TOO_LATE, R.STILL_POSSIBLE), 4, ()),
    ((R.VALID, R.NOT_DECLARED, R.SECOND_CARD_NOT_PLAYED), 4, ()),
    ((R.NOT_DECLARED, R.STILL_POSSIBLE, R.SECOND_CARD_NOT_PLAYED), 15, ()),
    ((R.VALID, R.TOO_LATE, R.DECLARED_AT_FIRST_CARD, R.NOT_HELD_BY_ONE_PLAYER), 11, ()),
    ((R.VALID, R.NOT_DECLARED, R.STILL_POSSIBLE, R.SECOND_CARD_NOT_PLAYED), 18, ()),
    (
        (R.VALID, R.TOO_LATE, R.PROMPTED, R.DECLARED_AT_FIRST_CARD, R.NO_TRUMP_CONTRACT),
        11,
        (R.VALID,),
    ),
    (
        (R.VALID, R.TOO_LATE, R.PROMPTED, R.NO_TRUMP_CONTRACT, R.NOT_HELD_BY_ONE_PLAYER),
        11,
        (R.VALID,),
    ),
    (
        (
            R.VALID,
            R.PROMPTED,
            R.DECLARED_AT_FIRST_CARD,
            R.NO_TRUMP_CONTRACT,
            R.NOT_HELD_BY_ONE_PLAYER,
        ),
        15,
        (R.VALID,),
    ),
)
"""(reasons shown, weight, reasons shown that are never right there)."""


def _shown_reasons(rng: random.Random, wanted: StoeckReason) -> tuple[StoeckReason, ...]:
    options = [(shown, w) for shown, w, never in _SHOWN if wanted in shown and wanted not in never]
    return weighted(rng, options)


def solve_stoeck(inputs: Inputs, rules: RuleSet) -> Solved[StoeckValue]:
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


def _pair_call(rng: random.Random, shown: tuple[StoeckReason, ...]) -> str:
    """The call in a round without Stöck: one whose reading "as if Stöck" is shown
    (so that mistake is among the choices); "scored" has no other mistake there."""
    if R.VALID in shown:
        return "second"
    calls = [call for call, reason in _AS_IF_STOECK.items() if reason in shown]
    if calls:
        return rng.choice(calls)
    return str(weighted(rng, [("second", 0.6), ("late", 0.15), ("first", 0.15), ("none", 0.1)]))


def _scenario(
    rng: random.Random, reason: StoeckReason, rules: RuleSet, shown: tuple[StoeckReason, ...]
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
        call = _pair_call(rng, shown)
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


def build_stoeck(rng: random.Random, seed: int, rules: RuleSet) -> Draft[StoeckValue]:
    wanted = REASONS[seed % len(REASONS)]
    shown = _shown_reasons(rng, wanted)
    scenario, call, suit = _scenario(rng, wanted, rules, shown)
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
    elif scenario.second_index is not None:
        focus = scenario.plays[scenario.second_index][0]
    else:  # a split pair's scenario always has the second card played
        raise Retry("no card in focus")
    as_if = (
        _AS_IF_STOECK.get(call)
        if wanted in (R.NO_TRUMP_CONTRACT, R.NOT_HELD_BY_ONE_PLAYER)
        else None
    )
    distractors = [(_v(r), _tag(wanted, r, as_if)) for r in shown if r is not wanted]
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
            [
                "stoeck_in_no_trump_contract",
                "split_pair_counted",
                *_MISTAKE.values(),
                "no_trump_read_as_lost",
                "split_pair_read_as_lost",
                "holder_overlooked",
                "trump_suit_overlooked",
                "right_status_wrong_reason",
            ]
        )
    ),
    tuple(reason.value for reason in REASONS),
)
