"""What a team writes on the Jasstafel for a round: ``jasstafel`` (R7.1; R4.4, R4.5,
R5.6, R6.5). Formats: see :mod:`teaching.generators`.

A whole round in a trump contract, with King and Ober of trump in one hand, is played
out with random legal cards and scored by rules_core's ``score_round``: three blocks
per team, Weis, Stöck and tricks, each after the factor (R7.1, R4.5). The question
names one team and asks how much it writes for the round. The page shows what the
round brought: which team writes Weis and its melds' value, the Stöck holder and
whether the call came in time, and who won each trick with its card points.

The four choices are always the team's tricks block ``K`` plus nothing, the Stöck
(``S``), the Weis block (``W``) or both. Which of them is right depends on the round
only, in four cases picked by ``seed % 4`` (:data:`CASES`): the team writes neither
the Weis (the other team's melds are better) nor the Stöck (the other team's, or lost),
only the Stöck, only the Weis, or both. The round is dealt the same way in every
case, so each choice is right in a quarter of the questions whatever the numbers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules_core import (
    DECK,
    Card,
    Contract,
    RoundScore,
    RuleSet,
    StoeckCall,
    resolve_weis,
    stoeck_holder,
)
from rules_core.tables import STOECK_POINTS, stoeck_pair
from teaching.scenarios import play_out

from .base import Draft, Inputs, JSONObject, Kind, PointsValue, Retry, Solved, score_of
from .deal import TRUMP_CONTRACTS, codes

CASES = ("neither", "stoeck", "weis", "both")
"""What ``seed % 4`` aims at: the blocks the asked team writes besides its tricks."""


def _deal(rng: random.Random, pair: tuple[Card, Card], holder: int) -> list[list[Card]]:
    """A deal in which ``holder`` has King and Ober of trump (R6.1)."""
    rest = [c for c in DECK if c not in pair]
    rng.shuffle(rest)
    others = [seat for seat in range(4) if seat != holder]
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[holder] = sorted([*pair, *rest[:7]])
    for i, seat in enumerate(others):
        hands[seat] = sorted(rest[7 + i * 9 : 16 + i * 9])
    return hands


def explain_round(score: RoundScore, team: int) -> list[JSONObject]:
    """The blocks of both teams (R7.1), the tricks (R4.4) and the team asked about."""
    return [
        {
            "rule": "R4.4",
            "key": "jasstafel.tricks",
            "values": {
                "tricks": [
                    {
                        "index": t.index,
                        "winner": t.winner,
                        "team": t.team,
                        "card_points": t.card_points,
                        "last_trick_bonus": t.last_trick_bonus,
                        "match_bonus": t.match_bonus,
                        "points": t.points,
                    }
                    for t in score.tricks
                ],
                "match": score.match,
                "factor": score.factor,
            },
            "decided": False,
        },
        {
            "rule": "R7.1",
            "key": "jasstafel.blocks",
            "values": {
                "team": team,
                "blocks": [dict(b) for b in score.blocks],
                "totals": list(score.totals),
                "weis_team": score.weis.team,
                "weis_points": score.weis.points,
                "stoeck_seat": score.stoeck.seat,
                "stoeck_status": score.stoeck.status,
                "stoeck_reason": score.stoeck.reason.value,
                "factor": score.factor,
            },
            "decided": True,
        },
    ]


def solve_jasstafel(inputs: Inputs, rules: RuleSet) -> Solved[PointsValue]:
    score = score_of(inputs, rules)
    team = int(inputs["team"])
    value: PointsValue = {"points": score.totals[team]}
    return Solved(value, explain_round(score, team))


_MISTAKES: dict[tuple[str, str], str] = {
    ("neither", "stoeck"): "stoeck_counted_wrongly",
    ("neither", "weis"): "other_team_weis_counted",
    ("neither", "both"): "other_team_weis_counted",
    ("stoeck", "neither"): "stoeck_forgotten",
    ("stoeck", "weis"): "other_team_weis_counted",
    ("stoeck", "both"): "other_team_weis_counted",
    ("weis", "neither"): "weis_block_forgotten",
    ("weis", "stoeck"): "stoeck_counted_wrongly",
    ("weis", "both"): "stoeck_counted_wrongly",
    ("both", "neither"): "weis_block_forgotten",
    ("both", "stoeck"): "weis_block_forgotten",
    ("both", "weis"): "stoeck_forgotten",
}


def build_jasstafel(rng: random.Random, seed: int, rules: RuleSet) -> Draft[PointsValue]:
    wanted = CASES[seed % len(CASES)]
    writes_weis = wanted in ("weis", "both")
    writes_stoeck = wanted in ("stoeck", "both")
    contract = Contract.parse(rng.choice(TRUMP_CONTRACTS))
    pair = stoeck_pair(contract)
    assert pair is not None  # a trump contract (R6.1)
    holder = rng.randrange(4)
    hands = _deal(rng, pair, holder)
    # The round decides, not the numbers: the team asked about is placed against the
    # Weis, and the holder's call kept or dropped, as the case wants.
    weis = resolve_weis(hands, contract, rules)
    if weis.team is None:
        raise Retry("nobody writes Weis")
    if weis.scored == STOECK_POINTS * weis.factor:
        raise Retry("Weis and Stöck would give the same choice")
    team = weis.team if writes_weis else 1 - weis.team
    if writes_stoeck and holder % 2 != team:
        raise Retry("the Stöck is the other team's")
    played = play_out(hands, contract, rng)
    # the team's own Stöck counts only when the case wants it; the other team's is
    # called in time or not at random (neither gives the asked team anything)
    called = writes_stoeck if holder % 2 == team else rng.random() < 0.5
    calls: tuple[StoeckCall, ...] = played.calls if called else ()
    draft = _jasstafel_draft(
        rules,
        wanted,
        team,
        holder,
        [codes(h) for h in played.hands],
        contract.code,
        [[seat, card.code] for seat, card in played.plays],
        [[c.seat, c.after_play, c.prompted] for c in calls],
    )
    if draft is None:
        raise Retry("the round did not come out as the case wants")
    return draft


def jasstafel_draft(
    wanted: str,
    hands: Sequence[Sequence[str]],
    contract: str,
    plays: Sequence[Sequence[Any]],
    calls: Sequence[Sequence[Any]],
    rules: RuleSet,
) -> Draft[PointsValue] | None:
    """The ``jasstafel`` question of a given round (a table position of the trainer,
    issue 25: all nine tricks played), about the team for which the round is the case
    ``wanted`` (of :data:`CASES`): a trump contract with King and Ober of trump in one
    hand and a team writing Weis; a round in which the Weis team holds the Stöck gives
    ``both`` (that team) and ``neither`` (the other), any other ``stoeck`` and
    ``weis``. None where the round cannot give ``wanted``. Drawing ``wanted`` evenly
    keeps the four choices right equally often, as the generator does.

    ``plays`` are ``[seat, card]``, ``calls`` ``[seat, after_play, prompted]``.
    """
    pair = stoeck_pair(Contract.parse(contract))
    holder = stoeck_holder(hands, contract)
    if pair is None or holder is None:
        return None
    weis = resolve_weis(hands, contract, rules)
    if weis.team is None or weis.scored == STOECK_POINTS * weis.factor:
        return None  # no Weis block, or one that reads like the Stöck
    team = weis.team if wanted in ("weis", "both") else 1 - weis.team
    if (holder % 2 == team) != (wanted in ("stoeck", "both")):
        return None
    return _jasstafel_draft(rules, wanted, team, holder, hands, contract, plays, calls)


def _jasstafel_draft(
    rules: RuleSet,
    wanted: str,
    team: int,
    holder: int,
    hands: Sequence[Sequence[str]],
    contract: str,
    plays: Sequence[Sequence[Any]],
    calls: Sequence[Sequence[Any]],
) -> Draft[PointsValue] | None:
    """The question about ``team``, or None when the round's score is not ``wanted``
    (the team's own Stöck lost, say)."""
    inputs = {
        "hands": [list(h) for h in hands],
        "contract": contract,
        "plays": [list(p) for p in plays],
        "calls": [list(c) for c in calls],
        "team": team,
    }
    score = score_of(inputs, rules)
    f = score.factor
    tricks = score.blocks[team]["tricks"]
    stoeck = STOECK_POINTS * f
    weis_block = score.weis.scored
    values = {
        "neither": tricks,
        "stoeck": tricks + stoeck,
        "weis": tricks + weis_block,
        "both": tricks + stoeck + weis_block,
    }
    solved = solve_jasstafel(inputs, rules)
    if solved.value["points"] != values[wanted]:
        return None
    distractors: list[tuple[PointsValue, str]] = [
        ({"points": points}, _MISTAKES[(wanted, name)])
        for name, points in values.items()
        if name != wanted
    ]
    rules_tested = ["R4.4", "R5.6", "R6.5", "R7.1"]
    if f > 1:
        rules_tested.insert(1, "R4.5")
    return Draft(
        inputs=inputs,
        prompt={
            "preset": rules.preset_name(),
            "team": team,
            "factor": f,
            "weis_team": score.weis.team,
            "weis_points": score.weis.points,
            "stoeck_seat": holder,
            "stoeck_status": score.stoeck.status,
            "stoeck_reason": score.stoeck.reason.value,
            "tricks": [
                {"index": t.index, "winner": t.winner, "team": t.team, "points": t.card_points}
                for t in score.tricks
            ],
        },
        answer=solved.value,
        distractors=distractors,
        explanation=solved.explanation,
        rules_tested=rules_tested,
    )


JASSTAFEL = Kind(
    "jasstafel",
    "What a team writes for a round on the Jasstafel: the Weis, Stöck and tricks blocks "
    "(R7.1), with the last trick and the match (R4.4) and the factor (R4.5).",
    build_jasstafel,
    solve_jasstafel,
    (
        "stoeck_counted_wrongly",
        "other_team_weis_counted",
        "stoeck_forgotten",
        "weis_block_forgotten",
    ),
    CASES,
)

__all__ = ["CASES", "JASSTAFEL", "explain_round", "solve_jasstafel"]
