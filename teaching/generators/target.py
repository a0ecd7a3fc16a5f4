"""Target questions: ``target`` (R7.1-R7.5). Formats: see :mod:`teaching.generators`.

Rounds come from :func:`teaching.scenarios.target_scenario` (a chosen block
decides) and :func:`~teaching.scenarios.near_miss_scenario` (nobody yet).
The block order is the caller's rule set's; every block is covered under any order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules_core import RoundScore, RuleSet, resolve_target
from teaching.scenarios import (
    ScenarioError,
    TargetScenario,
    near_miss_scenario,
    target_contracts,
    target_scenario,
)

from .base import Draft, Inputs, Kind, Retry, Solved, TargetValue, canon, score_of, trace_dicts
from .deal import weighted

DECIDES = ("weis", "stoeck", "tricks", "nobody")

Event = tuple[int, int, str]  # team, points, block


def solve_target(inputs: Inputs, rules: RuleSet) -> Solved[TargetValue]:
    score = score_of(inputs, rules)
    result = resolve_target(tuple(inputs["before"]), score, inputs["target"], rules)
    return Solved({"team": result.team, "block": result.block}, trace_dicts(result.trace))


def _events(score: RoundScore, order: Sequence[str], *, whole_tricks: bool = False) -> list[Event]:
    """The round's points in counting order (own walk, for the mistakes' answers);
    ``whole_tricks`` counts each team's tricks block at once, team 0 first."""
    events: list[Event] = []
    for block in order:
        if block == "tricks" and not whole_tricks:
            events.extend((t.team, t.points, "tricks") for t in score.tricks)
        else:
            events.extend((team, score.blocks[team][block], block) for team in (0, 1))
    return events


def _race(
    before: Sequence[int], target: int, events: Sequence[Event]
) -> tuple[int | None, str | None]:
    totals = list(before)
    for team, points, block in events:
        totals[team] += points
        if points and totals[team] >= target:
            return team, block
    return None, None


def _own_block(
    before: Sequence[int], target: int, events: Sequence[Event], team: int
) -> str | None:
    """The block in which ``team`` reaches the target counting its own points only."""
    return _race(before, target, [e for e in events if e[0] == team])[1]


# the mistakes' order of preference, by what decides (the most telling first)
_PRIORITY = {
    "weis": (
        "wrong_block_order",
        "tricks_counted_first",
        "most_points_wins",
        "target_must_be_exceeded",
        "later_reacher_wins",
        "losing_team_weis_counted",
        "tricks_not_counted_in_order",
    ),
    "tricks": (
        "tricks_not_counted_in_order",
        "most_points_wins",
        "later_reacher_wins",
        "target_must_be_exceeded",
        "tricks_counted_first",
        "losing_team_weis_counted",
        "wrong_block_order",
    ),
    "nobody": ("losing_team_weis_counted", "most_points_wins"),
}
_PRIORITY["stoeck"] = _PRIORITY["weis"]


# Rounds tried per case before the next case is taken: the default rule sets find one
# within 20; a custom target may leave a case rare or impossible (a target below what
# one round brings), and a question must still be built in milliseconds.
SCENARIO_ATTEMPTS = 60


def _scenario(rng: random.Random, seed: int, rules: RuleSet) -> tuple[str, TargetScenario]:
    """The round of the seed's case (``DECIDES[seed % 4]``) or, where the rule set's
    target makes that case impossible or rare, of the next case that exists."""
    first = seed % len(DECIDES)
    cases = [DECIDES[(first + step) % len(DECIDES)] for step in range(len(DECIDES))]
    # last, the blocks passing the target from 0:0, which a tiny target always allows
    tries = [(d, None) for d in cases] + [(d, True) for d in cases if d != "nobody"]
    for decides, overshoot in tries:
        if not target_contracts(decides, rules, overshoot=decides != "nobody"):
            continue
        sub_seed = rng.randrange(1 << 30)
        try:
            if decides == "nobody":
                return decides, near_miss_scenario(sub_seed, rules, attempts=SCENARIO_ATTEMPTS)
            scenario = target_scenario(
                decides, sub_seed, rules, attempts=SCENARIO_ATTEMPTS, overshoot=overshoot
            )
        except ScenarioError:
            continue
        return decides, scenario
    raise Retry(f"no round fits a target of {rules.target}")


# How many choices a question shows, as (size, weight): "nobody" is one value but a
# quarter of the answers (``seed % 4``), each (team, block) an eighth. With these
# weights every value of a shown set was the answer equally often (see _choose).
SIZES_NOBODY = ((3, 1), (4, 2), (5, 1))
SIZES_TEAM = ((3, 1), (4, 3), (5, 2))


def _choose(
    rng: random.Random,
    answer: TargetValue,
    found: Mapping[str, TargetValue],
    decides: str,
    order: Sequence[str],
) -> list[tuple[TargetValue, str]]:
    """The wrong choices: "nobody yet" and (team, block) values drawn at random.

    Every (team, block) is the answer of some mistake (at worst a team and a block
    confused), and so is "nobody yet" when a team wins. "Nobody yet" is always shown,
    with 2 to 4 (team, block) values drawn at random, in such proportions that each
    value of a shown set is the right one equally often: the set itself tells nothing.
    (With ``P(nobody) = 2 P(team, block)``, a set of ``k`` choices is drawn with
    weight ``p_k`` when nobody wins and ``p_k (k - 1) / 3`` when a team does.)
    A value gets the most telling mistake that gives it.
    """
    nobody: TargetValue = {"team": None, "block": None}
    pairs: list[TargetValue] = [{"team": t, "block": b} for t in (0, 1) for b in order]
    tag_of: dict[str, str] = {}
    for tag in ("tricks_not_counted_in_order", "later_reacher_wins", *_PRIORITY[decides]):
        if tag in found:
            tag_of.setdefault(canon(found[tag]), tag)
    if answer["team"] is None:
        size = weighted(rng, SIZES_NOBODY)
        shown = rng.sample(pairs, size - 1)
    else:
        size = weighted(rng, SIZES_TEAM)
        shown = [nobody, *rng.sample([p for p in pairs if p != answer], size - 2)]
    out = []
    for value in shown:
        default = "target_reach_overlooked" if value["team"] is None else "team_or_block_confused"
        out.append((value, tag_of.get(canon(value), default)))
    return out


def _value(team: int | None, block: str | None) -> TargetValue:
    return {"team": team, "block": block}


def _losing_weis_counted(
    score: RoundScore, before: Sequence[int], target: int, events: Sequence[Event]
) -> TargetValue | None:
    """The race with the melds of the team that lost the Weis counted too (R5.6)."""
    weis = score.weis
    if weis.team is None:
        return None
    loser = 1 - weis.team
    lost = sum(m.points for s in (loser, loser + 2) for m in weis.melds[s]) * score.factor
    if not lost:
        return None
    extra = []
    for team, points, block in events:
        extra.append((team, points, block))
        if block == "weis" and team == 1:
            extra.append((loser, lost, "weis"))
    return _value(*_race(before, target, extra))


def _order_slips(
    score: RoundScore, before: Sequence[int], target: int, order: Sequence[str], winner: int
) -> dict[str, TargetValue]:
    """The answers of the mistakes about the counting order, when a team wins."""
    events = _events(score, order)
    first = ("tricks",) + tuple(b for b in order if b != "tricks")
    swapped = tuple({"weis": "stoeck", "stoeck": "weis"}.get(b, b) for b in order)
    found = {
        "tricks_counted_first": _value(*_race(before, target, _events(score, first))),
        "wrong_block_order": _value(*_race(before, target, _events(score, swapped))),
        "target_must_be_exceeded": _value(*_race(before, target + 1, events)),
        "tricks_not_counted_in_order": _value(
            *_race(before, target, _events(score, order, whole_tricks=True))
        ),
    }
    other_block = _own_block(before, target, events, 1 - winner)
    if other_block is not None:
        found["later_reacher_wins"] = _value(1 - winner, other_block)
    return found


def _slips(scenario: TargetScenario, rules: RuleSet, answer: TargetValue) -> dict[str, TargetValue]:
    """Each mistake's answer for the round of ``scenario``."""
    score, before, target = scenario.score, scenario.before, scenario.target
    order = tuple(rules.target_order)
    events = _events(score, order)
    found: dict[str, TargetValue] = {}
    losing = _losing_weis_counted(score, before, target, events)
    if losing is not None:
        found["losing_team_weis_counted"] = losing
    final = (before[0] + score.totals[0], before[1] + score.totals[1])
    if final[0] != final[1]:
        leader = 0 if final[0] > final[1] else 1
        block = _own_block(before, target, events, leader) or "tricks"
        found["most_points_wins"] = _value(leader, block)
    if answer["team"] is not None:
        found.update(_order_slips(score, before, target, order, answer["team"]))
    return found


def build_target(rng: random.Random, seed: int, rules: RuleSet) -> Draft[TargetValue]:
    decides, scenario = _scenario(rng, seed, rules)
    played, score = scenario.round, scenario.score
    inputs = {
        "hands": [[c.code for c in hand] for hand in played.hands],
        "contract": played.contract.code,
        "plays": [[seat, c.code] for seat, c in played.plays],
        "calls": [[c.seat, c.after_play, c.prompted] for c in played.calls],
        "before": list(scenario.before),
        "target": scenario.target,
    }
    solved = solve_target(inputs, rules)
    if solved.value["block"] != (None if decides == "nobody" else decides):
        raise Retry("another block decides")
    found = _slips(scenario, rules, solved.value)
    distractors = _choose(rng, solved.value, found, decides, tuple(rules.target_order))
    rules_tested = ["R7.2", "R7.3"] + ["R7.4"] * (decides == "tricks")
    rules_tested += ["R7.5"] * (decides == "nobody")
    prompt = {
        "preset": rules.preset_name(),
        "target": scenario.target,
        "before": list(scenario.before),
        "factor": score.factor,
        "blocks": [dict(b) for b in score.blocks],
        "tricks": [{"index": t.index, "team": t.team, "points": t.points} for t in score.tricks],
    }
    if decides != DECIDES[seed % len(DECIDES)]:
        prompt["case"] = decides  # the rule set's target leaves the seed's case out
    return Draft(
        inputs=inputs,
        prompt=prompt,
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


TARGET = Kind(
    "target",
    "Which team reaches the target in a round, in which block, or nobody yet (R7.1-R7.5).",
    build_target,
    solve_target,
    tuple(
        dict.fromkeys(
            _PRIORITY["weis"]
            + _PRIORITY["tricks"]
            + ("team_or_block_confused", "target_reach_overlooked")
        )
    ),
    DECIDES,
)
