"""Scenario builders aimed at a skill (the focuses are documented in :mod:`teaching.table`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from rules_core import (
    DECK,
    Card,
    Contract,
    MeldKind,
    RuleSet,
    Step,
    find_melds,
    resolve_target_blocks,
    resolve_weis,
    stoeck_holder,
)
from rules_core.scoring import CARD_POINTS_TOTAL, LAST_TRICK_BONUS, MATCH_BONUS
from rules_core.tables import STOECK_POINTS, stoeck_pair

from ..scenarios import target_events
from .model import FOCUSES, Hands, RulesInput, Scenario, TableError, coerce_rules, sort_codes
from .replay import RoundState
from .result import TableScore

__all__ = ["MAX_ATTEMPTS", "build_scenario", "play_out"]

MAX_ATTEMPTS = 400
REACHABLE_TRIES = 20
"""Candidates tried after the first whose round may reach the target (see _build)."""
CONTRACTS = tuple(c.code for c in Contract)
TRUMPS = ("D", "H", "S", "C")

Builder = Callable[[random.Random, str, int, RuleSet], Scenario | None]


def _pair(contract: str) -> list[Card]:
    """King and Ober of trump (R6.1), for a trump contract."""
    pair = stoeck_pair(contract)
    if pair is None:  # pragma: no cover - only trump contracts are drawn for Stöck
        raise ValueError(f"no Stöck in {contract}")
    return list(pair)


def _run(suit: int, start: int, length: int) -> list[Card]:
    return [DECK[suit * 9 + r] for r in range(start, start + length)]


def _quad(rank: int) -> list[Card]:
    return [DECK[s * 9 + rank] for s in range(4)]


def _hundred_ranks(rules: RuleSet) -> list[int]:
    """Ranks whose four of a kind is worth 100 (R5.2)."""
    return [4, 6, 7, 8] + ([0, 1, 2] if rules.low_quads_score else [])


def _fill(rng: random.Random, fixed: dict[int, list[Card]]) -> Hands:
    """Each seat gets its fixed cards, the rest of the deck at random."""
    used = {c for cards in fixed.values() for c in cards}
    rest = [c for c in DECK if c not in used]
    rng.shuffle(rest)
    hands = []
    for seat in range(4):
        hand = list(fixed.get(seat, ()))
        need = len(DECK) // 4 - len(hand)
        hand += rest[:need]
        rest = rest[need:]
        hands.append(sort_codes(c.code for c in hand))
    return (hands[0], hands[1], hands[2], hands[3])


def _team_most(hands: Sequence[Sequence[str]], contract: str, rules: RuleSet) -> tuple[int, int]:
    """The most each team can write in this round of this deal, however it is played:
    every card point, the last trick and the match (R4.1-R4.4), the Stöck when one of
    its players holds them (R6.1) and every meld of its own players (R5.6), times the
    contract's factor (R4.5)."""
    factor = rules.factor(contract)
    holder = stoeck_holder(hands, contract)
    most = []
    for team in (0, 1):
        melds = sum(m.points for seat in (team, team + 2) for m in find_melds(hands[seat], rules))
        stoeck = STOECK_POINTS if holder is not None and holder % 2 == team else 0
        tricks = CARD_POINTS_TOTAL + LAST_TRICK_BONUS + MATCH_BONUS
        most.append(factor * (tricks + stoeck + melds))
    return most[0], most[1]


def _quiet_before(
    rng: random.Random, hands: Sequence[Sequence[str]], contract: str, rules: RuleSet
) -> tuple[int, int] | None:
    """Totals before the round from which no team can reach the target in it, however
    it is played (R7.5), or None when this deal under this rule set lets a team reach
    the target from 0 (its factor times what it can write is the target or more).

    First below target - factor * (257 + 20 + every meld of the deal) for both teams
    (the bound of the first builders: the same deals for the same seeds), else below
    target - :func:`_team_most` per team."""
    melds = sum(m.points for hand in hands for m in find_melds(hand, rules))
    most = CARD_POINTS_TOTAL + LAST_TRICK_BONUS + MATCH_BONUS + STOECK_POINTS + melds
    cap = rules.target - rules.factor(contract) * most
    if cap >= 1:
        return rng.randrange(cap), rng.randrange(cap)
    caps = [rules.target - m for m in _team_most(hands, contract, rules)]
    if min(caps) < 1:
        return None
    return rng.randrange(caps[0]), rng.randrange(caps[1])


def _quiet(
    before: tuple[int, int] | None, aim: dict[str, Any]
) -> tuple[tuple[int, int], dict[str, Any]]:
    """``before`` and ``aim`` of a focus whose round should reach no target: without
    quiet totals, (0, 0) and ``aim["target_reachable"]`` true (see :func:`_build`)."""
    if before is None:
        return (0, 0), {**aim, "target_reachable": True}
    return before, aim


def _scenario(
    focus: str,
    seed: int,
    rules: RuleSet,
    contract: str,
    hands: Hands,
    seat: int,
    before: tuple[int, int],
    *,
    reminder: bool = False,
    aim: dict[str, Any] | None = None,
) -> Scenario:
    return Scenario(
        focus, seed, rules, contract, hands, seat, before, rules.target, reminder, aim or {}
    )


def _stoeck(rng: random.Random, focus: str, seed: int, rules: RuleSet) -> Scenario | None:
    contract = rng.choice(TRUMPS)
    pair = _pair(contract)
    seat = rng.randrange(4)
    hands = _fill(rng, {seat: pair})
    before, aim = _quiet(
        _quiet_before(rng, hands, contract, rules), {"pair": [c.code for c in pair]}
    )
    return _scenario(
        focus, seed, rules, contract, hands, seat, before, reminder=seed % 2 == 1, aim=aim
    )


def _planted_pair(
    rng: random.Random, rules: RuleSet, undenufe: bool
) -> tuple[list[Card], list[Card]] | None:
    """Two melds of equal value for two players (equal length and value)."""
    hundred = _hundred_ranks(rules)
    if undenufe:
        shape = rng.choice(("seq3", "seq4", "quads"))
    else:
        shape = rng.choice(("seq3", "seq4", "seq5", "seq5_quad", "quads"))
    suits = rng.sample(range(4), 2)
    if shape.startswith("seq") and "quad" not in shape:
        length = int(shape[3])
        if undenufe:
            a_start, b_start = rng.sample(range(10 - length), 2)
        else:
            a_start, b_start = rng.randrange(10 - length), rng.randrange(10 - length)
        return _run(suits[0], a_start, length), _run(suits[1], b_start, length)
    if shape == "seq5_quad":
        rank = rng.choice(hundred)
        starts = [st for st in range(5) if not st <= rank <= st + 4]
        if not starts:
            return None
        return _quad(rank), _run(suits[0], rng.choice(starts), 5)
    first, second = rng.sample(hundred, 2)
    return _quad(first), _quad(second)


def _equal_weis(undenufe: bool) -> Builder:
    def build(rng: random.Random, focus: str, seed: int, rules: RuleSet) -> Scenario | None:
        contract = "undenufe" if undenufe else rng.choice(CONTRACTS)
        planted = _planted_pair(rng, rules, undenufe)
        if planted is None:
            return None
        a = rng.randrange(4)
        b = (a + rng.choice((1, 3))) % 4
        ma, mb = planted if rng.random() < 0.5 else planted[::-1]
        hands = _fill(rng, {a: ma, b: mb})
        weis = resolve_weis(hands, contract, rules)
        best0, best1 = weis.team_best
        if best0 is None or best1 is None or best0[1].points != best1[1].points:
            return None
        if undenufe and weis.step is not Step.HIGH_CARD:
            return None
        seat = rng.randrange(4)
        before, aim = _quiet(
            _quiet_before(rng, hands, contract, rules),
            {"value": best0[1].points, "step": weis.step.value if weis.step else None},
        )
        return _scenario(focus, seed, rules, contract, hands, seat, before, aim=aim)

    return build


def _kreuzweis(rng: random.Random, focus: str, seed: int, rules: RuleSet) -> Scenario | None:
    contract = rng.choice(CONTRACTS)
    seat = rng.randrange(4)
    rank = rng.randrange(9)
    suit = rng.randrange(4)
    length = rng.choice((3, 4, 5))
    start = rng.choice([st for st in range(10 - length) if st <= rank <= st + length - 1])
    sequence = _run(suit, start, length)
    cards = sorted(set(_quad(rank)) | set(sequence))
    hands = _fill(rng, {seat: cards})
    melds = find_melds(hands[seat], rules)
    quads = [m for m in melds if m.kind is MeldKind.FOUR_OF_A_KIND]
    runs = [m for m in melds if m.kind is MeldKind.SEQUENCE]
    if not any(set(q.cards) & set(r.cards) for q in quads for r in runs):
        return None
    if resolve_weis(hands, contract, rules).team != seat % 2:
        return None
    shared = next(c for q in quads for r in runs for c in q.cards if c in r.cards)
    before, aim = _quiet(
        _quiet_before(rng, hands, contract, rules),
        {
            "four_of_a_kind": shared.rank.code,
            "sequence": [c.code for r in runs if shared in r.cards for c in r.cards],
        },
    )
    return _scenario(focus, seed, rules, contract, hands, seat, before, aim=aim)


def play_out(scenario: Scenario) -> RoundState:
    """The round played to the Jasstafel by the reference learner."""
    state = RoundState(scenario)
    i = 0
    while state.phase != "jasstafel":
        state.apply_move(i, state.reference_move())
        i += 1
    return state


def _place(
    rng: random.Random, result: TableScore, block: str, rules: RuleSet
) -> tuple[tuple[int, int], dict[str, Any]] | None:
    """Totals before the round so that a team crosses the target in ``block``; the
    other team crosses later in the round where it can (for ``tricks``: always,
    inside the tricks)."""
    target = rules.target
    events = target_events(result, rules)
    candidates = [k for k, e in enumerate(events) if e[2] == block]
    if not candidates:
        return None
    k = rng.choice(candidates)
    team = events[k][0]
    other = 1 - team
    later = [j for j in range(k + 1, len(events)) if events[j][0] == other]
    if block == "tricks":
        later = [j for j in later if events[j][2] == "tricks"]
        if not later:
            return None

    def reach(who: int, at: int) -> int:
        cum = sum(p for t, p, _b, _i in events[: at + 1] if t == who)
        return target - cum + rng.randrange(events[at][1])

    before = [0, 0]
    before[team] = reach(team, k)
    other_aim = None
    if later:
        j = rng.choice(later)
        before[other] = reach(other, j)
        other_aim = {"block": events[j][2], "trick": events[j][3]}
    else:
        total = sum(p for t, p, _b, _i in events if t == other)
        before[other] = target - 1 - total - rng.randrange(60)
    if min(before) < 0 or max(before) >= target:
        return None
    aim = {"team": team, "block": block, "trick": events[k][3], "other": other_aim}
    return (before[0], before[1]), aim


def _target(block: str) -> Builder:
    def build(rng: random.Random, focus: str, seed: int, rules: RuleSet) -> Scenario | None:
        seat = rng.randrange(4)
        if block == "stoeck":
            contract = rng.choice(TRUMPS)
            holder = rng.choice([s for s in range(4) if s != seat])
            hands = _fill(rng, {holder: _pair(contract)})
        else:
            contract = rng.choice(CONTRACTS)
            hands = _fill(rng, {})
        draft = _scenario(focus, seed, rules, contract, hands, seat, (0, 0))
        result = play_out(draft).score()
        placed = _place(rng, result, block, rules)
        if placed is None:
            return None
        before, aim = placed
        check = resolve_target_blocks(
            before, result.blocks, rules.target, rules,
            tricks=[(t.team, t.points) for t in result.tricks],
        )  # fmt: skip
        if check.team != aim["team"] or check.block != block or check.trick != aim["trick"]:
            return None  # pragma: no cover - _place is exact
        if block == "tricks" and min(check.totals) < rules.target:
            return None  # pragma: no cover - both teams cross by construction
        return replace(draft, before=before, aim=aim)

    return build


_BUILDERS: dict[str, Builder] = {
    "stoeck": _stoeck,
    "weis": _equal_weis(undenufe=False),
    "kreuzweis": _kreuzweis,
    "undenufe": _equal_weis(undenufe=True),
    "target_weis": _target("weis"),
    "target_stoeck": _target("stoeck"),
    "target_tricks": _target("tricks"),
}


def build_scenario(focus: str, seed: int, rules: RulesInput = None) -> Scenario:
    """A scenario aimed at ``focus``, deterministic from ``(focus, seed, rules)``.

    ``rules``: a :class:`RuleSet`, a preset name, ``RuleSet.to_dict()`` data or None
    (the default). Raises :class:`TableError` for an unknown focus, a seed that is
    not an integer, or (never seen in the tests) no fitting deal.
    """
    if focus not in FOCUSES:
        raise TableError(
            f"unknown focus {focus!r}; choose one of {', '.join(FOCUSES)}",
            "build.focus",
            {"focus": str(focus), "focuses": list(FOCUSES)},
        )
    if type(seed) is not int:
        raise TableError(f"seed must be an integer, got {seed!r}", "build.seed")
    return _build(focus, seed, coerce_rules(rules))


@lru_cache(maxsize=1024)
def _build(focus: str, seed: int, rules: RuleSet) -> Scenario:
    """The first candidate that passes the focus's check. A candidate whose round may
    reach the target (``aim["target_reachable"]``) is kept only when
    :data:`REACHABLE_TRIES` more candidates bring none that keeps the promise: under
    some rule sets no deal can (a factor times 257 of a match at or above the target)."""
    rng = random.Random(f"table:{focus}:{seed}")
    builder = _BUILDERS[focus]
    fallback: Scenario | None = None
    last = MAX_ATTEMPTS
    for attempt in range(MAX_ATTEMPTS):
        scenario = builder(rng, focus, seed, rules)
        if scenario is None:
            continue
        if not scenario.aim.get("target_reachable"):
            return scenario
        if fallback is None:
            fallback, last = scenario, attempt + REACHABLE_TRIES
        if attempt >= last:
            break
    if fallback is not None:
        return fallback
    raise TableError(  # pragma: no cover
        f"no deal found for focus {focus} and seed {seed}",
        "build.no_deal",
        {"focus": focus, "seed": seed},
    )
