"""The written score of a played round, as the Jasstafel judgement uses it."""

from __future__ import annotations

from typing import Any

from rules_core import resolve_target_blocks, score_round

from .model import TableScore

__all__ = ["block_verdict", "score_state"]


def block_verdict(result: TableScore, team: int, block: str) -> dict[str, Any]:
    if block == "weis":
        weis = result.weis
        return {
            "written": result.blocks[team]["weis"],
            "weis": {
                "team": weis.team,
                "points": weis.points,
                "factor": weis.factor,
                "scored": weis.scored,
                "melds": weis.trace[-1]["melds"],
            },
        }
    if block == "stoeck":
        return {"written": result.blocks[team]["stoeck"], "stoeck": result.stoeck.to_dict()}
    return {
        "written": result.blocks[team]["tricks"],
        "factor": result.round.factor,
        "match": result.match,
        "tricks": [t.to_dict() for t in result.tricks if t.team == team],
    }


def score_state(state: Any) -> TableScore:
    round_ = score_round(
        state.hands, state.contract, state.plays, state._engine_calls(), state.rules
    )
    weis = state.weis()
    blocks = tuple(
        {
            "weis": weis.scored if weis.team == team else 0,
            "stoeck": round_.blocks[team]["stoeck"],
            "tricks": round_.blocks[team]["tricks"],
        }
        for team in (0, 1)
    )
    before = state.scenario.before
    target = resolve_target_blocks(
        before,
        blocks,
        state.scenario.target,
        state.rules,
        tricks=[(t.team, t.points) for t in round_.tricks],
    )
    return TableScore(
        round=round_,
        weis=weis,
        stoeck=round_.stoeck,
        blocks=(blocks[0], blocks[1]),
        totals=(sum(blocks[0].values()), sum(blocks[1].values())),
        tricks=round_.tricks,
        match=round_.match,
        before=before,
        target=target,
    )
