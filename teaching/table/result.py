"""What the referee returns: the :class:`Table` after a move log, and the
:class:`TableScore` of a played round (formats in :mod:`teaching.table`)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from rules_core import RoundScore, StoeckResult, TargetResult, TrickResult, WeisResult

from .judgements import Judgement
from .model import Announcement, Call, Exchange, Phase, Reminder, Scenario, Shown, Trick
from .moves import BlockPoints, JasstafelAnswer

__all__ = ["Table", "TableScore"]


@dataclass(frozen=True, kw_only=True)
class Table:
    """Everything the referee knows after a move log (the whole truth: hidden cards
    included; :func:`teaching.table.learner_view` is what the learner may see).
    ``moves`` is the log as given (JSON), the truth a replay starts from."""

    scenario: Scenario
    moves: tuple[Any, ...]
    hands: tuple[tuple[str, ...], ...]
    held: tuple[tuple[str, ...], ...]
    plays: tuple[tuple[int, str], ...]
    tricks: tuple[Trick, ...]
    announcements: tuple[Announcement, ...]
    exchanges: tuple[Exchange, ...]
    calls: tuple[Call, ...]
    reminder: Reminder | None
    shown: Shown | None
    phase: Phase
    legal: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    jasstafel: JasstafelAnswer | None

    @property
    def seat(self) -> int:
        """The learner's seat (0-3)."""
        return self.scenario.seat

    @property
    def contract(self) -> str:
        return self.scenario.contract

    @property
    def hand(self) -> tuple[str, ...]:
        """The cards the learner still holds."""
        return self.held[self.scenario.seat]

    @property
    def counted(self) -> tuple[bool, ...]:
        """Per seat: the player's claim takes part in the Weis comparison (announced
        in time, a value the player holds)."""
        return tuple(any(a.counts for a in self.announcements if a.seat == s) for s in range(4))

    @property
    def claims(self) -> tuple[int | None, ...]:
        """Per seat the value announced with the first card, as
        ``rules_core.resolve_weis(..., claims=...)`` takes it (R5.4a): None for silence
        or a late announcement; a value the player holds no meld of stays (R5.7)."""
        return tuple(
            next((a.value for a in self.announcements if a.seat == s and not a.late), None)
            for s in range(4)
        )

    def engine_calls(self) -> list[tuple[int, int, bool]]:
        """The Stöck calls as the engine takes them: ``(seat, after_play, prompted)``
        for every call with an ``after_play`` below the number of plays."""
        n = len(self.plays)
        return [
            (c.seat, c.after_play, c.prompted)
            for c in self.calls
            if c.after_play is not None and c.after_play < n
        ]

    def to_dict(self) -> dict[str, Any]:
        """The whole table as plain JSON data (hidden cards included)."""
        return {
            "scenario": self.scenario.to_dict(),
            "moves": copy.deepcopy(list(self.moves)),
            "hands": [list(h) for h in self.hands],
            "held": [list(h) for h in self.held],
            "plays": [[s, c] for s, c in self.plays],
            "tricks": [t.to_dict() for t in self.tricks],
            "announcements": [a.to_dict() for a in self.announcements],
            "exchanges": [e.to_dict() for e in self.exchanges],
            "calls": [c.to_dict() for c in self.calls],
            "reminder": None if self.reminder is None else self.reminder.to_dict(),
            "shown": None if self.shown is None else self.shown.to_dict(),
            "phase": self.phase,
            "legal": list(self.legal),
            "judgements": [j.to_dict() for j in self.judgements],
            "jasstafel": None if self.jasstafel is None else self.jasstafel.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class TableScore:
    """The written score of a played round, as the Jasstafel judgement uses it.

    ``round``: :func:`rules_core.score_round` on the plays and calls (its Weis is the
    engine's everyone-announces-the-best model); ``weis``: :func:`rules_core.resolve_weis`
    with the announced claims (``Table.claims``, R5.4a);
    ``stoeck``: the round's :class:`StoeckResult`; ``blocks``: per team ``{"weis",
    "stoeck", "tricks"}`` after the factor, with ``weis`` from ``weis``; ``totals``;
    ``tricks``: the nine :class:`TrickResult`; ``match``: the team that took all nine
    tricks or None; ``target``: :func:`rules_core.resolve_target_blocks` on
    ``before``, ``blocks`` and the tricks in the order won (equal to
    :func:`rules_core.resolve_target` whenever every melding player announced their
    best meld)."""

    round: RoundScore
    weis: WeisResult
    stoeck: StoeckResult
    blocks: tuple[BlockPoints, BlockPoints]
    totals: tuple[int, int]
    tricks: tuple[TrickResult, ...]
    match: int | None
    before: tuple[int, int]
    target: TargetResult

    def to_dict(self) -> dict[str, Any]:
        return {
            "blocks": [b.to_dict() for b in self.blocks],
            "totals": list(self.totals),
            "match": self.match,
            "factor": self.round.factor,
            "before": list(self.before),
            "tricks": [t.to_dict() for t in self.tricks],
            "weis": self.weis.to_dict(),
            "stoeck": self.stoeck.to_dict(),
            "target": self.target.to_dict(),
        }
