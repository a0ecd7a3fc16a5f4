"""Scoring a round and counting towards the target (RULES R2.1, R2.2, R4.4, R4.5,
R7.1, R7.2, R7.3, R7.4, R7.5).

A round's written score has three blocks per team: Weis, Stöck and tricks
(card points + 5 for the last trick + 100 for a match), each after its factor
(R7.1, R4.5). When a round brings a team to the target, the blocks count in
``rules.target_order`` and the tricks one by one in the order they were won
(R7.3, R7.4).

>>> team_of(0), team_of(3)
(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from ._coerce import coerce_contract, coerce_rules, coerce_seat, hands_masks
from ._play import ROUND_PLAYS, PlayLog, run_plays
from .aliases import ClaimsLike, ContractLike, HandsLike, PlaysLike, RulesLike, Seat, Team
from .cards import DECK, Card
from .contracts import Contract
from .errors import RulesError
from .rules import DEFAULT_RULES, RuleSet
from .stoeck import CallsLike, StoeckResult, coerce_calls, stoeck_of_log
from .trace import TraceEntry, trace_to_list
from .weis import WeisResult, coerce_claims, weis_of_claims, weis_of_masks

__all__ = [
    "LAST_TRICK_BONUS",
    "Blocks",
    "MATCH_BONUS",
    "RoundScore",
    "TargetResult",
    "TrickResult",
    "first_forehand",
    "match_of",
    "resolve_target",
    "resolve_target_blocks",
    "revoke_penalty",
    "score_round",
    "team_of",
    "trick_bonus",
    "trick_result",
    "written_trick_points",
]

LAST_TRICK_BONUS = 5
"""Added to the ninth trick (R4.4)."""
MATCH_BONUS = 100
"""Added to the ninth trick when one team took all nine (R4.4)."""
CARD_POINTS_TOTAL = 152
"""The card points of every contract (R4.4)."""
ROUND_TRICKS = ROUND_PLAYS // 4
"""Nine tricks (R2.2)."""


def team_of(seat: Seat) -> Team:
    """The team of a seat: seats 0 and 2 are team 0, seats 1 and 3 team 1 (R2.1)."""
    return coerce_seat(seat) % 2


def first_forehand(hands: HandsLike) -> int:
    """In the first deal the holder of the Rosen 7 is forehand (R2.2).

    ``hands`` are the four players' hands in playing order around the table
    (not yet numbered from forehand); returns the index of the forehand.
    Seats are then counted from that player: forehand is seat 0.

    >>> first_forehand(["D6", "S6", "H7 C6", "CA"])
    2
    """
    masks = hands_masks(hands)
    h7 = Card.parse("H7").bit
    for i, mask in enumerate(masks):
        if mask & h7:
            return i
    raise RulesError(
        "nobody holds the Rosen 7 (H7); in a full deal someone does (R2.2)", rule="R2.2"
    )


def revoke_penalty(
    offending_seat: Seat, contract: ContractLike, rules: RulesLike = DEFAULT_RULES
) -> tuple[int, int]:
    """R3.7: a revoke gives the opponents the points of the deal, 157 (times the
    factor); returns the written points ``(team 0, team 1)``.

    >>> revoke_penalty(1, "H"), revoke_penalty(2, "obenabe", RuleSet.preset("swisslos-2500"))
    ((157, 0), (0, 471))
    """
    team = team_of(offending_seat)
    points = (CARD_POINTS_TOTAL + LAST_TRICK_BONUS) * coerce_rules(rules).factor(
        coerce_contract(contract)
    )
    return (0, points) if team == 0 else (points, 0)


@dataclass(frozen=True, slots=True)
class TrickResult:
    """One trick of a round.

    ``index`` 0..8; ``leader`` the seat that led; ``seats`` and ``cards`` in play
    order; ``winner`` the winning seat and ``team`` its team; ``card_points``
    before the factor; ``last_trick_bonus`` 5 on the ninth trick;
    ``match_bonus`` 100 on the ninth trick when one team took all nine;
    ``points`` = (card points + bonuses) times the factor.
    """

    index: int
    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int
    team: int
    card_points: int
    last_trick_bonus: int
    match_bonus: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        """Plain data with the same names; cards as codes."""
        return {
            "index": self.index,
            "leader": self.leader,
            "seats": list(self.seats),
            "cards": [c.code for c in self.cards],
            "winner": self.winner,
            "team": self.team,
            "card_points": self.card_points,
            "last_trick_bonus": self.last_trick_bonus,
            "match_bonus": self.match_bonus,
            "points": self.points,
        }


class Blocks(dict[str, int]):
    """One team's written blocks ``{"weis", "stoeck", "tricks"}``: a read-only dict.

    It compares, prints and serialises like a dict (``dict(blocks)`` copies it);
    changing it raises TypeError, so a :class:`RoundScore` stays as scored.

    >>> b = Blocks({"weis": 50, "stoeck": 0, "tricks": 100})
    >>> b, b == {"weis": 50, "stoeck": 0, "tricks": 100}
    ({'weis': 50, 'stoeck': 0, 'tricks': 100}, True)
    >>> b["weis"] = 0
    Traceback (most recent call last):
      ...
    TypeError: the written blocks of a round are read-only (copy them with dict())
    """

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("the written blocks of a round are read-only (copy them with dict())")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[Callable[..., Blocks], tuple[dict[str, int]]]:
        return (Blocks, (dict(self),))

    def __copy__(self) -> Blocks:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Blocks:
        return self


class RoundScore:
    """The written score of a complete round.

    - ``blocks``: per team a read-only dict ``{"weis": int, "stoeck": int,
      "tricks": int}`` (:class:`Blocks`), after the factor (R7.1, R4.5).
    - ``totals``: per team, the sum of its blocks.
    - ``tricks``: nine :class:`TrickResult`.
    - ``match``: the team that took all nine tricks, or None (R4.4).
    - ``weis``: the :class:`WeisResult`; ``stoeck``: the :class:`StoeckResult`.
    - ``factor``, ``contract``, ``rules``.

    Immutable: setting an attribute raises AttributeError; the tricks are built
    on first access and kept.
    """

    __slots__ = (
        "blocks",
        "totals",
        "match",
        "weis",
        "stoeck",
        "factor",
        "contract",
        "rules",
        "_log",
        "_tricks",
    )

    blocks: tuple[Blocks, Blocks]
    totals: tuple[int, int]
    match: Team | None
    weis: WeisResult
    stoeck: StoeckResult
    factor: int
    contract: Contract
    rules: RuleSet
    _log: PlayLog
    _tricks: list[tuple[TrickResult, ...]]

    def __init__(
        self,
        blocks: tuple[Mapping[str, int], Mapping[str, int]],
        match: Team | None,
        weis: WeisResult,
        stoeck: StoeckResult,
        factor: int,
        contract: Contract,
        rules: RuleSet,
        log: PlayLog,
    ) -> None:
        put = object.__setattr__
        b0, b1 = Blocks(blocks[0]), Blocks(blocks[1])
        put(self, "blocks", (b0, b1))
        put(self, "totals", (sum(b0.values()), sum(b1.values())))
        put(self, "match", match)
        put(self, "weis", weis)
        put(self, "stoeck", stoeck)
        put(self, "factor", factor)
        put(self, "contract", contract)
        put(self, "rules", rules)
        put(self, "_log", log)
        put(self, "_tricks", [])  # the lazy tricks, once built

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RoundScore is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("RoundScore is immutable")

    def __reduce__(self) -> tuple[Callable[..., RoundScore], tuple[Any, ...]]:
        return (
            RoundScore,
            (
                self.blocks,
                self.match,
                self.weis,
                self.stoeck,
                self.factor,
                self.contract,
                self.rules,
                self._log,
            ),
        )

    def __repr__(self) -> str:
        return f"RoundScore(blocks={self.blocks!r}, match={self.match})"

    @property
    def tricks(self) -> tuple[TrickResult, ...]:
        """The nine tricks in order (R3.6 winners, R4.4 bonuses, R4.5 factor)."""
        if not self._tricks:
            out = [
                trick_result(self._log, t, self.match, self.factor)
                for t in range(len(self._log.tricks))
            ]
            self._tricks.append(tuple(out))
        return self._tricks[0]

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"contract", "factor", "blocks", "totals", "match",
        "tricks", "weis", "stoeck"}`` (``blocks`` a list of two dicts)."""
        return {
            "contract": self.contract.code,
            "factor": self.factor,
            "blocks": [dict(b) for b in self.blocks],
            "totals": list(self.totals),
            "match": self.match,
            "tricks": [t.to_dict() for t in self.tricks],
            "weis": self.weis.to_dict(),
            "stoeck": self.stoeck.to_dict(),
        }


def trick_bonus(index: int, match: Team | None) -> tuple[int, int]:
    """R4.4's bonuses of trick ``index`` (0..8): ``(last trick, match)``: 5 for the
    ninth trick, and 100 more on it when one team (``match``) took all nine. The one
    place these bonuses are added (score_round, RoundScore.tricks, Round).

    >>> trick_bonus(3, None), trick_bonus(8, None), trick_bonus(8, 1)
    ((0, 0), (5, 0), (5, 100))
    """
    if type(index) is not int or not 0 <= index < ROUND_TRICKS:
        raise RulesError(f"a round has nine tricks, 0 to 8; got {index!r} (R2.2)", rule="R2.2")
    if index != ROUND_TRICKS - 1:
        return 0, 0
    return LAST_TRICK_BONUS, 0 if match is None else MATCH_BONUS


def match_of(tricks: Sequence[tuple[int, int, int]]) -> Team | None:
    """The team that took all nine tricks (R4.4), from ``(leader, winner, points)``
    per trick; None before the ninth trick or when both teams took one."""
    if len(tricks) != ROUND_TRICKS:
        return None
    teams = {winner & 1 for _leader, winner, _points in tricks}
    return teams.pop() if len(teams) == 1 else None


def trick_result(log: PlayLog, t: int, match: Team | None, factor: int) -> TrickResult:
    """Trick ``t`` of a checked play log as a :class:`TrickResult` (R3.6 winner,
    R4.4 bonuses, R4.5 factor)."""
    leader, winner, points = log.tricks[t]
    last, match_bonus = trick_bonus(t, match)
    return TrickResult(
        t,
        leader,
        tuple(log.seats[4 * t : 4 * t + 4]),
        tuple(DECK[c] for c in log.cards[4 * t : 4 * t + 4]),
        winner,
        winner % 2,
        points,
        last,
        match_bonus,
        written_trick_points(points, t, factor, match),
    )


def written_trick_points(
    card_points: int, index: int, factor: int, match: Team | None = None
) -> int:
    """The written points of trick ``index`` (0..8): its card points plus the bonuses
    of :func:`trick_bonus` (R4.4), times the contract's factor (R4.5).

    >>> written_trick_points(21, 0, 1), written_trick_points(21, 8, 3)
    (21, 78)
    >>> written_trick_points(30, 8, 2, match=0)
    270
    """
    last, match_bonus = trick_bonus(index, match)
    return (card_points + last + match_bonus) * factor


def score_of_log(
    log: PlayLog, weis: WeisResult, stoeck: StoeckResult, contract: Contract, rules: RuleSet
) -> RoundScore:
    """The written score of a complete, checked play log with its Weis and Stöck:
    card points and R4.4's bonuses per team, three blocks per team after the factor
    (R7.1, R4.5). Shared by :func:`score_round` and :meth:`Round.score`."""
    factor = rules.factor(contract)
    tricks = log.tricks
    match = match_of(tricks)
    trick_points = [0, 0]
    for _leader, winner, points in tricks:
        trick_points[winner & 1] += points
    last = len(tricks) - 1
    bonus, match_bonus = trick_bonus(last, match)
    trick_points[tricks[last][1] & 1] += bonus + match_bonus
    blocks = (
        {
            "weis": weis.scored if weis.team == 0 else 0,
            "stoeck": stoeck.points if stoeck.team == 0 else 0,
            "tricks": trick_points[0] * factor,
        },
        {
            "weis": weis.scored if weis.team == 1 else 0,
            "stoeck": stoeck.points if stoeck.team == 1 else 0,
            "tricks": trick_points[1] * factor,
        },
    )
    return RoundScore(blocks, match, weis, stoeck, factor, contract, rules, log)


def score_round(
    hands: HandsLike,
    contract: ContractLike,
    plays: PlaysLike,
    calls: CallsLike = (),
    rules: RulesLike = DEFAULT_RULES,
    *,
    claims: ClaimsLike | None = None,
) -> RoundScore:
    """Score a complete round: the tricks by R3.6, R4.1, R4.2, R4.3 and R4.4, the
    Weis by R5.4, R5.5, R5.6, the Stöck by R6.1, R6.2, R6.3, R6.4, R6.5, each
    block times the factor (R4.5), three blocks per team (R7.1).

    ``hands``: the four hands dealt, by seat, nine cards each, every card once.
    ``plays``: all 36 ``(seat, card)`` pairs in order. Seat 0 leads the first
    trick, each seat plays once per trick in seat order, the trick's winner leads
    the next; each card must be in the player's hand, unplayed, and legal
    (R3.1, R3.2, R3.3, R3.4, R3.5). ``calls``: the Stöck calls (see :func:`check_stoeck`).
    ``claims`` (keyword only): the Weis values announced with the first card, by seat,
    as in :func:`resolve_weis` (R5.4a, R5.4b); left out, every player is taken to
    announce their best meld (R5.4).

    The stateless view of the same rules as :class:`~rules_core.Round`: both run
    the same trick play, Weis, Stöck and bonus code, and a test plays random
    rounds through both and finds them equal.

    Raises :class:`RulesError` (:class:`IllegalPlayError` for the plays) saying
    what is wrong and where, e.g. ``trick 3, seat 2 played H6 but must follow
    suit with S (S7 SK) (R3.1)``.

    >>> hands = ["D6 D7 D8 D9 D10 DJ DQ DK DA", "H6 H7 H8 H9 H10 HJ HQ HK HA",
    ...          "S6 S7 S8 S9 S10 SJ SQ SK SA", "C6 C7 C8 C9 C10 CJ CQ CK CA"]
    >>> order = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
    >>> plays = [(s, "DHSC"[s] + r) for r in order for s in range(4)]
    >>> score = score_round(hands, "D", plays, [])
    >>> score.blocks[0], score.blocks[1], score.match
    ({'weis': 600, 'stoeck': 0, 'tricks': 257}, {'weis': 0, 'stoeck': 0, 'tricks': 0}, 0)
    """
    c = coerce_contract(contract)
    rules = coerce_rules(rules)
    masks = hands_masks(hands, full_deal=True)
    log = run_plays(masks, c, plays, complete=True)
    calls_ = coerce_calls(calls, len(log.cards))
    if claims is None:
        weis = weis_of_masks(masks, c, rules)
    else:
        weis = weis_of_claims(masks, coerce_claims(claims), c, rules)
    stoeck = stoeck_of_log(masks, c, log, calls_, rules.factor(c))
    return score_of_log(log, weis, stoeck, c, rules)


@dataclass(frozen=True)
class TargetResult:
    """Who reaches the target in a round, and where (R7.2, R7.3, R7.4, R7.5).

    ``team`` 0, 1 or None (R7.5: play on); ``block`` ``"weis"``, ``"stoeck"``,
    ``"tricks"`` or None; ``trick`` the 0-based index of the deciding trick
    (tricks block only, else None); ``totals`` the teams' totals after the whole
    round; ``target``; ``trace``: ``target.start``, one ``target.block`` per
    block and one ``target.trick`` per trick in counting order (running totals;
    ``decided`` on the entry that reaches the target), or ``target.not_reached``
    at the end.
    """

    team: int | None
    block: str | None
    trick: int | None
    totals: tuple[int, int]
    target: int
    trace: tuple[TraceEntry, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"team", "block", "trick", "totals", "target", "trace"}``."""
        return {
            "team": self.team,
            "block": self.block,
            "trick": self.trick,
            "totals": list(self.totals),
            "target": self.target,
            "trace": trace_to_list(self.trace),
        }


def resolve_target(
    before: Sequence[int],
    round_score: RoundScore,
    target: int | None = None,
    rules: RulesLike = DEFAULT_RULES,
) -> TargetResult:
    """Which team reaches ``target`` in this round (score >= target), counting
    the blocks in ``rules.target_order`` and the tricks in the order won.

    ``before``: the teams' totals before the round, both below the target.
    ``target``: None takes ``rules.target``. The stateless view of
    ``Round.target(before, target)``.

    >>> hands = ["D6 D7 D8 D9 D10 DJ DQ DK DA", "H6 H7 H8 H9 H10 HJ HQ HK HA",
    ...          "S6 S7 S8 S9 S10 SJ SQ SK SA", "C6 C7 C8 C9 C10 CJ CQ CK CA"]
    >>> plays = [(s, "DHSC"[s] + r) for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
    ...          for s in range(4)]
    >>> score = score_round(hands, "D", plays, [])
    >>> result = resolve_target((800, 990), score, 1000)
    >>> result.team, result.block, result.trick, result.totals
    (0, 'weis', None, (1657, 990))
    """
    rules = coerce_rules(rules)
    if not isinstance(round_score, RoundScore):
        raise RulesError(
            f"round_score must be a RoundScore from score_round, got {type(round_score).__name__}"
        )
    target = _check_target(before, target, rules)
    tricks = [(trick.index, trick.team, trick.points) for trick in round_score.tricks]
    blocks = (dict(round_score.blocks[0]), dict(round_score.blocks[1]))
    return _count_to_target(before, blocks, tricks, target, rules)


def _check_target(before: Sequence[int], target: int | None, rules: RuleSet) -> int:
    """The target (R7.2), and totals before the round that are both below it."""
    if target is None:
        target = rules.target
    if type(target) is not int or target < 1:
        raise RulesError(f"target must be a whole number >= 1, got {target!r}")
    if (
        not isinstance(before, Sequence)
        or isinstance(before, (str, bytes))
        or len(before) != 2
        or any(type(x) is not int or x < 0 for x in before)
    ):
        raise RulesError(f"before must be the two teams' totals, e.g. (850, 920), got {before!r}")
    for team in (0, 1):
        if before[team] >= target:
            raise RulesError(
                f"team {team} already has {before[team]} of {target} before the round; "
                "the game was over (R7.2)",
                rule="R7.2",
            )
    return target


def _count_to_target(
    before: Sequence[int],
    blocks: tuple[Mapping[str, int], Mapping[str, int]],
    tricks: Sequence[tuple[int, Team, int]] | None,
    target: int,
    rules: RuleSet,
) -> TargetResult:
    """The running code of R7.2, R7.3, R7.4 and R7.5: count the blocks in
    ``rules.target_order`` and, within the tricks block, the tricks ``(index,
    team, points)`` in the order won; the first team at the target wins, else
    play goes on. With ``tricks`` None the tricks block is counted as one step
    per team."""
    running = [before[0], before[1]]
    trace = [
        TraceEntry(
            "R7.2",
            "target.start",
            {"target": target, "totals": list(running), "order": list(rules.target_order)},
        )
    ]
    winner: tuple[int, str, int | None] | None = None
    for block in rules.target_order:
        if block == "tricks" and tricks is not None:
            for index, team, points in tricks:
                running[team] += points
                reached = winner is None and running[team] >= target
                if reached:
                    winner = (team, block, index)
                trace.append(
                    TraceEntry(
                        "R7.4",
                        "target.trick",
                        {
                            "trick": index,
                            "team": team,
                            "points": points,
                            "totals": list(running),
                        },
                        decided=reached,
                    )
                )
            continue
        written = [blocks[0][block], blocks[1][block]]
        reached_team = None
        for side in (0, 1):  # one team at most writes Weis (R5.6) or Stöck (R6.1)
            running[side] += written[side]
            if winner is None and reached_team is None and running[side] >= target:
                reached_team = side
        if reached_team is not None:
            winner = (reached_team, block, None)
        trace.append(
            TraceEntry(
                "R7.3",
                "target.block",
                {"block": block, "points": written, "totals": list(running)},
                decided=reached_team is not None,
            )
        )
    if winner is None:
        trace.append(
            TraceEntry("R7.5", "target.not_reached", {"totals": list(running)}, decided=True)
        )
        return TargetResult(None, None, None, (running[0], running[1]), target, tuple(trace))
    return TargetResult(
        winner[0], winner[1], winner[2], (running[0], running[1]), target, tuple(trace)
    )


def resolve_target_blocks(
    before: Sequence[int],
    blocks: Sequence[Mapping[str, int]],
    target: int | None = None,
    rules: RulesLike = DEFAULT_RULES,
    tricks: Sequence[tuple[Team, int]] | None = None,
) -> TargetResult:
    """:func:`resolve_target` from written blocks instead of a played round.

    ``blocks``: per team ``{"weis", "stoeck", "tricks"}`` after factor, as a round
    would write them. ``tricks``: optionally the tricks as ``(team, points)`` in the
    order won; they must add up to the tricks blocks. Without them the tricks block
    is one step per team, which is only unambiguous when at most one team can reach
    the target there; otherwise R7.4 needs the order and this raises RulesError.

    >>> r = resolve_target_blocks((960, 980), [{"weis": 50, "stoeck": 0, "tricks": 40},
    ...                                       {"weis": 0, "stoeck": 20, "tricks": 117}], 1000)
    >>> r.team, r.block, r.totals
    (0, 'weis', (1050, 1117))
    >>> rules = RuleSet.preset("ausmachregel")
    >>> blocks = [{"weis": 50, "stoeck": 0, "tricks": 40}, {"weis": 0, "stoeck": 20, "tricks": 117}]
    >>> resolve_target_blocks((960, 980), blocks, 1000, rules).block
    'stoeck'
    """
    rules = coerce_rules(rules)
    target = _check_target(before, target, rules)
    written = _written_blocks(blocks)
    trick_list: list[tuple[int, int, int]] | None = None
    if tricks is not None:
        trick_list = _tricks_in_order(tricks, written)
    else:
        _refuse_unordered_race(before, written, target, rules)
    return _count_to_target(before, (written[0], written[1]), trick_list, target, rules)


def _written_blocks(blocks: Sequence[Mapping[str, int]]) -> list[dict[str, int]]:
    """Two teams' written blocks, checked: whole numbers >= 0, and Weis and Stöck for
    one team only (R5.6, R6.1)."""
    if (
        not isinstance(blocks, Sequence)
        or len(blocks) != 2
        or not all(isinstance(b, Mapping) for b in blocks)
    ):
        raise RulesError("blocks must be two teams' {'weis', 'stoeck', 'tricks'} scores")
    written = []
    for team, block in enumerate(blocks):
        row = {}
        for name in ("weis", "stoeck", "tricks"):
            value = block.get(name, 0)
            if type(value) is not int or value < 0:
                raise RulesError(f"team {team}'s {name} block must be a whole number >= 0")
            row[name] = value
        written.append(row)
    for name, rule in (("weis", "R5.6"), ("stoeck", "R6.1")):
        if written[0][name] and written[1][name]:
            raise RulesError(f"only one team can write {name} in a round ({rule})", rule=rule)
    return written


def _tricks_in_order(
    tricks: Sequence[tuple[Team, int]], written: list[dict[str, int]]
) -> list[tuple[int, int, int]]:
    """The tricks as ``(index, team, points)``, checked against the tricks blocks."""
    trick_list = []
    for index, item in enumerate(tricks):
        if len(item) != 2 or item[0] not in (0, 1) or type(item[1]) is not int or item[1] < 0:
            raise RulesError(f"trick {index + 1} must be (team 0 or 1, points >= 0)")
        trick_list.append((index, item[0], item[1]))
    for team in (0, 1):
        total = sum(p for _i, t, p in trick_list if t == team)
        if total != written[team]["tricks"]:
            raise RulesError(
                f"team {team}'s tricks add up to {total}, not its tricks block "
                f"{written[team]['tricks']}"
            )
    return trick_list


def _refuse_unordered_race(
    before: Sequence[int], written: list[dict[str, int]], target: int, rules: RuleSet
) -> None:
    """Without the trick order, R7.4 cannot decide when both teams can reach the target
    in the tricks block."""
    at_tricks = list(before)
    for name in rules.target_order:
        if name == "tricks":
            break
        for team in (0, 1):
            at_tricks[team] += written[team][name]
    if all(at_tricks[t] < target <= at_tricks[t] + written[t]["tricks"] for t in (0, 1)):
        raise RulesError(
            "both teams can reach the target in the tricks block; give the tricks in "
            "the order won (R7.4)",
            rule="R7.4",
        )
