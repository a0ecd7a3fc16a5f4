"""Stöck: King and Ober of trump in one hand, 20 points (RULES R6.1, R6.2, R6.3,
R6.4, R6.4a, R6.5).

The holder says "Stöck" while playing the second of the two cards, on their
own, before the next card is played (R6.2, R6.3, R6.4). A :class:`StoeckCall` records
one call: ``after_play`` is the index in ``plays`` of the card the call came
after.

ST-DE: "Du spielst den König als erste der beiden Karten aus und sagst noch
nichts. Du spielst später den Ober aus. Du sagst in diesem Moment «Stöck»,
bevor die nächste Person ihre Karte legt."

>>> hands = ["HK HQ S6 S7 S8 S9 S10 SJ SQ", "D6 D7 D8 D9 D10 DJ DQ DK DA",
...          "H6 H7 H8 H9 H10 HJ HA SK SA", "C6 C7 C8 C9 C10 CJ CQ CK CA"]
>>> plays = [(0, "HK"), (1, "D6"), (2, "HJ"), (3, "C6"), (2, "H6"), (3, "C7"), (0, "HQ")]
>>> check_stoeck(hands, "H", plays, [StoeckCall(0, 6)]).status
'scored'
>>> result = check_stoeck(hands, "H", plays, [])
>>> result.status, result.reason
('pending', <StoeckReason.STILL_POSSIBLE: 'still_possible'>)
>>> result = check_stoeck(hands, "H", plays + [(1, "D7")], [StoeckCall(0, 7)])
>>> result.status, result.reason, result.reason.rule
('lost', <StoeckReason.TOO_LATE: 'too_late'>, 'R6.3')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeAlias

from . import _tables as T
from ._coerce import coerce_contract, coerce_rules, hands_masks
from ._play import ROUND_PLAYS, PlayLog, run_plays
from .aliases import ContractLike, HandsLike, Mask, PlaysLike, RulesLike, Seat, Team
from .cards import DECK
from .contracts import Contract
from .errors import RulesError
from .rules import DEFAULT_RULES
from .tables import STOECK_POINTS
from .trace import TraceEntry, trace_to_list

__all__ = ["CallLike", "CallsLike", "StoeckCall", "StoeckReason", "StoeckResult", "check_stoeck"]


class StoeckReason(Enum):
    """Why Stöck came out as it did; ``.rule`` is the deciding rule ID.

    ``.status`` is the status this reason goes with.
    """

    NO_TRUMP_CONTRACT = "no_trump_contract"
    NOT_HELD_BY_ONE_PLAYER = "not_held_by_one_player"
    SECOND_CARD_NOT_PLAYED = "second_card_not_played"
    STILL_POSSIBLE = "still_possible"
    VALID = "valid"
    NOT_DECLARED = "not_declared"
    DECLARED_AT_FIRST_CARD = "declared_at_first_card"
    TOO_LATE = "too_late"
    PROMPTED = "prompted"

    @property
    def rule(self) -> str:
        """The rule ID that decides with this reason.

        >>> StoeckReason.PROMPTED.rule, StoeckReason.NOT_DECLARED.rules
        ('R6.4', ('R6.4a', 'R6.5'))
        """
        return _RULES[self][0]

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule ID behind this reason (the first is :attr:`rule`)."""
        return _RULES[self]

    @property
    def status(self) -> str:
        """``"none"``, ``"pending"``, ``"scored"`` or ``"lost"``."""
        return _STATUS[self]


_RULES = {
    StoeckReason.NO_TRUMP_CONTRACT: ("R6.1",),
    StoeckReason.NOT_HELD_BY_ONE_PLAYER: ("R6.1",),
    StoeckReason.SECOND_CARD_NOT_PLAYED: ("R6.4a",),
    StoeckReason.STILL_POSSIBLE: ("R6.4a", "R6.3"),
    StoeckReason.VALID: ("R6.2", "R6.3"),
    StoeckReason.NOT_DECLARED: ("R6.4a", "R6.5"),
    StoeckReason.DECLARED_AT_FIRST_CARD: ("R6.2", "R6.5"),
    StoeckReason.TOO_LATE: ("R6.3", "R6.5"),
    StoeckReason.PROMPTED: ("R6.4", "R6.5"),
}
_STATUS = {
    StoeckReason.NO_TRUMP_CONTRACT: "none",
    StoeckReason.NOT_HELD_BY_ONE_PLAYER: "none",
    StoeckReason.SECOND_CARD_NOT_PLAYED: "pending",
    StoeckReason.STILL_POSSIBLE: "pending",
    StoeckReason.VALID: "scored",
    StoeckReason.NOT_DECLARED: "lost",
    StoeckReason.DECLARED_AT_FIRST_CARD: "lost",
    StoeckReason.TOO_LATE: "lost",
    StoeckReason.PROMPTED: "lost",
}


@dataclass(frozen=True, slots=True)
class StoeckCall:
    """A call of "Stöck" by ``seat`` after ``plays[after_play]`` and before the
    next play; ``prompted`` when a partner's reminder came first (R6.4).

    >>> StoeckCall(2, 13), StoeckCall(2, 13, prompted=True).prompted
    (StoeckCall(seat=2, after_play=13, prompted=False), True)
    >>> StoeckCall(4, 0)
    Traceback (most recent call last):
      ...
    rules_core.errors.RulesError: Stöck call: seat must be 0, 1, 2 or 3, got 4
    """

    seat: int
    after_play: int
    prompted: bool = False

    def __post_init__(self) -> None:
        if type(self.seat) is not int or not 0 <= self.seat <= 3:
            raise RulesError(f"Stöck call: seat must be 0, 1, 2 or 3, got {self.seat!r}")
        if type(self.after_play) is not int or self.after_play < 0:
            raise RulesError(
                f"Stöck call: after_play must be the index of a play (0 or more), "
                f"got {self.after_play!r}"
            )
        if type(self.prompted) is not bool:
            raise RulesError(f"Stöck call: prompted must be True or False, got {self.prompted!r}")

    def to_dict(self) -> dict[str, Any]:
        """``{"seat", "after_play", "prompted"}``."""
        return {"seat": self.seat, "after_play": self.after_play, "prompted": self.prompted}


CallLike: TypeAlias = StoeckCall | tuple[Seat, int] | tuple[Seat, int, bool]
"""A Stöck call: a :class:`StoeckCall` or ``(seat, after_play[, prompted])``."""

CallsLike: TypeAlias = Sequence[CallLike] | None
"""The Stöck calls so far (None or empty: no call)."""


def coerce_calls(calls: object, n_plays: int) -> tuple[StoeckCall, ...]:
    """Calls as StoeckCall (tuples ``(seat, after_play[, prompted])`` accepted)."""
    if calls is None:
        return ()
    if not isinstance(calls, Sequence) or isinstance(calls, (str, bytes, bytearray)):
        raise RulesError(f"calls must be a list of StoeckCall, got {type(calls).__name__}")
    out = []
    for i, call in enumerate(calls, 1):
        if not isinstance(call, StoeckCall):
            if isinstance(call, (tuple, list)) and len(call) in (2, 3):
                call = StoeckCall(*call)
            else:
                raise RulesError(f"call {i}: expected a StoeckCall, got {call!r}")
        if call.after_play >= n_plays:
            raise RulesError(
                f"call {i}: seat {call.seat} calls Stöck after play {call.after_play}, "
                f"but only {n_plays} card(s) have been played (plays 0 to {n_plays - 1})"
            )
        out.append(call)
    return tuple(out)


class StoeckResult:
    """The Stöck of a round, complete or not.

    - ``status``: ``"none"`` (no Stöck in this deal), ``"pending"`` (still
      possible), ``"scored"`` or ``"lost"``.
    - ``reason``: a :class:`StoeckReason`; ``reason.rule`` is the rule ID.
    - ``team``, ``seat``: the holder's team and seat (None when ``"none"``).
    - ``points``: 20 times the factor when scored, else 0 (R6.1, R4.5).
    - ``first_play``, ``second_play``: indices in ``plays`` of the holder's first
      and second card (None while unplayed or without a holder).
    - ``trace``: ``stoeck.*`` entries (see :mod:`rules_core.trace`).

    Immutable: setting an attribute raises AttributeError; the trace is built
    on first access and kept.
    """

    __slots__ = (
        "status",
        "reason",
        "team",
        "seat",
        "points",
        "factor",
        "first_play",
        "second_play",
        "contract",
        "_masks",
        "_calls",
        "_late",
        "_n_plays",
        "_trace",
    )

    status: str
    reason: StoeckReason
    team: Team | None
    seat: Seat | None
    points: int
    factor: int
    first_play: int | None
    second_play: int | None
    contract: Contract
    _masks: tuple[Mask, Mask, Mask, Mask]
    _calls: tuple[StoeckCall, ...]
    _late: tuple[StoeckCall, ...]
    _n_plays: int
    _trace: list[tuple[TraceEntry, ...]]

    def __init__(
        self,
        reason: StoeckReason,
        seat: Seat | None,
        factor: int,
        first_play: int | None,
        second_play: int | None,
        contract: Contract,
        masks: tuple[Mask, Mask, Mask, Mask],
        calls: tuple[StoeckCall, ...],
        n_plays: int,
        late: tuple[StoeckCall, ...] = (),
    ) -> None:
        put = object.__setattr__
        put(self, "reason", reason)
        put(self, "status", _STATUS[reason])
        put(self, "seat", seat)
        put(self, "team", None if seat is None else seat % 2)
        put(self, "factor", factor)
        put(self, "points", STOECK_POINTS * factor if reason is StoeckReason.VALID else 0)
        put(self, "first_play", first_play)
        put(self, "second_play", second_play)
        put(self, "contract", contract)
        put(self, "_masks", masks)
        put(self, "_calls", calls)
        put(self, "_late", late)  # calls made after their trick was gathered (Round.gather)
        put(self, "_n_plays", n_plays)
        put(self, "_trace", [])  # the lazy trace, once built

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("StoeckResult is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("StoeckResult is immutable")

    def __reduce__(self) -> tuple[Callable[..., StoeckResult], tuple[Any, ...]]:
        return (
            StoeckResult,
            (
                self.reason,
                self.seat,
                self.factor,
                self.first_play,
                self.second_play,
                self.contract,
                self._masks,
                self._calls,
                self._n_plays,
                self._late,
            ),
        )

    def __repr__(self) -> str:
        return (
            f"StoeckResult(status={self.status!r}, reason={self.reason}, team={self.team}, "
            f"seat={self.seat}, points={self.points})"
        )

    @property
    def trace(self) -> tuple[TraceEntry, ...]:
        """``stoeck.contract``, ``stoeck.holder``, ``stoeck.cards_played``, one
        ``stoeck.call`` per call, ``stoeck.result``; each stops where it decides."""
        if not self._trace:
            self._trace.append(self._build_trace())
        return self._trace[0]

    def _build_trace(self) -> tuple[TraceEntry, ...]:
        """The explanation: R6.1 (contract, holder), R6.2 (cards played), R6.2,
        R6.3 or R6.4 per call, and the result's rule (R6.4a, R6.5 when lost)."""
        R = StoeckReason
        trump = self.contract.trump
        trace = [
            TraceEntry(
                "R6.1",
                "stoeck.contract",
                {"contract": self.contract.code, "trump": None if trump is None else trump.code},
                decided=self.reason is R.NO_TRUMP_CONTRACT,
            )
        ]
        if trump is not None:
            king, queen = DECK[trump.value * 9 + 7], DECK[trump.value * 9 + 6]
            trace.append(
                TraceEntry(
                    "R6.1",
                    "stoeck.holder",
                    {
                        "king": king.code,
                        "queen": queen.code,
                        "king_seat": _holder(self._masks, king.bit),
                        "queen_seat": _holder(self._masks, queen.bit),
                        "seat": self.seat,
                        "team": self.team,
                    },
                    decided=self.reason is R.NOT_HELD_BY_ONE_PLAYER,
                )
            )
        if self.seat is not None:
            trace.append(
                TraceEntry(
                    "R6.2",
                    "stoeck.cards_played",
                    {
                        "first_play": self.first_play,
                        "second_play": self.second_play,
                        "plays": self._n_plays,
                        "complete": self._n_plays == ROUND_PLAYS,
                    },
                    decided=self.reason is R.SECOND_CARD_NOT_PLAYED,
                )
            )
        for call, late in [(c, False) for c in self._calls] + [(c, True) for c in self._late]:
            verdict, rule = call_verdict(
                call, self.seat, self.first_play, self.second_play, late=late
            )
            values = {**call.to_dict(), "verdict": verdict} | ({"gathered": True} if late else {})
            trace.append(
                TraceEntry(
                    rule,
                    "stoeck.call",
                    values,
                    decided=verdict == _VERDICT_OF.get(self.reason),
                )
            )
        trace.append(
            TraceEntry(
                self.reason.rule,
                "stoeck.result",
                {
                    "status": self.status,
                    "reason": self.reason.value,
                    "team": self.team,
                    "seat": self.seat,
                    "points": self.points,
                    "factor": self.factor,
                },
                decided=True,
            )
        )
        return tuple(trace)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"status", "reason", "rule", "team", "seat", "points",
        "factor", "first_play", "second_play", "calls", "trace"}``."""
        return {
            "status": self.status,
            "reason": self.reason.value,
            "rule": self.reason.rule,
            "team": self.team,
            "seat": self.seat,
            "points": self.points,
            "factor": self.factor,
            "first_play": self.first_play,
            "second_play": self.second_play,
            "calls": [c.to_dict() for c in self._calls]
            + [c.to_dict() | {"gathered": True} for c in self._late],
            "trace": trace_to_list(self.trace),
        }


_VERDICT_OF = {
    StoeckReason.VALID: "counts",
    StoeckReason.PROMPTED: "prompted",
    StoeckReason.TOO_LATE: "too_late",
    StoeckReason.DECLARED_AT_FIRST_CARD: "first_card",
}


def _holder(masks: tuple[Mask, Mask, Mask, Mask], bit: Mask) -> Seat | None:
    for seat in range(4):
        if masks[seat] & bit:
            return seat
    return None


def call_verdict(
    call: StoeckCall,
    holder: Seat | None,
    first: int | None,
    second: int | None,
    *,
    late: bool = False,
) -> tuple[str, str]:
    """How one call is judged: (verdict, rule): R6.1 (no Stöck), R6.2 (counts, or at
    the first card), R6.3 (too late), R6.4 (prompted, another seat, too early).
    ``late``: the call came after the trick of ``plays[after_play]`` was gathered."""
    if holder is None:
        return "no_stoeck", "R6.1"
    if call.seat != holder:
        return "other_seat", "R6.4"
    if late and second is not None and call.after_play >= second:
        return "too_late", "R6.3"
    if second is not None and call.after_play == second:
        return ("prompted", "R6.4") if call.prompted else ("counts", "R6.2")
    if second is not None and call.after_play > second:
        return "too_late", "R6.3"
    if call.after_play == first:
        return "first_card", "R6.2"
    return "too_early", "R6.4"


def stoeck_of_log(
    masks: tuple[Mask, Mask, Mask, Mask],
    contract: Contract,
    log: PlayLog,
    calls: tuple[StoeckCall, ...],
    factor: int,
    *,
    gathered: bool = False,
    late: tuple[StoeckCall, ...] = (),
) -> StoeckResult:
    """Judge Stöck from a checked play log: the running code of R6.1 (trump K and Q
    in one hand), R6.2 and R6.3 (the call right after the second card), R6.4 (on
    one's own), R6.4a (still possible mid-round) and R6.5 (lost whole). Shared by
    :func:`check_stoeck`, :func:`~rules_core.score_round` and :class:`~rules_core.Round`.

    ``gathered`` and ``late`` are the round's moments the stateless view has no
    play for (:meth:`Round.gather`): ``gathered`` when the trick of the last play
    has been gathered (a Stöck card that ended it can no longer be called, R6.3);
    ``late`` the calls made after that gathering (each ``after_play`` the play
    before it), too late for that card.
    """
    n = len(log.cards)
    holder = holder_of_pair(masks, contract)
    if holder is None:
        reason = (
            StoeckReason.NOT_HELD_BY_ONE_PLAYER
            if contract.trump is not None
            else StoeckReason.NO_TRUMP_CONTRACT
        )
        return StoeckResult(reason, None, factor, None, None, contract, masks, calls, n, late)
    played = log.stoeck_plays
    first = played[0] if played else None
    second = played[1] if len(played) > 1 else None
    if second is None:
        reason = StoeckReason.SECOND_CARD_NOT_PLAYED
    else:
        open_ = second == n - 1 and n < ROUND_PLAYS and not gathered
        reason = _reason(holder, first, second, calls, late, open_)
    return StoeckResult(reason, holder, factor, first, second, contract, masks, calls, n, late)


def holder_of_pair(masks: tuple[Mask, Mask, Mask, Mask], contract: Contract) -> Seat | None:
    """The seat holding both Stöck cards (R6.1), None without them (or without trump):
    the one place the holder is found (check_stoeck, stoeck_holder, Round)."""
    kq = T.STOECK_MASK[contract.index]
    if kq:
        for seat in range(4):
            if masks[seat] & kq == kq:
                return seat
    return None


def _reason(
    holder: Seat,
    first: int | None,
    second: int,
    calls: tuple[StoeckCall, ...],
    late: tuple[StoeckCall, ...],
    open_: bool,
) -> StoeckReason:
    """Why the holder's Stöck counts or not once the second card is down: a call
    with it (R6.2) on one's own (R6.4), else still possible while ``open_`` (R6.4a),
    else the holder's calls name what went wrong (R6.3, R6.2) or none came (R6.5)."""
    own = [c for c in calls if c.seat == holder]
    at_second = [c for c in own if c.after_play == second]
    if any(not c.prompted for c in at_second):
        return StoeckReason.VALID
    if at_second:
        return StoeckReason.PROMPTED
    if open_:
        return StoeckReason.STILL_POSSIBLE
    if any(c.after_play > second for c in own) or any(
        c.seat == holder and c.after_play >= second for c in late
    ):
        return StoeckReason.TOO_LATE
    if any(c.after_play == first for c in own):
        return StoeckReason.DECLARED_AT_FIRST_CARD
    return StoeckReason.NOT_DECLARED


def stoeck_holder(hands: HandsLike, contract: ContractLike) -> Seat | None:
    """The seat holding King and Ober of trump in one hand (R6.1), or None: in
    Obenabe and Undenufe, or when the pair is split or not dealt. Hands may be partial
    (a position being typed into the Weis tool).

    >>> stoeck_holder(["HK", "HQ S6", "", ""], "H") is None  # split between players
    True
    >>> stoeck_holder(["S6", "HK HQ", "", ""], "H"), stoeck_holder(["HK HQ", "", "", ""], "obenabe")
    (1, None)
    """
    c = coerce_contract(contract)
    if c.trump is None:
        return None
    return holder_of_pair(hands_masks(hands), c)


def check_stoeck(
    hands: HandsLike,
    contract: ContractLike,
    plays: PlaysLike,
    calls: CallsLike,
    rules: RulesLike = DEFAULT_RULES,
) -> StoeckResult:
    """Judge Stöck in a round so far (R6.1, R6.2, R6.3, R6.4, R6.4a, R6.5).

    ``hands``: the four hands dealt, by seat (nine cards each). ``plays``: the
    ``(seat, card)`` pairs played so far, in order (checked like
    :func:`score_round`: turn order, cards in hand, legality). ``calls``: the
    :class:`StoeckCall` made so far (tuples ``(seat, after_play[, prompted])``
    are accepted). A call counts iff it is the holder's, right after the
    holder's second trump K/Q card (``after_play`` = its index), and not
    prompted; when that card is the last of the round, the call still counts.
    Without a call that counts, the reason names what went wrong, in this
    priority: PROMPTED, TOO_LATE, DECLARED_AT_FIRST_CARD, NOT_DECLARED. Calls by
    other seats and at other moments are ignored (R6.4).

    The stateless view of the same rules as :class:`~rules_core.Round`
    (``Round.stoeck`` after the same plays and calls is equal; only a Round knows
    when a trick was gathered, :meth:`~rules_core.Round.gather`).

    >>> hands = ("HK HQ D6 D7 D8 D9 D10 DJ DQ / S6 S7 S8 S9 S10 SJ SQ SK SA /"
    ...          "H6 H7 H8 H9 H10 HJ HA DK DA / C6 C7 C8 C9 C10 CJ CQ CK CA")
    >>> check_stoeck(hands, "obenabe", [], []).reason
    <StoeckReason.NO_TRUMP_CONTRACT: 'no_trump_contract'>
    >>> check_stoeck(hands, "H", [], []).reason
    <StoeckReason.SECOND_CARD_NOT_PLAYED: 'second_card_not_played'>
    """
    c = coerce_contract(contract)
    rules_ = coerce_rules(rules)
    masks = hands_masks(hands, full_deal=True)
    log = run_plays(masks, c, plays, complete=False)
    calls_ = coerce_calls(calls, len(log.cards))
    return stoeck_of_log(masks, c, log, calls_, rules_.factor(c))
