"""Who writes Weis, and how much (RULES R5.4, R5.4a, R5.4b, R5.5, R5.6, R5.7, R4.5).

By default every player announces their best meld (R5.4). Only the team holding the
single best meld at the table writes Weis, and it writes every meld of both
partners; the other team writes nothing (R5.6).

With ``claims`` (the values the players announced) the claims are compared instead
(R5.4a): a claim is the best meld of the announced value that the player holds; a
value the player holds no meld of is a false Weis and struck out (R5.7); a player
who announced nothing writes nothing (R5.4b). The team with the single best claim
writes every meld of its partners who announced (R5.6).

W-DE: "Zwei Dreiblatt auf der einen Seite sind zusammen 40 und verlieren gegen
ein einziges Vierblatt mit 50 auf der anderen":

>>> result = resolve_weis("H6 H7 H8 S6 S7 S8 / C6 C7 C8 C9 / DA / DK", "D")
>>> result.team, result.points, result.best_seat, str(result.best), result.step
(1, 50, 1, 'C6 C7 C8 C9', <Step.POINTS: 'points'>)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from . import _tables as T
from ._coerce import cards_of, coerce_contract, coerce_rules, hands_masks
from .aliases import ClaimsLike, ContractLike, HandsLike, Mask, RulesLike, Seat, Team
from .cards import Card
from .contracts import Contract
from .errors import RulesError
from .melds import (
    Comparison,
    Meld,
    Step,
    compare_melds,
    meld_key,
    melds_of_mask,
    sort_melds,
    step_between,
)
from .rules import DEFAULT_RULES, RuleSet
from .trace import TraceEntry, trace_to_list

__all__ = ["WeisResult", "resolve_weis"]

_Claims = tuple[int | None, int | None, int | None, int | None]
"""Four claims by seat: the announced value, or None for a player who announced nothing."""


class WeisResult:
    """The Weis of a deal.

    - ``team``: the team that writes (0, 1) or None when no claim counts.
    - ``points``: every meld of that team's players whose claim counts (both
      partners when both announced), before the factor.
    - ``scored``: ``points`` times the contract's factor (R4.5).
    - ``best``, ``best_seat``: the single best claim at the table and its seat.
    - ``step``: the :class:`Step` that decided between the two teams' best claims;
      None when only one team or no team has a claim that counts.
    - ``claims``: the four announced values by seat (None: announced nothing);
      without ``claims`` given to :func:`resolve_weis`, each player's best meld's
      value (None without a meld).
    - ``claimed``: per seat the meld the claim stands for (R5.4a: the best meld of
      the announced value the player holds), or None: the player announced nothing,
      or a value they hold no meld of (a false Weis, R5.7).
    - ``melds``: four tuples, each seat's scoring melds, best first (the hands'
      melds, whatever was announced).
    - ``written``: four tuples, the melds each seat writes: every meld of the
      writing team's players whose claim counts (R5.6, R5.4b); empty elsewhere.
    - ``team_best``: per team ``(seat, meld)`` of its best claim, or None.
    - ``comparison``: the :class:`Comparison` of the teams' best claims (side a =
      team 0, side b = team 1), or None.
    - ``trace``: see :mod:`rules_core.trace` (``weis.*`` and ``ladder.*``).

    Immutable: setting an attribute raises AttributeError. Everything but the
    numbers is built on first access and kept.

    >>> result = resolve_weis(["H6 H7 H8", "", "", ""], "S")
    >>> result.team = 1
    Traceback (most recent call last):
      ...
    AttributeError: WeisResult is immutable
    """

    __slots__ = (
        "team",
        "points",
        "scored",
        "best_seat",
        "step",
        "factor",
        "contract",
        "rules",
        "_masks",
        "_claims",
        "_cache",
    )
    team: Team | None
    points: int
    scored: int
    best_seat: Seat | None
    step: Step | None
    factor: int
    contract: Contract
    rules: RuleSet
    _masks: tuple[Mask, Mask, Mask, Mask]
    _claims: _Claims | None
    _cache: dict[str, Any]

    def __init__(
        self,
        team: Team | None,
        points: int,
        factor: int,
        best_seat: Seat | None,
        step: Step | None,
        contract: Contract,
        rules: RuleSet,
        masks: tuple[Mask, Mask, Mask, Mask],
        claims: _Claims | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "team", team)
        put(self, "points", points)
        put(self, "factor", factor)
        put(self, "scored", points * factor)
        put(self, "best_seat", best_seat)
        put(self, "step", step)
        put(self, "contract", contract)
        put(self, "rules", rules)
        put(self, "_masks", masks)
        put(self, "_claims", claims)
        put(self, "_cache", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("WeisResult is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("WeisResult is immutable")

    def __reduce__(self) -> tuple[Callable[..., WeisResult], tuple[Any, ...]]:
        return (
            WeisResult,
            (
                self.team,
                self.points,
                self.factor,
                self.best_seat,
                self.step,
                self.contract,
                self.rules,
                self._masks,
                self._claims,
            ),
        )

    def __repr__(self) -> str:
        return (
            f"WeisResult(team={self.team}, points={self.points}, scored={self.scored}, "
            f"best_seat={self.best_seat}, step={self.step})"
        )

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The four hands by seat, each in card order."""
        return tuple(cards_of(m) for m in self._masks)

    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]:
        """Each seat's scoring melds, best first by the ladder in this contract."""
        melds = self._cache.get("melds")
        if melds is None:
            low = self.rules.low_quads_score
            melds = self._cache["melds"] = tuple(
                tuple(sort_melds(melds_of_mask(m, low), self.contract, self.rules))
                for m in self._masks
            )
        return cast("tuple[tuple[Meld, ...], ...]", melds)

    @property
    def claims(self) -> _Claims:
        """The four announced values by seat, None for a player who announced nothing
        (without given claims: each player's best meld's value, R5.4)."""
        if self._claims is not None:
            return self._claims
        m0, m1, m2, m3 = (m[0].points if m else None for m in self.melds)
        return (m0, m1, m2, m3)

    @property
    def claimed(self) -> tuple[Meld | None, ...]:
        """Per seat the meld the claim stands for: the best meld of the announced
        value the player holds (R5.4a); None for silence or a false Weis (R5.7)."""
        if "claimed" not in self._cache:
            self._cache["claimed"] = tuple(
                None if claim is None else next((m for m in melds if m.points == claim), None)
                for claim, melds in zip(self.claims, self.melds, strict=True)
            )
        return cast("tuple[Meld | None, ...]", self._cache["claimed"])

    @property
    def written(self) -> tuple[tuple[Meld, ...], ...]:
        """Per seat the melds written: all melds of the writing team's players whose
        claim counts (R5.6, R5.4b), best first; empty for everybody else."""
        return tuple(
            melds if self.team is not None and seat % 2 == self.team and claimed is not None else ()
            for seat, (melds, claimed) in enumerate(zip(self.melds, self.claimed, strict=True))
        )

    @property
    def best(self) -> Meld | None:
        """The single best claim at the table, or None."""
        if self.best_seat is None:
            return None
        return self.claimed[self.best_seat]

    @property
    def team_best(self) -> tuple[tuple[int, Meld] | None, tuple[int, Meld] | None]:
        """Per team, ``(seat, meld)`` of the team's best claim, or None."""
        if "team_best" not in self._cache:
            self._cache["team_best"] = (self._team_best(0), self._team_best(1))
        return cast(
            "tuple[tuple[int, Meld] | None, tuple[int, Meld] | None]", self._cache["team_best"]
        )

    def _team_best(self, team: Team) -> tuple[Seat, Meld] | None:
        """The better of the two partners' claims (R5.5; their seats decide a full tie)."""
        found = []
        for seat in (team, team + 2):
            claimed = self.claimed[seat]
            if claimed is not None:
                found.append((seat, claimed))
        if len(found) == 2:
            (s1, m1), (s2, m2) = found
            if compare_melds(m1, s1, m2, s2, self.contract, self.rules).winner == 1:
                return (s2, m2)
        return found[0] if found else None

    @property
    def comparison(self) -> Comparison | None:
        """The ladder between team 0's and team 1's best claims, or None."""
        if "comparison" not in self._cache:
            t0, t1 = self.team_best
            self._cache["comparison"] = (
                compare_melds(t0[1], t0[0], t1[1], t1[0], self.contract, self.rules)
                if t0 is not None and t1 is not None
                else None
            )
        return cast("Comparison | None", self._cache["comparison"])

    @property
    def trace(self) -> tuple[TraceEntry, ...]:
        """``weis.seat`` x4, ``weis.team_best`` x2, the ladder or
        ``weis.only_team``/``weis.no_melds``, then ``weis.writes``."""
        if "trace" not in self._cache:
            self._cache["trace"] = self._build_trace()
        return cast("tuple[TraceEntry, ...]", self._cache["trace"])

    @property
    def status(self) -> tuple[str, ...]:
        """Per seat what the claim did: ``"best"`` (the best meld's value),
        ``"smaller"`` (a smaller value held: that meld competes, R5.4a), ``"false"``
        (no meld of that value: struck out, R5.7) or ``"silent"`` (nothing announced,
        R5.4b; without given claims: no meld)."""
        return tuple(
            "silent"
            if claim is None
            else "false"
            if claimed is None
            else "best"
            if claim == melds[0].points
            else "smaller"
            for claim, claimed, melds in zip(self.claims, self.claimed, self.melds, strict=True)
        )

    _CLAIM_RULES = {"smaller": "R5.4a", "false": "R5.7", "silent": "R5.4b"}

    def _build_trace(self) -> tuple[TraceEntry, ...]:
        """The explanation: R5.4 per seat; R5.4a/R5.7/R5.4b for each claim that is not
        the player's best meld; R5.6 per team (its best claim); the R5.5 ladder between
        the teams' best claims; R5.6 writes."""
        trace = []
        for seat, melds in enumerate(self.melds):
            trace.append(
                TraceEntry(
                    "R5.4",
                    "weis.seat",
                    {
                        "seat": seat,
                        "team": seat % 2,
                        "melds": [m.to_dict() for m in melds],
                        "best": melds[0].to_dict() if melds else None,
                        "announced": self.claims[seat] or 0,
                    },
                )
            )
        for seat, status in enumerate(self.status):
            # Only where the claim is not the hand's best meld: every player announcing
            # their best (the hand-only model) gives the same trace as before claims.
            if status == "best" or (status == "silent" and not self.melds[seat]):
                continue
            claimed = self.claimed[seat]
            trace.append(
                TraceEntry(
                    self._CLAIM_RULES[status],
                    "weis.claim",
                    {
                        "seat": seat,
                        "team": seat % 2,
                        "announced": self.claims[seat] or 0,
                        "claim": None if claimed is None else claimed.to_dict(),
                        "status": status,
                    },
                )
            )
        for team, best in enumerate(self.team_best):
            trace.append(
                TraceEntry(
                    "R5.6",
                    "weis.team_best",
                    {
                        "team": team,
                        "seat": None if best is None else best[0],
                        "meld": None if best is None else best[1].to_dict(),
                    },
                )
            )
        if self.comparison is not None:
            trace.extend(self.comparison.trace)
        elif self.team is not None:
            trace.append(TraceEntry("R5.6", "weis.only_team", {"team": self.team}, decided=True))
        else:
            trace.append(TraceEntry("R5.6", "weis.no_melds", {}, decided=True))
        written: list[dict[str, Any]] = []
        if self.team is not None:
            for seat in (self.team, self.team + 2):
                written.extend({"seat": seat, **m.to_dict()} for m in self.written[seat])
        trace.append(
            TraceEntry(
                "R5.6",
                "weis.writes",
                {
                    "team": self.team,
                    "seat": self.best_seat,
                    "points": self.points,
                    "factor": self.factor,
                    "scored": self.scored,
                    "melds": written,
                },
                decided=True,
            )
        )
        return tuple(trace)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``{"contract", "team", "points", "factor", "scored", "best",
        "best_seat", "step", "melds", "claims", "claimed", "written", "team_best",
        "trace"}``; melds as :meth:`Meld.to_dict`, ``team_best`` entries as
        ``{"seat", "meld"}`` or None."""
        return {
            "contract": self.contract.code,
            "team": self.team,
            "points": self.points,
            "factor": self.factor,
            "scored": self.scored,
            "best": None if self.best is None else self.best.to_dict(),
            "best_seat": self.best_seat,
            "step": None if self.step is None else self.step.value,
            "melds": [[m.to_dict() for m in melds] for melds in self.melds],
            "claims": list(self.claims),
            "claimed": [None if m is None else m.to_dict() for m in self.claimed],
            "written": [[m.to_dict() for m in melds] for melds in self.written],
            "team_best": [
                None if tb is None else {"seat": tb[0], "meld": tb[1].to_dict()}
                for tb in self.team_best
            ],
            "trace": trace_to_list(self.trace),
        }


def _tables_for(contract: Contract, rules: RuleSet) -> T.WeisTablesAndFactor:
    """The weis tables and factor of a contract under a rule set, cached on the rule set."""
    ci = contract.index
    reverse = ci == T.UNDENUFE and rules.undenufe_reverses_weis
    d, h, s, c, qk, qp = T.weis_tables(ci, rules.low_quads_score, reverse)
    tables = (d, h, s, c, qk, qp, rules.factor(contract))
    rules._weis_tables[ci] = tables
    return tables


def weis_of_masks(
    masks: tuple[Mask, Mask, Mask, Mask], contract: Contract, rules: RuleSet
) -> WeisResult:
    """The running code of R5.4, R5.5 and R5.6 (with R5.1, R5.2, R5.3 in the
    tables and the factor of R4.5): table lookups on hand masks; objects only on
    demand.

    Per seat the best meld key is the max over the four suit holdings' best
    sequence (trump suit flagged) and the four of a kind of the ranks held in all
    four suits (see :mod:`rules_core._tables`); the best key at the table decides
    the team (R5.5, the seat step in the key's low bits); that team writes all
    melds of both partners (R5.6).
    """
    tables = rules._weis_tables[contract.index]
    if tables is None:
        tables = _tables_for(contract, rules)
    t0, t1, t2, t3, qk, qp, factor = tables
    m0, m1, m2, m3 = masks
    a, b, c, d = m0 & 511, m0 >> 9 & 511, m0 >> 18 & 511, m0 >> 27
    k0 = max(t0[a], t1[b], t2[c], t3[d], qk[a & b & c & d])
    a, b, c, d = m1 & 511, m1 >> 9 & 511, m1 >> 18 & 511, m1 >> 27
    k1 = max(t0[a], t1[b], t2[c], t3[d], qk[a & b & c & d])
    a, b, c, d = m2 & 511, m2 >> 9 & 511, m2 >> 18 & 511, m2 >> 27
    k2 = max(t0[a], t1[b], t2[c], t3[d], qk[a & b & c & d])
    a, b, c, d = m3 & 511, m3 >> 9 & 511, m3 >> 18 & 511, m3 >> 27
    k3 = max(t0[a], t1[b], t2[c], t3[d], qk[a & b & c & d])
    # low two bits: 3 - seat, so that max() also applies the SEAT step
    best0 = max(k0 | 3 if k0 else 0, k2 | 1 if k2 else 0)
    best1 = max(k1 | 2 if k1 else 0, k3)
    if best0 > best1:
        team, best = 0, best0
    elif best1:
        team, best = 1, best1
    else:
        return WeisResult(None, 0, factor, None, None, contract, rules, masks)
    sp = T.SEQ_POINTS
    points = 0
    for m in (masks[team], masks[team + 2]):
        a, b, c, d = m & 511, m >> 9 & 511, m >> 18 & 511, m >> 27
        points += sp[a] + sp[b] + sp[c] + sp[d] + qp[a & b & c & d]
    step = step_between(best0, best1) if best0 and best1 else None
    return WeisResult(team, points, factor, 3 - (best & 3), step, contract, rules, masks)


def weis_of_claims(
    masks: tuple[Mask, Mask, Mask, Mask], claims: _Claims, contract: Contract, rules: RuleSet
) -> WeisResult:
    """The running code of R5.4a, R5.4b and R5.7 with R5.5 and R5.6: each seat's key is
    that of the best meld of its claimed value (none for silence or a false Weis);
    the best key at the table decides the team (the seat step in the key's low bits,
    as in :func:`weis_of_masks`); that team writes every meld of its players whose
    claim counts."""
    trump = contract.trump
    reverse = contract is Contract.UNDENUFE and rules.undenufe_reverses_weis
    low = rules.low_quads_score
    melds = [melds_of_mask(m, low) for m in masks]
    keys = [0, 0, 0, 0]
    for seat, claim in enumerate(claims):
        if claim is not None:
            held = [meld_key(m, trump, reverse) for m in melds[seat] if m.points == claim]
            if held:
                keys[seat] = max(held) | (3 - seat)
    best0, best1 = max(keys[0], keys[2]), max(keys[1], keys[3])
    factor = rules.factor(contract)
    if best0 > best1:
        team, best = 0, best0
    elif best1:
        team, best = 1, best1
    else:
        return WeisResult(None, 0, factor, None, None, contract, rules, masks, claims)
    points = sum(m.points for seat in (team, team + 2) if keys[seat] for m in melds[seat])
    step = step_between(best0, best1) if best0 and best1 else None
    return WeisResult(team, points, factor, 3 - (best & 3), step, contract, rules, masks, claims)


def coerce_claims(claims: object) -> _Claims:
    """Four claims by seat, checked: an announced value > 0 or None (R5.4)."""
    if isinstance(claims, (str, bytes)) or not isinstance(claims, Sequence) or len(claims) != 4:
        raise RulesError(
            "claims must be four announced values by seat (None for a player who "
            f"announced nothing), got {claims!r}"
        )
    for seat, claim in enumerate(claims):
        if claim is not None and (type(claim) is not int or claim <= 0):
            raise RulesError(
                f"seat {seat}'s claim must be an announced value such as 20 or 50, or None "
                f"for a player who announced nothing, got {claim!r}",
                rule="R5.4",
            )
    c0, c1, c2, c3 = claims
    return (c0, c1, c2, c3)


def resolve_weis(
    hands: HandsLike,
    contract: ContractLike,
    rules: RulesLike = DEFAULT_RULES,
    *,
    claims: ClaimsLike | None = None,
) -> WeisResult:
    """Resolve the Weis of four hands by seat: the best claim by the ladder (R5.5)
    decides the one team that writes (R5.6), times the factor (R4.5).

    ``hands``: four hands (seat 0 = forehand first), each a list of cards or a
    string of cards, or one string with the four hands separated by ``/``. A hand
    may hold fewer than nine cards (for exercises); no card may be in two hands.

    ``claims`` (keyword only): the value each player announced with the first
    card, by seat, or None for a player who announced nothing or whose
    announcement does not count (too late). Left out (None), every player announces
    the value of their best meld (R5.4). The announced value is the player's claim
    (R5.4a): the best meld of that value the player holds takes part in the
    comparison, not the player's best meld; a value the player holds no meld of is a
    false Weis and struck out (R5.7). The team with the single best claim writes
    every meld of its partners who announced (R5.6), also those they did not
    announce; a player who announced nothing writes nothing (R5.4b).

    The stateless view of the same rules as :class:`~rules_core.Round`:
    ``Round.weis()`` is ``resolve_weis(hands, contract, rules, claims=round.claims)``,
    computed by the same code.

    >>> r = resolve_weis(["S10 SJ SQ SK", "C6 C7 C8", "", ""], "H")
    >>> r.team, r.points, r.scored, r.step, r.trace[-1].key
    (0, 50, 50, <Step.POINTS: 'points'>, 'weis.writes')
    >>> resolve_weis(["H6 H7 H8", "", "", ""], "S", RuleSet.preset("swisslos-2500")).scored
    40

    Player 1 holds a hundred and a twenty, player 2 a fifty. Announcing their best,
    player 1's team writes all 120; announcing «twenty», player 1 competes with the
    twenty and loses to the fifty (R5.4a); a false «hundred fifty» is struck out:

    >>> hands = ["S9 S10 SJ SQ SK H6 H7 H8", "C6 C7 C8 C9", "", ""]
    >>> r = resolve_weis(hands, "D", claims=[100, 50, None, None])
    >>> r.team, r.points, str(r.best), r.claims
    (0, 120, 'S9 S10 SJ SQ SK', (100, 50, None, None))
    >>> r = resolve_weis(hands, "D", claims=[20, 50, None, None])
    >>> r.team, r.points, str(r.best), str(r.claimed[0]), r.step
    (1, 50, 'C6 C7 C8 C9', 'H6 H7 H8', <Step.POINTS: 'points'>)
    >>> r.status
    ('smaller', 'best', 'silent', 'silent')
    >>> [(e.rule, e["seat"], e["claim"]["cards"]) for e in r.trace if e.key == "weis.claim"]
    [('R5.4a', 0, ['H6', 'H7', 'H8'])]
    >>> r = resolve_weis(hands, "D", claims=[150, None, None, None])
    >>> r.team, r.claimed[0], r.trace[-2].key
    (None, None, 'weis.no_melds')

    A silent partner writes nothing, even when the partner's claim wins (R5.4b):

    >>> r = resolve_weis(["S9 S10 SJ SQ SK", "C6 C7 C8", "H6 H7 H8", ""], "D",
    ...                  claims=[100, 20, None, None])
    >>> r.team, r.points, [len(m) for m in r.written]
    (0, 100, [1, 0, 0, 0])
    """
    masks = hands_masks(hands)
    contract = coerce_contract(contract)
    rules = coerce_rules(rules)
    if claims is None:
        return weis_of_masks(masks, contract, rules)
    return weis_of_claims(masks, coerce_claims(claims), contract, rules)
