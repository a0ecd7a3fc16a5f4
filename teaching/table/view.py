"""What the learner may know now, as a typed value (formats in :mod:`teaching.table`).

:func:`learner_view` builds a :class:`LearnerView` by choosing fields: its own types
(:class:`AnnouncementView`, :class:`CallView`) leave out what the learner may not know
(the claims' melds, who counts, the engine's call indices), a trick's written points
appear only once the round is done, a Stöck judgement on a non-holder's call gets a
:class:`HiddenStoeckVerdict`, and the engine's traces (plain data) lose the codes of
cards the learner has not seen. ``LearnerView.to_dict()`` is the JSON the view has
always been.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules_core import Contract, RuleSet, TraceEntry, stoeck_holder
from rules_core.tables import stoeck_pair

from .judgements import HiddenStoeckVerdict, Judgement, StoeckVerdict, WritesVerdict
from .model import CODES, Exchange, Phase, Reminder, Shown, Trick
from .moves import JasstafelAnswer
from .replay import ROUND_PLAYS, score
from .result import Table, TableScore

__all__ = [
    "AnnouncementView",
    "CallView",
    "LearnerView",
    "learner_view",
    "public_cards",
]


def public_cards(table: Table) -> frozenset[str]:
    """The cards the learner may know of: their own hand, every card played, and the
    melds shown at the second trick; all 36 once every card is played."""
    if len(table.plays) == ROUND_PLAYS:
        return CODES
    public = set(table.scenario.hands[table.seat])
    public.update(c for _s, c in table.plays)
    if table.shown is not None:
        public.update(table.shown.cards)
    return frozenset(public)


@dataclass(frozen=True, kw_only=True)
class AnnouncementView:
    """An announcement as everybody heard it: who, the value, with which card, and
    whether it came late (not which meld it stands for, nor whether it counts)."""

    seat: int
    value: int
    play: int
    late: bool

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "value": self.value, "play": self.play, "late": self.late}


@dataclass(frozen=True, kw_only=True)
class CallView:
    """A «Stöck!» as everybody heard it."""

    seat: int
    said_after: int
    with_card: bool
    prompted: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "said_after": self.said_after,
            "with_card": self.with_card,
            "prompted": self.prompted,
        }


@dataclass(frozen=True, kw_only=True)
class LearnerView:
    """Only what the learner may know now (0-based seats, teams and trick indices,
    like the rest of the Python API); see :func:`learner_view`."""

    focus: str
    seed: int
    rules: RuleSet
    preset: str | None
    contract: str
    factor: int
    seat: int
    before: tuple[int, int]
    target: int
    phase: Phase
    hand: tuple[str, ...]
    dealt: tuple[str, ...]
    tricks: tuple[Trick, ...]
    announcements: tuple[AnnouncementView, ...]
    exchanges: tuple[Exchange, ...]
    calls: tuple[CallView, ...]
    reminder: Reminder | None
    shown: Shown | None
    judgements: tuple[Judgement, ...]
    hands: tuple[tuple[str, ...], ...] | None
    jasstafel: JasstafelAnswer | None
    score: TableScore | None

    @property
    def trump(self) -> bool:
        """The contract has a trump suit (so Stöck exist)."""
        return Contract.parse(self.contract).trump is not None

    @property
    def plays(self) -> tuple[tuple[int, str], ...]:
        """Every card played so far, ``(seat, code)`` in order."""
        return tuple(p for t in self.tricks for p in zip(t.seats, t.cards, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON data."""
        return {
            "focus": self.focus,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "preset": self.preset,
            "contract": self.contract,
            "factor": self.factor,
            "seat": self.seat,
            "before": list(self.before),
            "target": self.target,
            "phase": self.phase,
            "hand": list(self.hand),
            "dealt": list(self.dealt),
            "tricks": [t.to_dict() for t in self.tricks],
            "announcements": [a.to_dict() for a in self.announcements],
            "exchanges": [e.to_dict() for e in self.exchanges],
            "calls": [c.to_dict() for c in self.calls],
            "reminder": None if self.reminder is None else self.reminder.to_dict(),
            "shown": None if self.shown is None else self.shown.to_dict(),
            "judgements": [j.to_dict() for j in self.judgements],
            "hands": None if self.hands is None else [list(h) for h in self.hands],
            "jasstafel": None if self.jasstafel is None else self.jasstafel.to_dict(),
            "score": None if self.score is None else self.score.to_dict(),
        }


def _hide(value: Any, hidden: frozenset[str]) -> Any:
    """Trace values (plain data) with every hidden card code replaced by None."""
    if isinstance(value, str):
        return None if value in hidden else value
    if isinstance(value, dict):
        return {k: _hide(v, hidden) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_hide(v, hidden) for v in value]
    return value


def _hidden_trace(trace: tuple[TraceEntry, ...], hidden: frozenset[str]) -> tuple[TraceEntry, ...]:
    return tuple(TraceEntry(e.rule, e.key, _hide(e.values, hidden), e.decided) for e in trace)


def _judgement(table: Table, j: Judgement, hidden: frozenset[str]) -> Judgement:
    """``j`` as the learner may see it while ``hidden`` cards are unseen."""
    if not hidden:
        return j
    verdict = j.verdict
    if (
        isinstance(verdict, StoeckVerdict)
        and stoeck_holder(table.hands, table.contract) != table.seat
    ):
        # Who else holds the trump King and Ober is not the learner's to know yet.
        trump = Contract.parse(table.contract).trump
        own = set(table.scenario.hands[table.seat])
        pair = stoeck_pair(table.contract)
        return j.with_verdict(
            HiddenStoeckVerdict(
                contract=table.contract,
                trump=None if trump is None else trump.code,
                holds_king=pair is not None and pair[0].code in own,
                holds_queen=pair is not None and pair[1].code in own,
                call=verdict.call,
            )
        )
    if isinstance(verdict, WritesVerdict):
        # The losing team's melds are never shown: the ladder may not name their cards.
        return j.with_verdict(_writes_seen(verdict, hidden))
    return j


def _writes_seen(verdict: WritesVerdict, hidden: frozenset[str]) -> WritesVerdict:
    return replace(verdict, trace=_hidden_trace(verdict.trace, hidden))


def learner_view(table: Table) -> LearnerView:
    """Only what the learner may know now:

    ``focus``, ``seed``, ``rules``, ``preset``, ``contract``, ``factor``, ``seat``
    (the learner's), ``before``, ``target``, ``phase``, ``hand`` (the cards the
    learner holds), ``dealt`` (the learner's nine cards), ``tricks`` (``points`` only
    when the round is done), ``announcements``, ``exchanges``, ``calls``,
    ``reminder``, ``shown`` (None before the second trick), ``judgements`` (every
    judgement made so far; a Stöck verdict on a non-holder's call only says what the
    learner's own hand shows, and the engine's traces name no card the learner has
    not seen), ``hands`` (all four dealt hands once the round is done, else None),
    ``jasstafel`` (the learner's entry) and ``score`` (only when the round is done).
    Never the legal cards, the scenario's aim, or a judgement still to come.
    """
    s = table.scenario
    done = table.phase == "done"
    hidden = CODES - public_cards(table)
    return LearnerView(
        focus=s.focus,
        seed=s.seed,
        rules=s.rules,
        preset=s.preset,
        contract=s.contract,
        factor=s.rules.factor(s.contract),
        seat=s.seat,
        before=s.before,
        target=s.target,
        phase=table.phase,
        hand=table.hand,
        dealt=s.hands[s.seat],
        tricks=tuple(
            # The written points only once the round is done, as before the typed view.
            t if done else replace(t, points=None)
            for t in table.tricks
        ),
        announcements=tuple(
            AnnouncementView(seat=a.seat, value=a.value, play=a.play, late=a.late)
            for a in table.announcements
        ),
        exchanges=table.exchanges,
        calls=tuple(
            CallView(
                seat=c.seat, said_after=c.said_after, with_card=c.with_card, prompted=c.prompted
            )
            for c in table.calls
        ),
        reminder=table.reminder,
        shown=table.shown,
        judgements=tuple(_judgement(table, j, hidden) for j in table.judgements),
        hands=table.hands if done else None,
        jasstafel=table.jasstafel,
        score=score(table) if done else None,
    )
