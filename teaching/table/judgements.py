"""Judgements as typed values: what the learner gave, what was expected, and the
engine's verdict, one small frozen type per kind of decision.

``Judgement.to_dict()`` is the JSON documented in :mod:`teaching.table` (unchanged
since the judgements were dicts: stored results stay comparable). Inside, seats,
teams and tricks count from 0; the ``given``/``expected`` JSON of ``writes``,
``jasstafel_block`` and ``target`` repeats the move's 1-based format.

>>> j = Judgement(move=0, kind="writes", outcome="wrong", rule="R5.6",
...               skill="who_writes", key="writes.wrong_team", at_play=4,
...               given=WritesAnswer(team=0, points=20),
...               expected=WritesAnswer(team=1, points=20), verdict=None)
>>> j.wrong, j.to_dict()["given"], j.expected.team
(True, {'team': 1, 'points': 20}, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from rules_core import (
    LegalCards,
    Meld,
    MeldChoice,
    StoeckResult,
    TargetResult,
    TraceEntry,
    TrickResult,
)

from .model import Block, Kind, Outcome, Shown, Skill
from .moves import BlockPoints, TargetAnswer, WritesAnswer

__all__ = [
    "AnnounceAnswer",
    "AnnounceVerdict",
    "BlockAnswer",
    "CallRef",
    "CardGiven",
    "Expected",
    "Given",
    "HiddenStoeckVerdict",
    "IfBest",
    "Judgement",
    "LateAnnounceVerdict",
    "LegalExpected",
    "PlayVerdict",
    "StoeckAnswer",
    "StoeckBlockVerdict",
    "StoeckVerdict",
    "TargetVerdict",
    "TricksBlockVerdict",
    "Verdict",
    "WeisBlockVerdict",
    "WeisSummary",
    "WritesVerdict",
]


# ---------------------------------------------------------------------------
# What was given and what was expected


@dataclass(frozen=True)
class CardGiven:
    """The card the learner tried: ``{"play": code}``."""

    card: str

    def to_dict(self) -> dict[str, Any]:
        return {"play": self.card}


@dataclass(frozen=True)
class LegalExpected:
    """The legal cards: ``{"legal": [codes]}``."""

    legal: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"legal": list(self.legal)}


@dataclass(frozen=True)
class AnnounceAnswer:
    """A value announced (0: nothing), or expected (None: nothing can count now, a
    late announcement): ``{"announce": value}``."""

    value: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"announce": self.value}


@dataclass(frozen=True, kw_only=True)
class StoeckAnswer:
    """«Stöck!» said or not, and with the card or on its own (``with_card`` None: no
    such key, for a call not made)."""

    stoeck: bool
    with_card: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"stoeck": self.stoeck}
        if self.with_card is not None:
            out["with_card"] = self.with_card
        return out


@dataclass(frozen=True, kw_only=True)
class BlockAnswer:
    """One block of the Jasstafel: ``team`` (0-based), ``block`` and its points."""

    team: int
    block: Block
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"team": self.team + 1, "block": self.block, "points": self.points}


Given: TypeAlias = (
    CardGiven | AnnounceAnswer | StoeckAnswer | WritesAnswer | BlockAnswer | TargetAnswer
)
Expected: TypeAlias = (
    LegalExpected | AnnounceAnswer | StoeckAnswer | WritesAnswer | BlockAnswer | TargetAnswer
)


# ---------------------------------------------------------------------------
# Verdicts: the engine's data behind a judgement


@dataclass(frozen=True, kw_only=True)
class PlayVerdict:
    """A card tried: the card, the trick so far and the engine's legal cards."""

    card: str
    trick: tuple[str, ...]
    legal: LegalCards

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "trick": list(self.trick), **self.legal.to_dict()}


@dataclass(frozen=True, kw_only=True)
class AnnounceVerdict:
    """An announcement with the first card: the value, the values of the melds held,
    the best, whether the rule set wants the best (W-EN) and the engine's choice."""

    announced: int
    held: tuple[int, ...]
    best: int
    strict: bool
    choice: MeldChoice

    def to_dict(self) -> dict[str, Any]:
        return {
            "announced": self.announced,
            "held": list(self.held),
            "best": self.best,
            "strict": self.strict,
            "choice": self.choice.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class LateAnnounceVerdict:
    """An announcement after the next player played: ``first_play`` (the learner's
    first card) and ``plays`` (cards on the table then)."""

    announced: int
    first_play: int | None
    plays: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "announced": self.announced,
            "first_play": self.first_play,
            "plays": self.plays,
            "next_played": True,
        }


@dataclass(frozen=True, kw_only=True)
class CallRef:
    """A learner's «Stöck!» as judged: seat, the card it was said after, and the
    ``after_play`` the engine got (None: not given to it)."""

    seat: int
    said_after: int
    after_play: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "said_after": self.said_after, "after_play": self.after_play}


@dataclass(frozen=True, kw_only=True, eq=False)
class StoeckVerdict:
    """A Stöck judgement: the round's :class:`StoeckResult` after it, and for a call
    the call, the engine's ``stoeck.call`` verdict, whether it came after the trick
    was gathered, and the key of the earlier judgement a repeat repeats."""

    result: StoeckResult
    call: CallRef | None = None
    call_verdict: str | None = None
    after_trick: bool = False
    repeats: str | None = None

    # StoeckResult compares by identity (the engine keeps it immutable by hand, without
    # __eq__); two replays of one log must give equal judgements, so compare the data.
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"result": self.result.to_dict()}
        if self.call is not None:
            out.update(
                call=self.call.to_dict(),
                call_verdict=self.call_verdict,
                after_trick=self.after_trick,
            )
        if self.repeats is not None:
            out["repeats"] = self.repeats
        return out


@dataclass(frozen=True, kw_only=True)
class HiddenStoeckVerdict:
    """A Stöck judgement as a learner without the Stöck sees it before the round
    ends: only what their own hand shows, not who holds king and Ober of trump."""

    contract: str
    trump: str | None
    holds_king: bool
    holds_queen: bool
    call: CallRef | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "trump": self.trump,
            "holds": {"king": self.holds_king, "queen": self.holds_queen},
            "call": None if self.call is None else self.call.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class WeisSummary:
    """Who writes Weis (``rules_core.WeisResult`` in short): team and seat of the best
    claim, points before and after the factor, and the deciding ladder step."""

    team: int | None
    points: int
    factor: int
    scored: int
    step: str | None
    best_seat: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "team": self.team,
            "points": self.points,
            "factor": self.factor,
            "scored": self.scored,
            "step": self.step,
            "best_seat": self.best_seat,
        }


@dataclass(frozen=True, kw_only=True)
class IfBest:
    """Who would have written had the learner announced their best meld."""

    value: int
    team: int | None
    scored: int

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "team": self.team, "scored": self.scored}


@dataclass(frozen=True, kw_only=True)
class WritesVerdict:
    """Who writes Weis, judged: the engine's answer on the claims, each seat's claim,
    its status (best, smaller, false, silent) and whether it counted, who would write
    with the learner's best meld, the melds shown, and the engine's trace (without
    the lines of other players who show nothing)."""

    weis: WeisSummary
    claims: tuple[int | None, ...]
    status: tuple[str, ...]
    counted: tuple[bool, ...]
    if_best: IfBest | None
    shown: Shown | None
    team_right: bool
    points_right: bool
    trace: tuple[TraceEntry, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "weis": self.weis.to_dict(),
            "claims": list(self.claims),
            "status": list(self.status),
            "counted": list(self.counted),
            "if_best": None if self.if_best is None else self.if_best.to_dict(),
            "shown": None if self.shown is None else self.shown.to_dict(),
            "team_right": self.team_right,
            "points_right": self.points_right,
            "trace": [e.to_dict() for e in self.trace],
        }


@dataclass(frozen=True, kw_only=True)
class WeisBlockVerdict:
    """The Weis block of a team: what it writes, and the Weis written, with the
    melds written as ``(seat, meld)``."""

    written: int
    team: int | None
    points: int
    factor: int
    scored: int
    melds: tuple[tuple[int, Meld], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "written": self.written,
            "weis": {
                "team": self.team,
                "points": self.points,
                "factor": self.factor,
                "scored": self.scored,
                "melds": [{"seat": seat, **m.to_dict()} for seat, m in self.melds],
            },
        }


@dataclass(frozen=True, kw_only=True, eq=False)
class StoeckBlockVerdict:
    """The Stöck block of a team: what it writes, and the round's Stöck."""

    written: int
    stoeck: StoeckResult

    # StoeckResult compares by identity (the engine keeps it immutable by hand, without
    # __eq__); two replays of one log must give equal judgements, so compare the data.
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))

    def to_dict(self) -> dict[str, Any]:
        return {"written": self.written, "stoeck": self.stoeck.to_dict()}


@dataclass(frozen=True, kw_only=True)
class TricksBlockVerdict:
    """The tricks block of a team: what it writes, the factor, the match (team or
    None) and the team's tricks."""

    written: int
    factor: int
    match: int | None
    tricks: tuple[TrickResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "written": self.written,
            "factor": self.factor,
            "match": self.match,
            "tricks": [t.to_dict() for t in self.tricks],
        }


@dataclass(frozen=True, kw_only=True)
class TargetVerdict:
    """Who reaches the target: the engine's answer (running totals trick by trick),
    the true blocks per team and the totals before the round."""

    target: TargetResult
    blocks: tuple[BlockPoints, BlockPoints]
    before: tuple[int, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target.to_dict(),
            "blocks": [b.to_dict() for b in self.blocks],
            "before": list(self.before),
        }


Verdict: TypeAlias = (
    PlayVerdict
    | AnnounceVerdict
    | LateAnnounceVerdict
    | StoeckVerdict
    | HiddenStoeckVerdict
    | WritesVerdict
    | WeisBlockVerdict
    | StoeckBlockVerdict
    | TricksBlockVerdict
    | TargetVerdict
    | None
)


@dataclass(frozen=True, kw_only=True)
class Judgement:
    """One learner decision, judged (see :mod:`teaching.table` for the kinds and
    keys): ``move`` (index in the log, -1 before the first move), ``kind``,
    ``outcome``, ``rule``, ``skill``, ``key``, ``at_play`` (cards on the table),
    ``given``, ``expected`` (None for a repeated call) and ``verdict``."""

    move: int
    kind: Kind
    outcome: Outcome
    rule: str
    skill: Skill
    key: str
    at_play: int
    given: Given
    expected: Expected | None
    verdict: Verdict

    @property
    def right(self) -> bool:
        return self.outcome == "right"

    @property
    def wrong(self) -> bool:
        return self.outcome == "wrong"

    def with_verdict(self, verdict: Verdict) -> Judgement:
        """The same judgement with another verdict (the learner's view hides some)."""
        return replace(self, verdict=verdict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "kind": self.kind,
            "outcome": self.outcome,
            "rule": self.rule,
            "skill": self.skill,
            "key": self.key,
            "at_play": self.at_play,
            "given": self.given.to_dict(),
            "expected": None if self.expected is None else self.expected.to_dict(),
            "verdict": None if self.verdict is None else self.verdict.to_dict(),
        }
