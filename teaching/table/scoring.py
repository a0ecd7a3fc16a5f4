"""The written score of a played round, as the Jasstafel judgement uses it."""

from __future__ import annotations

from rules_core import RoundScore, WeisResult, resolve_target_blocks

from .judgements import StoeckBlockVerdict, TricksBlockVerdict, WeisBlockVerdict
from .model import Block, Scenario
from .moves import BlockPoints
from .result import TableScore

__all__ = ["block_verdict", "table_score"]


def block_verdict(
    result: TableScore, team: int, block: Block
) -> WeisBlockVerdict | StoeckBlockVerdict | TricksBlockVerdict:
    """The engine's data behind one block of a team on the Jasstafel."""
    written = result.blocks[team][block]
    if block == "weis":
        weis = result.weis
        melds = tuple(
            (seat, m)
            for seat in ((weis.team, weis.team + 2) if weis.team is not None else ())
            for m in weis.written[seat]
        )
        return WeisBlockVerdict(
            written=written,
            team=weis.team,
            points=weis.points,
            factor=weis.factor,
            scored=weis.scored,
            melds=melds,
        )
    if block == "stoeck":
        return StoeckBlockVerdict(written=written, stoeck=result.stoeck)
    return TricksBlockVerdict(
        written=written,
        factor=result.round.factor,
        match=result.match,
        tricks=tuple(t for t in result.tricks if t.team == team),
    )


def table_score(scenario: Scenario, round_: RoundScore, weis: WeisResult) -> TableScore:
    """The score of the round of ``scenario`` scored as ``round_`` (the engine's
    :class:`RoundScore` of the played round), the Weis written as ``weis`` (the
    announced claims compared), with the target from the totals before it."""
    blocks = tuple(
        BlockPoints(
            weis=weis.scored if weis.team == team else 0,
            stoeck=round_.blocks[team]["stoeck"],
            tricks=round_.blocks[team]["tricks"],
        )
        for team in (0, 1)
    )
    target = resolve_target_blocks(
        scenario.before,
        blocks,
        scenario.target,
        scenario.rules,
        tricks=[(t.team, t.points) for t in round_.tricks],
    )
    return TableScore(
        round=round_,
        weis=weis,
        stoeck=round_.stoeck,
        blocks=(blocks[0], blocks[1]),
        totals=(blocks[0].total, blocks[1].total),
        tricks=round_.tricks,
        match=round_.match,
        before=scenario.before,
        target=target,
    )
